#include "io/image_file.h"

// The implementation is in libstb.a (libstb-dev); this is the header only.
#include <stb_image.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstring>
#include <fstream>
#include <memory>
#include <new>
#include <optional>
#include <sstream>
#include <string_view>
#include <system_error>

#include "io/image_file_checks.h"
#include "io/pnm_reader.h"

namespace ks {
namespace fs = std::filesystem;

namespace {

using image_checks::checkDecoderBuffer;
using image_checks::checkHdrData;
using image_checks::checkHeaderComplete;
using image_checks::checkJpegTables;
using image_checks::checkLimits;
using image_checks::checkNotTruncated;
using image_checks::checkPngChunks;
using image_checks::checkPsdSupported;
using image_checks::fail;
using image_checks::formatBytes;
using image_checks::kStbMaxBytes;
using image_checks::looksLikeText;
using image_checks::PngHeader;
using image_checks::quoted;
using image_checks::readPngHeader;
using image_checks::sniffFormat;

constexpr uint64_t kMiB = 1024 * 1024;
constexpr uint64_t kFileCapCeiling = kStbMaxBytes;

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

// stb_image 2.27 misreads a PSD's depth in stbi_is_16_bit (it takes the
// height's upper half: its STBI_NOTUSED skips no bytes), so PSD is read here.
bool is16Bit(const std::string& format, const std::vector<uint8_t>& bytes) {
  if (format == "PSD") return bytes.size() >= 24 && (bytes[22] << 8 | bytes[23]) == 16;
  return stbi_is_16_bit_from_memory(bytes.data(), static_cast<int>(bytes.size()));
}

const char* layoutName(int channels) {
  switch (channels) {
    case 1: return "gray";
    case 2: return "gray+alpha";
    case 3: return "RGB";
    default: return "RGBA";
  }
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
    const uint32_t maxValue = pnm->maxValue;
    auto to8 = [maxValue](uint32_t v) { return rescale(std::min(v, maxValue), maxValue); };
    if (pnm->plain || pnm->bytesPerSample() == 2) {
      const std::vector<uint16_t> wide = readPnmWideSamples(bytes, *pnm, file);
      fillPixels(image, wide.data(), srcChannels, to8, to8);
    } else {
      fillPixels(image, bytes.data() + pnm->dataOffset, srcChannels, to8, to8);
    }
    bits = std::to_string(std::bit_width(maxValue)) + "-bit";
  } else if (hdr) {
    std::unique_ptr<float, StbFree> data(stbi_loadf_from_memory(bytes.data(), length, &image.width, &image.height,
                                                                &srcChannels, 0));
    if (!data) throw ImageFileError(decodeFailure(file, format, reasonBefore), file);
    checkDecoded();
    fillPixels(image, data.get(), srcChannels, toneMap, [](float a) {
      return static_cast<uint8_t>(std::lround(std::clamp(a, 0.0f, 1.0f) * 255.0f));
    });
    bits = "float";
  } else if (sixteenBit) {
    std::unique_ptr<stbi_us, StbFree> data(stbi_load_16_from_memory(bytes.data(), length, &image.width,
                                                                     &image.height, &srcChannels, 0));
    if (!data) throw ImageFileError(decodeFailure(file, format, reasonBefore), file);
    checkDecoded();
    auto to8 = [](stbi_us v) { return rescale(v, 65535); };
    fillPixels(image, data.get(), srcChannels, to8, to8);
    bits = "16-bit";
  } else {
    std::unique_ptr<stbi_uc, StbFree> data(
        stbi_load_from_memory(bytes.data(), length, &image.width, &image.height, &srcChannels, 0));
    if (!data) throw ImageFileError(decodeFailure(file, format, reasonBefore), file);
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

Result<HostImage> readImageFile(const fs::path& file, const ImageLimits& limits) {
  try {
    return loadImageFile(file, limits);
  } catch (const ImageFileError& e) {
    return Error(e);
  } catch (const std::bad_alloc&) {
    return Error("'" + file.string() + "' does not fit in this computer's memory while it decodes", kExitFailure,
                 ErrorDetails{{}, {}, file});
  }
}

}  // namespace ks
