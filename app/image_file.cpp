#include "app/image_file.h"

// The implementation is in libstb.a (libstb-dev); these are the headers only.
#include <stb_image.h>
#include <stb_image_write.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstring>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>
#include <string_view>
#include <system_error>

namespace ks {
namespace fs = std::filesystem;

namespace {

constexpr uint64_t kMiB = 1024 * 1024;
// stb_image takes the encoded bytes through an int length, and decodes into
// buffers whose sizes it computes in int.
constexpr uint64_t kStbMaxBytes = INT_MAX;
constexpr uint64_t kFileCapCeiling = kStbMaxBytes;
// stb_image refuses longer sides (STBI_MAX_DIMENSIONS); a header claiming more
// is damaged or hostile rather than merely too big for this device.
constexpr int64_t kAbsurdDimension = int64_t{1} << 24;

std::string quoted(const fs::path& file) { return "'" + file.string() + "'"; }

[[noreturn]] void fail(const fs::path& file, const std::string& what) {
  throw ImageFileError(quoted(file) + " " + what);
}

// "4.7 KiB (4800 bytes)": readable, and exact where a limit is only just missed.
std::string formatBytes(uint64_t bytes) {
  if (bytes < 1024) return std::to_string(bytes) + " bytes";
  std::ostringstream s;
  s.precision(1);
  s << std::fixed;
  if (bytes >= 1024 * kMiB) s << static_cast<double>(bytes) / (1024.0 * kMiB) << " GiB";
  else if (bytes >= kMiB) s << static_cast<double>(bytes) / kMiB << " MiB";
  else s << static_cast<double>(bytes) / 1024.0 << " KiB";
  s << " (" << bytes << " bytes)";
  return s.str();
}

// ---- reading the file ----------------------------------------------------------

std::vector<uint8_t> readWholeFile(const fs::path& file, uint64_t cap) {
  if (file.empty()) throw ImageFileError("no image file name given");
  std::error_code ec;
  const fs::file_status status = fs::status(file, ec);
  if (status.type() == fs::file_type::not_found) {
    std::error_code linkEc;
    if (fs::is_symlink(fs::symlink_status(file, linkEc))) fail(file, "is a symbolic link to a file that does not exist");
    fail(file, "does not exist");
  }
  if (ec) fail(file, "cannot be examined: " + ec.message());
  if (fs::is_directory(status)) fail(file, "is a directory, not an image file");
  // A FIFO or device could block or never end.
  if (!fs::is_regular_file(status)) fail(file, "is not a regular file (a device, FIFO or socket)");
  const uintmax_t size = fs::file_size(file, ec);
  if (ec) fail(file, "cannot be examined: " + ec.message());
  if (size == 0) fail(file, "is empty (0 bytes)");
  if (size > cap)
    fail(file, "is " + formatBytes(size) + "; image files for this device are limited to " + formatBytes(cap));

  errno = 0;
  std::ifstream in(file, std::ios::binary);
  if (!in) fail(file, std::string("cannot be read: ") + (errno ? std::strerror(errno) : "open failed"));
  std::vector<uint8_t> bytes(static_cast<size_t>(size));
  in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(size));
  if (static_cast<uintmax_t>(in.gcount()) != size) {
    if (in.bad()) fail(file, std::string("cannot be read: ") + (errno ? std::strerror(errno) : "read failed"));
    fail(file, "became shorter while it was read (" + std::to_string(in.gcount()) + " of " + std::to_string(size) +
                   " bytes)");
  }
  return bytes;
}

// ---- what the bytes are ----------------------------------------------------------

bool startsWith(const std::vector<uint8_t>& bytes, std::string_view magic) {
  return bytes.size() >= magic.size() && std::memcmp(bytes.data(), magic.data(), magic.size()) == 0;
}

// Where a JPEG's data starts after its SOI marker, or 0 when it has none.
// stb_image, like the standard, skips 0xFF fill bytes before any marker, SOI
// included (found by the fuzzer: FF FF .. FF D8 is a JPEG too).
size_t afterJpegStart(const std::vector<uint8_t>& bytes) {
  size_t at = 0;
  while (at < bytes.size() && bytes[at] == 0xFF) ++at;
  return at > 0 && at < bytes.size() && bytes[at] == 0xD8 ? at + 1 : 0;
}

// The format by signature, the way stb_image tells them apart; TGA has none.
std::string sniffFormat(const std::vector<uint8_t>& bytes) {
  if (startsWith(bytes, "\x89PNG\r\n\x1a\n")) return "PNG";
  if (afterJpegStart(bytes) != 0) return "JPEG";
  if (startsWith(bytes, "GIF87a") || startsWith(bytes, "GIF89a")) return "GIF";
  if (startsWith(bytes, "8BPS")) return "PSD";
  if (startsWith(bytes, "\x53\x80\xF6\x34")) return "PIC";
  if (startsWith(bytes, "#?RADIANCE") || startsWith(bytes, "#?RGBE")) return "HDR";
  if (bytes.size() >= 2 && bytes[0] == 'P' &&
      std::string_view("1234567Ff").find(static_cast<char>(bytes[1])) != std::string_view::npos)
    return "PNM";
  if (startsWith(bytes, "BM")) return "BMP";
  return {};
}

// No NUL and hardly any control characters in the first 4 KiB.
bool looksLikeText(const std::vector<uint8_t>& bytes) {
  const size_t n = std::min<size_t>(bytes.size(), 4096);
  size_t control = 0;
  for (size_t i = 0; i < n; ++i) {
    const uint8_t c = bytes[i];
    if (c == 0) return false;
    if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f') || c == 0x7f) ++control;
  }
  return control * 100 <= n;
}

// PNG's IHDR sits at a fixed place: read it ourselves for what stbi_info does
// not say (bit depth, palette) or refuses to say (sizes it finds too large).
struct PngHeader {
  uint32_t width = 0, height = 0;
  int depth = 0, colourType = 0;
};

std::optional<PngHeader> readPngHeader(const std::vector<uint8_t>& bytes) {
  if (bytes.size() < 26 || !startsWith(bytes, "\x89PNG\r\n\x1a\n") || std::memcmp(&bytes[12], "IHDR", 4) != 0)
    return std::nullopt;
  auto be32 = [&](size_t at) {
    return uint32_t{bytes[at]} << 24 | uint32_t{bytes[at + 1]} << 16 | uint32_t{bytes[at + 2]} << 8 | bytes[at + 3];
  };
  return PngHeader{be32(16), be32(20), bytes[24], bytes[25]};
}

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

bool isPnmSpace(uint8_t c) { return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'; }

// Reads the decimal numbers of a PNM header or of plain (P2/P3) samples, from `at`.
class PnmNumbers {
 public:
  PnmNumbers(const std::vector<uint8_t>& bytes, size_t at) : bytes_(bytes), at_(at) {}
  size_t at() const { return at_; }
  // The next number, skipping whitespace and # comments; none at the end, before a
  // non-digit, or past 32 bits.
  std::optional<uint64_t> next() {
    skipSpaceAndComments();
    if (at_ >= bytes_.size() || bytes_[at_] < '0' || bytes_[at_] > '9') return std::nullopt;
    uint64_t value = 0;
    for (; at_ < bytes_.size() && bytes_[at_] >= '0' && bytes_[at_] <= '9'; ++at_)
      if ((value = value * 10 + (bytes_[at_] - '0')) > 0xFFFFFFFFu) return std::nullopt;
    return value;
  }

 private:
  void skipSpaceAndComments() {
    for (;;) {
      while (at_ < bytes_.size() && isPnmSpace(bytes_[at_])) ++at_;
      if (at_ >= bytes_.size() || bytes_[at_] != '#') return;
      while (at_ < bytes_.size() && bytes_[at_] != '\n' && bytes_[at_] != '\r') ++at_;
    }
  }
  const std::vector<uint8_t>& bytes_;
  size_t at_;
};

std::optional<PnmHeader> readPnmHeader(const std::vector<uint8_t>& bytes) {
  if (bytes.size() < 2 || bytes[0] != 'P' || bytes[1] < '2' || bytes[1] > '6' || bytes[1] == '4') return std::nullopt;
  PnmHeader header;
  header.channels = bytes[1] == '3' || bytes[1] == '6' ? 3 : 1;
  header.plain = bytes[1] == '2' || bytes[1] == '3';
  PnmNumbers numbers(bytes, 2);
  const auto width = numbers.next(), height = numbers.next(), maxValue = numbers.next();
  const size_t at = numbers.at();
  // Exactly one whitespace byte separates the header from the samples.
  if (!width || !height || !maxValue || at >= bytes.size() || !isPnmSpace(bytes[at])) return std::nullopt;
  header.width = *width;
  header.height = *height;
  header.maxValue = static_cast<uint32_t>(*maxValue);
  header.dataOffset = at + 1;
  return header;
}

uint32_t le32(const std::vector<uint8_t>& b, size_t at) {
  return uint32_t{b[at]} | uint32_t{b[at + 1]} << 8 | uint32_t{b[at + 2]} << 16 | uint32_t{b[at + 3]} << 24;
}

// stb_image reads zeros past the end of uncompressed BMP and PNM data instead
// of failing; a short file is refused here, before decoding.
void checkNotTruncated(const fs::path& file, const std::string& format, const std::vector<uint8_t>& bytes,
                       const std::optional<PnmHeader>& pnm) {
  uint64_t needed = 0;
  if (pnm) {
    if (pnm->width > kAbsurdDimension || pnm->height > kAbsurdDimension)
      fail(file, "claims an absurd size in its header; the file is damaged");
    const uint64_t samples = pnm->width * pnm->height * pnm->channels;
    // Plain samples take at least one digit and one separator each (none after the last).
    needed = pnm->dataOffset + (pnm->plain ? std::max<uint64_t>(2 * samples, 1) - 1 : samples * pnm->bytesPerSample());
  } else if (format == "BMP" && bytes.size() >= 34 && le32(bytes, 14) >= 40) {
    const uint64_t offset = le32(bytes, 10);
    const int64_t width = static_cast<int32_t>(le32(bytes, 18)), height = static_cast<int32_t>(le32(bytes, 22));
    const int bitsPerPixel = bytes[28] | bytes[29] << 8;
    const uint32_t compression = le32(bytes, 30);  // 0: BI_RGB, 3: BI_BITFIELDS (uncompressed)
    if ((compression == 0 || compression == 3) && width > 0 && bitsPerPixel > 0 && bitsPerPixel <= 32) {
      const uint64_t stride = (static_cast<uint64_t>(width) * bitsPerPixel + 31) / 32 * 4;
      needed = offset + stride * static_cast<uint64_t>(height < 0 ? -height : height);
    }
  }
  if (needed > bytes.size())
    fail(file, "is a truncated " + format + " file: " + std::to_string(bytes.size()) + " bytes, the header needs " +
                   (pnm && pnm->plain ? "at least " : "") + std::to_string(needed));
}

// The fixed part of each format's header, which stbi_info would otherwise read
// past the end as zeros (a 6-byte GIF came out as "0x0 pixels").
void checkHeaderComplete(const fs::path& file, const std::string& format, const std::vector<uint8_t>& bytes) {
  size_t needed = 0;
  if (format == "PNG")
    needed = 8 + 25;  // signature, IHDR chunk
  else if (format == "GIF")
    needed = 13;  // signature, logical screen descriptor
  else if (format == "PSD")
    needed = 26;  // up to the colour mode
  else if (format == "BMP")
    needed = 14 + 12;  // file header, the smallest (OS/2) info header
  if (bytes.size() < needed)
    fail(file, "is a truncated " + format + " file: " + std::to_string(bytes.size()) +
                   " bytes, its header alone takes " + std::to_string(needed));
}

// PSD files stb_image cannot decode, said as what they are rather than as damaged.
void checkPsdSupported(const fs::path& file, const std::vector<uint8_t>& bytes) {
  auto be16 = [&](size_t at) { return bytes[at] << 8 | bytes[at + 1]; };
  const int version = be16(4), channels = be16(12), depth = be16(22), mode = be16(24);
  const std::string hint = " (save it as an 8- or 16-bit RGB PSD, or as PNG)";
  if (version == 2) fail(file, "is a PSB (Photoshop large document) file; stb_image reads only PSD" + hint);
  if (version != 1) fail(file, "is a damaged PSD file: version " + std::to_string(version) + " in its header");
  if (mode != 3) {
    static const char* const kModes[] = {"bitmap", "grayscale", "indexed-colour", "RGB",     "CMYK",
                                         "mode 5", "mode 6",    "multichannel",   "duotone", "Lab"};
    const std::string name = mode < 10 ? kModes[mode] : "mode " + std::to_string(mode);
    fail(file, "is a " + name + " PSD file; stb_image reads only RGB PSD files" + hint);
  }
  if (depth != 8 && depth != 16)
    fail(file, "is a " + std::to_string(depth) + "-bit PSD file; stb_image reads 8- and 16-bit PSD files" + hint);
  if (channels < 1 || channels > 16)
    fail(file, "is a damaged PSD file: " + std::to_string(channels) + " channels in its header");
}

// PNM kinds without a decoder here, said as what they are.
[[noreturn]] void failUnsupportedPnm(const fs::path& file, const std::vector<uint8_t>& bytes) {
  const char kind = bytes.size() >= 2 ? static_cast<char>(bytes[1]) : '?';
  const std::string what = kind == '1' || kind == '4'   ? "a PBM bitmap (P" + std::string(1, kind) + ")"
                           : kind == '7'                ? "a PAM file (P7)"
                           : kind == 'F' || kind == 'f' ? "a floating-point PFM file (P" + std::string(1, kind) + ")"
                                                        : std::string();
  if (what.empty()) fail(file, "is a damaged PNM file: its header is unreadable");
  fail(file, "is " + what + "; the image lab reads PGM and PPM files (P2, P3, P5, P6)");
}

// stb_image 2.27 trusts a PNG chunk's length: an IDAT claiming 1.5 GB in a
// file of 1 KB makes it reserve the 1.5 GB before finding the data missing
// (found by the fuzzer). The chunks are walked here, up to IEND, and each must
// fit in the file.
void checkPngChunks(const fs::path& file, const std::vector<uint8_t>& bytes) {
  const uint64_t end = bytes.size();
  for (uint64_t at = 8; at + 8 <= end;) {
    const uint64_t length = uint64_t{bytes[at]} << 24 | uint64_t{bytes[at + 1]} << 16 | uint64_t{bytes[at + 2]} << 8 |
                            bytes[at + 3];
    const std::string type(reinterpret_cast<const char*>(&bytes[at + 4]), 4);
    if (at + 12 + length > end)  // length, type, data, CRC
      fail(file, "is a damaged or truncated PNG file: its " + type + " chunk claims " + std::to_string(length) +
                     " bytes of data, the file has " + std::to_string(end - std::min(end, at + 8)) + " left");
    if (type == "IEND") return;
    at += 12 + length;
  }
  // stb_image needs IEND; without it, it reports the zeros it reads past the end
  // (or a cut chunk type) as an unknown chunk.
  fail(file, "is a truncated PNG file: it ends after " + std::to_string(end) + " bytes, before its IEND chunk");
}

// stb_image 2.27 misreads a PSD's depth in stbi_is_16_bit (it takes the
// height's upper half: its STBI_NOTUSED skips no bytes), so PSD is read here.
bool is16Bit(const std::string& format, const std::vector<uint8_t>& bytes) {
  if (format == "PSD") return bytes.size() >= 24 && (bytes[22] << 8 | bytes[23]) == 16;
  return stbi_is_16_bit_from_memory(bytes.data(), static_cast<int>(bytes.size()));
}

// stb_image 2.27 loops forever on an HDR scanline run of length 0, which is
// also what it reads past the end of a truncated file (CVE-2021-42715), and
// reads past the end of flat HDR data. The scanlines are walked here first,
// the way stb_image walks them, without decoding anything.
void checkHdrData(const fs::path& file, const std::vector<uint8_t>& bytes, uint64_t width, uint64_t height) {
  const size_t end = bytes.size();
  size_t at = 0;
  auto line = [&] {  // length of the line at `at`, which moves past its '\n'
    const size_t start = at;
    while (at < end && bytes[at] != '\n') ++at;
    const size_t length = at - start;
    if (at < end) ++at;
    return length;
  };
  line();                  // #?RADIANCE
  while (line() != 0) {}   // variables, up to an empty line
  line();                  // -Y height +X width
  const std::string truncated = "is a truncated HDR file: its pixel data ends early";
  // Flat (not run-length encoded) pixels: 4 bytes each.
  if (width < 8 || width >= 32768) {
    if (at + width * height * 4 > end) fail(file, truncated);
    return;
  }
  for (uint64_t row = 0; row < height; ++row) {
    if (at + 4 > end) fail(file, truncated);
    if (bytes[at] != 2 || bytes[at + 1] != 2 || (bytes[at + 2] & 0x80)) {
      // Not encoded after all: stb_image reads the whole image flat from here.
      if (at + width * height * 4 > end) fail(file, truncated);
      return;
    }
    if (static_cast<uint64_t>(bytes[at + 2] << 8 | bytes[at + 3]) != width) return;  // stb_image refuses it
    at += 4;
    for (int component = 0; component < 4; ++component) {
      for (uint64_t x = 0; x < width;) {
        if (at >= end) fail(file, truncated);
        uint64_t count = bytes[at++];
        if (count > 128) {  // a run: one value repeated
          count -= 128;
          if (at++ >= end) fail(file, truncated);
        } else {  // literal values
          if (count == 0) fail(file, "is a damaged HDR file: a scanline holds a run of length 0");
          if (count <= width - x && at + count > end) fail(file, truncated);
          at += count;
        }
        if (count > width - x) return;  // stb_image refuses it ("bad RLE data")
        x += count;
      }
    }
  }
}

// stb_image 2.27 trusts the code counts of a JPEG Huffman table: more than
// 256 codes overrun its tables. The segments are walked here first (scan data
// skipped up to the next marker) and every table is checked.
void checkJpegTables(const fs::path& file, const std::vector<uint8_t>& bytes) {
  const size_t end = bytes.size();
  size_t at = afterJpegStart(bytes);
  // stb_image 2.27 also decodes with a table the file never defined (its
  // tables are uninitialised memory then; found by the fuzzer, it asserts or
  // decodes noise): every scan's tables must come before it.
  bool defined[2][4] = {};  // [DC, AC][table]
  bool progressive = false;
  auto at8 = [&](size_t i) -> int { return i < end ? bytes[i] : 0; };  // stb_image reads zeros past the end
  while (at + 4 <= end) {
    const uint8_t marker = bytes[at + 1];
    if (bytes[at] != 0xFF || marker == 0xFF || marker == 0x00 || marker == 0x01 || marker == 0xD8 ||
        (marker >= 0xD0 && marker <= 0xD7)) {
      ++at;  // scan data, fill bytes, stuffed 0xFF, restart markers
      continue;
    }
    if (marker == 0xD9) return;  // EOI
    const size_t segmentEnd = at + 2 + (bytes[at + 2] << 8 | bytes[at + 3]);
    if (marker == 0xC4) {  // DHT: tables of 1 + 16 count bytes + the values, as stb_image reads them
      // A table cut off by the end of the file counts too: stb_image reads
      // zeros past the end, so the counts that are there can still overrun.
      for (size_t table = at + 4; table < segmentEnd && table < end;) {
        int codes = 0;
        for (size_t i = 1; i <= 16 && table + i < end; ++i) codes += bytes[table + i];
        if (codes > 256)
          fail(file, "is a damaged JPEG file: a Huffman table claims " + std::to_string(codes) +
                         " codes (at most 256)");
        if (const int kind = bytes[table] >> 4, id = bytes[table] & 15; kind <= 1 && id <= 3) defined[kind][id] = true;
        table += 17 + codes;
      }
    }
    if (marker == 0xC2) progressive = true;
    if (marker == 0xDA) {  // SOS: component count, (component, DC << 4 | AC) each, then Ss, Se, Ah << 4 | Al
      const int components = at8(at + 4);
      const size_t after = at + 5 + 2 * static_cast<size_t>(components);
      const int spectralStart = at8(after), successiveHigh = at8(after + 2) >> 4;
      // Progressive scans use DC tables in the first DC pass only, AC tables in AC passes only.
      const bool usesDc = !progressive || (spectralStart == 0 && successiveHigh == 0);
      const bool usesAc = !progressive || spectralStart != 0;
      for (int c = 0; c < components; ++c) {
        const int tables = at8(at + 6 + 2 * static_cast<size_t>(c)), dc = tables >> 4, ac = tables & 15;
        if ((usesDc && dc <= 3 && !defined[0][dc]) || (usesAc && ac <= 3 && !defined[1][ac]))
          fail(file, "is a damaged JPEG file: a scan uses a Huffman table the file does not define before it");
      }
    }
    at = segmentEnd;
  }
}

const char* layoutName(int channels) {
  switch (channels) {
    case 1: return "gray";
    case 2: return "gray+alpha";
    case 3: return "RGB";
    default: return "RGBA";
  }
}

// ---- limits, checked on the header's numbers -----------------------------------------

void checkLimits(const fs::path& file, int64_t width, int64_t height, int channels, const ImageLimits& limits) {
  const std::string size = std::to_string(width) + "x" + std::to_string(height);
  if (width <= 0 || height <= 0 || width > kAbsurdDimension || height > kAbsurdDimension)
    fail(file, "claims an absurd size in its header (" + size + " pixels); the file is damaged");
  if (width > limits.maxDimension || height > limits.maxDimension)
    fail(file, "is " + size + " pixels; this device and OpenGL take at most " + std::to_string(limits.maxDimension) +
                   " pixels per side");
  // At most 2^24 * 2^24 * 4 = 2^50: no overflow in 64 bits.
  const uint64_t bytes = static_cast<uint64_t>(width) * static_cast<uint64_t>(height) * channels;
  if (bytes > limits.maxBytes)
    fail(file, "needs " + formatBytes(bytes) + " as 8-bit " + (channels == 1 ? "gray" : "RGBA") + " (" + size +
                   "); this device takes at most " + formatBytes(limits.maxBytes) + " per image");
}

// stb_image decodes into one buffer of the file's samples (16-bit PNG and PSD
// at 2 bytes each, HDR as 3 floats per pixel) whose size it computes in int;
// past that it fails with no clear reason. The result is 8-bit and fits, but
// the decoder's buffer does not: said before decoding.
// `extraRows`: PNG's decoder also holds one more row.
void checkDecoderBuffer(const fs::path& file, uint64_t width, uint64_t height, int extraRows, int samplesPerPixel,
                        int bytesPerSample, const std::string& what) {
  const uint64_t bytes = width * (height + extraRows) * static_cast<uint64_t>(samplesPerPixel) * bytesPerSample;
  if (bytes > kStbMaxBytes)
    fail(file, "is too large to decode: " + what + " " + std::to_string(width) + "x" + std::to_string(height) +
                   " takes " + formatBytes(bytes) + " in stb_image's decoder, which holds at most " +
                   formatBytes(kStbMaxBytes) +
                   (bytesPerSample == 2 ? " (saved with 8 bits per channel it opens)" : ""));
}

// Channels the 8-bit result will have, judged from the header; for PNG from
// IHDR, since stbi_info says 1 for a palette image (which becomes RGB/RGBA). A
// tRNS chunk can still give a gray PNG alpha: the result is checked again.
int expectedChannels(int infoChannels, const std::optional<PngHeader>& png) {
  if (png) return png->colourType == 0 ? 1 : 4;
  return infoChannels == 1 ? 1 : 4;
}

// ---- decoding --------------------------------------------------------------------

struct StbFree {
  void operator()(void* p) const { stbi_image_free(p); }
};

// A sample in 0..maxValue to 0..255, rounded to nearest (maxValue 65535: 16 bits to 8).
uint8_t rescale(uint32_t v, uint32_t maxValue) {
  return static_cast<uint8_t>(std::min<uint32_t>(255, (v * 255 + maxValue / 2) / maxValue));
}

// Reinhard per channel (keeps every value below 1 without clipping highlights),
// then the sRGB transfer curve, since HDR files hold linear light.
uint8_t toneMap(float c) {
  if (!(c > 0.0f)) return 0;  // negative and NaN
  if (std::isinf(c)) return 255;
  const float x = c / (1.0f + c);
  const float encoded = x <= 0.0031308f ? 12.92f * x : 1.055f * std::pow(x, 1.0f / 2.4f) - 0.055f;
  return static_cast<uint8_t>(std::lround(std::clamp(encoded, 0.0f, 1.0f) * 255.0f));
}

// 1 channel stays 1; 2 (gray+alpha), 3 and 4 become RGBA.
template <typename T, typename Colour, typename Alpha>
void fillPixels(HostImage& image, const T* src, int srcChannels, Colour colour, Alpha alpha) {
  const size_t count = static_cast<size_t>(image.width) * image.height;
  image.channels = srcChannels == 1 ? 1 : 4;
  image.pixels.resize(count * image.channels);
  uint8_t* out = image.pixels.data();
  for (size_t i = 0; i < count; ++i) {
    const T* p = src + i * srcChannels;
    switch (srcChannels) {
      case 1: out[i] = colour(p[0]); break;
      case 2: {
        const uint8_t g = colour(p[0]);
        out[4 * i] = out[4 * i + 1] = out[4 * i + 2] = g;
        out[4 * i + 3] = alpha(p[1]);
        break;
      }
      default:
        for (int c = 0; c < 3; ++c) out[4 * i + c] = colour(p[c]);
        out[4 * i + 3] = srcChannels == 4 ? alpha(p[3]) : 255;
    }
  }
}

// stb_image keeps one failure reason per thread and only ever sets it: a
// decoder that fails without setting it leaves whatever was there before. It
// has no call that clears the reason, but stbi_info on a byte that starts no
// format always ends by setting "unknown image type", which the decoder of a
// file stbi_info accepted never sets. Returns that reason, to compare with.
const char* resetStbFailureReason() {
  const stbi_uc nothing = 0;
  int width = 0, height = 0, channels = 0;
  stbi_info_from_memory(&nothing, 1, &width, &height, &channels);
  return stbi_failure_reason();
}

// What the failed decode itself said, or empty. Not its own: the reason set
// `before` it (unchanged), and the reasons of stbi_load's signature probes,
// which run before the decoder (stb_image 2.27's stbi__load_main): "bad png
// sig" when the file is not a PNG, "no SOI" when it is not a JPEG. The probe of
// the format decoded passed, so its decoder never sets them. A reason can be
// empty ("XXXX PNG chunk not known" for a type of four NULs read past the end)
// or quote bytes of the file, so only printable ASCII is kept.
std::string ownFailureReason(const char* before) {
  const char* reason = stbi_failure_reason();
  if (!reason || (before && std::strcmp(reason, before) == 0)) return {};
  std::string text = reason;
  if (text == "bad png sig" || text == "no SOI") return {};
  for (char& c : text)
    if (c < 0x20 || c > 0x7e) c = '?';
  return text;
}

// `reasonBefore`: resetStbFailureReason's answer, taken just before decoding.
std::string decodeFailure(const fs::path& file, const std::string& format, const char* reasonBefore) {
  const std::string reason = ownFailureReason(reasonBefore);
  return quoted(file) + " is a damaged or truncated " + (format.empty() ? "TGA" : format) + " file" +
         (reason.empty() ? "" : " (stb_image: " + reason + ")");
}

}  // namespace

uint64_t maxImageFileBytes(const ImageLimits& limits) {
  const uint64_t scaled = limits.maxBytes > kFileCapCeiling ? kFileCapCeiling : limits.maxBytes * 4 + 4 * kMiB;
  return std::min(scaled, kFileCapCeiling);
}

HostImage loadImageFile(const fs::path& file, const ImageLimits& limits) {
  return decodeImage(readWholeFile(file, maxImageFileBytes(limits)), file, limits);
}

HostImage decodeImage(const std::vector<uint8_t>& bytes, const fs::path& file, const ImageLimits& limits) {
  if (bytes.empty()) fail(file, "is empty (0 bytes)");
  if (const uint64_t cap = maxImageFileBytes(limits); bytes.size() > cap)
    fail(file, "is " + formatBytes(bytes.size()) + "; image files for this device are limited to " + formatBytes(cap));
  const int length = static_cast<int>(bytes.size());  // <= kFileCapCeiling
  const std::string format = sniffFormat(bytes);
  checkHeaderComplete(file, format, bytes);
  const std::optional<PngHeader> png = readPngHeader(bytes);
  const std::optional<PnmHeader> pnm = format == "PNM" ? readPnmHeader(bytes) : std::nullopt;

  // stbi_info already reads the Huffman tables
  if (format == "JPEG") checkJpegTables(file, bytes);
  if (format == "PSD") checkPsdSupported(file, bytes);
  int width = 0, height = 0, infoChannels = 0;
  if (format == "PNM") {
    // Read and decoded here, header included: stb_image 2.27 reads the header's
    // numbers into an int without checking for overflow (found by the fuzzer),
    // and reads no plain (P2/P3) files.
    if (!pnm) failUnsupportedPnm(file, bytes);
    checkLimits(file, static_cast<int64_t>(pnm->width), static_cast<int64_t>(pnm->height),
                pnm->channels == 1 ? 1 : 4, limits);
    if (pnm->maxValue > 65535)
      fail(file, "is a damaged PNM file: its maximum sample value " + std::to_string(pnm->maxValue) +
                     " is over 65535");
    if (pnm->maxValue == 0) fail(file, "is a damaged PNM file: its header has no usable maximum sample value");
    width = static_cast<int>(pnm->width);
    height = static_cast<int>(pnm->height);
    infoChannels = pnm->channels;
  } else if (!stbi_info_from_memory(bytes.data(), length, &width, &height, &infoChannels)) {
    const std::string reason = stbi_failure_reason() ? stbi_failure_reason() : "unknown error";
    // stb_image refuses huge PNG sizes itself; say what they are and whether the device could ever take them.
    if (png) checkLimits(file, png->width, png->height, expectedChannels(0, png), limits);
    // stbi_info tries every format, so a reason other than "unknown image type" is rare.
    if (!format.empty() && (format == "HDR" || !looksLikeText(bytes)))
      fail(file, "is a damaged " + format + " file: its header is unreadable" +
                     (reason == "unknown image type" ? std::string() : " (stb_image: " + reason + ")"));
    if (looksLikeText(bytes)) fail(file, "is a text file, not an image");
    fail(file, "is not an image stb_image can read (PNG, JPEG, BMP, TGA, GIF, PSD, HDR, PIC, PNM): " + reason);
  }
  const bool hdr = stbi_is_hdr_from_memory(bytes.data(), length);
  // A negative BMP height means rows stored top-down (common); stbi_info passes it on
  // as it is, and only the decoder takes its absolute value.
  if (format == "BMP" && height < 0 && height != INT_MIN) height = -height;
  checkLimits(file, width, height, hdr ? 4 : expectedChannels(infoChannels, png), limits);
  // Asked before the reset below: stbi_is_16_bit probes formats, and sets reasons doing so.
  const bool sixteenBit = !pnm && !hdr && is16Bit(format, bytes);
  // The samples in the file (PSD: stb_image always makes 4), for the decoder's buffer and the description.
  const int fileChannels = png               ? std::array{1, 0, 3, 1, 2, 0, 4, 0}[png->colourType & 7]
                           : format == "PSD" ? std::min(4, std::max(3, bytes[12] << 8 | bytes[13]))
                                             : infoChannels;
  if (hdr) checkDecoderBuffer(file, width, height, 0, 3, sizeof(float), "HDR");
  if (sixteenBit)
    checkDecoderBuffer(file, width, height, png ? 1 : 0, png ? fileChannels : 4, 2,
                       std::string("16-bit ") + layoutName(fileChannels));
  checkNotTruncated(file, format, bytes, pnm);
  if (png) checkPngChunks(file, bytes);
  if (hdr) checkHdrData(file, bytes, width, height);

  // Top row first, whatever another part of the program set globally.
  stbi_set_flip_vertically_on_load_thread(0);
  const char* reasonBefore = resetStbFailureReason();
  HostImage image;
  int srcChannels = 0;
  std::string bits = "8-bit";
  auto checkDecoded = [&] { checkLimits(file, image.width, image.height, srcChannels == 1 ? 1 : 4, limits); };
  if (pnm) {
    // Read here: the samples are plain big-endian numbers after the header, and
    // stb_image 2.27 returns 16-bit ones byte-swapped and ignores the maximum value.
    image.width = static_cast<int>(pnm->width);
    image.height = static_cast<int>(pnm->height);
    srcChannels = pnm->channels;
    checkDecoded();
    const uint8_t* samples = bytes.data() + pnm->dataOffset;
    const uint32_t maxValue = pnm->maxValue;
    auto to8 = [maxValue](uint32_t v) { return rescale(std::min(v, maxValue), maxValue); };
    if (pnm->plain) {
      std::vector<uint16_t> numbers(static_cast<size_t>(image.width) * image.height * srcChannels);
      PnmNumbers text(bytes, pnm->dataOffset);
      for (size_t i = 0; i < numbers.size(); ++i) {
        const std::optional<uint64_t> v = text.next();
        if (!v && text.at() >= bytes.size())
          fail(file, "is a truncated PNM file: it holds " + std::to_string(i) + " of the " +
                         std::to_string(numbers.size()) + " samples its header promises");
        if (!v) fail(file, "is a damaged PNM file: sample " + std::to_string(i + 1) + " is not a number");
        numbers[i] = static_cast<uint16_t>(std::min<uint64_t>(*v, maxValue));  // as binary samples: clamped
      }
      fillPixels(image, numbers.data(), srcChannels, to8, to8);
    } else if (pnm->bytesPerSample() == 2) {
      std::vector<uint16_t> wide(static_cast<size_t>(image.width) * image.height * srcChannels);
      for (size_t i = 0; i < wide.size(); ++i) wide[i] = static_cast<uint16_t>(samples[2 * i] << 8 | samples[2 * i + 1]);
      fillPixels(image, wide.data(), srcChannels, to8, to8);
    } else {
      fillPixels(image, samples, srcChannels, to8, to8);
    }
    bits = std::to_string(std::bit_width(maxValue)) + "-bit";
  } else if (hdr) {
    std::unique_ptr<float, StbFree> data(stbi_loadf_from_memory(bytes.data(), length, &image.width, &image.height,
                                                                &srcChannels, 0));
    if (!data) throw ImageFileError(decodeFailure(file, format, reasonBefore));
    checkDecoded();
    fillPixels(image, data.get(), srcChannels, toneMap, [](float a) {
      return static_cast<uint8_t>(std::lround(std::clamp(a, 0.0f, 1.0f) * 255.0f));
    });
    bits = "float";
  } else if (sixteenBit) {
    std::unique_ptr<stbi_us, StbFree> data(stbi_load_16_from_memory(bytes.data(), length, &image.width,
                                                                     &image.height, &srcChannels, 0));
    if (!data) throw ImageFileError(decodeFailure(file, format, reasonBefore));
    checkDecoded();
    auto to8 = [](stbi_us v) { return rescale(v, 65535); };
    fillPixels(image, data.get(), srcChannels, to8, to8);
    bits = "16-bit";
  } else {
    std::unique_ptr<stbi_uc, StbFree> data(
        stbi_load_from_memory(bytes.data(), length, &image.width, &image.height, &srcChannels, 0));
    if (!data) throw ImageFileError(decodeFailure(file, format, reasonBefore));
    checkDecoded();
    auto same = [](stbi_uc v) { return v; };
    fillPixels(image, data.get(), srcChannels, same, same);
    if (png && png->depth < 8) bits = std::to_string(png->depth) + "-bit";
  }

  std::ostringstream description;
  description << (format.empty() ? "TGA" : format) << ' ' << bits << ' '
              << (png && png->colourType == 3 ? "palette " : "")
              << layoutName(format == "PSD" ? fileChannels : srcChannels) << ' ' << image.width << 'x' << image.height;
  if (pnm && pnm->plain) description << ", plain text";
  if (hdr) description << ", tone-mapped (Reinhard, sRGB)";
  if (format == "GIF") description << " (first frame)";
  image.description = description.str();
  return image;
}

// ---- the built-in test image ----------------------------------------------------------

HostImage makeTestImage(int width, int height) {
  if (width <= 0 || height <= 0)
    throw std::invalid_argument("test image size must be positive, not " + std::to_string(width) + "x" +
                                std::to_string(height));
  HostImage image;
  image.width = width;
  image.height = height;
  image.channels = 4;
  image.pixels.resize(static_cast<size_t>(width) * height * 4);
  image.description = "built-in test image " + std::to_string(width) + "x" + std::to_string(height);

  const int side = std::min(width, height);
  const int cell = std::max(8, side / 8);    // grid spacing
  const int marker = std::max(2, side / 8);  // corner squares
  const double cx = (width - 1) / 2.0, cy = (height - 1) / 2.0;
  const double radius = side * 0.3, halfRing = std::max(0.75, side / 80.0);
  // The wedge lies between the ring and the bottom corner squares.
  const int wedgeX0 = width / 4, wedgeX1 = std::max(wedgeX0 + 1, width * 3 / 4);
  const int wedgeY0 = static_cast<int>(height * 0.84), wedgeY1 = wedgeY0 + std::max(1, height / 16);

  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      uint8_t r = static_cast<uint8_t>(width > 1 ? x * 255 / (width - 1) : 0);
      uint8_t g = static_cast<uint8_t>(height > 1 ? y * 255 / (height - 1) : 0);
      uint8_t b = 128;
      auto set = [&](uint8_t nr, uint8_t ng, uint8_t nb) { r = nr, g = ng, b = nb; };
      if (x % cell == 0 || y % cell == 0) set(40, 40, 40);
      if (std::abs(std::hypot(x - cx, y - cy) - radius) <= halfRing) set(255, 255, 255);
      if (y >= wedgeY0 && y < wedgeY1 && x >= wedgeX0 && x < wedgeX1) {
        const auto level = static_cast<uint8_t>((x - wedgeX0) * 16 / (wedgeX1 - wedgeX0) * 17);  // 0, 17, .. 255
        set(level, level, level);
      }
      const bool left = x < marker, right = x >= width - marker, top = y < marker, bottom = y >= height - marker;
      if (top && left) set(255, 0, 0);
      else if (top && right) set(0, 255, 0);
      else if (bottom && left) set(0, 0, 255);
      else if (bottom && right) set(255, 0, 255);
      uint8_t* p = image.pixels.data() + (static_cast<size_t>(y) * width + x) * 4;
      p[0] = r, p[1] = g, p[2] = b, p[3] = 255;
    }
  }
  return image;
}

// ---- writing PNG ------------------------------------------------------------------

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
  return "cannot write PNG " + quoted(file) + ": " + why;
}

bool savePngFile(const HostImage& image, const fs::path& file, std::string* error) {
  auto failed = [&](const std::string& why) {
    if (error) *error = pngWriteError(file, why);
    return false;
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
  if (error) error->clear();
  return true;
}

}  // namespace ks
