#pragma once
#include <filesystem>
#include <stdexcept>
#include <vector>

namespace ks {

struct RgbaImage {
  int width = 0, height = 0;
  std::vector<unsigned char> pixels;  // top row first, 4 bytes per pixel
};

// Reads the currently bound read framebuffer (GL_BACK or our FBO) into memory,
// flipped so the top row comes first.
RgbaImage readFramebuffer(int width, int height);

// Writes a PNG; throws std::runtime_error naming the path when it cannot.
void savePng(const RgbaImage& image, const std::filesystem::path& path);

}  // namespace ks
