#include "compute/nvml_library.h"

#include <dlfcn.h>

#include <cstdlib>

namespace ks {
namespace {

template <typename Fn>
Fn symbol(void* library, const char* name) {
  return reinterpret_cast<Fn>(dlsym(library, name));
}

}  // namespace

std::string NvmlLibrary::defaultPath() {
  const char* override = std::getenv("KERNELSCOPE_NVML_LIBRARY");
  return override && *override ? override : "libnvidia-ml.so.1";
}

std::unique_ptr<NvmlLibrary> NvmlLibrary::open(const std::string& path) {
  std::unique_ptr<NvmlLibrary> lib(new NvmlLibrary);
  lib->handle_ = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!lib->handle_) {
    // dlerror's text names the file and the reason; the common case gets plain words.
    const char* why = dlerror();
    const std::string text = why ? why : "";
    lib->why_ = text.find("No such file") != std::string::npos || text.find("cannot open") != std::string::npos
                    ? path + " not found"
                    : "cannot load " + path + (text.empty() ? "" : ": " + text);
    return lib;
  }
  void* h = lib->handle_;
  lib->init_ = symbol<nvml::InitFn>(h, "nvmlInit_v2");
  lib->shutdown_ = symbol<nvml::InitFn>(h, "nvmlShutdown");
  lib->getCount_ = symbol<nvml::GetCountFn>(h, "nvmlDeviceGetCount_v2");
  lib->getHandleByIndex_ = symbol<nvml::GetHandleByIndexFn>(h, "nvmlDeviceGetHandleByIndex_v2");
  lib->getPciInfo_ = symbol<nvml::GetPciInfoFn>(h, "nvmlDeviceGetPciInfo_v3");
  if (!lib->getPciInfo_) lib->getPciInfo_ = symbol<nvml::GetPciInfoFn>(h, "nvmlDeviceGetPciInfo");
  lib->getName_ = symbol<nvml::GetNameFn>(h, "nvmlDeviceGetName");
  lib->errorString_ = symbol<nvml::ErrorStringFn>(h, "nvmlErrorString");
  lib->getClockInfo = symbol<nvml::GetClockInfoFn>(h, "nvmlDeviceGetClockInfo");
  lib->getPowerUsage = symbol<nvml::GetPowerUsageFn>(h, "nvmlDeviceGetPowerUsage");
  lib->getTotalEnergy = symbol<nvml::GetTotalEnergyFn>(h, "nvmlDeviceGetTotalEnergyConsumption");
  lib->getTemperature = symbol<nvml::GetTemperatureFn>(h, "nvmlDeviceGetTemperature");
  lib->getThrottleReasons = symbol<nvml::GetThrottleReasonsFn>(h, "nvmlDeviceGetCurrentClocksThrottleReasons");
  const std::pair<const char*, bool> required[] = {
      {"nvmlInit_v2", lib->init_ != nullptr},
      {"nvmlShutdown", lib->shutdown_ != nullptr},
      {"nvmlDeviceGetCount_v2", lib->getCount_ != nullptr},
      {"nvmlDeviceGetHandleByIndex_v2", lib->getHandleByIndex_ != nullptr},
      {"nvmlDeviceGetName", lib->getName_ != nullptr},
      {"nvmlDeviceGetClockInfo", lib->getClockInfo != nullptr},
      {"nvmlDeviceGetPowerUsage", lib->getPowerUsage != nullptr},
      {"nvmlDeviceGetTemperature", lib->getTemperature != nullptr},
      {"nvmlDeviceGetCurrentClocksThrottleReasons", lib->getThrottleReasons != nullptr}};
  for (const auto& [name, found] : required)
    if (!found) {
      lib->why_ = path + " has no " + name + " (driver too old?)";
      return lib;
    }
  if (const nvml::Return r = lib->init_(); r != nvml::kSuccess) {
    lib->why_ = "nvmlInit_v2 failed: " + lib->errorText(r);
    return lib;
  }
  lib->initialised_ = true;
  return lib;
}

NvmlLibrary::~NvmlLibrary() {
  if (initialised_) shutdown_();  // nothing to do about a failure on the way out
  if (handle_) dlclose(handle_);
}

std::string NvmlLibrary::errorText(nvml::Return code) const {
  const char* text = errorString_ ? errorString_(code) : nullptr;
  return text && *text ? std::string(text) : "NVML error " + std::to_string(code);
}

std::optional<nvml::Device> NvmlLibrary::handle(unsigned index, std::string* error) const {
  nvml::Device device = nullptr;
  if (const nvml::Return r = getHandleByIndex_(index, &device); r != nvml::kSuccess) {
    if (error) *error = "nvmlDeviceGetHandleByIndex_v2(" + std::to_string(index) + "): " + errorText(r);
    return std::nullopt;
  }
  return device;
}

std::vector<NvmlDeviceInfo> NvmlLibrary::devices(std::string* error) const {
  std::vector<NvmlDeviceInfo> list;
  if (!initialised_) {
    if (error) *error = why_;
    return list;
  }
  unsigned count = 0;
  if (const nvml::Return r = getCount_(&count); r != nvml::kSuccess) {
    if (error) *error = "nvmlDeviceGetCount_v2: " + errorText(r);
    return list;
  }
  for (unsigned i = 0; i < count; ++i) {
    const auto device = handle(i, error);
    if (!device) return {};
    NvmlDeviceInfo info;
    info.index = i;
    char name[96] = "";
    if (getName_(*device, name, sizeof name) == nvml::kSuccess) info.name = name;
    nvml::PciInfo pci{};
    if (getPciInfo_ && getPciInfo_(*device, &pci) == nvml::kSuccess) {
      info.hasPci = true;
      info.pciDomain = pci.domain, info.pciBus = pci.bus, info.pciDevice = pci.device;
    }
    list.push_back(std::move(info));
  }
  return list;
}

}  // namespace ks
