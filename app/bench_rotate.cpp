#include "app/bench_rotate.h"

#include <cstdio>
#include <vector>

#include "app/bench_ceilings.h"
#include "app/bench_image_sweep_report.h"
#include "app/session.h"
#include "compute/random_picture.h"
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
  for (const auto& [name, values] : o.values) ranges.values[name] = values;  // --param NAME=...
  ImageSweepReport report(40);
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
      report.refused(describeRotateConfig(c), refusedRotateRun(device, c, layout, params, why), why);
    }
    const std::vector<uint8_t> random = randomPictureBytes(layout.bytes());
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
      report.measured(describeRotateConfig(c), std::move(run), bound, knownCeilings.has_value());
    }
  }
  return report.finish(compute, options);
}

}  // namespace ks
