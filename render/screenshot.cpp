#include "render/screenshot.h"

#include <glad/gl.h>
#include <stb_image_write.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

#include "render/gl_check.h"

namespace ks {

RgbaImage readFramebuffer(int width, int height) {
  RgbaImage image;
  image.width = width;
  image.height = height;
  image.pixels.resize(static_cast<size_t>(width) * height * 4);
  // Rows tightly packed for the copy below; the caller's setting is put back, since
  // whoever reads pixels next (the interop check, a test) expects the one it chose.
  GLint previousAlignment = 4;
  glGetIntegerv(GL_PACK_ALIGNMENT, &previousAlignment);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, image.pixels.data());
  glPixelStorei(GL_PACK_ALIGNMENT, previousAlignment);
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
  auto failure = [&](const std::string& why) {
    return std::runtime_error("cannot write screenshot '" + path.string() + "': " + why);
  };
  if (image.width <= 0 || image.height <= 0) throw failure("the image is empty");
  const uint64_t stride = static_cast<uint64_t>(image.width) * 4;
  // stb_image_write counts bytes in int and doubles its output buffer as it grows:
  // past 512 MiB of rows (each with its filter byte) that would overflow.
  constexpr uint64_t kMaxEncodedBytes = uint64_t{1} << 29;
  if ((stride + 1) * static_cast<uint64_t>(image.height) > kMaxEncodedBytes)
    throw failure(std::to_string(image.width) + "x" + std::to_string(image.height) +
                  " is more than the PNG encoder takes (512 MiB of pixels)");
  if (image.pixels.size() != stride * static_cast<uint64_t>(image.height))
    throw failure("the image holds " + std::to_string(image.pixels.size()) + " bytes of pixels, not " +
                  std::to_string(stride * static_cast<uint64_t>(image.height)) + " for " + std::to_string(image.width) +
                  "x" + std::to_string(image.height) + " RGBA");

  // Encoded in memory and written here: stbi_write_png ignores fwrite and fclose
  // errors, so a full disk would pass as a saved screenshot.
  std::string png;
  auto append = [](void* context, void* data, int size) {
    static_cast<std::string*>(context)->append(static_cast<const char*>(data), static_cast<size_t>(size));
  };
  if (!stbi_write_png_to_func(append, &png, image.width, image.height, 4, image.pixels.data(), image.width * 4))
    throw failure("stb_image_write could not encode it");
  std::FILE* file = std::fopen(path.c_str(), "wb");
  if (!file) throw failure(std::strerror(errno));
  int error = 0;
  errno = 0;
  if (std::fwrite(png.data(), 1, png.size(), file) != png.size()) error = errno ? errno : EIO;
  // What stdio still buffers is written by fclose: a full disk may only show here.
  if (std::fclose(file) != 0 && error == 0) error = errno ? errno : EIO;
  if (error) throw failure(std::strerror(error));
}

}  // namespace ks
