#include "lab/run_split.h"

#include <algorithm>
#include <charconv>
#include <stdexcept>

namespace ks {
namespace {

std::string numberText(double v) {
  char text[32];
  const auto result = std::to_chars(text, text + sizeof text, v);
  return std::string(text, result.ptr);
}

double parseNumber(const std::string& text) {
  double v = 0.0;
  const auto result = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || result.ec != std::errc() || result.ptr != text.data() + text.size())
    throw std::invalid_argument("'" + text + "' is not a number");
  return v;
}

// The split-only figures are empty for a run on one device.
std::string splitNumber(const RunSplit& s, double v) { return s.split() ? numberText(v) : std::string(); }

}  // namespace

const std::vector<RunSplitField>& runSplitFields() {
  static const std::vector<RunSplitField> fields = {
      {"device_count", [](const RunSplit& s) { return std::to_string(s.devices); },
       [](RunSplit& s, const std::string& v) {
         const double d = v.empty() ? 1.0 : parseNumber(v);
         if (d < 1 || d != static_cast<int>(d)) throw std::invalid_argument("device_count is '" + v + "'");
         s.devices = static_cast<int>(d);
       },
       true},
      // "12.5;12.7": one median per device, in device order (one CSV field).
      {"device_kernel_ms",
       [](const RunSplit& s) {
         std::string out;
         if (!s.split()) return out;
         for (size_t i = 0; i < s.deviceKernelMs.size(); ++i) out += (i ? ";" : "") + numberText(s.deviceKernelMs[i]);
         return out;
       },
       [](RunSplit& s, const std::string& v) {
         s.deviceKernelMs.clear();
         for (size_t start = 0; start < v.size();) {
           const size_t end = std::min(v.find(';', start), v.size());
           s.deviceKernelMs.push_back(parseNumber(v.substr(start, end - start)));
           start = end + 1;
         }
       },
       false},
      {"exchange_ms", [](const RunSplit& s) { return splitNumber(s, s.exchangeMs); },
       [](RunSplit& s, const std::string& v) { s.exchangeMs = v.empty() ? 0.0 : parseNumber(v); }, true},
      {"load_balance", [](const RunSplit& s) { return splitNumber(s, s.loadBalance); },
       [](RunSplit& s, const std::string& v) { s.loadBalance = v.empty() ? 0.0 : parseNumber(v); }, true},
      {"parallel_efficiency", [](const RunSplit& s) { return splitNumber(s, s.parallelEfficiency); },
       [](RunSplit& s, const std::string& v) { s.parallelEfficiency = v.empty() ? 0.0 : parseNumber(v); }, true},
  };
  return fields;
}

}  // namespace ks
