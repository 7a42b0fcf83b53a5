#include "io/test_image.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace ks {

HostImage makeTestImage(int width, int height) {
  if (width <= 0 || height <= 0)
    throw std::invalid_argument("test image size must be positive, not " + std::to_string(width) + "x" +
                                std::to_string(height));
  HostImage image;
  image.width = width;
  image.height = height;
  image.channels = 4;
  image.pixels.resize(static_cast<size_t>(width) * height * 4);
  image.description = "built-in test image " + std::to_string(width) + "x" + std::to_string(height);

  const int side = std::min(width, height);
  const int cell = std::max(8, side / 8);    // grid spacing
  const int marker = std::max(2, side / 8);  // corner squares
  const double cx = (width - 1) / 2.0, cy = (height - 1) / 2.0;
  const double radius = side * 0.3, halfRing = std::max(0.75, side / 80.0);
  // The wedge lies between the ring and the bottom corner squares.
  const int wedgeX0 = width / 4, wedgeX1 = std::max(wedgeX0 + 1, width * 3 / 4);
  const int wedgeY0 = static_cast<int>(height * 0.84), wedgeY1 = wedgeY0 + std::max(1, height / 16);

  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      uint8_t r = static_cast<uint8_t>(width > 1 ? x * 255 / (width - 1) : 0);
      uint8_t g = static_cast<uint8_t>(height > 1 ? y * 255 / (height - 1) : 0);
      uint8_t b = 128;
      auto set = [&](uint8_t nr, uint8_t ng, uint8_t nb) { r = nr, g = ng, b = nb; };
      if (x % cell == 0 || y % cell == 0) set(40, 40, 40);
      if (std::abs(std::hypot(x - cx, y - cy) - radius) <= halfRing) set(255, 255, 255);
      if (y >= wedgeY0 && y < wedgeY1 && x >= wedgeX0 && x < wedgeX1) {
        const auto level = static_cast<uint8_t>((x - wedgeX0) * 16 / (wedgeX1 - wedgeX0) * 17);  // 0, 17, .. 255
        set(level, level, level);
      }
      const bool left = x < marker, right = x >= width - marker, top = y < marker, bottom = y >= height - marker;
      if (top && left)
        set(255, 0, 0);
      else if (top && right)
        set(0, 255, 0);
      else if (bottom && left)
        set(0, 0, 255);
      else if (bottom && right)
        set(255, 0, 255);
      uint8_t* p = image.pixels.data() + (static_cast<size_t>(y) * width + x) * 4;
      p[0] = r, p[1] = g, p[2] = b, p[3] = 255;
    }
  }
  return image;
}

}  // namespace ks
