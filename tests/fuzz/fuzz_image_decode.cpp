// libFuzzer harness over the image-opening path: format detection, the header
// and limit checks, stb_image decoding and the conversion to the 8-bit gray or
// RGBA layout the GPU gets (decodeImage, which loadImageFile calls once the
// file is read). A refused input must throw ImageFileError; anything else that
// escapes (another exception, a sanitizer report, a hang) is a bug, and so is a
// result that breaks the layout's invariants.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "io/image_file.h"

namespace {

// Small limits keep the fuzzer's memory in check and exercise the refusals;
// 64 MiB of pixels also bounds what stb_image may allocate after the checks.
const ks::ImageLimits kLimits{2048, 64u << 20};

[[noreturn]] void broken(const char* what, const ks::HostImage& image) {
  std::fprintf(stderr, "decodeImage broke the GPU layout: %s (%dx%d, %d channels, %zu bytes, '%s')\n", what,
               image.width, image.height, image.channels, image.pixels.size(), image.description.c_str());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::vector<uint8_t> bytes(data, data + size);
  ks::HostImage image;
  try {
    image = ks::decodeImage(bytes, "fuzz-input", kLimits);
  } catch (const ks::ImageFileError&) {
    return 0;  // refused with a message: what a damaged file should get
  }
  if (image.width <= 0 || image.height <= 0) broken("empty size", image);
  if (image.width > kLimits.maxDimension || image.height > kLimits.maxDimension) broken("over the limits", image);
  if (image.channels != 1 && image.channels != 4) broken("channels neither 1 nor 4", image);
  if (image.pixels.size() != static_cast<size_t>(image.width) * image.height * image.channels)
    broken("pixel count does not match the size", image);
  if (image.pixels.size() > kLimits.maxBytes) broken("more bytes than the limit", image);
  if (image.description.empty()) broken("no description", image);
  return 0;
}
