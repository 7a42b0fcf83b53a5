#pragma once
// One N-body configuration measured on a device: build, untimed warm-up steps,
// then `iterations` timed steps with a profiling event each. Used by --bench
// nbody, the headless --sweep and the UI's sweep panel.
#include <memory>
#include <string>
#include <vector>

#include "compute/compute_context.h"
#include "compute/nbody_model.h"
#include "compute/nbody_variants.h"

namespace ks {

struct NBodyMeasurement {
  NBodyConfig config;
  std::string problem;  // empty when it ran; else why not (build errors with their log)
  bool buildFailed = false;
  KernelInfo info;
  std::string buildLog;
  std::string binary;  // measureNBody's only (--dump-program); an NBodyTrial leaves it empty
  uint64_t sourceHash = 0;
  std::vector<double> stepMs;        // one sample per timed step, device clock
  double msPerStep = 0.0;            // first start to last end, divided by the steps
  double interactionsPerSecond = 0.0;  // from msPerStep
};

// Warm-up steps: max(2, iterations / 10). Never throws: failures land in `problem`.
// With `finalState`, the system after all the steps is read back into it.
NBodyMeasurement measureNBody(ComputeContext& compute, const NBodySystem& system, const NBodyConfig& config,
                              const NBodyParams& params, int iterations, NBodySystem* finalState = nullptr);

// measureNBody for callers that must never wait (the UI's sweep): the same
// warm-up and timed steps, enqueued a few at a time (PacedLaunches, batches of
// about `batchBudgetMs`) and polled. The program must already be built (a build
// here would block): ComputeContext::kernelFileReady. Never throws: failures
// land in the result's `problem`. Dropping a trial waits for nothing: OpenCL
// keeps what launches in flight use until they finish. The launches go on `queue`
// (the context's, or a worker thread's: see app/sweep_trial.h), the first one in
// the first poll(), so that a trial made on one thread can be driven on another.
class NBodyTrial {
 public:
  NBodyTrial(ComputeContext& compute, Queue& queue, const NBodySystem& system, const NBodyConfig& config,
             const NBodyParams& params, int iterations, double batchBudgetMs);
  ~NBodyTrial();
  // True once the result is ready (measured, or failed).
  bool poll();
  const NBodyMeasurement& result() const { return result_; }
  // The longest step so far, device time (0 before the first finished).
  double longestStepMs() const;

 private:
  struct Running;
  NBodyMeasurement result_;
  std::unique_ptr<Running> running_;  // null once done or failed
};

// The device time of one step of `config` over `system` (the median of 3 after
// the warm-up), for choosing N; 0 when it does not run (`problem` says why).
double probeNBodyStepMs(ComputeContext& compute, const NBodySystem& system, const NBodyConfig& config,
                        const NBodyParams& params, std::string* problem = nullptr);

// Flops per interaction as NVIDIA's nbody sample counts them: 20 in fp32, 30 in fp64.
double nbodyFlopsPerInteraction(const NBodyConfig& config);

}  // namespace ks
