#pragma once
// Saving the image lab's result as PNG, through stb_image_write.
#include <cstdint>
#include <filesystem>
#include <string>

#include "core/result.h"
#include "io/image_file.h"

namespace ks {

// Writes 1 to 4 channels as PNG. On failure, write errors included, the result's
// error names the file (in its message and its details). Images of more than
// kMaxPngPixelBytes (rows + one filter byte each) are refused: the encoder's sizes are int.
constexpr uint64_t kMaxPngPixelBytes = uint64_t{1} << 29;
// Why savePngFile would refuse an image of this size (empty: it would not), so
// that a caller can say so before reading the pixels from the device.
std::string pngSizeProblem(int width, int height, int channels);
// savePngFile's message for `why`.
std::string pngWriteError(const std::filesystem::path& file, const std::string& why);
Result<void> savePngFile(const HostImage& image, const std::filesystem::path& file);

}  // namespace ks
