#include "app/bench_nbody_split.h"

#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "app/bench_nbody.h"
#include "app/session.h"
#include "compute/exit_code.h"
#include "compute/nbody_split_benchmark.h"
#include "compute/sample_stats.h"
#include "lab/sweep_runs.h"

namespace ks {
namespace {

int fail(const std::string& message, int code) {
  std::fprintf(stderr, "kernelscope: error: %s\n", message.c_str());
  return code;
}

std::string deviceNames(const std::vector<DeviceDescriptor>& devices) {
  std::string out;
  for (size_t d = 0; d < devices.size(); ++d) out += (d ? " + " : "") + devices[d].displayName();
  return out;
}

// --scaling: the split over the first 1, 2, ... K devices of the list against
// `one` (the first device alone), a strong-scaling table and one run each.
int runScaling(const std::vector<DeviceDescriptor>& devices, const AppOptions& options, const NBodySystem& system,
               const NBodyConfig& config, const NBodyParams& params, const NBodyMeasurement& one,
               std::vector<RunRecord>& runs) {
  const NBodyOptions& o = options.nbody;
  std::printf("strong scaling, %zu bodies: one device alone %.3f ms per step, %.3f billion interactions per second\n",
              o.bodies, one.msPerStep, one.interactionsPerSecond * 1e-9);
  std::printf("%8s %14s %16s %10s %12s %14s %12s\n", "devices", "ms per step", "G interactions/s", "speed-up",
              "efficiency", "exchange ms", "balance");
  for (size_t k = 1; k <= devices.size(); ++k) {
    const std::vector<DeviceDescriptor> first(devices.begin(), devices.begin() + static_cast<long>(k));
    NBodySplitMeasurement split;
    try {
      DeviceGroup group(first, locateKernelsDir(options));
      split = measureNBodySplit(group, system, config, params, options.iterations);
    } catch (const std::exception& e) {
      split.overall.problem = e.what();
    }
    if (!split.overall.problem.empty())
      return fail(std::to_string(k) + " devices: " + split.overall.problem, kExitFailure);
    std::vector<double> medians;
    for (const auto& samples : split.deviceKernelMs) medians.push_back(summarize(samples).median);
    const double ms = split.overall.msPerStep;
    const double speedUp = ms > 0 ? one.msPerStep / ms : 0.0;
    const double efficiency = speedUp / static_cast<double>(k);
    std::printf("%8zu %14.3f %16.3f %9.2fx %11.1f %% %14.3f %10.1f %%\n", k, ms,
                split.overall.interactionsPerSecond * 1e-9, speedUp, efficiency * 100.0,
                summarize(split.exchangeMs).median, nbodyLoadBalance(medians) * 100.0);
    std::fflush(stdout);
    RunRecord run = nbodyRun(first.front(), split.overall, o.bodies, options.iterations);
    run.name += " on " + std::to_string(k) + (k == 1 ? " device" : " devices");
    run.meta.device = deviceNames(first);
    run.m.split.devices = static_cast<int>(k);
    run.m.split.deviceKernelMs = medians;
    run.m.split.exchangeMs = summarize(split.exchangeMs).median;
    run.m.split.loadBalance = nbodyLoadBalance(medians);
    run.m.split.parallelEfficiency = efficiency;
    runs.push_back(std::move(run));
  }
  std::printf("(ideal: speed-up K on K devices, efficiency 100 %%)\n");
  return kExitOk;
}

}  // namespace

int runNBodySplitBenchmark(DeviceCatalog catalog, const AppOptions& options, const Settings& settings) {
  const NBodyOptions& o = options.nbody;
  // The platform is the start device's: --platform when given, else the default choice's.
  const StartDevice start = chooseStartDevice(std::move(catalog), options, settings, GlContextHandles{});
  const int platform = start.devices[start.index].platformIndex;
  std::vector<DeviceDescriptor> devices;
  try {
    devices = resolveDeviceList(start.devices, platform, *o.devices);
  } catch (const std::exception& e) {
    return fail(std::string("--devices: ") + e.what(), kExitUsage);
  }
  std::unique_ptr<DeviceGroup> group;
  try {
    group = std::make_unique<DeviceGroup>(devices, locateKernelsDir(options));
  } catch (const std::exception& e) {
    return fail(std::string("cannot use these devices together: ") + e.what(), kExitNoUsableDevice);
  }
  const NBodyPreset preset = parseNBodyPreset(o.preset).value_or(NBodyPreset::DiskGalaxy);
  const NBodySystem system = makeNBodyPreset(preset, o.bodies, o.seed);
  const NBodyParams params = nbodyPresetDefaults(preset, o.bodies).params;
  const NBodyConfig config = nbodyConfigsFromOptions(o, devices.front()).front();
  for (const DeviceDescriptor& d : devices)
    if (std::string problem = nbodyConfigProblem(config, d); !problem.empty())
      return fail(describeNBodyConfig(config) + " on " + d.displayName() + ": " + problem, kExitUsage);
  const int iterations = options.iterations;

  std::printf("kernelscope N-body benchmark on %zu device%s of %s: %s, driver %s\n", devices.size(),
              devices.size() == 1 ? "" : "s", devices.front().platformName.c_str(), deviceNames(devices).c_str(),
              devices.front().driverVersion.c_str());
  std::printf("%zu bodies (%s preset), %d iterations after an untimed warm-up; %s\n", o.bodies, o.preset.c_str(),
              iterations, "flops counted as NVIDIA's nbody sample does: 20 per interaction in fp32, 30 in fp64");
  std::printf("each step: every device integrates its slice of the bodies against all of them, then the new "
              "positions go to the others through pinned host memory\n");
  std::fflush(stdout);
  // One device alone first: what the split is compared with.
  NBodySystem oneFinal;
  const NBodyMeasurement one = measureNBody((*group)[0], system, config, params, iterations, &oneFinal);
  if (!one.problem.empty())
    return fail(describeNBodyConfig(config) + ": " + one.problem, one.buildFailed ? kExitKernelBuildFailed : kExitUsage);
  if (o.scaling) {
    group.reset();  // each row builds its own group of the first K devices
    std::vector<RunRecord> runs{nbodyRun(devices.front(), one, o.bodies, iterations)};
    if (const int code = runScaling(devices, options, system, config, params, one, runs); code != kExitOk) return code;
    return writeRunFiles(runs, o.csv, o.json);
  }
  const NBodySplitMeasurement split = measureNBodySplit(*group, system, config, params, iterations);
  const NBodyMeasurement& r = split.overall;
  if (!r.problem.empty())
    return fail(describeNBodyConfig(config) + ": " + r.problem, r.buildFailed ? kExitKernelBuildFailed : kExitFailure);

  const double k = static_cast<double>(devices.size());
  std::printf("%s\n", describeNBodyConfig(config).c_str());
  std::printf("kernel: CL_KERNEL_WORK_GROUP_SIZE %zu, preferred multiple %zu, local %llu B, private %llu B\n",
              r.info.workGroupSize, r.info.preferredMultiple, static_cast<unsigned long long>(r.info.localMemBytes),
              static_cast<unsigned long long>(r.info.privateMemBytes));
  std::printf("%zu bodies, total time for %d iterations: %.3f ms\n", o.bodies, iterations, r.msPerStep * iterations);
  std::printf("= %.3f billion interactions per second\n", r.interactionsPerSecond * 1e-9);
  std::printf("= %.3f %s-precision GFLOP/s at %.0f flops per interaction\n",
              r.interactionsPerSecond * nbodyFlopsPerInteraction(config) * 1e-9, config.fp64 ? "double" : "single",
              nbodyFlopsPerInteraction(config));
  std::vector<double> kernelMedians;
  for (size_t d = 0; d < devices.size(); ++d) {
    kernelMedians.push_back(summarize(split.deviceKernelMs[d]).median);
    std::printf("device %d %s: bodies %zu to %zu (%zu), kernel %.3f ms median per step\n", devices[d].deviceIndex,
                devices[d].displayName().c_str(), split.slices[d].first, split.slices[d].first + split.slices[d].count - 1,
                split.slices[d].count, kernelMedians.back());
  }
  const double exchange = summarize(split.exchangeMs).median;
  const double balance = nbodyLoadBalance(kernelMedians);
  const double efficiency = r.msPerStep > 0 ? one.msPerStep / (k * r.msPerStep) : 0.0;
  std::printf("exchange: %.3f ms median per step beyond the slowest kernel (positions through pinned host memory)\n",
              exchange);
  std::printf("load balance: %.1f %% (mean kernel time over the slowest; slices %s from the warm-up's times)\n",
              balance * 100.0, split.rebalanced ? "re-balanced" : "kept equal");
  std::printf("one device (%s) alone: %.3f ms per step, %.3f billion interactions per second\n",
              devices.front().displayName().c_str(), one.msPerStep, one.interactionsPerSecond * 1e-9);
  std::printf("= speed-up %.2fx on %zu device%s, parallel efficiency %.1f %% (one device's step time / (%zu x the "
              "split step time))\n",
              r.msPerStep > 0 ? one.msPerStep / r.msPerStep : 0.0, devices.size(), devices.size() == 1 ? "" : "s",
              efficiency * 100.0, devices.size());

  // The same steps on one device and split: on devices that compute alike, the same bits.
  size_t differ = 0;
  double largest = 0.0;
  for (size_t i = 0; i < oneFinal.size(); ++i)
    if (oneFinal.positions[i] != split.finalState.positions[i]) {
      ++differ;
      const double scale = std::max(glm::length(glm::dvec3(oneFinal.positions[i])), 1e-30);
      largest = std::max(largest, glm::length(glm::dvec3(oneFinal.positions[i] - split.finalState.positions[i])) / scale);
    }
  if (differ == 0)
    std::printf("final positions: the same as one device's, bit for bit\n");
  else
    std::printf("final positions: %zu of %zu bodies differ from one device's, by at most %.3g relative (devices "
                "that round differently)\n",
                differ, oneFinal.size(), largest);
  if (o.positionsOut) {
    try {
      saveNBodySystem(split.finalState, *o.positionsOut);
      std::printf("final positions and velocities written to %s\n", o.positionsOut->string().c_str());
    } catch (const std::exception& e) {
      return fail(e.what(), kExitFailure);
    }
  }
  std::vector<RunRecord> runs;
  runs.push_back(nbodyRun(devices.front(), one, o.bodies, iterations));
  RunRecord run = nbodyRun(devices.front(), r, o.bodies, iterations);
  run.name += " on " + std::to_string(devices.size()) + " devices";
  run.meta.device = deviceNames(devices);
  run.m.split.devices = static_cast<int>(devices.size());
  run.m.split.deviceKernelMs = kernelMedians;
  run.m.split.exchangeMs = exchange;
  run.m.split.loadBalance = balance;
  run.m.split.parallelEfficiency = efficiency;
  runs.push_back(std::move(run));
  return writeRunFiles(runs, o.csv, o.json);
}

}  // namespace ks
