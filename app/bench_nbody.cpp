#include "app/bench_nbody.h"

#include "app/bench_ceilings.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "app/bench_nbody_split.h"
#include "app/session.h"
#include "lab/sweep_runs.h"
#include "compute/nbody_benchmark.h"
#include "compute/nbody_drift.h"
#include "compute/nbody_precision.h"
#include "compute/nbody_gpu.h"
#include "compute/work_model.h"
#include "compute/sweep_plan.h"
#include "compute/nbody_tuning.h"

namespace ks {
namespace {

NBodyConfig baseConfig(const NBodyOptions& o) {
  NBodyConfig c;
  c.fp64 = o.fp64;
  c.fastRelaxedMath = o.fastMath;
  c.denormsAreZero = o.denormsAreZero;
  c.nativeRsqrt = !o.preciseRsqrt;
  c.extraOptions = o.extraOptions;
  return c;
}

// --sweep's plan: the lists' product, once per --precision setting when given.
SweepPlan<NBodyConfig> sweepPlan(const NBodyOptions& o, const DeviceDescriptor& device) {
  if (o.precisions.empty()) return planNBodySweep(nbodySweepRangesFromOptions(o), baseConfig(o), device);
  SweepPlan<NBodyConfig> all;
  for (const std::string& name : o.precisions) {
    const std::optional<NBodyConfig> base = withNBodyPrecision(baseConfig(o), name);
    if (!base) continue;  // the parser accepts only the names of nbodyPrecisionNames()
    SweepPlan<NBodyConfig> plan = planNBodySweep(nbodySweepRangesFromOptions(o), *base, device);
    for (NBodyConfig& c : plan.valid)
      if (std::find(all.valid.begin(), all.valid.end(), c) == all.valid.end()) all.valid.push_back(std::move(c));
    for (auto& refused : plan.refused) all.refused.push_back(std::move(refused));
  }
  return all;
}

// The energy drift over --drift-steps steps into the run ("drift failed: ..." in its
// status when it could not be measured); printed by the caller.
NBodyDriftMeasurement addDrift(RunRecord& run, ComputeContext& compute, const NBodySystem& system,
                               const NBodyConfig& config, const NBodyParams& params, const NBodyOptions& o) {
  NBodyDriftMeasurement d = measureNBodyDrift(compute, system, config, params, o.driftSteps);
  run.meta.parameters.emplace_back("preset", o.preset);
  char dt[32];
  std::snprintf(dt, sizeof dt, "%g", params.dt);
  run.meta.parameters.emplace_back("dt", dt);  // the drift depends on it (--dt, else the preset's)
  if (!d.problem.empty()) {
    run.status = "drift failed: " + d.problem.substr(0, d.problem.find('\n'));
    return d;
  }
  run.m.energyDrift = d.drift.energy;
  run.m.momentumDrift = d.drift.momentum;
  run.m.angularMomentumDrift = d.drift.angularMomentum;
  run.m.driftSteps = static_cast<unsigned long long>(d.steps);
  return d;
}

}  // namespace

std::vector<NBodyConfig> nbodyConfigsFromOptions(const NBodyOptions& o, const DeviceDescriptor& device) {
  const NBodyConfig defaults;
  if (!o.sweep && !o.kernelOptionsGiven()) return {tunedNBodyConfig(device, o.bodies)};
  if (!o.sweep) {
    NBodyConfig c = baseConfig(o);
    c.variant = o.variants.empty() ? defaults.variant : o.variants.front();
    c.workGroup = o.workGroups.empty() ? defaults.workGroup : o.workGroups.front();
    // What was not given: the default where the variant offers it, else the variant's first value.
    const NBodyVariant* v = findNBodyVariant(c.variant);
    auto orDefault = [&](const std::vector<int>& given, int fallback, std::vector<int> NBodyVariant::*offered) {
      if (!given.empty()) return given.front();
      if (!v || std::find((v->*offered).begin(), (v->*offered).end(), fallback) != (v->*offered).end()) return fallback;
      return (v->*offered).front();
    };
    c.unroll = orDefault(o.unrolls, defaults.unroll, &NBodyVariant::unrolls);
    c.bodiesPerItem = orDefault(o.bodiesPerItem, defaults.bodiesPerItem, &NBodyVariant::bodiesPerItem);
    c.split = orDefault(o.splits, defaults.split, &NBodyVariant::splits);
    return {c};
  }
  const SweepPlan<NBodyConfig> plan = sweepPlan(o, device);
  std::vector<NBodyConfig> out = plan.valid;
  for (const auto& [c, why] : plan.refused) out.push_back(c);
  return out;
}

NBodySweepRanges nbodySweepRangesFromOptions(const NBodyOptions& o) {
  return {o.variants, o.workGroups, o.unrolls, o.bodiesPerItem, o.splits};
}

// What both headless modes start from: the device (no GL), its context, and the
// preset system with its parameters.
struct HeadlessNBody {
  HeadlessNBody(DeviceCatalog catalog, const AppOptions& options, const Settings& settings)
      : start(chooseStartDevice(std::move(catalog), options, settings, GlContextHandles{})),
        device(start.devices[start.index]),
        compute(device, locateKernelsDir(options)),
        preset(parseNBodyPreset(options.nbody.preset).value_or(NBodyPreset::DiskGalaxy)),
        system(makeNBodyPreset(preset, options.nbody.bodies, options.nbody.seed)),
        params(nbodyPresetDefaults(preset, options.nbody.bodies).params) {
    if (options.nbody.dt) params.dt = *options.nbody.dt;  // --dt: the preset's own otherwise
  }
  StartDevice start;
  const DeviceDescriptor& device;
  ComputeContext compute;
  NBodyPreset preset;
  NBodySystem system;
  NBodyParams params;
};

int runNBodyBenchmark(DeviceCatalog catalog, const AppOptions& options, const Settings& settings) {
  const NBodyOptions& o = options.nbody;
  if (o.devices) return runNBodySplitBenchmark(std::move(catalog), options, settings);
  HeadlessNBody setup(std::move(catalog), options, settings);
  const DeviceDescriptor& device = setup.device;
  ComputeContext& compute = setup.compute;
  const NBodySystem& system = setup.system;
  const NBodyParams& params = setup.params;
  const int iterations = options.iterations;
  std::vector<NBodyConfig> configs;
  std::vector<std::pair<NBodyConfig, std::string>> refused;
  if (o.sweep) {
    SweepPlan<NBodyConfig> plan = sweepPlan(o, device);
    configs = std::move(plan.valid);
    refused = std::move(plan.refused);
  } else {
    configs = nbodyConfigsFromOptions(o, device);
  }

  std::printf("kernelscope N-body benchmark on %s, driver %s\n", device.displayName().c_str(),
              device.driverVersion.c_str());
  std::printf("%zu bodies (%s preset), %d iterations after an untimed warm-up; %s\n", o.bodies, o.preset.c_str(),
              iterations, "flops counted as NVIDIA's nbody sample does: 20 per interaction in fp32, 30 in fp64");
  if (o.driftSteps > 0)
    std::printf("energy drift: (E after %d steps - E at the start) / |E at the start|, dt %g, softening %g; "
                "momentum and angular momentum drift relative to sum |m v| and sum |p x m v|\n",
                o.driftSteps, params.dt, std::sqrt(params.softening2));
  std::vector<RunRecord> runs;
  if (o.sweep) {
    std::printf("%zu combinations: %zu to run, %zu refused before running; rates from the median step\n",
                configs.size() + refused.size(), configs.size(), refused.size());
    for (const auto& [c, why] : refused) {
      runs.push_back(refusedNBodyRun(device, c, why, o.bodies));
      std::printf("%-52s refused: %s\n", runs.back().name.c_str(), why.c_str());
    }
  }
  // What each run is compared with, when this device's ceilings have been measured.
  const std::optional<MeasuredCeilings> knownCeilings = cachedCeilings(compute, options);
  NBodySystem finalState;  // --positions-out
  for (const NBodyConfig& c : configs) {
    NBodyMeasurement r;
    if (std::string problem = nbodyConfigProblem(c, device); !problem.empty()) {
      r.config = c;
      r.problem = problem;
    } else {
      r = measureNBody(compute, system, c, params, iterations, o.positionsOut ? &finalState : nullptr);
    }
    RunRecord run = nbodyRun(device, r, o.bodies, iterations);
    if (run.ok() && knownCeilings) {
      const std::string bound = kernelBound(nbodyStepWork(o.bodies, c), r.msPerStep, *knownCeilings).label();
      if (!bound.empty()) run.m.bound = "n-body step: " + bound;
    }
    NBodyDriftMeasurement drift;
    if (o.driftSteps > 0 && run.ok()) drift = addDrift(run, compute, system, c, params, o);
    if (!o.sweep) {
      if (!r.problem.empty()) {
        std::fprintf(stderr, "kernelscope: error: %s: %s\n", describeNBodyConfig(c).c_str(), r.problem.c_str());
        return r.buildFailed ? kExitKernelBuildFailed : kExitUsage;
      }
      std::printf("%s\n", describeNBodyConfig(c).c_str());
      std::printf("kernel: CL_KERNEL_WORK_GROUP_SIZE %zu, preferred multiple %zu, local %llu B, private %llu B\n",
                  r.info.workGroupSize, r.info.preferredMultiple, static_cast<unsigned long long>(r.info.localMemBytes),
                  static_cast<unsigned long long>(r.info.privateMemBytes));
      if (o.showBuildLog) std::printf("build log:\n%s\n", r.buildLog.c_str());
      if (o.dumpProgram) {
        std::ofstream out(*o.dumpProgram, std::ios::binary);
        out << r.binary;
        if (!out) {
          std::fprintf(stderr, "kernelscope: error: cannot write '%s'\n", o.dumpProgram->c_str());
          return kExitFailure;
        }
      }
      std::printf("%zu bodies, total time for %d iterations: %.3f ms\n", o.bodies, iterations, r.msPerStep * iterations);
      std::printf("= %.3f billion interactions per second\n", r.interactionsPerSecond * 1e-9);
      if (o.positionsOut) {
        try {
          saveNBodySystem(finalState, *o.positionsOut);
        } catch (const std::exception& e) {
          std::fprintf(stderr, "kernelscope: error: %s\n", e.what());
          return kExitFailure;
        }
      }
      std::printf("= %.3f %s-precision GFLOP/s at %.0f flops per interaction\n",
                  r.interactionsPerSecond * nbodyFlopsPerInteraction(c) * 1e-9, c.fp64 ? "double" : "single",
                  nbodyFlopsPerInteraction(c));
      // Against the measured ceilings (compute/work_model.h), when they have been measured here.
      if (knownCeilings) {
        const KernelBound bound = kernelBound(nbodyStepWork(o.bodies, c), r.msPerStep, *knownCeilings);
        std::printf("= bound by %s of the measured ceiling (12 instructions and 1 rsqrt per interaction)\n",
                    bound.label().empty() ? "nothing measured" : bound.label().c_str());
      } else {
        std::printf("(kernelscope --bench ceilings measures this device's ceilings; then this says what binds the kernel)\n");
      }
      if (o.driftSteps > 0) {
        if (!drift.problem.empty()) {
          std::fprintf(stderr, "kernelscope: error: the energy drift could not be measured: %s\n", drift.problem.c_str());
          return kExitFailure;
        }
        std::printf("= energy drift %+.6e relative after %d steps (momentum %.3e, angular momentum %.3e; "
                    "sums in %s on the device)\n",
                    drift.drift.energy, drift.steps, drift.drift.momentum, drift.drift.angularMomentum,
                    drift.sumsInDouble ? "double" : "compensated float");
      }
    } else {
      if (run.ok() && run.m.hasDrift())
        // Digits enough to tell the precisions apart where the integrator's own drift dominates.
        std::printf("%-52s %10.4f ms %10.1f G/s %10.1f GFLOP/s   energy drift %+.6e, momentum %.1e\n",
                    describeNBodyConfig(c).c_str(), run.m.kernelMs.median, run.m.rate / nbodyFlopsPerInteraction(c),
                    run.m.rate, run.m.energyDrift, run.m.momentumDrift);
      else if (run.ok())
        std::printf("%-52s %10.4f ms %10.1f G/s %10.1f GFLOP/s\n", describeNBodyConfig(c).c_str(),
                    run.m.kernelMs.median, run.m.rate / nbodyFlopsPerInteraction(c), run.m.rate);
      else
        std::printf("%-52s %s\n", describeNBodyConfig(c).c_str(), run.status.substr(0, 160).c_str());
      std::fflush(stdout);
    }
    runs.push_back(std::move(run));
  }
  if (o.sweep) {
    if (const int best = bestRunIndex(runs); best >= 0)
      std::printf("best: %s, %.1f GFLOP/s (median step %.4f ms)\n", runs[best].name.c_str(), runs[best].m.rate,
                  runs[best].m.kernelMs.median);
    else
      std::printf("best: none of the %zu combinations ran\n", runs.size());
  }
  if (o.csv || o.json) stampCeilings(runs, ceilingsForRuns(setup.compute, options));
  return writeRunFiles(runs, o.csv, o.json);
}

int runNBodyVerify(DeviceCatalog catalog, const AppOptions& options, const Settings& settings) {
  const NBodyOptions& o = options.nbody;
  HeadlessNBody setup(std::move(catalog), options, settings);
  const DeviceDescriptor& device = setup.device;
  const NBodyConfig config = nbodyConfigsFromOptions(o, device).front();
  try {
    const NBodyVerification v = verifyNBodyStep(setup.compute, setup.system, config, setup.params);
    if (!v.nonFinite.empty())
      std::printf("verify %s on %s, %zu bodies (%zu checked): %s FAIL\n", describeNBodyConfig(config).c_str(),
                  device.displayName().c_str(), o.bodies, v.sampled, v.nonFinite.c_str());
    else
      std::printf("verify %s on %s, %zu bodies (%zu checked): max relative error %.3g (tolerance %.0e) %s\n",
                  describeNBodyConfig(config).c_str(), device.displayName().c_str(), o.bodies, v.sampled,
                  v.maxRelativeError, v.tolerance, v.passed() ? "PASS" : "FAIL");
    return v.passed() ? kExitOk : kExitFailure;
  } catch (const ProgramBuildError& e) {
    return printError(reportError(e));  // exit code 7, the build log under the message
  } catch (const NBodyConfigError& e) {
    ErrorReport report = reportError(e);  // exit code 2: the configuration came from the command line
    report.message = describeNBodyConfig(config) + ": " + report.message;
    return printError(report);
  }
}

}  // namespace ks
