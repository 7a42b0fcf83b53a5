// Image files (io/image_file.h): every format stb_image reads, written here by
// stb_image_write or byte by byte (16-bit PNG, palette PNG, PNM, GIF, PSD), and
// every kind of bad file the image lab can be handed. No downloaded images.
// Not covered: Softimage PIC (nothing writes it) and gray JPEG (stb_image_write
// only writes colour JPEG).
#include <gtest/gtest.h>

#include <stb_image_write.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "io/image_file.h"
#include "io/png_writer.h"
#include "gradient_picture.h"
#include "io/test_image.h"
#include "test_support.h"

namespace ks {
namespace {
namespace fs = std::filesystem;
using test::TempDir;
using Bytes = std::vector<uint8_t>;

const ImageLimits kRoomy{16384, uint64_t{1} << 30};

// ---- pixels ----------------------------------------------------------------------

// Deterministic noise: every byte value turns up in a few hundred samples.
Bytes noise(size_t count, uint32_t seed) {
  Bytes out(count);
  for (auto& b : out) {
    seed = seed * 1664525u + 1013904223u;
    b = static_cast<uint8_t>(seed >> 24);
  }
  return out;
}

// What loadImageFile should make of `channels`-channel 8-bit pixels.
Bytes expectedPixels(const Bytes& src, int channels) {
  if (channels == 1) return src;
  Bytes out;
  for (size_t i = 0; i < src.size(); i += channels) {
    const uint8_t* p = &src[i];
    if (channels == 2) out.insert(out.end(), {p[0], p[0], p[0], p[1]});
    else out.insert(out.end(), {p[0], p[1], p[2], channels == 4 ? p[3] : uint8_t{255}});
  }
  return out;
}

uint8_t round16(uint16_t v) { return static_cast<uint8_t>(std::lround(v * 255.0 / 65535.0)); }

std::string str(const Bytes& b) { return std::string(b.begin(), b.end()); }

std::string errorOf(const fs::path& file, const ImageLimits& limits = kRoomy) {
  try {
    const HostImage image = loadImageFile(file, limits);
    return "(no error: loaded " + image.description + ")";
  } catch (const ImageFileError& e) {
    return e.what();
  }
}

bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

// Every message names the file.
void expectError(const fs::path& file, const std::string& what, const ImageLimits& limits = kRoomy) {
  const std::string message = errorOf(file, limits);
  EXPECT_TRUE(contains(message, what)) << "expected '" << what << "' in: " << message;
  EXPECT_TRUE(contains(message, file.string())) << "the message should name the file: " << message;
}

// ---- hand-built files ----------------------------------------------------------------

std::string be16(uint32_t v) { return {static_cast<char>(v >> 8), static_cast<char>(v)}; }
std::string be32(uint32_t v) { return be16(v >> 16) + be16(v & 0xFFFF); }
std::string le16(uint32_t v) { return {static_cast<char>(v), static_cast<char>(v >> 8)}; }

uint32_t crc32(const std::string& data) {
  uint32_t crc = 0xFFFFFFFFu;
  for (unsigned char c : data) {
    crc ^= c;
    for (int k = 0; k < 8; ++k) crc = crc & 1 ? 0xEDB88320u ^ (crc >> 1) : crc >> 1;
  }
  return ~crc;
}

std::string pngChunk(const std::string& type, const std::string& data) {
  return be32(static_cast<uint32_t>(data.size())) + type + data + be32(crc32(type + data));
}

// zlib stream of stored (uncompressed) deflate blocks.
std::string zlibStored(const std::string& raw) {
  std::string out = "\x78\x01";
  size_t at = 0;
  do {
    const size_t n = std::min<size_t>(65535, raw.size() - at);
    const bool last = at + n == raw.size();
    out += static_cast<char>(last ? 1 : 0);
    out += le16(static_cast<uint32_t>(n)) + le16(static_cast<uint32_t>(~n & 0xFFFF));
    out += raw.substr(at, n);
    at += n;
  } while (at < raw.size());
  uint32_t a = 1, b = 0;
  for (unsigned char c : raw) {
    a = (a + c) % 65521;
    b = (b + a) % 65521;
  }
  return out + be32(b << 16 | a);
}

const std::string kPngSignature = "\x89PNG\r\n\x1a\n";

std::string pngHeader(uint32_t width, uint32_t height, int depth, int colourType) {
  return pngChunk("IHDR", be32(width) + be32(height) + static_cast<char>(depth) + static_cast<char>(colourType) +
                              std::string(3, '\0'));
}

// `rows`: the raw scanlines without filter bytes; `extra`: chunks before IDAT.
std::string handPng(uint32_t width, uint32_t height, int depth, int colourType, const std::vector<std::string>& rows,
                    const std::string& extra = {}) {
  std::string raw;
  for (const auto& row : rows) raw += '\0' + row;  // filter 0 (None)
  return kPngSignature + pngHeader(width, height, depth, colourType) + extra + pngChunk("IDAT", zlibStored(raw)) +
         pngChunk("IEND", "");
}

// 16-bit samples, row by row, big-endian as PNG and PNM store them.
std::vector<std::string> rows16(const std::vector<uint16_t>& samples, size_t perRow) {
  std::vector<std::string> rows;
  for (size_t i = 0; i < samples.size(); i += perRow) {
    std::string row;
    for (size_t k = 0; k < perRow; ++k) row += be16(samples[i + k]);
    rows.push_back(row);
  }
  return rows;
}

std::vector<uint16_t> samples16(size_t count, uint32_t seed) {
  // the awkward values first: both ends and both sides of a rounding boundary
  std::vector<uint16_t> out = {0, 65535, 128, 129, 0x0101 * 77, 32767, 32768, 65534, 257, 383, 384};
  const Bytes n = noise(count * 2, seed);
  for (size_t i = 0; out.size() < count; ++i) out.push_back(static_cast<uint16_t>(n[2 * i] << 8 | n[2 * i + 1]));
  out.resize(count);
  return out;
}

// GIF with a 128-colour table whose frames are full-canvas index images. LZW
// with 7-bit roots: a clear code every 100 indices keeps codes 8 bits wide, so
// each code is one byte.
std::string handGif(int width, int height, const Bytes& palette, const std::vector<Bytes>& frames) {
  std::string out = "GIF89a" + le16(width) + le16(height);
  out += static_cast<char>(0xF6);  // global table, 8-bit colour resolution, 2^(6+1) entries
  out += std::string(2, '\0');
  std::string table = str(palette);
  table.resize(128 * 3, '\0');
  out += table;
  for (const Bytes& frame : frames) {
    out += ',' + le16(0) + le16(0) + le16(width) + le16(height) + '\0';
    out += static_cast<char>(7);  // minimum code size
    std::string codes;
    for (size_t i = 0; i < frame.size(); ++i) {
      if (i % 100 == 0) codes += static_cast<char>(128);  // clear
      codes += static_cast<char>(frame[i]);
    }
    codes += static_cast<char>(129);  // end of information
    for (size_t at = 0; at < codes.size(); at += 255) {
      const std::string block = codes.substr(at, 255);
      out += static_cast<char>(block.size()) + block;
    }
    out += '\0';
  }
  return out + ';';
}

// Photoshop file, composite image only, raw planar channels.
std::string handPsd(int width, int height, int channels, int depth, const std::vector<uint16_t>& planar) {
  std::string out = "8BPS" + be16(1) + std::string(6, '\0') + be16(channels) + be32(height) + be32(width) +
                    be16(depth) + be16(3 /* RGB */) + be32(0) + be32(0) + be32(0) + be16(0 /* raw */);
  for (uint16_t v : planar) out += depth == 16 ? be16(v) : std::string(1, static_cast<char>(v));
  return out;
}

// ---- writing ----------------------------------------------------------------------

fs::path writeStb(const TempDir& dir, const std::string& name, int w, int h, int channels, const Bytes& pixels) {
  const fs::path file = dir / name;
  const std::string ext = file.extension().string();
  int ok = 0;
  if (ext == ".png") ok = stbi_write_png(file.c_str(), w, h, channels, pixels.data(), w * channels);
  else if (ext == ".bmp") ok = stbi_write_bmp(file.c_str(), w, h, channels, pixels.data());
  else if (ext == ".tga") ok = stbi_write_tga(file.c_str(), w, h, channels, pixels.data());
  else if (ext == ".jpg") ok = stbi_write_jpg(file.c_str(), w, h, channels, pixels.data(), 100);
  EXPECT_TRUE(ok) << "stb_image_write failed for " << file;
  return file;
}

fs::path writeBytes(const TempDir& dir, const std::string& name, const std::string& bytes) {
  const fs::path file = dir / name;
  test::writeFile(file, bytes);
  return file;
}

void expectImage(const HostImage& image, int w, int h, int channels, const Bytes& pixels) {
  EXPECT_EQ(image.width, w);
  EXPECT_EQ(image.height, h);
  EXPECT_EQ(image.channels, channels);
  ASSERT_EQ(image.pixels.size(), static_cast<size_t>(w) * h * channels);
  size_t wrong = 0, first = 0;
  for (size_t i = 0; i < pixels.size(); ++i)
    if (image.pixels[i] != pixels[i] && wrong++ == 0) first = i;
  EXPECT_EQ(wrong, 0u) << "first difference at byte " << first << ": " << int(image.pixels[first]) << " instead of "
                       << int(pixels[first]) << " (" << image.description << ")";
}

// ---- lossless formats, bit-exact -------------------------------------------------------

TEST(ImageFile, Png8BitAllLayouts) {
  TempDir dir("ks-image-png");
  const char* layouts[] = {"", "gray", "gray+alpha", "RGB", "RGBA"};
  for (int channels = 1; channels <= 4; ++channels) {
    SCOPED_TRACE(channels);
    const int w = 37, h = 23;
    const Bytes pixels = noise(static_cast<size_t>(w) * h * channels, 10 + channels);
    const HostImage image = loadImageFile(writeStb(dir, "c" + std::to_string(channels) + ".png", w, h, channels, pixels), kRoomy);
    expectImage(image, w, h, channels == 1 ? 1 : 4, expectedPixels(pixels, channels));
    EXPECT_EQ(image.description, std::string("PNG 8-bit ") + layouts[channels] + " 37x23");
  }
}

TEST(ImageFile, Png16BitRoundsToNearest) {
  TempDir dir("ks-image-png16");
  const std::pair<int, int> colourTypes[] = {{0, 1}, {4, 2}, {2, 3}, {6, 4}};  // PNG colour type, channels
  for (const auto& [colourType, channels] : colourTypes) {
    SCOPED_TRACE(colourType);
    const int w = 5, h = 4;
    const std::vector<uint16_t> samples = samples16(static_cast<size_t>(w) * h * channels, colourType + 1);
    const fs::path file = writeBytes(dir, "p16.png", handPng(w, h, 16, colourType, rows16(samples, w * channels)));
    Bytes rounded;
    for (uint16_t v : samples) rounded.push_back(round16(v));
    const HostImage image = loadImageFile(file, kRoomy);
    expectImage(image, w, h, channels == 1 ? 1 : 4, expectedPixels(rounded, channels));
    EXPECT_TRUE(contains(image.description, "PNG 16-bit ")) << image.description;
  }
  // the brief's example description
  const std::vector<uint16_t> ga = samples16(640 * 2, 3);
  const HostImage wide = loadImageFile(writeBytes(dir, "ga.png", handPng(640, 1, 16, 4, rows16(ga, 640 * 2))), kRoomy);
  EXPECT_EQ(wide.description, "PNG 16-bit gray+alpha 640x1");
}

TEST(ImageFile, PngPaletteAndTransparencyBecomeRgba) {
  TempDir dir("ks-image-palette");
  // 3x2, palette of 3 colours, entry 2 half transparent
  const std::string plte("\xFF\x00\x00"
                         "\x00\xFF\x00"
                         "\x00\x00\xFF",
                         9);
  const std::string trns = std::string("\xFF\xFF\x80", 3);
  const std::string png = handPng(3, 2, 8, 3, {std::string("\x00\x01\x02", 3), std::string("\x02\x01\x00", 3)},
                                  pngChunk("PLTE", plte) + pngChunk("tRNS", trns));
  const HostImage image = loadImageFile(writeBytes(dir, "pal.png", png), kRoomy);
  expectImage(image, 3, 2, 4,
              {255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 128, 0, 0, 255, 128, 0, 255, 0, 255, 255, 0, 0, 255});
  EXPECT_EQ(image.description, "PNG 8-bit palette RGBA 3x2");

  // gray with a tRNS colour key: gray+alpha, so RGBA
  const std::string keyed =
      handPng(2, 1, 8, 0, {std::string("\x10\x20", 2)}, pngChunk("tRNS", std::string("\x00\x20", 2)));
  expectImage(loadImageFile(writeBytes(dir, "key.png", keyed), kRoomy), 2, 1, 4,
              {0x10, 0x10, 0x10, 255, 0x20, 0x20, 0x20, 0});

  // 1-bit gray: stb_image scales 1 to 255
  const HostImage bits = loadImageFile(writeBytes(dir, "bits.png", handPng(5, 1, 1, 0, {"\xA8"})), kRoomy);
  expectImage(bits, 5, 1, 1, {255, 0, 255, 0, 255});
  EXPECT_EQ(bits.description, "PNG 1-bit gray 5x1");
}

TEST(ImageFile, BmpAndTga) {
  TempDir dir("ks-image-bmp-tga");
  const int w = 37, h = 23;
  for (int channels : {3, 4}) {
    SCOPED_TRACE(channels);
    Bytes pixels = noise(static_cast<size_t>(w) * h * channels, 20 + channels);
    const HostImage image = loadImageFile(writeStb(dir, "b.bmp", w, h, channels, pixels), kRoomy);
    expectImage(image, w, h, 4, expectedPixels(pixels, channels));
    EXPECT_TRUE(contains(image.description, "BMP 8-bit")) << image.description;
  }
  for (int channels = 1; channels <= 4; ++channels) {
    SCOPED_TRACE(channels);
    const Bytes pixels = noise(static_cast<size_t>(w) * h * channels, 30 + channels);
    const HostImage image = loadImageFile(writeStb(dir, "t.tga", w, h, channels, pixels), kRoomy);
    expectImage(image, w, h, channels == 1 ? 1 : 4, expectedPixels(pixels, channels));
    EXPECT_TRUE(contains(image.description, "TGA 8-bit")) << image.description;
  }
}

// A negative height in a BMP header: rows stored top-down, which many programs
// write. stbi_info reports the height negative; it was refused as an absurd size.
TEST(ImageFile, TopDownBmp) {
  TempDir dir("ks-image-bmp-topdown");
  const int w = 37, h = 23, stride = (w * 3 + 3) / 4 * 4;
  const Bytes pixels = noise(static_cast<size_t>(w) * h * 3, 26);
  std::string bmp = test::readFile(writeStb(dir, "bottom-up.bmp", w, h, 3, pixels));
  const size_t offset = static_cast<unsigned char>(bmp[10]) | static_cast<unsigned char>(bmp[11]) << 8;
  ASSERT_EQ(bmp.size(), offset + static_cast<size_t>(stride) * h);
  std::string topDown = bmp.substr(0, offset);
  for (int row = h - 1; row >= 0; --row) topDown += bmp.substr(offset + static_cast<size_t>(row) * stride, stride);
  const uint32_t negative = static_cast<uint32_t>(-h);
  for (int i = 0; i < 4; ++i) topDown[22 + i] = static_cast<char>(negative >> (8 * i));
  const HostImage image = loadImageFile(writeBytes(dir, "top-down.bmp", topDown), kRoomy);
  expectImage(image, w, h, 4, expectedPixels(pixels, 3));
  EXPECT_TRUE(contains(image.description, "37x23")) << image.description;
}

TEST(ImageFile, Pnm) {
  TempDir dir("ks-image-pnm");
  const Bytes gray = noise(6 * 4, 40);
  const HostImage pgm = loadImageFile(writeBytes(dir, "g.pgm", "P5\n# a comment\n6 4\n255\n" + str(gray)), kRoomy);
  expectImage(pgm, 6, 4, 1, gray);
  EXPECT_EQ(pgm.description, "PNM 8-bit gray 6x4");

  const Bytes rgb = noise(6 * 4 * 3, 41);
  expectImage(loadImageFile(writeBytes(dir, "c.ppm", "P6 6 4 255\n" + str(rgb)), kRoomy), 6, 4, 4,
              expectedPixels(rgb, 3));

  // 16-bit: big-endian samples, rounded
  const std::vector<uint16_t> wide = samples16(6 * 4, 42);
  std::string body;
  for (const auto& row : rows16(wide, 6)) body += row;
  Bytes rounded;
  for (uint16_t v : wide) rounded.push_back(round16(v));
  const HostImage pgm16 = loadImageFile(writeBytes(dir, "g16.pgm", "P5\n6 4\n65535\n" + body), kRoomy);
  expectImage(pgm16, 6, 4, 1, rounded);
  EXPECT_EQ(pgm16.description, "PNM 16-bit gray 6x4");

  // 10-bit: scaled by the maximum value, not cut
  const std::vector<uint16_t> tenBit = {0, 1, 2, 511, 512, 1022, 1023, 1023, 0};
  std::string tenBody;
  Bytes tenExpected;
  for (uint16_t v : tenBit) {
    tenBody += be16(v);
    tenExpected.push_back(static_cast<uint8_t>(std::lround(v * 255.0 / 1023.0)));
  }
  const HostImage ppm10 = loadImageFile(writeBytes(dir, "c10.ppm", "P6\n3 1\n1023\n" + tenBody), kRoomy);
  expectImage(ppm10, 3, 1, 4, expectedPixels(tenExpected, 3));
  EXPECT_EQ(ppm10.description, "PNM 10-bit RGB 3x1");
}

// Plain PGM and PPM (P2, P3): the samples as decimal numbers. stb_image reads neither.
TEST(ImageFile, PlainPnm) {
  TempDir dir("ks-image-plain-pnm");
  const HostImage pgm =
      loadImageFile(writeBytes(dir, "g.pgm", "P2\n# made by hand\n3 2\n255\n0 17 255\n  128\t1\n2\n"), kRoomy);
  expectImage(pgm, 3, 2, 1, {0, 17, 255, 128, 1, 2});
  EXPECT_EQ(pgm.description, "PNM 8-bit gray 3x2, plain text");
  // 10-bit, comments between samples, a sample over the maximum clamped as in binary files
  const HostImage ppm =
      loadImageFile(writeBytes(dir, "c.ppm", "P3 2 1 1023\n0 511 1023 # first pixel\n1023 0 4000\n"), kRoomy);
  expectImage(ppm, 2, 1, 4, {0, 127, 255, 255, 255, 0, 255, 255});
  EXPECT_EQ(ppm.description, "PNM 10-bit RGB 2x1, plain text");

  expectError(writeBytes(dir, "short.ppm", "P3 2 1 255\n100 200 30 40 50"),
              "is a truncated PNM file: it holds 5 of the 6 samples its header promises");
  expectError(writeBytes(dir, "word.pgm", "P2 2 2 255\n1 2 x 4\n"), "is a damaged PNM file: sample 3 is not a number");
  // a header claiming more samples than the file could hold is refused before anything is allocated
  expectError(writeBytes(dir, "claims.pgm", "P2 4000 4000 255\n1 2 3\n"),
              "is a truncated PNM file: 23 bytes, the header needs at least 32000016");
  // PNM kinds without a decoder, said as what they are
  expectError(writeBytes(dir, "bits.pbm", "P1\n2 2\n0 1\n1 0\n"),
              "is a PBM bitmap (P1); the image lab reads PGM and PPM files (P2, P3, P5, P6)");
  expectError(writeBytes(dir, "bits4.pbm", "P4\n8 1\n\xAA"), "is a PBM bitmap (P4)");
  expectError(writeBytes(dir, "a.pam", "P7\nWIDTH 1\nHEIGHT 1\nDEPTH 1\nMAXVAL 255\nTUPLTYPE GRAYSCALE\nENDHDR\n\x10"),
              "is a PAM file (P7)");
  expectError(writeBytes(dir, "f.pfm", "PF\n1 1\n-1.0\n" + std::string(12, '\0')), "is a floating-point PFM file (PF)");
}

TEST(ImageFile, GifGivesTheFirstFrame) {
  TempDir dir("ks-image-gif");
  const int w = 7, h = 30;  // 210 pixels: more than one LZW clear run
  Bytes palette;
  for (int i = 0; i < 128; ++i) palette.insert(palette.end(), {uint8_t(i * 2), uint8_t(255 - i), uint8_t(i * 7)});
  Bytes first = noise(w * h, 50), second(w * h, 5);
  for (auto& i : first) i &= 127;
  const HostImage image = loadImageFile(writeBytes(dir, "anim.gif", handGif(w, h, palette, {first, second})), kRoomy);
  Bytes expected;
  for (uint8_t i : first) expected.insert(expected.end(), {palette[i * 3], palette[i * 3 + 1], palette[i * 3 + 2], 255});
  expectImage(image, w, h, 4, expected);
  EXPECT_EQ(image.description, "GIF 8-bit RGBA 7x30 (first frame)");
}

TEST(ImageFile, Psd) {
  TempDir dir("ks-image-psd");
  // 8-bit RGB: planar R, G, B
  const int w = 3, h = 2;
  const Bytes rgb = noise(w * h * 3, 60);
  std::vector<uint16_t> planar;
  for (int c = 0; c < 3; ++c)
    for (int i = 0; i < w * h; ++i) planar.push_back(rgb[i * 3 + c]);
  const HostImage image = loadImageFile(writeBytes(dir, "rgb.psd", handPsd(w, h, 3, 8, planar)), kRoomy);
  expectImage(image, w, h, 4, expectedPixels(rgb, 3));
  EXPECT_EQ(image.description, "PSD 8-bit RGB 3x2") << "the file's channels, not stb_image's 4";

  // 16-bit RGBA, alpha 0 or 65535 only (stb_image un-mattes partial alpha)
  std::vector<uint16_t> rgba = samples16(w * h * 4, 61);
  for (int i = 0; i < w * h; ++i) rgba[i * 4 + 3] = i % 2 ? 65535 : 0;
  std::vector<uint16_t> planar16;
  for (int c = 0; c < 4; ++c)
    for (int i = 0; i < w * h; ++i) planar16.push_back(rgba[i * 4 + c]);
  Bytes rounded;
  for (uint16_t v : rgba) rounded.push_back(round16(v));
  const HostImage image16 = loadImageFile(writeBytes(dir, "rgba16.psd", handPsd(w, h, 4, 16, planar16)), kRoomy);
  expectImage(image16, w, h, 4, rounded);
  EXPECT_EQ(image16.description, "PSD 16-bit RGBA 3x2");

  // What stb_image cannot read, said as what it is (it was "damaged")
  auto withMode = [&](std::string psd, int version, int depth, int mode) {
    psd.replace(4, 2, be16(version));
    psd.replace(22, 2, be16(depth));
    psd.replace(24, 2, be16(mode));
    return psd;
  };
  const std::string rgb8 = handPsd(w, h, 3, 8, planar);
  expectError(
      writeBytes(dir, "gray.psd", withMode(rgb8, 1, 8, 1)),
      "is a grayscale PSD file; stb_image reads only RGB PSD files (save it as an 8- or 16-bit RGB PSD, or as PNG)");
  expectError(writeBytes(dir, "cmyk.psd", withMode(rgb8, 1, 8, 4)), "is a CMYK PSD file; stb_image reads only RGB PSD");
  expectError(writeBytes(dir, "float.psd", withMode(rgb8, 1, 32, 3)),
              "is a 32-bit PSD file; stb_image reads 8- and 16-bit PSD files");
  expectError(writeBytes(dir, "large.psb", withMode(rgb8, 2, 8, 3)),
              "is a PSB (Photoshop large document) file; stb_image reads only PSD");
  expectError(writeBytes(dir, "v7.psd", withMode(rgb8, 7, 8, 3)), "is a damaged PSD file: version 7 in its header");
}

// stb_image decodes into one buffer whose size it keeps in an int: a 16-bit or HDR
// image can fit the device as 8-bit and still not fit the decoder.
TEST(ImageFile, TooLargeForTheDecoderSaysSo) {
  TempDir dir("ks-image-decoder-size");
  const std::string tail = pngChunk("IDAT", zlibStored(std::string(1, '\0'))) + pngChunk("IEND", "");
  // 16384x16384 RGBA is 1 GiB as 8-bit (within kRoomy) and 2 GiB + a row in the decoder
  expectError(
      writeBytes(dir, "big16.png", kPngSignature + pngHeader(16384, 16384, 16, 6) + tail),
      "is too large to decode: 16-bit RGBA 16384x16384 takes 2.0 GiB (2147614720 bytes) in stb_image's decoder, "
      "which holds at most 2.0 GiB (2147483647 bytes) (saved with 8 bits per channel it opens)");
  // 16-bit gray: 1 channel here, 2 bytes a sample there
  expectError(writeBytes(dir, "gray16.png", kPngSignature + pngHeader(16384, 16384, 16, 0) + tail),
              "is a damaged or truncated PNG file", kRoomy);
  const ImageLimits wideGray{32768, uint64_t{1} << 30};
  expectError(writeBytes(dir, "gray16-wide.png", kPngSignature + pngHeader(32768, 32768, 16, 0) + tail),
              "is too large to decode: 16-bit gray 32768x32768 takes 2.0 GiB", wideGray);
  // the same size at 8 bits fits the decoder: refused only for its missing pixels
  const std::string message8 =
      errorOf(writeBytes(dir, "big8.png", kPngSignature + pngHeader(16384, 16384, 8, 6) + tail));
  EXPECT_TRUE(contains(message8, "is a damaged or truncated PNG file")) << message8;
  // HDR: 3 floats a pixel
  expectError(
      writeBytes(dir, "big.hdr", "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 16384 +X 16384\n" + std::string(64, '\x01')),
      "is too large to decode: HDR 16384x16384 takes 3.0 GiB (3221225472 bytes)");
}

// ---- lossy and high dynamic range ---------------------------------------------------------

TEST(ImageFile, JpegIsClose) {
  TempDir dir("ks-image-jpeg");
  const int w = 64, h = 48;
  Bytes pixels;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) pixels.insert(pixels.end(), {uint8_t(x * 4), uint8_t(y * 5), uint8_t(200 - x - y)});
  const HostImage image = loadImageFile(writeStb(dir, "smooth.jpg", w, h, 3, pixels), kRoomy);
  ASSERT_EQ(image.width, w);
  ASSERT_EQ(image.height, h);
  ASSERT_EQ(image.channels, 4);
  double error = 0;
  for (size_t i = 0; i < static_cast<size_t>(w) * h; ++i) {
    for (int c = 0; c < 3; ++c) error += std::abs(image.pixels[i * 4 + c] - pixels[i * 3 + c]);
    EXPECT_EQ(image.pixels[i * 4 + 3], 255);
  }
  EXPECT_LT(error / (w * h * 3), 3.0) << "mean absolute error of a quality-100 JPEG";
  EXPECT_EQ(image.description, "JPEG 8-bit RGB 64x48");
}

// Reinhard then sRGB, written out independently of the code under test.
double expectedToneMapped(double linear) {
  const double x = linear / (1 + linear);
  return 255 * (x <= 0.0031308 ? 12.92 * x : 1.055 * std::pow(x, 1 / 2.4) - 0.055);
}

TEST(ImageFile, HdrIsToneMapped) {
  TempDir dir("ks-image-hdr");
  // RGBE shares one exponent per pixel: a gray ramp keeps every value to about
  // 8 significant bits; the last pixel is coloured with modest ratios.
  const std::vector<float> values = {0.0f, 0.001f, 0.05f, 0.25f, 0.5f, 1.0f, 2.0f, 4.0f, 16.0f, 100.0f, 1000.0f, 65000.0f};
  std::vector<float> pixels;
  for (float v : values) pixels.insert(pixels.end(), {v, v, v});
  pixels.insert(pixels.end(), {2.0f, 1.0f, 0.5f});
  const int w = static_cast<int>(values.size()) + 1;
  const fs::path file = dir / "ramp.hdr";
  ASSERT_TRUE(stbi_write_hdr(file.c_str(), w, 1, 3, pixels.data()));
  const HostImage image = loadImageFile(file, kRoomy);
  ASSERT_EQ(image.width, w);
  ASSERT_EQ(image.height, 1);
  ASSERT_EQ(image.channels, 4);
  for (int i = 0; i < w; ++i) {
    SCOPED_TRACE(i);
    for (int c = 0; c < 3; ++c) EXPECT_NEAR(image.pixels[i * 4 + c], expectedToneMapped(pixels[i * 3 + c]), 2.0);
    EXPECT_EQ(image.pixels[i * 4 + 3], 255);
    if (i > 0 && i < w - 1) {
      EXPECT_GE(image.pixels[i * 4], image.pixels[(i - 1) * 4]) << "tone mapping keeps the order";
    }
  }
  EXPECT_EQ(image.pixels[0], 0);
  EXPECT_GE(image.pixels[(w - 2) * 4], 254) << "the brightest value ends near white";
  EXPECT_LT(image.pixels[5 * 4], 200) << "1.0 maps to mid-bright (Reinhard: 0.5 linear), not white";
  EXPECT_TRUE(contains(image.description, "HDR float RGB 13x1, tone-mapped")) << image.description;
}

// ---- bad files --------------------------------------------------------------------

TEST(ImageFile, MissingDirectoryEmptyAndOtherNonFiles) {
  TempDir dir("ks-image-nonfile");
  expectError(dir / "no-such.png", "does not exist");
  expectError(dir / "no-such-dir/x.png", "does not exist");
  fs::create_directory(dir / "folder.png");
  expectError(dir / "folder.png", "is a directory");
  expectError(writeBytes(dir, "empty.png", ""), "is empty");
  fs::create_symlink(dir / "gone.png", dir / "dangling.png");
  expectError(dir / "dangling.png", "symbolic link to a file that does not exist");
  ASSERT_EQ(mkfifo((dir / "pipe.png").c_str(), 0600), 0);
  expectError(dir / "pipe.png", "not a regular file");  // and does not hang reading it
  EXPECT_THROW(loadImageFile("", kRoomy), ImageFileError);
}

TEST(ImageFile, UnreadableFile) {
  if (geteuid() == 0) GTEST_SKIP() << "running as root: permission bits do not stop root from reading";
  TempDir dir("ks-image-unreadable");
  const fs::path file = writeStb(dir, "locked.png", 2, 2, 1, {1, 2, 3, 4});
  fs::permissions(file, fs::perms::none);
  expectError(file, "cannot be read: Permission denied");
}

TEST(ImageFile, NotAnImage) {
  TempDir dir("ks-image-notimage");
  expectError(writeBytes(dir, "notes.png", "These are notes, not a picture.\nSecond line.\n"), "is a text file");
  expectError(writeBytes(dir, "noise.png", str(noise(4096, 70))), "is not an image stb_image can read");
}

TEST(ImageFile, TruncatedAndCorruptFiles) {
  TempDir dir("ks-image-truncated");
  const std::string whole = test::readFile(writeStb(dir, "whole.png", 64, 64, 4, noise(64 * 64 * 4, 80)));
  expectError(writeBytes(dir, "half.png", whole.substr(0, whole.size() / 2)),
              "is a damaged or truncated PNG file: its IDAT chunk claims ");
  // found by the fuzzer: a chunk claiming far more than the file holds (stb_image
  // 2.27 reserved that much memory before noticing)
  std::string hugeChunk = whole.substr(0, whole.find("IDAT") - 4) + be32(0x60000000) + "IDAT" + std::string(100, 'x');
  expectError(writeBytes(dir, "huge-chunk.png", hugeChunk),
              "is a damaged or truncated PNG file: its IDAT chunk claims 1610612736 bytes of data, the file has 100 left");
  expectError(writeBytes(dir, "sig-only.png", whole.substr(0, 8)),
              "is a truncated PNG file: 8 bytes, its header alone takes 33");
  // cut inside a chunk's header (stb_image's reason quoted the cut type, "IDA?")
  const size_t idatType = whole.find("IDAT");
  expectError(
      writeBytes(dir, "cut-header.png", whole.substr(0, idatType + 3)),
      "is a truncated PNG file: it ends after " + std::to_string(idatType + 3) + " bytes, before its IEND chunk");
  // fixed headers cut short: stbi_info read zeros past the end ("0x0 pixels")
  expectError(writeBytes(dir, "six.gif", "GIF89a"), "is a truncated GIF file: 6 bytes, its header alone takes 13");
  expectError(writeBytes(dir, "short-head.bmp", "BM" + std::string(10, '\0')),
              "is a truncated BMP file: 12 bytes, its header alone takes 26");
  expectError(writeBytes(dir, "short-head.psd", "8BPS" + be16(1)),
              "is a truncated PSD file: 6 bytes, its header alone takes 26");

  std::string badZlib = whole;
  const size_t idat = badZlib.find("IDAT");
  ASSERT_NE(idat, std::string::npos);
  badZlib[idat + 4] = badZlib[idat + 5] = '\xFF';
  expectError(writeBytes(dir, "badzlib.png", badZlib), "(stb_image: ");

  expectError(writeBytes(dir, "ctype.png", kPngSignature + pngHeader(4, 4, 8, 5) + pngChunk("IEND", "")),
              "is a damaged PNG file: its header is unreadable");

  // uncompressed formats whose pixels stop early: stb_image would read zeros or garbage
  expectError(writeBytes(dir, "short.pgm", "P5\n6 4\n255\n" + std::string(10, 'x')), "is a truncated PNM file");
  const std::string bmp = test::readFile(writeStb(dir, "whole.bmp", 16, 16, 3, noise(16 * 16 * 3, 81)));
  expectError(writeBytes(dir, "short.bmp", bmp.substr(0, bmp.size() - 100)), "is a truncated BMP file");
  expectError(writeBytes(dir, "zero-max.pgm", "P5\n2 2\n0\n" + std::string(4, 'x')), "is a damaged PNM file");
  // found by the fuzzer: header numbers that overflow stb_image's int
  expectError(writeBytes(dir, "long-height.ppm", "P6\n3\n35555555555555 2\n1+23\n"), "is a damaged PNM file: its header is unreadable");
  expectError(writeBytes(dir, "big-height.ppm", "P6\n3 3000000000\n255\n" + std::string(9, 'x')),
              "claims an absurd size in its header (3x3000000000 pixels)");
  expectError(writeBytes(dir, "big-max.pgm", "P5\n1 1\n3000000000\n" + std::string(4, 'x')),
              "is a damaged PNM file: its maximum sample value 3000000000 is over 65535");

  // a Huffman table with more codes than stb_image 2.27's tables hold
  const std::string jpeg = test::readFile(writeStb(dir, "whole.jpg", 16, 16, 3, noise(16 * 16 * 3, 82)));
  std::string badTable = jpeg;
  const size_t dht = badTable.find("\xFF\xC4");
  ASSERT_NE(dht, std::string::npos);
  badTable[dht + 5] = '\xFF';  // count of 1-bit codes in the first table
  expectError(writeBytes(dir, "huffman.jpg", badTable), "is a damaged JPEG file: a Huffman table claims");
  // found by the fuzzer: the same, in a table the end of the file cuts short
  // (stb_image reads zeros for the missing counts and overran its code sizes)
  const size_t sof = jpeg.find("\xFF\xC0");
  ASSERT_NE(sof, std::string::npos);
  const std::string header = jpeg.substr(0, sof + 2 + (uint8_t(jpeg[sof + 2]) << 8 | uint8_t(jpeg[sof + 3])));
  const std::string cutTable = header + std::string("\xFF\xC4\x01\xA2\x00\x50\x35\x0A\x23\x20\x01\x05\x01\x01\x01\x73", 16);
  expectError(writeBytes(dir, "huffman-cut.jpg", cutTable),
              "is a damaged JPEG file: a Huffman table claims 334 codes (at most 256)");
  // found by the fuzzer: an empty first IDAT chunk (valid; stb_image copies 0
  // bytes to a null pointer there, which the fuzzer build no longer flags)
  const size_t firstIdat = whole.find("IDAT") - 4;
  const std::string emptyIdat = whole.substr(0, firstIdat) + pngChunk("IDAT", "") + whole.substr(firstIdat);
  EXPECT_EQ(loadImageFile(writeBytes(dir, "empty-idat.png", emptyIdat), kRoomy).pixels,
            loadImageFile(dir / "whole.png", kRoomy).pixels);
  // found by the fuzzer: a scan using a table never defined (here the AC table
  // 0 is turned into a second DC table 0)
  std::string undefinedTable = jpeg;
  size_t tableAt = dht + 4;  // walk the DHT's tables to find the AC 0 one exactly
  while (uint8_t(undefinedTable[tableAt]) != 0x10) {
    ASSERT_LT(tableAt, undefinedTable.size()) << "no AC table 0 in the JPEG";
    int codes = 0;
    for (int i = 1; i <= 16; ++i) codes += uint8_t(undefinedTable[tableAt + i]);
    tableAt += 17 + codes;
    if (undefinedTable.compare(tableAt, 2, "\xFF\xC4") == 0) tableAt += 4;  // the next DHT segment
  }
  undefinedTable[tableAt] = '\x00';
  expectError(writeBytes(dir, "undefined-table.jpg", undefinedTable),
              "is a damaged JPEG file: a scan uses a Huffman table the file does not define before it");
  // found by the fuzzer: fill bytes before SOI make it a JPEG all the same
  expectError(writeBytes(dir, "huffman-fill.jpg", std::string(20, '\xFF') + badTable.substr(1)),
              "is a damaged JPEG file: a Huffman table claims");
  const HostImage filled = loadImageFile(writeBytes(dir, "fill.jpg", std::string(5, '\xFF') + jpeg.substr(1)), kRoomy);
  EXPECT_EQ(filled.description, "JPEG 8-bit RGB 16x16");

  // HDR scanlines that stb_image 2.27 would loop on forever (CVE-2021-42715)
  std::vector<float> gray(19 * 3 * 3, 0.5f);
  ASSERT_TRUE(stbi_write_hdr((dir / "whole.hdr").c_str(), 19, 3, 3, gray.data()));
  const std::string hdr = test::readFile(dir / "whole.hdr");
  expectError(writeBytes(dir, "short.hdr", hdr.substr(0, hdr.size() - 5)), "is a truncated HDR file");
  const std::string zeroRun = "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 1 +X 8\n" + std::string("\2\2\0\x08\0", 5) +
                              std::string(64, '\x81');
  expectError(writeBytes(dir, "zero-run.hdr", zeroRun), "is a damaged HDR file: a scanline holds a run of length 0");
}

TEST(ImageFile, HugeHeaderIsRejectedBeforeDecoding) {
  TempDir dir("ks-image-huge");
  // 100000 x 100000 RGBA would be 40 GB; the file is 70 bytes.
  const fs::path claim =
      writeBytes(dir, "claims-huge.png", kPngSignature + pngHeader(100000, 100000, 8, 6) + pngChunk("IEND", ""));
  const auto start = std::chrono::steady_clock::now();
  expectError(claim, "is 100000x100000 pixels; this device and OpenGL take at most 16384 pixels per side");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(1));

