#include "compute/device_selection.h"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace ks {
namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

std::optional<int> asIndex(const std::string& text) {
  int value = -1;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < 0) return std::nullopt;
  return value;
}

bool contains(const std::string& haystack, const std::string& needle) {
  return lower(haystack).find(lower(needle)) != std::string::npos;
}

int preferenceRank(const DeviceDescriptor& d) {
  if (d.kind == DeviceKind::Gpu && d.sharesCurrentGlContext) return 0;
  if (d.kind == DeviceKind::Gpu) return 1;
  if (d.kind == DeviceKind::Cpu) return 2;
  return 3;
}

std::string describeRank(int rank) {
  switch (rank) {
    case 0: return "GPU sharing the GL context";
    case 1: return "GPU";
    case 2: return "CPU device (no GPU found)";
    default: return "only device of another kind";
  }
}

}  // namespace

DeviceChoice selectDevice(const std::vector<DeviceDescriptor>& devices, const DeviceRequest& request) {
  if (devices.empty()) return {std::nullopt, "no OpenCL devices"};

  std::vector<size_t> candidates;
  for (size_t i = 0; i < devices.size(); ++i) candidates.push_back(i);

  if (request.platform) {
    const auto index = asIndex(*request.platform);
    std::erase_if(candidates, [&](size_t i) {
      const auto& d = devices[i];
      return index ? d.platformIndex != *index
                   : !(contains(d.platformName, *request.platform) || contains(d.platformVendor, *request.platform));
    });
    if (candidates.empty()) return {std::nullopt, "no platform matches '" + *request.platform + "'"};
  }

  if (request.device) {
    const auto index = asIndex(*request.device);
    if (index) {
      if (request.platform) {
        std::erase_if(candidates, [&](size_t i) { return devices[i].deviceIndex != *index; });
      } else {
        candidates = static_cast<size_t>(*index) < devices.size() ? std::vector<size_t>{static_cast<size_t>(*index)}
                                                                   : std::vector<size_t>{};
      }
    } else {
      std::erase_if(candidates, [&](size_t i) {
        return !(contains(devices[i].name, *request.device) || contains(devices[i].vendor, *request.device));
      });
    }
    if (candidates.empty()) return {std::nullopt, "no device matches '" + *request.device + "'"};
  }

  std::erase_if(candidates, [&](size_t i) { return !devices[i].available; });
  if (candidates.empty()) return {std::nullopt, "the matching devices are not available (no device or compiler)"};

  // stable: among equals, the runtime's own order wins
  std::stable_sort(candidates.begin(), candidates.end(),
                   [&](size_t a, size_t b) { return preferenceRank(devices[a]) < preferenceRank(devices[b]); });
  const size_t chosen = candidates.front();
  std::string reason = request.empty() ? "default choice: " + describeRank(preferenceRank(devices[chosen]))
                                       : std::string("matches the request");
  return {chosen, reason};
}

}  // namespace ks
