#include "app/bench_histogram.h"

#include <cstdio>
#include <vector>

#include "app/bench_ceilings.h"
#include "app/bench_image_sweep_report.h"
#include "app/session.h"
#include "compute/random_picture.h"
#include "compute/histogram_sweep.h"
#include "lab/histogram_runs.h"
#include "lab/sweep_runs.h"

namespace ks {

int runHistogramSweep(DeviceCatalog catalog, const AppOptions& options, const Settings& settings) {
  StartDevice start = chooseStartDevice(std::move(catalog), options, settings, GlContextHandles{});
  const DeviceDescriptor& device = start.devices[start.index];
  ComputeContext compute(device, locateKernelsDir(options));
  const HistogramSweepOptions& o = options.histogramSweep;
  const int iterations = options.iterations;
  std::printf("kernelscope histogram sweep on %s, driver %s: %dx%d, median of %d runs after 3 untimed\n",
              device.displayName().c_str(), device.driverVersion.c_str(), options.imageBenchWidth,
              options.imageBenchHeight, iterations);
  HistogramSweepRanges ranges{o.variants, {}};
  if (!o.workGroups.empty()) ranges.values["work_group"] = o.workGroups;
  for (const auto& [name, values] : o.values) ranges.values[name] = values;  // --param NAME=...
  ImageSweepReport report(50);
  for (int channels : options.transpose.channels) {
    const ImageLayout layout{options.imageBenchWidth, options.imageBenchHeight, channels};
    if (const std::string p = imageLayoutProblem(layout); !p.empty() || layout.bytes() > device.maxAllocBytes) {
      std::fprintf(stderr, "kernelscope: error: %s: %s\n", describeImageLayout(layout).c_str(),
                   p.empty() ? "larger than the device's largest buffer" : p.c_str());
      return kExitUsage;
    }
    const SweepPlan<HistogramConfig> plan = planHistogramSweep(ranges, device, channels);
    std::printf("\n== %s (%.1f MB): %zu combinations, %zu to run, %zu refused before running\n",
                describeImageLayout(layout).c_str(), layout.bytes() / 1e6, plan.total(), plan.valid.size(),
                plan.refused.size());
    for (const auto& [c, why] : plan.refused) {
      report.refused(describeHistogramConfig(c), refusedHistogramRun(device, c, layout, why), why);
    }
    const std::vector<uint8_t> random = randomPictureBytes(layout.bytes());
    Buffer in(compute.context(), CL_MEM_READ_ONLY, layout.bytes());
    Buffer bins(compute.context(), CL_MEM_READ_WRITE, histogramBinCount(layout) * sizeof(cl_uint));
    compute.queue().writeBuffer(in, 0, layout.bytes(), random.data());
    for (const HistogramConfig& c : plan.valid) {
      report.measured(describeHistogramConfig(c),
                      histogramRun(device, measureHistogram(compute, in.get(), bins.get(), layout, c, iterations),
                                   iterations),
                      KernelBound{}, false);
    }
  }
  return report.finish(compute, options);
}

}  // namespace ks
