#pragma once
// Clocks, power, temperature and energy as NVML reports them (compute/gpu_monitor.h
// samples them): the samples, the throttle reasons in words, matching an OpenCL
// device to an NVML one, and the energy over a time span. Pure: no NVML calls here.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "compute/nvml_library.h"

namespace ks {

// One reading; a figure the device would not give is empty.
struct GpuSample {
  double seconds = 0.0;  // steady clock (steadySeconds())
  std::optional<double> smClockMHz, memClockMHz, powerW, temperatureC;
  std::optional<double> energyJ;  // the board's energy counter since the driver loaded
  std::optional<uint64_t> throttleReasons;  // NVML's clocks throttle reason bits
};
double steadySeconds();

// NVML's clocks throttle reasons (nvmlClocksThrottleReason*), in words users read.
struct ThrottleReasonName {
  uint64_t bit;
  const char* words;
  bool throttles;  // false for "GPU idle" and "applications clocks setting": the clock is where it was asked to be
};
const std::vector<ThrottleReasonName>& throttleReasonNames();
std::vector<std::string> throttleReasonWords(uint64_t mask);  // unknown bits as "reason 0x200"
bool clockThrottled(uint64_t mask);  // any reason but idle and applications clocks
// "not throttled", "not throttled (GPU idle)", "throttled: power cap, HW thermal slowdown"
std::string throttleText(uint64_t mask);

// What kernelscope knows of the OpenCL device, to find it among NVML's.
struct OpenClDeviceKey {
  bool nvidia = false;
  std::optional<unsigned> pciBus, pciSlot;  // cl_nv_device_attribute_query
  std::string name;
  int nvidiaIndex = 0;  // among the NVIDIA OpenCL devices, in the runtime's order
  std::optional<unsigned> forcedIndex;  // KERNELSCOPE_NVML_DEVICE: NVML's index, whatever the device
  bool operator==(const OpenClDeviceKey&) const = default;
};
struct NvmlMatch {
  std::optional<unsigned> index;  // NVML's index; empty: no match
  std::string how;  // "PCI bus 0x17, slot 0", "name (NVIDIA H200)", "index 0 ...", or why none
};
// PCI bus and slot when OpenCL gives them, else the name when only one NVML device
// has it, else the position among NVIDIA devices; `how` says which.
NvmlMatch matchNvmlDevice(const OpenClDeviceKey& key, const std::vector<NvmlDeviceInfo>& devices);

// The board's energy from t0 to t1 (seconds, steady clock) from `samples` (oldest
// first; the last one before t0, if any, included): the energy counter's slope
// over the span when it moved over at least half a second, else the mean power
// of the samples in the span times its length.
struct EnergyEstimate {
  double joules = 0.0, watts = 0.0;
  std::string source;  // "energy counter", "power x time"; empty: no figure
};
EnergyEstimate energyOver(const std::vector<GpuSample>& samples, double t0, double t1);
// The throttle reasons seen in [t0, t1] (the bracketing sample when none fall inside).
uint64_t throttleReasonsOver(const std::vector<GpuSample>& samples, double t0, double t1);

// What the Profiler shows and the state dump writes.
struct GpuTelemetryState {
  bool available = false;
  std::string status = "NVML: not started";  // why not available, or how the device was matched
  std::string nvmlDevice;                    // NVML's name for it
  std::vector<GpuSample> history;            // newest last, at most kTelemetryHistory
  uint64_t samplesSeen = 0;                  // every sample published (never goes down)
};
constexpr size_t kTelemetryHistory = 600;  // two minutes at 5 samples a second
// The panel's lines: one line why when not available, else the figures in words.
std::vector<std::string> telemetryLines(const GpuTelemetryState& state);

}  // namespace ks
