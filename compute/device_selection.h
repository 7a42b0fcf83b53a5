#pragma once
// Which device kernelscope runs on: the user's request (command line or saved
// settings) applied to a device list. Pure logic, tested with fake lists.
#include <optional>
#include <string>
#include <vector>

#include "compute/device_catalog.h"

namespace ks {

// Each selector is an index ("1") or a case-insensitive name substring ("nvidia").
// A device index is counted within the chosen platform when one is given, else
// across the whole list (as `--list-devices` prints it).
struct DeviceRequest {
  std::optional<std::string> platform;
  std::optional<std::string> device;
  bool empty() const { return !platform && !device; }
};

struct DeviceChoice {
  std::optional<size_t> index;  // into the list; empty when nothing fits
  std::string reason;           // why this one, or why none
};

// Default order among the candidates: a GPU that shares the current GL context,
// then any GPU, then a CPU, then anything else; unavailable devices never.
DeviceChoice selectDevice(const std::vector<DeviceDescriptor>& devices, const DeviceRequest& request);

}  // namespace ks
