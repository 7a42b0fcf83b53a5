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
// flipped so the top row comes first. GL_PACK_ALIGNMENT is left as it was.
RgbaImage readFramebuffer(int width, int height);

// Writes a PNG; throws std::runtime_error naming the path and the reason when it
// cannot (write errors such as a full disk included).
void savePng(const RgbaImage& image, const std::filesystem::path& path);

}  // namespace ks
