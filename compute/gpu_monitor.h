#pragma once
// Samples the active device's clocks, power, temperature, energy and throttle
// reasons through NVML on a thread of its own, a few times a second, so the
// frame never waits for NVML (nor for nvmlInit, which can take seconds). The
// frame loop hands it the active device and takes the new samples, once a frame.
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "compute/device_catalog.h"
#include "compute/gpu_telemetry.h"

namespace ks {

// The key NVML matching uses: NVIDIA or not, its PCI bus and slot where the
// runtime has cl_nv_device_attribute_query, its place among NVIDIA devices, and
// KERNELSCOPE_NVML_DEVICE (an NVML index) when set.
OpenClDeviceKey openClDeviceKey(const DeviceDescriptor& device, const std::vector<DeviceDescriptor>& all);

class GpuMonitor {
 public:
  // `libraryPath`: what to dlopen (NvmlLibrary::defaultPath()); opened on the
  // sampling thread when a device first asks for it. `periodSeconds`: between samples.
  explicit GpuMonitor(std::string libraryPath = NvmlLibrary::defaultPath(), double periodSeconds = 0.2);
  ~GpuMonitor();
  GpuMonitor(const GpuMonitor&) = delete;
  GpuMonitor& operator=(const GpuMonitor&) = delete;

  // Once a frame: follows `key` (a new device starts over) and moves the samples
  // taken since the last call into `state` (its history keeps kTelemetryHistory).
  void publish(GpuTelemetryState& state, const OpenClDeviceKey& key);
  // publish() with the key of `device`, worked out again only when the device changes.
  void publish(GpuTelemetryState& state, const DeviceDescriptor& device, const std::vector<DeviceDescriptor>& all);

 private:
  void run();
  struct Attached {
    bool available = false;
    std::string status, nvmlDevice;
  };
  Attached attach(const OpenClDeviceKey& key);  // on the sampling thread
  GpuSample sample() const;                  // on the sampling thread

  const std::string libraryPath_;
  const double period_;
  std::unique_ptr<NvmlLibrary> library_;  // the sampling thread's
  std::optional<nvml::Device> device_;

  std::mutex mutex_;  // guards what follows
  std::condition_variable wake_;
  bool stop_ = false;
  std::optional<OpenClDeviceKey> target_;
  unsigned targetGeneration_ = 0, attachedGeneration_ = 0;
  bool available_ = false;
  std::string status_ = "NVML: starting", nvmlDevice_;
  std::vector<GpuSample> pending_;
  cl_device_id keyDevice_ = nullptr;  // the device publish() last worked a key out for
  std::string keyDeviceName_;
  OpenClDeviceKey key_;
  std::thread thread_;  // last: starts once everything above exists
};

}  // namespace ks
