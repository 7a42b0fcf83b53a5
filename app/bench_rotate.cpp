#include "app/bench_rotate.h"

#include <cstdio>
#include <random>
#include <vector>

#include "app/bench_ceilings.h"
#include "app/session.h"
#include "compute/rotate_benchmark.h"
#include "compute/rotate_sweep_plan.h"
#include "compute/work_model.h"
#include "lab/rotate_runs.h"
#include "lab/sweep_runs.h"

namespace ks {

int runRotateSweep(DeviceCatalog catalog, const AppOptions& options, const Settings& settings) {
  StartDevice start = chooseStartDevice(std::move(catalog), options, settings, GlContextHandles{});
  const DeviceDescriptor& device = start.devices[start.index];
  ComputeContext compute(device, locateKernelsDir(options));
  const RotateSweepOptions& o = options.rotateSweep;
  const int iterations = options.iterations;
  const RotateParams params = rotateSweepParams();
  std::printf("kernelscope rotate sweep on %s, driver %s: %dx%d turned by %g degrees, median of %d runs after 3 "
              "untimed\n",
              device.displayName().c_str(), device.driverVersion.c_str(), options.imageBenchWidth,
              options.imageBenchHeight, params.degrees, iterations);
  RotateSweepRanges ranges{o.variants, {}};
  if (!o.pixelsPerItem.empty()) ranges.values["pixels_per_item"] = o.pixelsPerItem;
  if (!o.rowsPerItem.empty()) ranges.values["rows_per_item"] = o.rowsPerItem;
  std::vector<RunRecord> runs;
  std::vector<KernelBound> bounds;  // beside runs: what bound each (none for refused runs)
  const std::optional<MeasuredCeilings> knownCeilings = cachedCeilings(compute, options);
  if (!knownCeilings)
    std::printf("(kernelscope --bench ceilings measures this device's ceilings; then this says what binds each run)\n");
  for (int channels : options.transpose.channels) {
    const ImageLayout layout{options.imageBenchWidth, options.imageBenchHeight, channels};
    const ImageLayout rotated = rotatedLayout(layout, params);
    if (const std::string p = imageLayoutProblem(layout); !p.empty() || layout.bytes() > device.maxAllocBytes) {
      std::fprintf(stderr, "kernelscope: error: %s: %s\n", describeImageLayout(layout).c_str(),
                   p.empty() ? "larger than the device's largest buffer" : p.c_str());
      return kExitUsage;
    }
    // Shapes given: exactly those (a product of widths and heights would sweep shapes nobody asked for).
    SweepPlan<RotateConfig> plan;
    if (o.workGroups.empty()) {
      plan = planRotateSweep(ranges, device, channels);
    } else {
      for (const auto& [x, y] : o.workGroups) {
        RotateSweepRanges one = ranges;
        one.values["work_group_x"] = {x};
        one.values["work_group_y"] = {y};
        const SweepPlan<RotateConfig> part = planRotateSweep(one, device, channels);
        plan.valid.insert(plan.valid.end(), part.valid.begin(), part.valid.end());
        plan.refused.insert(plan.refused.end(), part.refused.begin(), part.refused.end());
      }
    }
    std::printf("\n== %s (%.1f MB): %zu combinations, %zu to run, %zu refused before running\n",
                describeImageLayout(layout).c_str(), layout.bytes() / 1e6, plan.total(), plan.valid.size(),
                plan.refused.size());
    for (const auto& [c, why] : plan.refused) {
      std::printf("%-40s refused: %s\n", describeRotateConfig(c).c_str(), why.c_str());
      runs.push_back(refusedRotateRun(device, c, layout, params, why));
      bounds.emplace_back();
    }
    std::vector<uint8_t> random(layout.bytes());
    std::mt19937 rng(1234);
    for (auto& b : random) b = static_cast<uint8_t>(rng() >> 24);
    Buffer in(compute.context(), CL_MEM_READ_ONLY, layout.bytes());
    Buffer out(compute.context(), CL_MEM_READ_WRITE, rotated.bytes());
    compute.queue().writeBuffer(in, 0, layout.bytes(), random.data());
    for (const RotateConfig& c : plan.valid) {
      RunRecord run =
          rotateRun(device, measureRotate(compute, in.get(), out.get(), layout, params, c, iterations), iterations);
      KernelBound bound;
      if (run.ok() && knownCeilings) {
        bound = kernelBound(rotateWork(layout, rotated), run.m.kernelMs.median, *knownCeilings);
        if (!bound.label().empty()) run.m.bound = "rotate: " + bound.label();
      }
      if (run.ok())
        std::printf("%-40s %10.4f ms %9.1f GB/s%s%s\n", describeRotateConfig(c).c_str(), run.m.kernelMs.median,
                    run.m.rate, bound.label().empty() ? "" : "   bound by ", bound.label().c_str());
      else
        std::printf("%-40s %s\n", describeRotateConfig(c).c_str(), run.status.substr(0, 160).c_str());
      std::fflush(stdout);
      runs.push_back(run);
      bounds.push_back(bound);
    }
  }
  if (const int best = bestRunIndex(runs); best >= 0) {
    std::printf("best: %s (%s), %.1f GB/s (median %.4f ms)\n", runs[best].name.c_str(),
                runs[best].meta.parameter("image").c_str(), runs[best].m.rate, runs[best].m.kernelMs.median);
    if (const std::string bound = bounds[static_cast<size_t>(best)].label(); !bound.empty())
      std::printf("= bound by %s of the measured ceiling (every byte read and written once)\n", bound.c_str());
  } else
    std::printf("best: none of the %zu combinations ran\n", runs.size());
  if (options.nbody.csv || options.nbody.json) stampCeilings(runs, ceilingsForRuns(compute, options));
  return writeRunFiles(runs, options.nbody.csv, options.nbody.json);
}

}  // namespace ks
