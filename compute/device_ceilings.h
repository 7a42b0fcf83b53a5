#pragma once
// What the profiling panel compares kernels against: the active device's ceilings,
// measured (compute/ceiling_benchmarks.h), and its peak FP32 rate from a small
// per-vendor table, now a cross-check of the measured multiply-add rate. Where the
// table does not know the device, the peak stays unknown: a guess would make
// every fraction meaningless.
#include <optional>
#include <string>

#include "compute/ceilings.h"
#include "compute/device_catalog.h"

namespace ks {

class ComputeContext;

struct PeakFp32 {
  double gflops = 0.0;
  std::string formula;  // "2 x 128 lanes x 132 CUs x 1980 MHz (NVIDIA Hopper/Ada/Ampere GA10x)"
};

// nullopt with `why` set when the table has no entry for this device.
std::optional<PeakFp32> peakFp32(const DeviceDescriptor& device, std::string* why = nullptr);

// The profiler's references for the active device: the measured ceilings
// (compute/ceiling_benchmarks.h; loaded from the cache or measured a step per
// frame) and, as a cross-check, the vendor table's peak FP32.
struct DeviceCeilings {
  MeasuredCeilings measured;
  std::optional<PeakFp32> peak;
  std::string peakUnknownWhy;
  // Readings for the Device info panel.
  bool measuring = false;
  std::string progress;      // "FP32 multiply-add rate (3 of 8)" while measuring
  std::string source;        // "measured 2026-...", "from the cache (measured ...)"
  // A piece of the measurement runs, or waits for the device to finish the scene's
  // work: the N-body scene holds its steps, which would skew it (app/ceilings_runner.h).
  bool holdsDevice = false;
};

}  // namespace ks
