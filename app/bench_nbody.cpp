#include "app/bench_nbody.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "app/session.h"
#include "compute/nbody_gpu.h"
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

template <typename T>
std::vector<T> orAll(const std::vector<T>& given, const std::vector<T>& all) {
  return given.empty() ? all : given;
}

struct BenchResult {
  NBodyConfig config;
  std::string problem;  // empty when it ran
  KernelInfo info;
  std::string buildLog;
  std::string binary;
  double msPerStep = 0.0;
  double interactionsPerSecond = 0.0;
};

// Runs `iterations` steps after an untimed warm-up; the time is the span from the
// first step's start to the last step's end on the device's own clock.
BenchResult measure(ComputeContext& compute, const NBodySystem& system, const NBodyConfig& config,
                    const NBodyParams& params, int iterations) {
  BenchResult r;
  r.config = config;
  try {
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
    Event first, last;
    for (int i = 0; i < iterations; ++i) step(i == 0 ? &first : i == iterations - 1 ? &last : nullptr);
    compute.queue().finish();
    cl_ulong start = 0, end = 0;
    clCheck(clGetEventProfilingInfo(first.get(), CL_PROFILING_COMMAND_START, sizeof start, &start, nullptr),
            "clGetEventProfilingInfo");
    clCheck(clGetEventProfilingInfo((iterations > 1 ? last : first).get(), CL_PROFILING_COMMAND_END, sizeof end, &end,
                                    nullptr),
            "clGetEventProfilingInfo");
    const double seconds = static_cast<double>(end - start) * 1e-9;
    r.msPerStep = seconds * 1e3 / iterations;
    const double n = static_cast<double>(system.size());
    r.interactionsPerSecond = n * n * iterations / seconds;
  } catch (const ProgramBuildError& e) {
    r.problem = std::string(e.what()) + "\n" + e.build().log;
  } catch (const std::exception& e) {
    r.problem = e.what();
  }
  return r;
}

double flopsPerInteraction(const NBodyConfig& c) { return c.fp64 ? 30.0 : 20.0; }

}  // namespace

std::vector<NBodyConfig> nbodyConfigsFromOptions(const NBodyOptions& o, const DeviceDescriptor& device) {
  const NBodyConfig defaults;
  if (!o.sweep && !o.kernelOptionsGiven()) return {tunedNBodyConfig(device, o.bodies)};
  if (!o.sweep) {
    NBodyConfig c = baseConfig(o);
    c.variant = o.variants.empty() ? defaults.variant : o.variants.front();
    c.workGroup = o.workGroups.empty() ? defaults.workGroup : o.workGroups.front();
    c.unroll = o.unrolls.empty() ? (c.variant == "naive" ? 1 : defaults.unroll) : o.unrolls.front();
    c.bodiesPerItem = o.bodiesPerItem.empty() ? (c.variant == "blocked" ? defaults.bodiesPerItem : 1)
                                              : o.bodiesPerItem.front();
    c.split = o.splits.empty() ? (c.variant == "blocked" ? defaults.split : 1) : o.splits.front();
    return {c};
  }
  std::vector<int> groups;
  const int maxGroup = static_cast<int>(std::min<size_t>(device.maxWorkGroupSize, 1024));
  for (int wg = kNBodyWorkGroupStep; wg <= maxGroup; wg *= 2) groups.push_back(wg);
  std::vector<NBodyConfig> out;
  for (const auto& v : nbodyVariants()) {
    if (!o.variants.empty() && std::find(o.variants.begin(), o.variants.end(), v.name) == o.variants.end()) continue;
    for (int wg : orAll(o.workGroups, groups))
      for (int u : orAll(o.unrolls, v.unrolls))
        for (int b : orAll(o.bodiesPerItem, v.bodiesPerItem))
          for (int sp : orAll(o.splits, v.splits)) {
            NBodyConfig c = baseConfig(o);
            c.variant = v.name;
            c.workGroup = wg;
            c.unroll = u;
            c.bodiesPerItem = b;
            c.split = sp;
            out.push_back(c);
          }
  }
  return out;
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
        params(nbodyPresetDefaults(preset, options.nbody.bodies).params) {}
  StartDevice start;
  const DeviceDescriptor& device;
  ComputeContext compute;
  NBodyPreset preset;
  NBodySystem system;
  NBodyParams params;
};

