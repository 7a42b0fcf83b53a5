#include "render/screenshot.h"

#include <glad/gl.h>
#include <stb_image_write.h>

#include <cstring>
#include <string>

#include "render/gl_check.h"

namespace ks {

RgbaImage readFramebuffer(int width, int height) {
  RgbaImage image;
  image.width = width;
  image.height = height;
  image.pixels.resize(static_cast<size_t>(width) * height * 4);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, image.pixels.data());
  glCheck("glReadPixels (screenshot)");
  // GL's origin is bottom-left; PNG rows go top-down.
  const size_t row = static_cast<size_t>(width) * 4;
  std::vector<unsigned char> tmp(row);
  for (int y = 0; y < height / 2; ++y) {
    unsigned char* a = image.pixels.data() + row * y;
    unsigned char* b = image.pixels.data() + row * (height - 1 - y);
    std::memcpy(tmp.data(), a, row);
    std::memcpy(a, b, row);
    std::memcpy(b, tmp.data(), row);
  }
  // The UI is opaque; drop whatever alpha the framebuffer kept.
  for (size_t i = 3; i < image.pixels.size(); i += 4) image.pixels[i] = 255;
  return image;
}

void savePng(const RgbaImage& image, const std::filesystem::path& path) {
  if (!stbi_write_png(path.c_str(), image.width, image.height, 4, image.pixels.data(), image.width * 4))
    throw std::runtime_error("cannot write screenshot '" + path.string() + "'");
}

}  // namespace ks
