#include "compute/gpu_monitor.h"

#include <cstdlib>

namespace ks {
namespace {

// cl_nv_device_attribute_query (cl_ext.h names them; spelled out so older headers do too).
constexpr cl_device_info kPciBusIdNv = 0x4008;
constexpr cl_device_info kPciSlotIdNv = 0x4009;

std::optional<unsigned> deviceUint(cl_device_id id, cl_device_info what) {
  cl_uint value = 0;
  if (!id || clGetDeviceInfo(id, what, sizeof value, &value, nullptr) != CL_SUCCESS) return std::nullopt;
  return value;
}

}  // namespace

OpenClDeviceKey openClDeviceKey(const DeviceDescriptor& device, const std::vector<DeviceDescriptor>& all) {
  OpenClDeviceKey key;
  key.nvidia = device.isNvidia();
  key.name = device.name;
  if (device.hasExtension("cl_nv_device_attribute_query")) {
    key.pciBus = deviceUint(device.id, kPciBusIdNv);
    key.pciSlot = deviceUint(device.id, kPciSlotIdNv);
  }
  key.nvidiaIndex = 0;
  for (const auto& d : all) {
    if (d.platformIndex == device.platformIndex && d.deviceIndex == device.deviceIndex) break;
    if (d.isNvidia()) ++key.nvidiaIndex;
  }
  if (const char* forced = std::getenv("KERNELSCOPE_NVML_DEVICE"); forced && *forced) {
    char* end = nullptr;
    const unsigned long index = std::strtoul(forced, &end, 10);
    if (end && *end == '\0') key.forcedIndex = static_cast<unsigned>(index);
  }
  return key;
}

GpuMonitor::GpuMonitor(std::string libraryPath, double periodSeconds)
    : libraryPath_(std::move(libraryPath)), period_(periodSeconds), thread_([this] { run(); }) {}

GpuMonitor::~GpuMonitor() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

void GpuMonitor::publish(GpuTelemetryState& state, const DeviceDescriptor& device,
                         const std::vector<DeviceDescriptor>& all) {
  if (device.id != keyDevice_ || device.name != keyDeviceName_) {
    key_ = openClDeviceKey(device, all);
    keyDevice_ = device.id;
    keyDeviceName_ = device.name;
  }
  publish(state, key_);
}

void GpuMonitor::publish(GpuTelemetryState& state, const OpenClDeviceKey& key) {
  std::vector<GpuSample> fresh;
  {
    std::lock_guard lock(mutex_);
    if (!target_ || !(*target_ == key)) {
      target_ = key;
      ++targetGeneration_;
      pending_.clear();
      available_ = false;
      status_ = "NVML: starting";
      state.history.clear();  // another device's figures would mislead
      wake_.notify_all();
    }
    fresh.swap(pending_);
    state.available = available_ && attachedGeneration_ == targetGeneration_;
    state.status = status_;
    state.nvmlDevice = nvmlDevice_;
  }
  state.samplesSeen += fresh.size();
  state.history.insert(state.history.end(), fresh.begin(), fresh.end());
  if (state.history.size() > kTelemetryHistory)
    state.history.erase(state.history.begin(), state.history.end() - static_cast<std::ptrdiff_t>(kTelemetryHistory));
}

GpuMonitor::Attached GpuMonitor::attach(const OpenClDeviceKey& key) {
  device_.reset();
  std::string status, name;
  bool available = false;
  if (!key.nvidia && !key.forcedIndex) {
    status = "not an NVIDIA device";  // NVML is not even opened
  } else {
    if (!library_) library_ = NvmlLibrary::open(libraryPath_);
    std::string error;
    if (!library_->available()) {
      status = "NVML not available: " + library_->unavailableWhy();
    } else if (const auto devices = library_->devices(&error); !error.empty()) {
      status = "NVML not available: " + error;
    } else if (const NvmlMatch match = matchNvmlDevice(key, devices); !match.index) {
      status = "NVML not available: " + match.how;
    } else if (const auto handle = library_->handle(*match.index, &error); !handle) {
      status = "NVML not available: " + error;
    } else {
      device_ = handle;
      available = true;
      status = match.how;
      for (const auto& d : devices)
        if (d.index == *match.index) name = d.name;
    }
  }
  return {available, status, name};
}

GpuSample GpuMonitor::sample() const {
  GpuSample s;
  s.seconds = steadySeconds();
  const NvmlLibrary& lib = *library_;
  const nvml::Device d = *device_;
  unsigned value = 0;
  // A figure the device does not report stays empty; the others still count.
  if (lib.getClockInfo(d, nvml::kClockSm, &value) == nvml::kSuccess) s.smClockMHz = value;
  if (lib.getClockInfo(d, nvml::kClockMem, &value) == nvml::kSuccess) s.memClockMHz = value;
  if (lib.getPowerUsage(d, &value) == nvml::kSuccess) s.powerW = value * 1e-3;
  if (lib.getTemperature(d, nvml::kTemperatureGpu, &value) == nvml::kSuccess) s.temperatureC = value;
  unsigned long long wide = 0;
  if (lib.getTotalEnergy && lib.getTotalEnergy(d, &wide) == nvml::kSuccess) s.energyJ = static_cast<double>(wide) * 1e-3;
  if (lib.getThrottleReasons(d, &wide) == nvml::kSuccess) s.throttleReasons = wide;
  return s;
}

void GpuMonitor::run() {
  std::unique_lock lock(mutex_);
  while (!stop_) {
    if (target_ && attachedGeneration_ != targetGeneration_) {
      const OpenClDeviceKey key = *target_;
      const unsigned generation = targetGeneration_;
      lock.unlock();
      const Attached attached = attach(key);  // may take seconds (nvmlInit): not under the lock
      lock.lock();
      if (generation == targetGeneration_) {  // else a newer device came meanwhile: attach that one
        available_ = attached.available;
        status_ = attached.status;
        nvmlDevice_ = attached.nvmlDevice;
      }
      attachedGeneration_ = generation;
      continue;  // a newer target may have come meanwhile
    }
    if (device_ && available_) {
      lock.unlock();
      GpuSample s = sample();
      lock.lock();
      if (attachedGeneration_ == targetGeneration_) {
        pending_.push_back(s);
        if (pending_.size() > kTelemetryHistory) pending_.erase(pending_.begin());  // nobody publishes
      }
    }
    wake_.wait_for(lock, std::chrono::duration<double>(period_),
                   [this] { return stop_ || (target_ && attachedGeneration_ != targetGeneration_); });
  }
}

}  // namespace ks
