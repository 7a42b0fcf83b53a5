#include "app/bench_ceilings.h"

#include <chrono>
#include <cstdio>

#include "app/session.h"
#include "compute/ceiling_benchmarks.h"
#include "compute/device_ceilings.h"
#include "lab/ceilings_cache.h"
#include "lab/tuning_cache.h"

namespace ks {

std::string describeCeilings(const MeasuredCeilings& ceilings) {
  std::string text;
  for (size_t i = 0; i < kCeilingCount; ++i) {
    const CeilingName& name = ceilingName(ceilingAt(i));
    const CeilingFigure& f = ceilings.figures[i];
    char line[200];
    if (f.measured())
      std::snprintf(line, sizeof line, "%-44s %12.2f %s\n", name.label, f.value, name.unit);
    else
      std::snprintf(line, sizeof line, "%-44s %12s (%s)\n", name.label, "-", f.error.c_str());
    text += line;
    if (f.measured()) text += "    method: " + f.method + "\n";
  }
  return text;
}

int runCeilingsBenchmark(DeviceCatalog catalog, const AppOptions& options, const Settings& settings) {
  StartDevice start = chooseStartDevice(std::move(catalog), options, settings, GlContextHandles{});
  const DeviceDescriptor& device = start.devices[start.index];
  ComputeContext compute(device, locateKernelsDir(options));
  std::printf("kernelscope ceilings of %s, driver %s (%u compute units, %u MHz)\n", device.displayName().c_str(),
              device.driverVersion.c_str(), device.computeUnits, device.clockMHz);
  const auto begin = std::chrono::steady_clock::now();
  const MeasuredCeilings ceilings = measureCeilings(compute);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  std::printf("%s", describeCeilings(ceilings).c_str());
  std::string why;
  if (const auto peak = peakFp32(device, &why)) {
    const double measured = ceilings.value(Ceiling::Fp32Mad);
    std::printf("vendor table peak FP32 (cross-check): %.0f GFLOP/s = %s; measured %.1f%% of it\n", peak->gflops,
                peak->formula.c_str(), peak->gflops > 0 ? 100.0 * measured / peak->gflops : 0.0);
  } else {
    std::printf("vendor table peak FP32 (cross-check): unknown: %s\n", why.c_str());
  }
  std::printf("measured in %.2f s (kernel builds included)\n", seconds);
  // Kept for this device, as the viewer's "Measure again" keeps them: benchmarks and runs compare with these.
  const auto file = options.configDir.value_or(defaultConfigDir()) / "ceilings.json";
  std::string warning;
  CeilingsCache cache = loadCeilingsCache(file, &warning);
  cache.devices[tuningKey(device)] = ceilings;
  if (const std::string error = saveCeilingsCache(cache, file); !error.empty())
    std::fprintf(stderr, "kernelscope: warning: %s\n", error.c_str());
  else
    std::printf("kept in %s\n", file.c_str());
  for (const CeilingFigure& f : ceilings.figures)
    if (!f.measured() && f.error.rfind("not available", 0) != 0) return kExitFailure;
  return kExitOk;
}

MeasuredCeilings ceilingsForRuns(ComputeContext& compute, const AppOptions& options) {
  const auto file = options.configDir.value_or(defaultConfigDir()) / "ceilings.json";
  std::string warning;
  CeilingsCache cache = loadCeilingsCache(file, &warning);
  if (!warning.empty()) std::fprintf(stderr, "kernelscope: warning: %s\n", warning.c_str());
  if (const MeasuredCeilings* cached = cache.find(compute.device())) return *cached;
  MeasuredCeilings measured = measureCeilings(compute);
  cache.devices[tuningKey(compute.device())] = measured;
  if (const std::string error = saveCeilingsCache(cache, file); !error.empty())
    std::fprintf(stderr, "kernelscope: warning: %s\n", error.c_str());
  return measured;
}

std::optional<MeasuredCeilings> cachedCeilings(const ComputeContext& compute, const AppOptions& options) {
  std::string warning;
  const CeilingsCache cache = loadCeilingsCache(options.configDir.value_or(defaultConfigDir()) / "ceilings.json", &warning);
  if (const MeasuredCeilings* cached = cache.find(compute.device())) return *cached;
  return std::nullopt;
}

void stampCeilings(std::vector<RunRecord>& runs, const MeasuredCeilings& ceilings) {
  for (RunRecord& r : runs) r.meta.ceilings = ceilingValues(ceilings);
}

}  // namespace ks
