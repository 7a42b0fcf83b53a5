#pragma once
// Image files into host memory: everything stb_image decodes, made into 8-bit
// gray or RGBA for the image lab (PNG out: png_writer.h).
// The device's limits are checked against the file's header before anything is
// decoded, so a hostile or damaged file cannot make us allocate gigabytes.
#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/result.h"

namespace ks {

struct HostImage {
  int width = 0, height = 0;
  int channels = 0;             // 1 = gray or 4 = RGBA
  std::vector<uint8_t> pixels;  // row-major, top row first, no padding
  std::string description;      // e.g. "PNG 16-bit gray+alpha 640x480"
};

// What the caller can hold; loadImageFile rejects anything bigger.
struct ImageLimits {
  int maxDimension;   // min(GL_MAX_TEXTURE_SIZE, the device's 2D image width/height)
  uint64_t maxBytes;  // CL_DEVICE_MAX_MEM_ALLOC_SIZE and a memory budget, for the 8-bit result
  uint64_t maxPixels = UINT64_MAX;  // GL_MAX_TEXTURE_BUFFER_SIZE: the pictures are drawn from buffers
};

// Every message names the file and says what is wrong with it.
class ImageFileError : public Error {
 public:
  explicit ImageFileError(const std::string& message, std::filesystem::path file = {})
      : Error(message, kExitFailure, ErrorDetails{{}, {}, std::move(file)}) {}
};

// The largest file loadImageFile reads for these limits: 4 x maxBytes (a 16-bit
// RGBA file holds 8 bytes per pixel for our 4, plus room for metadata) + 4 MiB,
// less than 2 GiB (stb_image decodes from memory through an int length).
uint64_t maxImageFileBytes(const ImageLimits& limits);

// PNG (1 to 16 bits, palette), JPEG, BMP, TGA, GIF (first frame), PSD
// (composite, RGB mode), HDR, PIC and PGM/PPM, binary (P5/P6) or plain (P2/P3). Gray stays 1 channel; gray+alpha
// (R = G = B = gray), RGB and RGBA become 4. 16-bit channels are rounded to 8
// bits; HDR is tone-mapped per channel with Reinhard, c / (1 + c), then encoded
// with the sRGB curve. Throws ImageFileError when the file is missing, not a
// regular file, unreadable, empty, not an image, damaged, or bigger than
// `limits` allow. Sizes are checked on the header, before decoding; so are the
// damaged files stb_image 2.27 mishandles (truncated BMP, PNM and HDR data, HDR
// runs of length 0, JPEG Huffman tables with more than 256 codes: see
// image_file_checks.h). PGM and PPM are read by pnm_reader.h, not stb_image.
// Safe to call from any thread.
HostImage loadImageFile(const std::filesystem::path& file, const ImageLimits& limits);
// The same, without throwing: the picture, or the ImageFileError (a file too big
// for this computer's memory while it decodes says so too).
Result<HostImage> readImageFile(const std::filesystem::path& file, const ImageLimits& limits);

// loadImageFile's work after the file is read: the same checks and decoding
// on bytes already in memory (`name` only names them in messages). The fuzzer
// (tests/fuzz_image_decode.cpp) calls this.
HostImage decodeImage(const std::vector<uint8_t>& bytes, const std::filesystem::path& name, const ImageLimits& limits);

}  // namespace ks
