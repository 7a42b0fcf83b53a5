#include "lab/run_bound.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace ks {

std::vector<RunKernelBound> parseRunBound(const std::string& bound) {
  std::vector<RunKernelBound> entries;
  size_t begin = 0;
  while (begin < bound.size()) {
    size_t end = bound.find("; ", begin);
    if (end == std::string::npos) end = bound.size();
    const std::string entry = bound.substr(begin, end - begin);
    begin = end + 2;
    // From the right: the fraction after the last ": ", the ceiling before it, and
    // the kernel's name before that (a ceiling's label has no ": ").
    const size_t fractionAt = entry.rfind(": ");
    if (fractionAt == std::string::npos || fractionAt == 0) continue;
    const size_t ceilingAt = entry.rfind(": ", fractionAt - 1);
    if (ceilingAt == std::string::npos) continue;
    const std::string fraction = entry.substr(fractionAt + 2);
    char* stop = nullptr;
    const double percent = std::strtod(fraction.c_str(), &stop);
    if (stop == fraction.c_str() || std::string(stop) != " %") continue;
    entries.push_back({entry.substr(0, ceilingAt), entry.substr(ceilingAt + 2, fractionAt - ceilingAt - 2), percent});
  }
  return entries;
}

std::string runBoundCell(const std::string& bound) {
  const std::vector<RunKernelBound> entries = parseRunBound(bound);
  std::string text;
  for (const RunKernelBound& e : entries) {
    char percent[32];
    std::snprintf(percent, sizeof percent, "%.0f %%", e.percent);
    if (!text.empty()) text += "\n";
    if (entries.size() > 1) text += e.kernel + ": ";
    text += e.ceiling + " " + percent;
  }
  return text;
}

double runBoundPercent(const std::string& bound) {
  double largest = -1.0;
  for (const RunKernelBound& e : parseRunBound(bound)) largest = std::max(largest, e.percent);
  return largest;
}

}  // namespace ks
