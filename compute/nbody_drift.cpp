#include "compute/nbody_drift.h"

#include <algorithm>
#include <chrono>

#include "compute/cl_error.h"
#include "compute/nbody_gpu.h"

namespace ks {
namespace {
// Steps enqueued between waits: a long run never piles thousands of launches on the queue.
constexpr int kStepsPerBatch = 64;
}  // namespace

NBodyDriftMeasurement measureNBodyDrift(ComputeContext& compute, const NBodySystem& system, const NBodyConfig& config,
                                        const NBodyParams& params, int steps) {
  NBodyDriftMeasurement r;
  r.steps = std::max(steps, 1);
  const auto began = std::chrono::steady_clock::now();
  try {
    NBodyKernel kernel(compute, config);
    NBodyDeviceState state(compute, system, config);
    Buffer display(compute.context(), CL_MEM_WRITE_ONLY, state.padded() * 4 * sizeof(float));
    NBodyInvariantsMeter meter(compute, config.fp64);
    r.sumsInDouble = meter.sumsInDouble();
    Queue& queue = compute.queue();
    auto measure = [&] {
      meter.enqueue(queue, state.positionsIn(), state.velocities(), state.bodies(), params);
      const std::optional<NBodyInvariants> inv = meter.poll(true);
      if (!inv) throw std::runtime_error("the energy measurement returned nothing");
      return *inv;
    };
    // Measured on the device at both ends, so the start carries the same rounding
    // of positions to the configuration's precision as the end.
    r.start = measure();
    for (int done = 0; done < r.steps;) {
      const int batch = std::min(kStepsPerBatch, r.steps - done);
      for (int i = 0; i < batch; ++i) {
        kernel.enqueueStep(queue, state.positionsIn(), state.positionsOut(), state.velocities(), display.get(),
                           state.padded(), params, nullptr);
        state.swap();
      }
      queue.finish();
      done += batch;
    }
    r.end = measure();
    r.drift = nbodyDrift(r.end, r.start);
  } catch (const ProgramBuildError& e) {
    r.problem = std::string(e.what()) + "\n" + e.build().log;
  } catch (const std::exception& e) {
    r.problem = e.what();
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
  return r;
}

}  // namespace ks
