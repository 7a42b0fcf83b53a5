#pragma once
// NVML opened at run time (dlopen): the library, its initialisation and the
// function pointers kernelscope calls. Opening never throws; a machine without
// the library (or whose driver refuses) gets an object that says why.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "compute/nvml_api.h"

namespace ks {

// What NVML says about one of its devices, for matching it to an OpenCL device.
struct NvmlDeviceInfo {
  unsigned index = 0;
  std::string name;
  bool hasPci = false;
  unsigned pciDomain = 0, pciBus = 0, pciDevice = 0;
};

class NvmlLibrary {
 public:
  // The library kernelscope opens: $KERNELSCOPE_NVML_LIBRARY when set (tests point
  // it at a fake), else libnvidia-ml.so.1 from the loader's search path.
  static std::string defaultPath();
  // Opens `path` and calls nvmlInit_v2. Never null: check available().
  static std::unique_ptr<NvmlLibrary> open(const std::string& path);
  ~NvmlLibrary();
  NvmlLibrary(const NvmlLibrary&) = delete;
  NvmlLibrary& operator=(const NvmlLibrary&) = delete;

  bool available() const { return initialised_; }
  // Why not available: "libnvidia-ml.so.1 not found", "nvmlInit_v2 failed: Driver Not Loaded".
  const std::string& unavailableWhy() const { return why_; }
  // NVML's devices in its own order; empty with *error set when it cannot list them.
  std::vector<NvmlDeviceInfo> devices(std::string* error) const;
  std::optional<nvml::Device> handle(unsigned index, std::string* error) const;
  // "Not Supported" for code 3, from nvmlErrorString when the library has it.
  std::string errorText(nvml::Return code) const;

  // Every pointer is set when available(); energy may be missing (older drivers).
  nvml::GetClockInfoFn getClockInfo = nullptr;
  nvml::GetPowerUsageFn getPowerUsage = nullptr;
  nvml::GetTotalEnergyFn getTotalEnergy = nullptr;
  nvml::GetTemperatureFn getTemperature = nullptr;
  nvml::GetThrottleReasonsFn getThrottleReasons = nullptr;

 private:
  NvmlLibrary() = default;
  void* handle_ = nullptr;
  bool initialised_ = false;
  std::string why_;
  nvml::InitFn init_ = nullptr, shutdown_ = nullptr;
  nvml::GetCountFn getCount_ = nullptr;
  nvml::GetHandleByIndexFn getHandleByIndex_ = nullptr;
  nvml::GetPciInfoFn getPciInfo_ = nullptr;
  nvml::GetNameFn getName_ = nullptr;
  nvml::ErrorStringFn errorString_ = nullptr;
};

}  // namespace ks