  // limits that allow the sides: the bytes are too many
  const ImageLimits wide{1 << 20, uint64_t{1} << 30};
  expectError(claim, "needs 37.3 GiB (40000000000 bytes) as 8-bit RGBA (100000x100000); this device takes at most 1.0 GiB "
              "(1073741824 bytes) per image", wide);

  // beyond anything stb_image decodes: the header is damaged
  const ImageLimits unlimited{INT_MAX, UINT64_MAX};
  expectError(writeBytes(dir, "absurd.png", kPngSignature + pngHeader(40000000, 16, 8, 0) + pngChunk("IEND", "")),
              "claims an absurd size in its header (40000000x16 pixels)", unlimited);
  expectError(writeBytes(dir, "zero.pgm", "P5\n0 5\n255\n"), "claims an absurd size in its header (0x5 pixels)");
}

TEST(ImageFile, DeviceLimits) {
  TempDir dir("ks-image-limits");
  const fs::path rgba = writeStb(dir, "40x30.png", 40, 30, 4, noise(40 * 30 * 4, 90));
  expectError(rgba, "is 40x30 pixels; this device and OpenGL take at most 32 pixels per side", {32, 1 << 30});
  EXPECT_NO_THROW(loadImageFile(rgba, {40, 40 * 30 * 4}));
  expectError(rgba, "needs 4.7 KiB (4800 bytes) as 8-bit RGBA (40x30); this device takes at most 4.7 KiB (4799 bytes) per image",
              {16384, 40 * 30 * 4 - 1});
  // gray stays one byte per pixel, so it fits where RGBA does not
  const fs::path gray = writeStb(dir, "gray.png", 40, 30, 1, noise(40 * 30, 91));
  EXPECT_NO_THROW(loadImageFile(gray, {16384, 40 * 30}));
  // a tRNS chunk turns a gray PNG into RGBA: caught after decoding
  const std::string keyed =
      handPng(40, 30, 8, 0, std::vector<std::string>(30, std::string(40, '\x07')), pngChunk("tRNS", std::string("\0\7", 2)));
  expectError(writeBytes(dir, "keyed.png", keyed), "needs 4.7 KiB (4800 bytes) as 8-bit RGBA", {16384, 40 * 30});
}

