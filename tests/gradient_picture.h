#pragma once
// A picture file for tests that open, rotate and histogram images: a binary PPM
// (P6) of w x h RGB pixels, red rising left to right, green top to bottom, blue a
// fine pattern, so that rotations differ from pixel to pixel and every size decodes
// to known values. Header-only: the viewer tests that use it link no test_support.
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

namespace ks::test {

// Pixel (x, y) of the picture, R G B.
inline unsigned char gradientRed(int x, int w) { return static_cast<unsigned char>(x * 255 / w); }
inline unsigned char gradientGreen(int y, int h) { return static_cast<unsigned char>(y * 255 / h); }
inline unsigned char gradientBlue(int x, int y) { return static_cast<unsigned char>(((x / 3) ^ (y / 5)) * 37); }

inline void writeGradientPpm(const std::filesystem::path& file, int w, int h) {
  std::ofstream out(file, std::ios::binary);
  out << "P6\n" << w << " " << h << "\n255\n";
  std::string row(static_cast<size_t>(w) * 3, '\0');
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      row[size_t(x) * 3 + 0] = static_cast<char>(gradientRed(x, w));
      row[size_t(x) * 3 + 1] = static_cast<char>(gradientGreen(y, h));
      row[size_t(x) * 3 + 2] = static_cast<char>(gradientBlue(x, y));
    }
    out.write(row.data(), static_cast<std::streamsize>(row.size()));
  }
  if (!out) throw std::runtime_error("cannot write the test picture " + file.string());
}

}  // namespace ks::test
