#pragma once
// Saving the image lab's result as PNG, through stb_image_write.
#include <cstdint>
#include <filesystem>
#include <string>

#include "io/image_file.h"

namespace ks {

// Writes 1 to 4 channels as PNG. Returns false with a message naming the file
// in *error (when given) on failure, write errors included. Images of more than
// kMaxPngPixelBytes (rows + one filter byte each) are refused: the encoder's sizes are int.
constexpr uint64_t kMaxPngPixelBytes = uint64_t{1} << 29;
// Why savePngFile would refuse an image of this size (empty: it would not), so
// that a caller can say so before reading the pixels from the device.
std::string pngSizeProblem(int width, int height, int channels);
// savePngFile's message for `why`.
std::string pngWriteError(const std::filesystem::path& file, const std::string& why);
bool savePngFile(const HostImage& image, const std::filesystem::path& file, std::string* error);

}  // namespace ks