TEST(ImageFile, FileTooBigToRead) {
  TempDir dir("ks-image-bigfile");
  const ImageLimits small{16384, 1000};
  EXPECT_EQ(maxImageFileBytes(small), 4000u + 4 * 1024 * 1024);
  EXPECT_EQ(maxImageFileBytes(kRoomy), uint64_t{INT_MAX}) << "capped: stb_image takes an int length";
  // a 16384x16384 32-bit BMP is 1 GiB of pixels and a header (54 to 138 bytes): it was refused at a 1 GiB cap
  EXPECT_GT(maxImageFileBytes(kRoomy), (uint64_t{1} << 30) + 138);
  const std::string big = kPngSignature + std::string(maxImageFileBytes(small), '\0');
  expectError(writeBytes(dir, "big.png", big), "is 4.0 MiB (4198312 bytes); image files for this device are limited to 4.0 MiB (4198304 bytes)", small);
}

// decodeImage is loadImageFile without the file: same result, same refusals,
// the given name in its messages (the fuzzer drives it).
TEST(ImageFile, DecodeFromMemoryMatchesTheFile) {
  TempDir dir("ks-image-memory");
  const Bytes pixels = noise(23 * 11 * 4, 7);
  const fs::path file = writeStb(dir, "m.png", 23, 11, 4, pixels);
  const std::string text = test::readFile(file);
  const HostImage fromMemory = decodeImage(Bytes(text.begin(), text.end()), "memory.png", kRoomy);
  const HostImage fromFile = loadImageFile(file, kRoomy);
  expectImage(fromMemory, 23, 11, 4, pixels);
  EXPECT_EQ(fromMemory.pixels, fromFile.pixels);
  EXPECT_EQ(fromMemory.description, fromFile.description);
  try {
    decodeImage({}, "nothing.png", kRoomy);
    ADD_FAILURE() << "no bytes decoded";
  } catch (const ImageFileError& e) {
    EXPECT_EQ(std::string(e.what()), "'nothing.png' is empty (0 bytes)");
  }
  const ImageLimits tiny{16384, 1};
  const Bytes big(maxImageFileBytes(tiny) + 1, 0);
  try {
    decodeImage(big, "big.bin", tiny);
    ADD_FAILURE() << "more bytes than the limit decoded";
  } catch (const ImageFileError& e) {
    EXPECT_NE(std::string(e.what()).find("'big.bin' is 4.0 MiB"), std::string::npos) << e.what();
  }
}

