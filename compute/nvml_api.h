#pragma once
// The few NVML entry points kernelscope uses, declared here with their documented
// signatures (NVML API reference) so that no nvml.h is needed: libnvidia-ml.so.1
// is opened at run time and a machine without it only loses these figures.
#include <cstdint>

namespace ks::nvml {

using Return = int;  // nvmlReturn_t: 0 is NVML_SUCCESS
using Device = struct DeviceOpaque*;  // nvmlDevice_t

constexpr Return kSuccess = 0;
constexpr Return kErrorNotSupported = 3;
constexpr unsigned kClockSm = 1;        // NVML_CLOCK_SM
constexpr unsigned kClockMem = 2;       // NVML_CLOCK_MEM
constexpr unsigned kTemperatureGpu = 0; // NVML_TEMPERATURE_GPU

// nvmlPciInfo_t as nvmlDeviceGetPciInfo_v3 fills it. The older nvmlDeviceGetPciInfo
// writes a shorter struct whose domain, bus and device sit at the same offsets.
struct PciInfo {
  char busIdLegacy[16];
  unsigned domain, bus, device, pciDeviceId, pciSubSystemId;
  char busId[32];
};

using InitFn = Return (*)();                                    // nvmlInit_v2, nvmlShutdown
using GetCountFn = Return (*)(unsigned* count);                 // nvmlDeviceGetCount_v2
using GetHandleByIndexFn = Return (*)(unsigned index, Device* device);  // nvmlDeviceGetHandleByIndex_v2
using GetPciInfoFn = Return (*)(Device device, PciInfo* pci);   // nvmlDeviceGetPciInfo_v3
using GetNameFn = Return (*)(Device device, char* name, unsigned length);
using GetClockInfoFn = Return (*)(Device device, unsigned clockType, unsigned* mhz);
using GetPowerUsageFn = Return (*)(Device device, unsigned* milliwatts);
using GetTotalEnergyFn = Return (*)(Device device, unsigned long long* millijoules);  // Volta and newer
using GetTemperatureFn = Return (*)(Device device, unsigned sensor, unsigned* celsius);
using GetThrottleReasonsFn = Return (*)(Device device, unsigned long long* reasons);
using ErrorStringFn = const char* (*)(Return result);

}  // namespace ks::nvml
