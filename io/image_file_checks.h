#pragma once
// The image file reader's checks of a file's bytes before stb_image sees them:
// the format by its signature, each format's fixed header, the damaged files
// stb_image 2.27 mishandles, and the device's limits on the header's numbers.
// A failed check throws ImageFileError with a message that names the file.
// Used by io/image_file.cpp and io/pnm_reader.cpp only.
#include <climits>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "io/image_file.h"
#include "io/pnm_reader.h"

namespace ks::image_checks {

namespace fs = std::filesystem;

// stb_image takes the encoded bytes through an int length, and decodes into
// buffers whose sizes it computes in int.
inline constexpr uint64_t kStbMaxBytes = INT_MAX;
// stb_image refuses longer sides (STBI_MAX_DIMENSIONS); a header claiming more
// is damaged or hostile rather than merely too big for this device.
inline constexpr int64_t kAbsurdDimension = int64_t{1} << 24;

// 'name', as messages quote a file.
std::string quoted(const fs::path& file);
// Throws ImageFileError: "'<file>' <what>".
[[noreturn]] void fail(const fs::path& file, const std::string& what);
// "4.7 KiB (4800 bytes)": readable, and exact where a limit is only just missed.
std::string formatBytes(uint64_t bytes);

// PNG's IHDR sits at a fixed place: read it ourselves for what stbi_info does
// not say (bit depth, palette) or refuses to say (sizes it finds too large).
struct PngHeader {
  uint32_t width = 0, height = 0;
  int depth = 0, colourType = 0;
};

// Whether the bytes begin with `magic`.
bool startsWith(const std::vector<uint8_t>& bytes, std::string_view magic);

// Where a JPEG's data starts after its SOI marker, or 0 when it has none.
// stb_image, like the standard, skips 0xFF fill bytes before any marker, SOI
// included (found by the fuzzer: FF FF .. FF D8 is a JPEG too).
size_t afterJpegStart(const std::vector<uint8_t>& bytes);

// The format by signature, the way stb_image tells them apart; TGA has none.
std::string sniffFormat(const std::vector<uint8_t>& bytes);

// No NUL and hardly any control characters in the first 4 KiB.
bool looksLikeText(const std::vector<uint8_t>& bytes);

// IHDR's numbers; nothing unless the bytes are a PNG whose first chunk is IHDR.
std::optional<PngHeader> readPngHeader(const std::vector<uint8_t>& bytes);

// stb_image reads zeros past the end of uncompressed BMP and PNM data instead
// of failing; a short file is refused here, before decoding.
void checkNotTruncated(const fs::path& file, const std::string& format, const std::vector<uint8_t>& bytes,
                       const std::optional<PnmHeader>& pnm);

// The fixed part of each format's header, which stbi_info would otherwise read
// past the end as zeros (a 6-byte GIF came out as "0x0 pixels").
void checkHeaderComplete(const fs::path& file, const std::string& format, const std::vector<uint8_t>& bytes);

// PSD files stb_image cannot decode, said as what they are rather than as damaged.
void checkPsdSupported(const fs::path& file, const std::vector<uint8_t>& bytes);

// stb_image 2.27 trusts a PNG chunk's length: an IDAT claiming 1.5 GB in a
// file of 1 KB makes it reserve the 1.5 GB before finding the data missing
// (found by the fuzzer). The chunks are walked here, up to IEND, and each must
// fit in the file.
void checkPngChunks(const fs::path& file, const std::vector<uint8_t>& bytes);

// stb_image 2.27 loops forever on an HDR scanline run of length 0, which is
// also what it reads past the end of a truncated file (CVE-2021-42715), and
// reads past the end of flat HDR data. The scanlines are walked here first,
// the way stb_image walks them, without decoding anything.
void checkHdrData(const fs::path& file, const std::vector<uint8_t>& bytes, uint64_t width, uint64_t height);

// stb_image 2.27 trusts the code counts of a JPEG Huffman table: more than
// 256 codes overrun its tables. The segments are walked here first (scan data
// skipped up to the next marker) and every table is checked.
void checkJpegTables(const fs::path& file, const std::vector<uint8_t>& bytes);

// A size of `channels` 8-bit channels against what the device and GL take; sizes
// no real file has (0, negative, above kAbsurdDimension) are called damaged.
void checkLimits(const fs::path& file, int64_t width, int64_t height, int channels, const ImageLimits& limits);

// stb_image decodes into one buffer of the file's samples (16-bit PNG and PSD
// at 2 bytes each, HDR as 3 floats per pixel) whose size it computes in int;
// past that it fails with no clear reason. The result is 8-bit and fits, but
// the decoder's buffer does not: said before decoding.
// `extraRows`: PNG's decoder also holds one more row.
void checkDecoderBuffer(const fs::path& file, uint64_t width, uint64_t height, int extraRows, int samplesPerPixel,
                        int bytesPerSample, const std::string& what);

}  // namespace ks::image_checks
