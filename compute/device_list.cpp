#include "compute/device_list.h"

#include <algorithm>
#include <charconv>
#include <stdexcept>

namespace ks {

std::optional<DeviceListRequest> parseDeviceList(const std::string& text, std::string* error) {
  DeviceListRequest request;
  if (text == "all") return request;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t comma = std::min(text.find(',', start), text.size());
    const std::string item = text.substr(start, comma - start);
    int value = -1;
    const auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), value);
    if (item.empty() || ec != std::errc() || end != item.data() + item.size() || value < 0) {
      if (error)
        *error = "'" + text + "' is not a device list: give 'all' or device numbers separated by commas, e.g. 0,1 "
                 "(--list-devices shows the numbers)";
      return std::nullopt;
    }
    request.indices.push_back(value);
    start = comma + 1;
  }
  return request;
}

std::vector<DeviceDescriptor> resolveDeviceList(const std::vector<DeviceDescriptor>& catalog, int platformIndex,
                                                const DeviceListRequest& request) {
  std::vector<const DeviceDescriptor*> onPlatform;
  for (const DeviceDescriptor& d : catalog)
    if (d.platformIndex == platformIndex) onPlatform.push_back(&d);
  const std::string platformName =
      onPlatform.empty() ? "platform " + std::to_string(platformIndex)
                         : "platform " + std::to_string(platformIndex) + " (" + onPlatform.front()->platformName + ")";
  std::vector<DeviceDescriptor> out;
  if (request.all()) {
    for (const DeviceDescriptor* d : onPlatform)
      if (d->available) out.push_back(*d);
    if (out.empty()) throw std::runtime_error(platformName + " has no available device");
    return out;
  }
  for (size_t k = 0; k < request.indices.size(); ++k) {
    const int index = request.indices[k];
    const auto found = std::find_if(onPlatform.begin(), onPlatform.end(),
                                    [&](const DeviceDescriptor* d) { return d->deviceIndex == index; });
    if (found == onPlatform.end())
      throw std::runtime_error("there is no device " + std::to_string(index) + " on " + platformName + ", which has " +
                               std::to_string(onPlatform.size()) + " device" + (onPlatform.size() == 1 ? "" : "s") +
                               (onPlatform.empty() ? "" : " (0 to " + std::to_string(onPlatform.size() - 1) + ")") +
                               "; --list-devices shows them");
    if (std::find(request.indices.begin(), request.indices.begin() + k, index) != request.indices.begin() + k)
      throw std::runtime_error("device " + std::to_string(index) + " is named twice in the device list");
    if (!(*found)->available)
      throw std::runtime_error("device " + std::to_string(index) + " (" + (*found)->displayName() +
                               ") is not available");
    out.push_back(**found);
  }
  return out;
}

std::string deviceGroupProblem(const std::vector<DeviceDescriptor>& devices) {
  if (devices.empty()) return "no devices were given";
  for (const DeviceDescriptor& d : devices)
    if (d.platformIndex != devices.front().platformIndex || d.platform != devices.front().platform)
      return "all devices must be of the same OpenCL platform: " + devices.front().displayName() + " is on " +
             devices.front().platformName + ", " + d.displayName() + " on " + d.platformName;
  return {};
}

}  // namespace ks
