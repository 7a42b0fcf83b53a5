#include "io/pnm_reader.h"

#include <algorithm>
#include <string>

#include "io/image_file_checks.h"

namespace ks {

using image_checks::fail;
namespace fs = std::filesystem;

namespace {

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

}  // namespace

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

[[noreturn]] void failUnsupportedPnm(const fs::path& file, const std::vector<uint8_t>& bytes) {
  const char kind = bytes.size() >= 2 ? static_cast<char>(bytes[1]) : '?';
  const std::string what = kind == '1' || kind == '4'   ? "a PBM bitmap (P" + std::string(1, kind) + ")"
                           : kind == '7'                ? "a PAM file (P7)"
                           : kind == 'F' || kind == 'f' ? "a floating-point PFM file (P" + std::string(1, kind) + ")"
                                                        : std::string();
  if (what.empty()) fail(file, "is a damaged PNM file: its header is unreadable");
  fail(file, "is " + what + "; the image lab reads PGM and PPM files (P2, P3, P5, P6)");
}

std::vector<uint16_t> readPnmWideSamples(const std::vector<uint8_t>& bytes, const PnmHeader& header,
                                         const fs::path& file) {
  std::vector<uint16_t> samples(static_cast<size_t>(header.width) * header.height * header.channels);
  if (!header.plain) {
    const uint8_t* data = bytes.data() + header.dataOffset;  // big-endian, 2 bytes each
    for (size_t i = 0; i < samples.size(); ++i) samples[i] = static_cast<uint16_t>(data[2 * i] << 8 | data[2 * i + 1]);
    return samples;
  }
  PnmNumbers text(bytes, header.dataOffset);
  for (size_t i = 0; i < samples.size(); ++i) {
    const std::optional<uint64_t> v = text.next();
    if (!v && text.at() >= bytes.size())
      fail(file, "is a truncated PNM file: it holds " + std::to_string(i) + " of the " +
                     std::to_string(samples.size()) + " samples its header promises");
    if (!v) fail(file, "is a damaged PNM file: sample " + std::to_string(i + 1) + " is not a number");
    samples[i] = static_cast<uint16_t>(std::min<uint64_t>(*v, header.maxValue));  // as binary samples: clamped
  }
  return samples;
}

}  // namespace ks
