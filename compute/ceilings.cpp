#include "compute/ceilings.h"

namespace ks {

const CeilingName& ceilingName(Ceiling c) {
  static const CeilingName names[kCeilingCount] = {
      {"copy_gbps", "Global memory copy", "GB/s"},
      {"read_gbps", "Global memory read", "GB/s"},
      {"fp32_mad_gflops", "FP32 multiply-add rate", "GFLOP/s"},
      {"fp64_mad_gflops", "FP64 multiply-add rate", "GFLOP/s"},
      {"rsqrt_gops", "Inverse square root (rsqrt)", "G/s"},
      {"native_rsqrt_gops", "Inverse square root, native (native_rsqrt)", "G/s"},
      {"local_gbps", "Local memory bandwidth", "GB/s"},
      {"local_atomic_gops", "Local atomic increments", "G/s"},
  };
  return names[static_cast<size_t>(c)];
}

Ceiling ceilingAt(size_t index) { return static_cast<Ceiling>(index); }

CeilingValues ceilingValues(const MeasuredCeilings& ceilings) {
  CeilingValues values{};
  for (size_t i = 0; i < kCeilingCount; ++i) values[i] = ceilings.figures[i].value;
  return values;
}

}  // namespace ks
