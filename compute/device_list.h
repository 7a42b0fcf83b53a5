#pragma once
// Which devices `--devices all|0,2,...` names, and whether they can work on one
// job together (one platform). Pure logic over the catalog, tested with fakes.
#include <optional>
#include <string>
#include <vector>

#include "compute/device_catalog.h"

namespace ks {

// "all", or device numbers within the platform separated by commas ("0,2").
// Empty `indices` means all. Nothing when the text is neither; `error` says why.
struct DeviceListRequest {
  std::vector<int> indices;
  bool all() const { return indices.empty(); }
};
std::optional<DeviceListRequest> parseDeviceList(const std::string& text, std::string* error);

// The devices of `platformIndex` the request names, in its order. Throws
// std::runtime_error with a message for the user when a number is not a device
// of that platform, a device is named twice, or a device is unavailable.
std::vector<DeviceDescriptor> resolveDeviceList(const std::vector<DeviceDescriptor>& catalog, int platformIndex,
                                                const DeviceListRequest& request);

// Empty when the devices can form a group; else why not (none, or more than one
// platform: one context cannot span platforms, and two vendors' compilers would
// not give the same arithmetic).
std::string deviceGroupProblem(const std::vector<DeviceDescriptor>& devices);

}  // namespace ks
