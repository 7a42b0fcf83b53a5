// Writes the fuzzer's seed corpus into a directory: one small valid file per
// format stb_image reads (PNG gray/RGBA/16-bit/palette-free, BMP, TGA, JPEG,
// HDR, PNM 8/16-bit, GIF, PSD), and for each a truncated copy and a copy with
// bytes overwritten in the middle. Generated at build/test time so no binary
// files are checked in.
#include <stb_image_write.h>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace {
namespace fs = std::filesystem;
using Bytes = std::string;

Bytes be16(uint32_t v) { return {static_cast<char>(v >> 8), static_cast<char>(v)}; }
Bytes be32(uint32_t v) { return be16(v >> 16) + be16(v & 0xFFFF); }
Bytes le16(uint32_t v) { return {static_cast<char>(v), static_cast<char>(v >> 8)}; }

// A deterministic pattern with some structure (compressors have work to do).
std::vector<uint8_t> pattern(int w, int h, int channels) {
  std::vector<uint8_t> p(static_cast<size_t>(w) * h * channels);
  for (size_t i = 0; i < p.size(); ++i) p[i] = static_cast<uint8_t>((i * 37) ^ (i / 7));
  return p;
}

void append(void* context, void* data, int size) { static_cast<Bytes*>(context)->append(static_cast<char*>(data), size); }

Bytes stbPng(int w, int h, int c) {
  Bytes out;
  const auto p = pattern(w, h, c);
  stbi_write_png_to_func(append, &out, w, h, c, p.data(), w * c);
  return out;
}
Bytes stbBmp(int w, int h, int c) {
  Bytes out;
  const auto p = pattern(w, h, c);
  stbi_write_bmp_to_func(append, &out, w, h, c, p.data());
  return out;
}
Bytes stbTga(int w, int h, int c, bool rle) {
  Bytes out;
  const auto p = pattern(w, h, c);
  stbi_write_tga_with_rle = rle ? 1 : 0;
  stbi_write_tga_to_func(append, &out, w, h, c, p.data());
  return out;
}
Bytes stbJpg(int w, int h, int c) {
  Bytes out;
  const auto p = pattern(w, h, c);
  stbi_write_jpg_to_func(append, &out, w, h, c, p.data(), 80);
  return out;
}
Bytes stbHdr(int w, int h) {  // run-length encoded scanlines need a width of 8 or more
  Bytes out;
  std::vector<float> p(static_cast<size_t>(w) * h * 3);
  for (size_t i = 0; i < p.size(); ++i) p[i] = static_cast<float>(i % 17) * 0.3f;
  stbi_write_hdr_to_func(append, &out, w, h, 3, p.data());
  return out;
}
Bytes pnm(int w, int h, bool colour, int maxValue) {
  Bytes out = std::string(colour ? "P6" : "P5") + "\n# seed\n" + std::to_string(w) + " " + std::to_string(h) + "\n" +
              std::to_string(maxValue) + "\n";
  const size_t samples = static_cast<size_t>(w) * h * (colour ? 3 : 1) * (maxValue > 255 ? 2 : 1);
  for (size_t i = 0; i < samples; ++i) out += static_cast<char>(i * 13);
  return out;
}
// 2x2, a 2-colour global palette, pixels 0 1 1 0; the LZW codes (3 bits, a
// clear code before each pixel so the code size never grows) are 4 0 4 1 4 1 4 0 5.
Bytes gif() {
  Bytes out = "GIF89a" + le16(2) + le16(2) + std::string("\x80\x00\x00", 3) + std::string("\x00\x00\x00\xff\xff\xff", 6);
  out += "\x2c" + le16(0) + le16(0) + le16(2) + le16(2) + std::string(1, '\0');
  out += std::string("\x02\x04\x04\xc3\x10\x05\x00\x3b", 8);  // min code size 2, one 4-byte sub-block, end, trailer
  return out;
}
// 3x2 RGB, 8-bit, uncompressed planes.
Bytes psd() {
  Bytes out = "8BPS" + be16(1) + std::string(6, '\0') + be16(3) + be32(2) + be32(3) + be16(8) + be16(3);
  out += be32(0) + be32(0) + be32(0) + be16(0);
  for (int i = 0; i < 3 * 3 * 2; ++i) out += static_cast<char>(i * 29);
  return out;
}

void write(const fs::path& file, const Bytes& bytes) {
  std::ofstream out(file, std::ios::binary);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out) {
    std::fprintf(stderr, "make_image_corpus: cannot write %s\n", file.c_str());
    std::exit(1);
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: make_image_corpus DIRECTORY\n");
    return 2;
  }
  const fs::path dir = argv[1];
  fs::create_directories(dir);
  const std::vector<std::pair<std::string, Bytes>> seeds = {
      {"gray.png", stbPng(7, 5, 1)},        {"gray-alpha.png", stbPng(4, 4, 2)}, {"rgb.png", stbPng(9, 3, 3)},
      {"rgba.png", stbPng(16, 16, 4)},      {"rgb.bmp", stbBmp(5, 3, 3)},        {"rgba.bmp", stbBmp(4, 2, 4)},
      {"rgb.tga", stbTga(6, 4, 3, false)},  {"rle.tga", stbTga(6, 4, 4, true)},  {"gray.jpg", stbJpg(8, 8, 1)},
      {"rgb.jpg", stbJpg(17, 9, 3)},        {"flat.hdr", stbHdr(4, 3)},          {"rle.hdr", stbHdr(12, 3)},
      {"gray8.pgm", pnm(5, 4, false, 255)}, {"rgb16.ppm", pnm(3, 2, true, 1023)}, {"tiny.gif", gif()},
      {"rgb.psd", psd()},
  };
  for (const auto& [name, bytes] : seeds) {
    write(dir / name, bytes);
    write(dir / ("truncated-" + name), bytes.substr(0, bytes.size() / 2));
    Bytes damaged = bytes;
    for (size_t i = damaged.size() / 3; i < damaged.size() / 3 + 8 && i < damaged.size(); ++i) damaged[i] ^= 0xA5;
    write(dir / ("damaged-" + name), damaged);
  }
  std::printf("make_image_corpus: %zu files in %s\n", seeds.size() * 3, dir.c_str());
  return 0;
}
