#include "app/bench_interop.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

#include "app/render_surface.h"
#include "app/session.h"
#include "compute/interop/interop_check.h"
#include "render/gl_check.h"

namespace ks {
namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.0 : v[v.size() / 2];
}

}  // namespace

int runInteropBenchmark(DeviceCatalog catalog, const AppOptions& options, const Settings& settings,
                        RenderSurface& surface) {
  const auto kernelsDir = locateKernelsDir(options);
  StartDevice start = chooseStartDevice(std::move(catalog), options, settings, surface.glHandles());
  for (const auto& note : start.notes) std::fprintf(stderr, "kernelscope: %s\n", note.c_str());
  ComputeContext compute(start.devices[start.index], kernelsDir, surface.glHandles());
  InteropChecker checker(compute);
  const int iterations = options.iterations;
  const int warmup = std::max(3, iterations / 10);

  std::printf("interop benchmark on %s, driver %s\n", compute.device().displayName().c_str(),
              compute.device().driverVersion.c_str());
  std::printf("GL: %s; %d iterations after %d warm-up; median milliseconds per frame\n",
              reinterpret_cast<const char*>(glGetString(GL_RENDERER)), iterations, warmup);
  std::printf("%-11s %6s %9s %9s %9s %10s  %s\n", "path", "MB", "acquire", "release", "copy", "overhead", "check");
  int failures = 0;
  for (const auto& status : probeInteropPaths(compute)) {
    if (!status.available) {
      std::printf("%-11s unavailable: %s\n", interopPathName(status.path), status.reason.c_str());
      continue;
    }
    auto backend = createInteropBackend(status.path, compute);
    for (const size_t mb : {1, 4, 16, 64}) {
      auto buffer = backend->createBuffer(mb << 20);
      std::vector<double> acquire, release, copy, total;
      for (int i = 0; i < warmup + iterations; ++i) {
        checker.fill(*buffer, static_cast<uint32_t>(i));
        // GL idle before the next acquire, as after a frame's draw; the wait
        // itself is not part of the interop overhead.
        glFinish();
        if (i < warmup) continue;
        const InteropTimings& t = buffer->timings();
        acquire.push_back(t.acquireMs);
        release.push_back(t.releaseMs);
        copy.push_back(t.copyMs);
        total.push_back(t.acquireMs + t.releaseMs + t.copyMs);
      }
      const uint32_t seed = 0xC0FFEEu + static_cast<uint32_t>(mb);
      checker.fill(*buffer, seed);
      const size_t bad = checker.countBufferMismatches(*buffer, seed);
      failures += bad != 0;
      char check[64];
      std::snprintf(check, sizeof check, bad ? "%zu words differ" : "bit-exact", bad);
      std::printf("%-11s %6zu %9.4f %9.4f %9.4f %10.4f  %s\n", interopPathName(status.path), mb, median(acquire),
                  median(release), median(copy), median(total), check);
    }
  }
  return failures ? kExitFailure : kExitOk;
}

}  // namespace ks
