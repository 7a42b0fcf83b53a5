#include "compute/nbody_benchmark.h"

#include <algorithm>

#include "compute/cl_error.h"
#include "compute/kernel_files.h"
#include "compute/nbody_gpu.h"
#include "compute/paced_launches.h"
#include "compute/sample_stats.h"

namespace ks {
double nbodyFlopsPerInteraction(const NBodyConfig& c) { return c.fp64 ? 30.0 : 20.0; }

NBodyMeasurement measureNBody(ComputeContext& compute, const NBodySystem& system, const NBodyConfig& config,
                              const NBodyParams& params, int iterations, NBodySystem* finalState) {
  NBodyMeasurement r;
  r.config = config;
  iterations = std::max(iterations, 1);
  try {
    r.sourceHash = hashSource(readKernelSource(compute.kernelsDir(), kNBodyKernelFile));
    NBodyKernel kernel(compute, config);
    r.info = kernel.info();
    r.buildLog = kernel.build().log;
    r.binary = programBinary(kernel.build().program.get());
    NBodyDeviceState state(compute, system, config);
    Buffer display(compute.context(), CL_MEM_WRITE_ONLY, state.padded() * 4 * sizeof(float));
    auto step = [&](Event* event) {
      kernel.enqueueStep(compute.queue(), state.positionsIn(), state.positionsOut(), state.velocities(), display.get(),
                         state.padded(), params, event);
      state.swap();
    };
    for (int i = 0; i < std::max(2, iterations / 10); ++i) step(nullptr);
    compute.queue().finish();
    std::vector<Event> events(static_cast<size_t>(iterations));
    for (auto& e : events) step(&e);
    compute.queue().finish();
    for (const auto& e : events) r.stepMs.push_back(e.elapsedMs());
    if (finalState) *finalState = state.download(compute.queue());
    cl_ulong start = 0, end = 0;
    clCheck(clGetEventProfilingInfo(events.front().get(), CL_PROFILING_COMMAND_START, sizeof start, &start, nullptr),
            "clGetEventProfilingInfo");
    clCheck(clGetEventProfilingInfo(events.back().get(), CL_PROFILING_COMMAND_END, sizeof end, &end, nullptr),
            "clGetEventProfilingInfo");
    const double seconds = static_cast<double>(end - start) * 1e-9;
    r.msPerStep = seconds * 1e3 / iterations;
    const double n = static_cast<double>(system.size());
    r.interactionsPerSecond = seconds > 0 ? n * n * iterations / seconds : 0.0;
  } catch (const ProgramBuildError& e) {
    r.problem = std::string(e.what()) + "\n" + e.build().log;
    r.buildFailed = true;
  } catch (const std::exception& e) {
    r.problem = e.what();
  }
  return r;
}

double probeNBodyStepMs(ComputeContext& compute, const NBodySystem& system, const NBodyConfig& config,
                        const NBodyParams& params, std::string* problem) {
  const NBodyMeasurement m = measureNBody(compute, system, config, params, 3);
  if (problem) *problem = m.problem;
  return m.problem.empty() ? summarize(m.stepMs).median : 0.0;
}

struct NBodyTrial::Running {
  Running(ComputeContext& compute, Queue& queue, const NBodySystem& system, const NBodyConfig& config,
          const NBodyParams& params, int iterations, double batchBudgetMs)
      : kernel(compute, config),
        state(compute, system, config),
        display(compute.context(), CL_MEM_WRITE_ONLY, state.padded() * 4 * sizeof(float)),
        params(params),
        launches(
            queue,
            [this, &queue](Event* event) {
              kernel.enqueueStep(queue, state.positionsIn(), state.positionsOut(), state.velocities(),
                                 display.get(), state.padded(), this->params, event);
              state.swap();
            },
            std::max(2, iterations / 10), iterations, batchBudgetMs) {}
  NBodyKernel kernel;
  NBodyDeviceState state;
  Buffer display;
  NBodyParams params;
  PacedLaunches launches;
};

NBodyTrial::NBodyTrial(ComputeContext& compute, Queue& queue, const NBodySystem& system, const NBodyConfig& config,
                       const NBodyParams& params, int iterations, double batchBudgetMs) {
  result_.config = config;
  iterations = std::max(iterations, 1);
  try {
    result_.sourceHash = hashSource(readKernelSource(compute.kernelsDir(), kNBodyKernelFile));
    running_ = std::make_unique<Running>(compute, queue, system, config, params, iterations, batchBudgetMs);
    result_.info = running_->kernel.info();
    result_.buildLog = running_->kernel.build().log;
    // No program binary (measureNBody's, for --dump-program): on PoCL reading it compiles
    // every kernel of the program, 2-5 s in the frame that starts each configuration.
  } catch (const ProgramBuildError& e) {
    result_.problem = std::string(e.what()) + "\n" + e.build().log;
    result_.buildFailed = true;
    running_.reset();
  } catch (const std::exception& e) {
    result_.problem = e.what();
    running_.reset();
  }
}

NBodyTrial::~NBodyTrial() = default;

double NBodyTrial::longestStepMs() const { return running_ ? running_->launches.longestLaunchMs() : 0.0; }

bool NBodyTrial::poll() {
  if (!running_) return true;
  try {
    if (!running_->launches.poll()) return false;
    result_.stepMs = running_->launches.timedMs();
    // Batches leave gaps between steps: the steps' own times, summed, not first start to last end.
    double sum = 0.0;
    for (double ms : result_.stepMs) sum += ms;
    const double iterations = static_cast<double>(result_.stepMs.size());
    result_.msPerStep = sum / iterations;
    const double n = static_cast<double>(running_->state.bodies());
    result_.interactionsPerSecond = sum > 0 ? n * n * iterations / (sum * 1e-3) : 0.0;
  } catch (const std::exception& e) {
    result_.problem = e.what();
  }
  running_.reset();
  return true;
}

}  // namespace ks
