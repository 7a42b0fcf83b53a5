#include "lab/csv_number.h"

#include <charconv>
#include <stdexcept>

namespace ks {

std::string csvNumber(double v) {
  char text[32];
  const auto result = std::to_chars(text, text + sizeof text, v);
  return std::string(text, result.ptr);
}

double parseCsvNumber(const std::string& text) {
  if (text.empty()) return 0.0;
  double v = 0.0;
  const auto result = std::from_chars(text.data(), text.data() + text.size(), v);
  if (result.ec != std::errc() || result.ptr != text.data() + text.size())
    throw std::invalid_argument("'" + text + "' is not a number");
  return v;
}

}  // namespace ks
