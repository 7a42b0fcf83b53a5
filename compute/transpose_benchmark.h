#pragma once
// One transpose configuration measured on a device: build, 3 untimed runs, then
// `iterations` timed runs (one profiling event each). Used by `--bench transpose`
// and the UI's sweep panel.
#include <string>
#include <vector>

#include "compute/image_layout.h"
#include "compute/image_transpose.h"

namespace ks {

struct TransposeMeasurement {
  TransposeConfig config;
  ImageLayout layout;
  std::string problem;  // empty when it ran
  uint64_t sourceHash = 0;
  std::vector<double> runMs;  // one sample per timed run, device clock
  double gigabytesPerSecond = 0.0;  // from the median run time, bytes of imageOpBytes(Transpose)
};

// `in` holds `layout`, `out` has room for its transpose. Never throws.
TransposeMeasurement measureTranspose(ComputeContext& compute, cl_mem in, cl_mem out, const ImageLayout& layout,
                                      const TransposeConfig& config, int iterations);

}  // namespace ks
