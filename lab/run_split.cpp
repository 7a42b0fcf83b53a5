#include "lab/run_split.h"

#include "lab/csv_number.h"

#include <algorithm>
#include <stdexcept>

namespace ks {
namespace {

// The split-only figures are empty for a run on one device.
std::string splitNumber(const RunSplit& s, double v) { return s.split() ? csvNumber(v) : std::string(); }

}  // namespace

const std::vector<RunSplitField>& runSplitFields() {
  static const std::vector<RunSplitField> fields = {
      {"device_count", [](const RunSplit& s) { return std::to_string(s.devices); },
       [](RunSplit& s, const std::string& v) {
         const double d = v.empty() ? 1.0 : parseCsvNumber(v);
         if (d < 1 || d != static_cast<int>(d)) throw std::invalid_argument("device_count is '" + v + "'");
         s.devices = static_cast<int>(d);
       },
       true},
      // "12.5;12.7": one median per device, in device order (one CSV field).
      {"device_kernel_ms",
       [](const RunSplit& s) {
         std::string out;
         if (!s.split()) return out;
         for (size_t i = 0; i < s.deviceKernelMs.size(); ++i) out += (i ? ";" : "") + csvNumber(s.deviceKernelMs[i]);
         return out;
       },
       [](RunSplit& s, const std::string& v) {
         s.deviceKernelMs.clear();
         for (size_t start = 0; start < v.size();) {
           const size_t end = std::min(v.find(';', start), v.size());
           s.deviceKernelMs.push_back(parseCsvNumber(v.substr(start, end - start)));
           start = end + 1;
         }
       },
       false},
      {"exchange_ms", [](const RunSplit& s) { return splitNumber(s, s.exchangeMs); },
       [](RunSplit& s, const std::string& v) { s.exchangeMs = v.empty() ? 0.0 : parseCsvNumber(v); }, true},
      {"load_balance", [](const RunSplit& s) { return splitNumber(s, s.loadBalance); },
       [](RunSplit& s, const std::string& v) { s.loadBalance = v.empty() ? 0.0 : parseCsvNumber(v); }, true},
      {"parallel_efficiency", [](const RunSplit& s) { return splitNumber(s, s.parallelEfficiency); },
       [](RunSplit& s, const std::string& v) { s.parallelEfficiency = v.empty() ? 0.0 : parseCsvNumber(v); }, true},
  };
  return fields;
}

}  // namespace ks
