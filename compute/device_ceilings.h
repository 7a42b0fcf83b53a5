#pragma once
// What the profiling panel compares kernels against: the active device's memory
// bandwidth, measured with a plain copy kernel (kernels/copy.cl), and its peak
// FP32 rate from a small per-vendor table. Where the table does not know the
// device, the peak stays unknown: a guess would make every fraction meaningless.
#include <optional>
#include <string>

#include "compute/device_catalog.h"

namespace ks {

class ComputeContext;

struct PeakFp32 {
  double gflops = 0.0;
  std::string formula;  // "2 x 128 lanes x 132 CUs x 1980 MHz (NVIDIA Hopper/Ada/Ampere GA10x)"
};

// nullopt with `why` set when the table has no entry for this device.
std::optional<PeakFp32> peakFp32(const DeviceDescriptor& device, std::string* why = nullptr);

struct CopyBandwidth {
  double gbps = 0.0;       // bytes read + written per second / 1e9; 0 when not measured
  size_t bufferBytes = 0;  // size of the copied buffer
  int runs = 0;
  double medianMs = 0.0;
  std::string error;       // why there is no figure
};

// Copies one buffer into another a few times (the median counts) on `compute`'s
// queue: up to 256 MiB on GPUs, 16 MiB on CPUs (kept well under half a second),
// never more than a quarter of the device's largest allocation.
CopyBandwidth measureCopyBandwidth(ComputeContext& compute);

struct DeviceCeilings {
  CopyBandwidth copy;
  std::optional<PeakFp32> peak;
  std::string peakUnknownWhy;
};

DeviceCeilings measureDeviceCeilings(ComputeContext& compute);

}  // namespace ks