// stb_image only ever sets its failure reason, and stbi_load's format probes set
// one before the decoder runs ("bad png sig" on the way to a JPEG decoder): a
// decoder that fails without saying why must not be shown with a reason left
// over from somewhere else. Each message names its own format's reason, or none.
TEST(ImageFile, DecodeFailureGivesOnlyTheDecodersOwnReason) {
  TempDir dir("ks-image-reason");
  auto noReason = [](const fs::path& file, const std::string& format) {
    return "'" + file.string() + "' is a damaged or truncated " + format + " file";
  };
  auto withReason = [&](const fs::path& file, const std::string& format, const std::string& reason) {
    return noReason(file, format) + " (stb_image: " + reason + ")";
  };
  // A JPEG cut inside its Huffman tables: stb_image's JPEG decoder fails without a reason.
  const std::string jpeg = test::readFile(writeStb(dir, "whole.jpg", 64, 64, 3, noise(64 * 64 * 3, 83)));
  const size_t dht = jpeg.find("\xFF\xC4");
  ASSERT_NE(dht, std::string::npos);
  const fs::path cutTables = writeBytes(dir, "cut-tables.jpg", jpeg.substr(0, dht + 8));
  EXPECT_EQ(errorOf(cutTables), noReason(cutTables, "JPEG"));
  // ... cut inside its scan data: the decoder's own reason (stb_image 2.27's words).
  const size_t sos = jpeg.find("\xFF\xDA");
  ASSERT_NE(sos, std::string::npos);
  const fs::path cutScan = writeBytes(dir, "cut-scan.jpg", jpeg.substr(0, sos + (jpeg.size() - sos) / 2));
  EXPECT_EQ(errorOf(cutScan), withReason(cutScan, "JPEG", "expected marker"));

  // A PNG whose deflate stream stops in the middle of the pixels (the IDAT chunk itself is whole).
  const int w = 19, h = 13;
  std::string raw;
  for (int y = 0; y < h; ++y) raw += '\0' + str(noise(w * 4, 84 + y));
  const std::string half = raw.substr(0, raw.size() / 2);
  const std::string cutStream = std::string("\x78\x01\x00", 3) + le16(static_cast<uint32_t>(half.size())) +
                                le16(~static_cast<uint32_t>(half.size()) & 0xFFFF) + half;  // a stored, non-final block
  const std::string head = kPngSignature + pngHeader(w, h, 8, 6);
  const fs::path cutPng = writeBytes(dir, "cut-stream.png", head + pngChunk("IDAT", cutStream) + pngChunk("IEND", ""));
  EXPECT_EQ(errorOf(cutPng), withReason(cutPng, "PNG", "zlib corrupt"));
  // ... whose stream holds a block of the reserved type 3: stb_image's inflater fails without a reason.
  const fs::path badBlock =
      writeBytes(dir, "block-type-3.png", head + pngChunk("IDAT", std::string("\x78\x01\x07", 3)) + pngChunk("IEND", ""));
  EXPECT_EQ(errorOf(badBlock), noReason(badBlock, "PNG"));
  // ... cut after a whole chunk: stb_image would read a chunk of type 0 0 0 0 past the end
  // (its reason "XXXX PNG chunk not known" with the type's NULs, an empty text); said before.
  const std::string whole = test::readFile(writeStb(dir, "whole.png", w, h, 4, noise(w * h * 4, 85)));
  const size_t iend = whole.find("IEND") - 4;
  const fs::path noEnd = writeBytes(dir, "no-iend.png", whole.substr(0, iend));
  EXPECT_EQ(errorOf(noEnd), "'" + noEnd.string() + "' is a truncated PNG file: it ends after " + std::to_string(iend) +
                                " bytes, before its IEND chunk");
}

