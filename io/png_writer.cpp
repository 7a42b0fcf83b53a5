#include "io/png_writer.h"

// The implementation is in libstb.a (libstb-dev); this is the header only.
#include <stb_image_write.h>

#include <cerrno>
#include <climits>
#include <cstring>
#include <fstream>

namespace ks {

namespace fs = std::filesystem;

std::string pngSizeProblem(int width, int height, int channels) {
  if (width <= 0 || height <= 0) return "the image is empty";
  if (channels < 1 || channels > 4) return "PNG takes 1 to 4 channels, not " + std::to_string(channels);
  const uint64_t stride = static_cast<uint64_t>(width) * channels;
  if (stride > INT_MAX) return "rows are too long for the PNG writer";
  // stb_image_write sizes its buffers in int, and its output buffer grows by doubling:
  // past 512 MiB of rows it would overflow (and assert when the allocation fails).
  if ((stride + 1) * static_cast<uint64_t>(height) > kMaxPngPixelBytes)
    return std::to_string(width) + "x" + std::to_string(height) + "x" + std::to_string(channels) +
           " is more than the PNG writer takes (" + std::to_string(kMaxPngPixelBytes >> 20) + " MiB of pixels)";
  return {};
}

std::string pngWriteError(const fs::path& file, const std::string& why) {
  return "cannot write PNG '" + file.string() + "': " + why;
}

Result<void> savePngFile(const HostImage& image, const fs::path& file) {
  auto failed = [&](const std::string& why) -> Result<void> {
    return Error(pngWriteError(file, why), kExitFailure, ErrorDetails{{}, {}, file});
  };
  if (const std::string problem = pngSizeProblem(image.width, image.height, image.channels); !problem.empty())
    return failed(problem);
  const uint64_t stride = static_cast<uint64_t>(image.width) * image.channels;
  if (image.pixels.size() != stride * image.height)
    return failed("the image holds " + std::to_string(image.pixels.size()) + " bytes of pixels, not " +
                  std::to_string(stride * image.height) + " for " + std::to_string(image.width) + "x" +
                  std::to_string(image.height) + "x" + std::to_string(image.channels));

  // Encoded in memory and written here: stbi_write_png ignores fwrite errors
  // (a full disk would pass as success).
  std::string png;
  auto append = [](void* context, void* data, int size) {
    static_cast<std::string*>(context)->append(static_cast<const char*>(data), static_cast<size_t>(size));
  };
  if (!stbi_write_png_to_func(append, &png, image.width, image.height, image.channels, image.pixels.data(),
                              static_cast<int>(stride)))
    return failed("stb_image_write could not encode it");
  errno = 0;
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  if (!out) return failed(errno ? std::strerror(errno) : "cannot create the file");
  out.write(png.data(), static_cast<std::streamsize>(png.size()));
  out.close();
  if (!out) return failed(errno ? std::strerror(errno) : "write failed");
  return {};
}

}  // namespace ks
