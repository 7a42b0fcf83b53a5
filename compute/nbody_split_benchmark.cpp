#include "compute/nbody_split_benchmark.h"

#include <algorithm>
#include <chrono>

#include "compute/kernel_files.h"
#include "compute/sample_stats.h"

namespace ks {

NBodySplitMeasurement measureNBodySplit(DeviceGroup& group, const NBodySystem& system, const NBodyConfig& config,
                                        const NBodyParams& params, int iterations) {
  NBodySplitMeasurement r;
  r.overall.config = config;
  iterations = std::max(iterations, 1);
  try {
    r.overall.sourceHash = hashSource(readKernelSource(group[0].kernelsDir(), kNBodyKernelFile));
    NBodyMultiDevice split(group, system, config);
    r.overall.info = split.kernel(0).info();
    r.overall.buildLog = split.kernel(0).build().log;
    r.overall.binary = programBinary(split.kernel(0).build().program.get());
    // Warm-up, then slices in proportion to each device's measured speed (the
    // median of the warm-up's kernel times). The first timed step runs on the new
    // slices; warm-up and timed steps are as many as measureNBody's.
    const int warmup = std::max(2, iterations / 10);
    std::vector<std::vector<double>> warmMs(split.devices());
    for (int i = 0; i < warmup; ++i) {
      const NBodyMultiStepTimes t = split.step(params);
      for (size_t d = 0; d < split.devices(); ++d) warmMs[d].push_back(t.kernelMs[d]);
    }
    std::vector<double> medians;
    for (const auto& samples : warmMs) medians.push_back(summarize(samples).median);
    // Within 3 % the cut stays: moving one work-group back and forth is noise.
    if (nbodyLoadBalance(medians) < 0.97 && split.rebalance(medians)) r.rebalanced = true;
    r.slices = split.slices();
    r.deviceKernelMs.assign(split.devices(), {});
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < iterations; ++i) {
      const NBodyMultiStepTimes t = split.step(params);
      r.overall.stepMs.push_back(t.stepMs);
      r.exchangeMs.push_back(t.exchangeMs);
      for (size_t d = 0; d < split.devices(); ++d) r.deviceKernelMs[d].push_back(t.kernelMs[d]);
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    r.overall.msPerStep = seconds * 1e3 / iterations;
    const double n = static_cast<double>(system.size());
    r.overall.interactionsPerSecond = seconds > 0 ? n * n * iterations / seconds : 0.0;
    r.finalState = split.download();
  } catch (const ProgramBuildError& e) {
    r.overall.problem = std::string(e.what()) + "\n" + e.build().log;
    r.overall.buildFailed = true;
  } catch (const std::exception& e) {
    r.overall.problem = e.what();
  }
  return r;
}

}  // namespace ks