// Damaged copies of a valid file of every format: each loads or throws
// ImageFileError; nothing else (a crash, another exception, a hang).
TEST(ImageFile, DamagedFilesLoadOrThrowImageFileError) {
  TempDir dir("ks-image-damaged");
  const int w = 19, h = 13;
  std::vector<std::string> originals;
  for (const char* name : {"o.png", "o.bmp", "o.tga", "o.jpg"})
    originals.push_back(test::readFile(writeStb(dir, name, w, h, 4 - (name[2] == 'j'), noise(w * h * 4, 110))));
  std::vector<float> hdr(w * h * 3, 0.5f);
  ASSERT_TRUE(stbi_write_hdr((dir / "o.hdr").c_str(), w, h, 3, hdr.data()));
  originals.push_back(test::readFile(dir / "o.hdr"));
  Bytes palette(128 * 3, 9), frame(w * h, 3);
  originals.push_back(handGif(w, h, palette, {frame, frame}));
  originals.push_back(handPsd(w, h, 3, 16, samples16(w * h * 3, 111)));
  originals.push_back("P6\n19 13\n255\n" + str(noise(w * h * 3, 112)));
  originals.push_back(handPng(w, h, 16, 6, rows16(samples16(w * h * 4, 113), w * 4)));

  const fs::path file = dir / "damaged";
  int loaded = 0, refused = 0;
  auto attempt = [&](const std::string& bytes) {
    test::writeFile(file, bytes);
    try {
      loadImageFile(file, kRoomy);
      ++loaded;
    } catch (const ImageFileError&) {
      ++refused;
    }
  };
  uint32_t seed = 114;
  for (const std::string& original : originals) {
    for (size_t length = 0; length < original.size(); length += 1 + length / 8) attempt(original.substr(0, length));
    for (int k = 0; k < 200; ++k) {
      std::string bytes = original;
      for (int flips = 0; flips < 1 + k % 4; ++flips) {
        seed = seed * 1664525u + 1013904223u;
        bytes[(seed >> 8) % bytes.size()] = static_cast<char>(seed >> 24);
      }
      attempt(bytes);
    }
  }
  EXPECT_GT(refused, 0);
  EXPECT_GT(loaded, 0);
}