int runNBodyBenchmark(DeviceCatalog catalog, const AppOptions& options, const Settings& settings) {
  const NBodyOptions& o = options.nbody;
  HeadlessNBody setup(std::move(catalog), options, settings);
  const DeviceDescriptor& device = setup.device;
  ComputeContext& compute = setup.compute;
  const NBodySystem& system = setup.system;
  const NBodyParams& params = setup.params;
  const int iterations = options.iterations;
  std::vector<NBodyConfig> configs = nbodyConfigsFromOptions(o, device);

  std::printf("kernelscope N-body benchmark on %s, driver %s\n", device.displayName().c_str(),
              device.driverVersion.c_str());
  std::printf("%zu bodies (%s preset), %d iterations after an untimed warm-up; %s\n", o.bodies, o.preset.c_str(),
              iterations, "flops counted as NVIDIA's nbody sample does: 20 per interaction in fp32, 30 in fp64");
  std::vector<BenchResult> results;
  for (const NBodyConfig& c : configs) {
    BenchResult r;
    if (std::string problem = nbodyConfigProblem(c, device); !problem.empty()) {
      r.config = c;
      r.problem = problem;
    } else {
      r = measure(compute, system, c, params, iterations);
    }
    if (!o.sweep) {
      if (!r.problem.empty()) {
        std::fprintf(stderr, "kernelscope: error: %s: %s\n", describeNBodyConfig(c).c_str(), r.problem.c_str());
        return r.problem.find("CL_BUILD_PROGRAM_FAILURE") != std::string::npos ? kExitKernelBuildFailed : kExitUsage;
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
      std::printf("= %.3f %s-precision GFLOP/s at %.0f flops per interaction\n",
                  r.interactionsPerSecond * flopsPerInteraction(c) * 1e-9, c.fp64 ? "double" : "single",
                  flopsPerInteraction(c));
    } else {
      if (r.problem.empty())
        std::printf("%-52s %10.4f ms %10.1f G/s %10.1f GFLOP/s\n", describeNBodyConfig(c).c_str(), r.msPerStep,
                    r.interactionsPerSecond * 1e-9, r.interactionsPerSecond * flopsPerInteraction(c) * 1e-9);
      else
        std::printf("%-52s skipped: %s\n", describeNBodyConfig(c).c_str(), r.problem.substr(0, 120).c_str());
      std::fflush(stdout);
    }
    results.push_back(r);
  }
  if (o.sweep) {
    const BenchResult* best = nullptr;
    for (const auto& r : results)
      if (r.problem.empty() && (!best || r.interactionsPerSecond > best->interactionsPerSecond)) best = &r;
    if (best)
      std::printf("best: %s, %.1f G interactions/s\n", describeNBodyConfig(best->config).c_str(),
                  best->interactionsPerSecond * 1e-9);
  }
  if (o.csv) {
    std::ofstream csv(*o.csv);
    if (!csv) {
      std::fprintf(stderr, "kernelscope: error: cannot write '%s'\n", o.csv->c_str());
      return kExitFailure;
    }
    csv << "device,driver,variant,work_group,unroll,bodies_per_item,split,precision,native_rsqrt,fast_math,ftz,bodies,"
           "iterations,ms_per_step,g_interactions_per_s,gflops,status\n";
    for (const auto& r : results) {
      const NBodyConfig& c = r.config;
      std::string status = r.problem.empty() ? "ok" : r.problem.substr(0, r.problem.find('\n'));
      std::replace(status.begin(), status.end(), ',', ';');
      csv << '"' << device.name << "\"," << device.driverVersion << ',' << c.variant << ',' << c.workGroup << ','
          << c.unroll << ',' << c.bodiesPerItem << ',' << c.split << ',' << (c.fp64 ? "fp64" : "fp32") << ','
          << (c.nativeRsqrt && !c.fp64) << ',' << c.fastRelaxedMath << ',' << c.denormsAreZero << ',' << o.bodies
          << ',' << iterations << ',' << r.msPerStep << ',' << r.interactionsPerSecond * 1e-9 << ','
          << r.interactionsPerSecond * flopsPerInteraction(c) * 1e-9 << ",\"" << status << "\"\n";
    }
    if (!csv) {
      std::fprintf(stderr, "kernelscope: error: cannot write '%s'\n", o.csv->c_str());
      return kExitFailure;
    }
  }
  return kExitOk;
}

int runNBodyVerify(DeviceCatalog catalog, const AppOptions& options, const Settings& settings) {
  const NBodyOptions& o = options.nbody;
  HeadlessNBody setup(std::move(catalog), options, settings);
  const DeviceDescriptor& device = setup.device;
  const NBodyConfig config = nbodyConfigsFromOptions(o, device).front();
  try {
    const NBodyVerification v = verifyNBodyStep(setup.compute, setup.system, config, setup.params);
    std::printf("verify %s on %s, %zu bodies (%zu checked): max relative error %.3g (tolerance %.0e) %s\n",
                describeNBodyConfig(config).c_str(), device.displayName().c_str(), o.bodies, v.sampled,
                v.maxRelativeError, v.tolerance, v.passed() ? "PASS" : "FAIL");
    return v.passed() ? kExitOk : kExitFailure;
  } catch (const ProgramBuildError& e) {
    std::fprintf(stderr, "kernelscope: error: %s\nbuild log:\n%s\n", e.what(), e.build().log.c_str());
    return kExitKernelBuildFailed;
  } catch (const NBodyConfigError& e) {
    std::fprintf(stderr, "kernelscope: error: %s: %s\n", describeNBodyConfig(config).c_str(), e.what());
    return kExitUsage;
  }
}

}  // namespace ks
