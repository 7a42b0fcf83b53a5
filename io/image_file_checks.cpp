#include "io/image_file_checks.h"

#include <algorithm>
#include <cstring>
#include <sstream>

namespace ks::image_checks {

namespace {

constexpr uint64_t kMiB = 1024 * 1024;

uint32_t le32(const std::vector<uint8_t>& b, size_t at) {
  return uint32_t{b[at]} | uint32_t{b[at + 1]} << 8 | uint32_t{b[at + 2]} << 16 | uint32_t{b[at + 3]} << 24;
}

}  // namespace

std::string quoted(const fs::path& file) { return "'" + file.string() + "'"; }

[[noreturn]] void fail(const fs::path& file, const std::string& what) {
  throw ImageFileError(quoted(file) + " " + what, file);
}

std::string formatBytes(uint64_t bytes) {
  if (bytes < 1024) return std::to_string(bytes) + " bytes";
  std::ostringstream s;
  s.precision(1);
  s << std::fixed;
  if (bytes >= 1024 * kMiB)
    s << static_cast<double>(bytes) / (1024.0 * kMiB) << " GiB";
  else if (bytes >= kMiB)
    s << static_cast<double>(bytes) / kMiB << " MiB";
  else
    s << static_cast<double>(bytes) / 1024.0 << " KiB";
  s << " (" << bytes << " bytes)";
  return s.str();
}

bool startsWith(const std::vector<uint8_t>& bytes, std::string_view magic) {
  return bytes.size() >= magic.size() && std::memcmp(bytes.data(), magic.data(), magic.size()) == 0;
}

size_t afterJpegStart(const std::vector<uint8_t>& bytes) {
  size_t at = 0;
  while (at < bytes.size() && bytes[at] == 0xFF) ++at;
  return at > 0 && at < bytes.size() && bytes[at] == 0xD8 ? at + 1 : 0;
}

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

std::optional<PngHeader> readPngHeader(const std::vector<uint8_t>& bytes) {
  if (bytes.size() < 26 || !startsWith(bytes, "\x89PNG\r\n\x1a\n") || std::memcmp(&bytes[12], "IHDR", 4) != 0)
    return std::nullopt;
  auto be32 = [&](size_t at) {
    return uint32_t{bytes[at]} << 24 | uint32_t{bytes[at + 1]} << 16 | uint32_t{bytes[at + 2]} << 8 | bytes[at + 3];
  };
  return PngHeader{be32(16), be32(20), bytes[24], bytes[25]};
}

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

void checkPngChunks(const fs::path& file, const std::vector<uint8_t>& bytes) {
  const uint64_t end = bytes.size();
  for (uint64_t at = 8; at + 8 <= end;) {
    const uint64_t length =
        uint64_t{bytes[at]} << 24 | uint64_t{bytes[at + 1]} << 16 | uint64_t{bytes[at + 2]} << 8 | bytes[at + 3];
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
  line();  // #?RADIANCE
  while (line() != 0) {
  }        // variables, up to an empty line
  line();  // -Y height +X width
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
          fail(file,
               "is a damaged JPEG file: a Huffman table claims " + std::to_string(codes) + " codes (at most 256)");
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

void checkLimits(const fs::path& file, int64_t width, int64_t height, int channels, const ImageLimits& limits) {
  const std::string size = std::to_string(width) + "x" + std::to_string(height);
  if (width <= 0 || height <= 0 || width > kAbsurdDimension || height > kAbsurdDimension)
    fail(file, "claims an absurd size in its header (" + size + " pixels); the file is damaged");
  if (width > limits.maxDimension || height > limits.maxDimension)
    fail(file, "is " + size + " pixels; this device and OpenGL take at most " + std::to_string(limits.maxDimension) +
                   " pixels per side");
  if (static_cast<uint64_t>(width) * static_cast<uint64_t>(height) > limits.maxPixels)
    fail(file, "is " + size + " pixels; OpenGL here draws at most " + std::to_string(limits.maxPixels) +
                   " pixels of one picture (GL_MAX_TEXTURE_BUFFER_SIZE)");
  // At most 2^24 * 2^24 * 4 = 2^50: no overflow in 64 bits.
  const uint64_t bytes = static_cast<uint64_t>(width) * static_cast<uint64_t>(height) * channels;
  if (bytes > limits.maxBytes)
    fail(file, "needs " + formatBytes(bytes) + " as 8-bit " + (channels == 1 ? "gray" : "RGBA") + " (" + size +
                   "); this device takes at most " + formatBytes(limits.maxBytes) + " per image");
}

void checkDecoderBuffer(const fs::path& file, uint64_t width, uint64_t height, int extraRows, int samplesPerPixel,
                        int bytesPerSample, const std::string& what) {
  const uint64_t bytes = width * (height + extraRows) * static_cast<uint64_t>(samplesPerPixel) * bytesPerSample;
  if (bytes > kStbMaxBytes)
    fail(file, "is too large to decode: " + what + " " + std::to_string(width) + "x" + std::to_string(height) +
                   " takes " + formatBytes(bytes) + " in stb_image's decoder, which holds at most " +
                   formatBytes(kStbMaxBytes) +
                   (bytesPerSample == 2 ? " (saved with 8 bits per channel it opens)" : ""));
}

}  // namespace ks::image_checks
