#pragma once
// One transpose configuration measured on a device: build, 3 untimed runs, then
// `iterations` timed runs (one profiling event each). Used by `--bench transpose`
// and the UI's sweep panel.
#include <memory>
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

// measureTranspose for callers that must never wait (the UI's sweep): the same
// 3 warm-up and timed runs, enqueued a few at a time (PacedLaunches, batches of
// about `batchBudgetMs`) and polled. The program must already be built. `in`
// and `out` must outlive the trial's launches (OpenCL keeps buffers that queued
// commands use). Never throws: failures land in the result's `problem`. The
// launches go on `queue`, the first one in the first poll() (as NBodyTrial's).
class TransposeTrial {
 public:
  TransposeTrial(ComputeContext& compute, Queue& queue, cl_mem in, cl_mem out, const ImageLayout& layout,
                 const TransposeConfig& config, int iterations, double batchBudgetMs);
  ~TransposeTrial();
  bool poll();  // true once the result is ready
  const TransposeMeasurement& result() const { return result_; }
  double longestRunMs() const;

 private:
  struct Running;
  TransposeMeasurement result_;
  std::unique_ptr<Running> running_;
};

}  // namespace ks