// ---- the built-in test image and PNG output -------------------------------------------------

std::vector<uint32_t> toColours(const HostImage& image) {
  std::vector<uint32_t> out;
  for (size_t i = 0; i < image.pixels.size(); i += 4)
    out.push_back(uint32_t{image.pixels[i]} << 24 | image.pixels[i + 1] << 16 | image.pixels[i + 2] << 8 | image.pixels[i + 3]);
  return out;
}

TEST(ImageFile, TestImageShowsEveryOrientation) {
  const HostImage image = makeTestImage(256, 256);
  ASSERT_EQ(image.channels, 4);
  ASSERT_EQ(image.pixels.size(), 256u * 256 * 4);
  EXPECT_EQ(image.description, "built-in test image 256x256");
  const std::vector<uint32_t> colours = toColours(image);
  auto at = [&](int x, int y) { return colours[y * 256 + x]; };
  EXPECT_EQ(at(5, 5), 0xFF0000FFu) << "top left red";
  EXPECT_EQ(at(250, 5), 0x00FF00FFu) << "top right green";
  EXPECT_EQ(at(5, 250), 0x0000FFFFu) << "bottom left blue";
  EXPECT_EQ(at(250, 250), 0xFF00FFFFu) << "bottom right magenta";
  EXPECT_EQ(at(128 + 77, 128), 0xFFFFFFFFu) << "the ring (radius 0.3 of the side)";
  for (uint32_t c : colours) EXPECT_EQ(c & 0xFF, 0xFFu) << "opaque";
  // the gray wedge: 16 levels, 0 to 255
  std::set<uint32_t> wedge;
  for (int x = 64; x < 192; ++x) wedge.insert(at(x, 220));
  EXPECT_EQ(wedge.size(), 16u);
  EXPECT_TRUE(wedge.count(0x000000FFu) && wedge.count(0xFFFFFFFFu));
  EXPECT_GT(std::set<uint32_t>(colours.begin(), colours.end()).size(), 1000u) << "gradients";

  // all eight flips, rotations and transposes differ
  std::set<std::vector<uint32_t>> seen;
  for (int t = 0; t < 8; ++t) {
    std::vector<uint32_t> moved(colours.size());
    for (int y = 0; y < 256; ++y)
      for (int x = 0; x < 256; ++x) {
        int u = t & 1 ? 255 - x : x, v = t & 2 ? 255 - y : y;
        if (t & 4) std::swap(u, v);
        moved[v * 256 + u] = at(x, y);
      }
    seen.insert(moved);
  }
  EXPECT_EQ(seen.size(), 8u);

  for (auto [w, h] : {std::pair{1, 1}, {3, 200}, {640, 2}}) {
    const HostImage odd = makeTestImage(w, h);
    EXPECT_EQ(odd.pixels.size(), static_cast<size_t>(w) * h * 4);
  }
  EXPECT_THROW(makeTestImage(0, 10), std::invalid_argument);
  EXPECT_THROW(makeTestImage(10, -1), std::invalid_argument);
}

