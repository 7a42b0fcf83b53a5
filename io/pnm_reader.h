#pragma once
// PGM and PPM files, read here rather than by stb_image: 2.27 reads the
// header's numbers into an int without checking for overflow (found by the
// fuzzer), reads no plain (P2/P3) files, ignores the maximum value and swaps
// the bytes of 16-bit samples.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <vector>

namespace ks {

// stb_image reads PNM samples without looking at the maximum value (a 10-bit
// PGM would come out dark) and copies nothing from a truncated file (the pixels
// would be whatever the allocator left), so the header is read here too.
struct PnmHeader {
  uint64_t width = 0, height = 0;
  int channels = 0;
  bool plain = false;  // P2/P3: samples as decimal numbers (stb_image reads neither)
  uint32_t maxValue = 0;
  size_t dataOffset = 0;
  int bytesPerSample() const { return maxValue > 255 ? 2 : 1; }
};

// The header of a P2, P3, P5 or P6 file; nothing for other kinds or an unreadable header.
std::optional<PnmHeader> readPnmHeader(const std::vector<uint8_t>& bytes);

// PNM kinds without a decoder here, said as what they are.
[[noreturn]] void failUnsupportedPnm(const std::filesystem::path& file, const std::vector<uint8_t>& bytes);

// The samples of a plain (P2/P3) or 16-bit binary file, width x height x
// channels of them, as numbers in 0..maxValue for plain files (clamped there,
// as binary samples are when they are scaled) and as stored for binary ones.
// Throws ImageFileError for a plain file that is cut short or holds a non-number.
std::vector<uint16_t> readPnmWideSamples(const std::vector<uint8_t>& bytes, const PnmHeader& header,
                                         const std::filesystem::path& file);

}  // namespace ks
