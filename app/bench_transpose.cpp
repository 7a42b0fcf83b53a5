#include "app/bench_transpose.h"

#include <cstdio>
#include <vector>

#include "app/bench_ceilings.h"
#include "app/bench_image_sweep_report.h"
#include "app/session.h"
#include "compute/random_picture.h"
#include "compute/work_model.h"
#include "lab/sweep_runs.h"
#include "compute/sweep_plan.h"
#include "compute/transpose_benchmark.h"

namespace ks {

int runTransposeSweep(DeviceCatalog catalog, const AppOptions& options, const Settings& settings) {
  StartDevice start = chooseStartDevice(std::move(catalog), options, settings, GlContextHandles{});
  const DeviceDescriptor& device = start.devices[start.index];
  ComputeContext compute(device, locateKernelsDir(options));
  const TransposeOptions& o = options.transpose;
  const int iterations = options.iterations;
  std::printf("kernelscope transpose sweep on %s, driver %s: %dx%d, median of %d runs after 3 untimed\n",
              device.displayName().c_str(), device.driverVersion.c_str(), options.imageBenchWidth,
              options.imageBenchHeight, iterations);
  ImageSweepReport report(40);
  // What each run is compared with, when this device's ceilings have been measured.
  const std::optional<MeasuredCeilings> knownCeilings = cachedCeilings(compute, options);
  if (!knownCeilings)
    std::printf("(kernelscope --bench ceilings measures this device's ceilings; then this says what binds each run)\n");
  for (int channels : o.channels) {
    const ImageLayout layout{options.imageBenchWidth, options.imageBenchHeight, channels};
    if (const std::string p = imageLayoutProblem(layout); !p.empty() || layout.bytes() > device.maxAllocBytes) {
      std::fprintf(stderr, "kernelscope: error: %s: %s\n", describeImageLayout(layout).c_str(),
                   p.empty() ? "larger than the device's largest buffer" : p.c_str());
      return kExitUsage;
    }
    const SweepPlan<TransposeConfig> plan =
        planTransposeSweep({o.variants, o.tiles, o.rowsPerItem, o.workGroups, o.naiveShapes}, device, channels);
    std::printf("\n== %s (%.1f MB): %zu combinations, %zu to run, %zu refused before running\n",
                describeImageLayout(layout).c_str(), layout.bytes() / 1e6, plan.total(), plan.valid.size(),
                plan.refused.size());
    for (const auto& [c, why] : plan.refused) {
      report.refused(describeTransposeConfig(c), refusedTransposeRun(device, c, layout, why), why);
    }
    const std::vector<uint8_t> random = randomPictureBytes(layout.bytes());
    Buffer in(compute.context(), CL_MEM_READ_ONLY, layout.bytes());
    Buffer out(compute.context(), CL_MEM_READ_WRITE, layout.bytes());
    compute.queue().writeBuffer(in, 0, layout.bytes(), random.data());
    for (const TransposeConfig& c : plan.valid) {
      RunRecord run = transposeRun(device, measureTranspose(compute, in.get(), out.get(), layout, c, iterations),
                                   iterations);
      KernelBound bound;
      if (run.ok() && knownCeilings) {
        bound = kernelBound(transposeWork(layout, c), run.m.kernelMs.median, *knownCeilings);
        if (!bound.label().empty()) run.m.bound = "transpose: " + bound.label();
      }
      report.measured(describeTransposeConfig(c), std::move(run), bound, knownCeilings.has_value());
    }
  }
  return report.finish(compute, options);
}

}  // namespace ks