TEST(ImageFile, SavePngRoundTrips) {
  TempDir dir("ks-image-save");
  const HostImage test = makeTestImage(123, 77);
  const Result<void> saved = savePngFile(test, dir / "test.png");
  ASSERT_TRUE(saved.ok()) << saved.error().what();
  const HostImage back = loadImageFile(dir / "test.png", kRoomy);
  expectImage(back, 123, 77, 4, test.pixels);
  EXPECT_EQ(back.description, "PNG 8-bit RGBA 123x77");

  HostImage gray;
  gray.width = 9;
  gray.height = 7;
  gray.channels = 1;
  gray.pixels = noise(9 * 7, 100);
  const Result<void> savedGray = savePngFile(gray, dir / "gray.png");
  ASSERT_TRUE(savedGray.ok()) << savedGray.error().what();
  expectImage(loadImageFile(dir / "gray.png", kRoomy), 9, 7, 1, gray.pixels);

  const Result<void> noFolder = savePngFile(test, dir / "no-such-dir/x.png");
  ASSERT_FALSE(noFolder.ok());
  const std::string error = noFolder.error().what();
  EXPECT_TRUE(contains(error, (dir / "no-such-dir/x.png").string())) << error;
  EXPECT_TRUE(contains(error, "No such file or directory")) << error;
  EXPECT_EQ(noFolder.error().details().file, dir / "no-such-dir/x.png");
  gray.pixels.pop_back();
  const Result<void> short_ = savePngFile(gray, dir / "short.png");
  ASSERT_FALSE(short_.ok());
  EXPECT_TRUE(contains(short_.error().what(), "62 bytes of pixels, not 63")) << short_.error().what();
  EXPECT_FALSE(savePngFile(HostImage{}, dir / "empty.png").ok());
}

