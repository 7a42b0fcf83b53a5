#include "compute/nbody_benchmark.h"

#include <algorithm>

#include "compute/cl_error.h"
#include "compute/kernel_files.h"
#include "compute/nbody_gpu.h"

namespace ks {
double nbodyFlopsPerInteraction(const NBodyConfig& c) { return c.fp64 ? 30.0 : 20.0; }

NBodyMeasurement measureNBody(ComputeContext& compute, const NBodySystem& system, const NBodyConfig& config,
                              const NBodyParams& params, int iterations) {
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

}  // namespace ks