// Refused before the encoder sees it (its int sizes would overflow): the check
// comes before the pixels are looked at, so no gigabyte is needed here.
TEST(ImageFile, SavePngRefusesWhatItsEncoderCannotHold) {
  TempDir dir("ks-image-save-big");
  HostImage big;
  big.width = 16384;
  big.height = 8192;
  big.channels = 4;  // (65536 + 1) x 8192 bytes: just over 512 MiB
  const Result<void> tooBig = savePngFile(big, dir / "big.png");
  ASSERT_FALSE(tooBig.ok());
  EXPECT_TRUE(contains(tooBig.error().what(), "16384x8192x4 is more than the PNG writer takes (512 MiB of pixels)"))
      << tooBig.error().what();
  EXPECT_FALSE(std::filesystem::exists(dir / "big.png"));
  big.height = 8191;  // fits: now the missing pixels are the problem
  const Result<void> fits = savePngFile(big, dir / "big.png");
  ASSERT_FALSE(fits.ok());
  EXPECT_TRUE(contains(fits.error().what(), "bytes of pixels, not")) << fits.error().what();
}

// The viewer tests' picture (tests/gradient_picture.h, one writer for the tests that
// open, rotate and histogram big images) is the PPM it says: every pixel decodes to
// its gradient value, RGB becoming RGBA.
TEST(ImageFile, TheTestsGradientPictureDecodesToItsValues) {
  test::TempDir dir;
  const int w = 37, h = 11;
  const auto file = dir / "gradient.ppm";
  test::writeGradientPpm(file, w, h);
  const HostImage image = loadImageFile(file.string(), kRoomy);
  ASSERT_EQ(image.width, w);
  ASSERT_EQ(image.height, h);
  ASSERT_EQ(image.channels, 4);
  size_t wrong = 0;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const uint8_t* p = image.pixels.data() + (static_cast<size_t>(y) * w + x) * 4;
      if (p[0] != test::gradientRed(x, w) || p[1] != test::gradientGreen(y, h) || p[2] != test::gradientBlue(x, y) ||
          p[3] != 255)
        ++wrong;
    }
  EXPECT_EQ(wrong, 0u);
  EXPECT_EQ(image.pixels[(5 * static_cast<size_t>(w) + 36) * 4 + 0], 248);  // 36 * 255 / 37
}

}  // namespace
}  // namespace ks
