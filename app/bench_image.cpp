#include "app/bench_image.h"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <optional>
#include <vector>

#include "app/bench_ceilings.h"
#include "app/session.h"
#include "compute/random_picture.h"
#include "compute/image_copy.h"
#include "compute/sweep_plan.h"
#include "compute/image_histogram.h"
#include "compute/image_layout.h"
#include "compute/image_rotate.h"
#include "compute/image_transpose.h"
#include "compute/kernel_op.h"
#include "compute/work_model.h"

namespace ks {
namespace {

// Median time of `iterations` runs after a few untimed ones, from the device's counters.
double medianMs(Queue& queue, int iterations, const std::function<void(ImageOpEvents*)>& run) {
  for (int i = 0; i < 3; ++i) run(nullptr);
  queue.finish();
  std::vector<double> times;
  for (int i = 0; i < iterations; ++i) {
    ImageOpEvents events;
    run(&events);
    queue.finish();
    times.push_back(events.elapsedMs());
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

// 2D work-group shapes the benchmark tries (every one would take minutes of builds).
// The naive kernels' work-group shapes worth timing: the transpose sweep's default shapes.
bool benchShape(int x, int y) {
  const auto& shapes = defaultNaiveTransposeShapes();
  return std::find(shapes.begin(), shapes.end(), std::pair{x, y}) != shapes.end();
}

// What `work` in `ms` reached of the measured ceilings: "DRAM: 92 %"; "" when none are known.
std::string boundLabel(const std::optional<MeasuredCeilings>& ceilings, const KernelWork& work, double ms) {
  return ceilings ? kernelBound(work, ms, *ceilings).label() : std::string();
}

// `bound`: boundLabel's words, shown after the figures when the ceilings are known.
void row(const char* what, const std::string& config, size_t bytes, double ms, double copyGbps,
         const std::string& bound = {}) {
  const double gbps = imageGigabytesPerSecond(bytes, ms);
  std::printf("%-10s %-44s %9.4f ms %8.1f GB/s %6.2fx copy", what, config.c_str(), ms, gbps, gbps / copyGbps);
  if (!bound.empty()) std::printf("   bound by %s", bound.c_str());
  std::printf("\n");
  std::fflush(stdout);
}

}  // namespace

int runImageBenchmark(DeviceCatalog catalog, const AppOptions& options, const Settings& settings) {
  StartDevice start = chooseStartDevice(std::move(catalog), options, settings, GlContextHandles{});
  const DeviceDescriptor& device = start.devices[start.index];
  ComputeContext compute(device, locateKernelsDir(options));
  compute.setExtraBuildOptions(options.nbody.extraOptions);  // --cl-options
  Queue& queue = compute.queue();
  const int iterations = options.iterations;
  const int w = options.imageBenchWidth, h = options.imageBenchHeight;
  std::printf("kernelscope image benchmark on %s, driver %s: %dx%d, median of %d runs after 3 untimed\n",
              device.displayName().c_str(), device.driverVersion.c_str(), w, h, iterations);
  std::printf("GB/s count the bytes an ideal kernel moves (copy/transpose/rotate: read + write; histogram: read)\n");
  // What each kernel is compared with, when this device's ceilings have been measured.
  const std::optional<MeasuredCeilings> knownCeilings = cachedCeilings(compute, options);
  if (knownCeilings)
    std::printf("bound by: the measured ceiling each kernel's counted work reaches first, and how much of it\n");
  else
    std::printf("(kernelscope --bench ceilings measures this device's ceilings; then this says what binds each kernel)\n");

  for (int channels : imageChannelCounts()) {
    const ImageLayout layout{w, h, channels};
    if (const std::string p = imageLayoutProblem(layout); !p.empty() || layout.bytes() * 2 > device.maxAllocBytes * 2) {
      std::printf("%s: skipped (%s)\n", describeImageLayout(layout).c_str(), p.empty() ? "too large" : p.c_str());
      continue;
    }
    const std::vector<uint8_t> random = randomPictureBytes(layout.bytes());
    Buffer in(compute.context(), CL_MEM_READ_WRITE, layout.bytes());
    Buffer out(compute.context(), CL_MEM_READ_WRITE, layout.bytes() * 2);  // room for an expanded rotation
    queue.writeBuffer(in, 0, layout.bytes(), random.data());
    std::printf("\n== %s (%.1f MB)\n", describeImageLayout(layout).c_str(), layout.bytes() / 1e6);

    ImageCopier copier(compute);
    const size_t copyBytes = imageOpBytes(ImageOp::Copy, layout);
    const double copyMs = medianMs(queue, iterations, [&](ImageOpEvents* e) {
      copier.run(queue, in.get(), out.get(), layout.bytes(), e);
    });
    const double copyGbps = imageGigabytesPerSecond(copyBytes, copyMs);
    row("copy", "float4 copy", copyBytes, copyMs, copyGbps);

    double bestTranspose = 0.0;
    std::string bestTransposeName, bestTransposeBound;
    for (const TransposeConfig& c : allTransposeConfigs(device, channels)) {
      if (findImageTransposeVariant(c.variant)->kind == TransposeKind::Naive && !benchShape(c.workGroupX, c.workGroupY))
        continue;
      try {
        ImageTransposer t(compute, c);
        t.prepare(channels);
        const ImageLayout outLayout = transposedLayout(layout);
        const double ms = medianMs(queue, iterations, [&](ImageOpEvents* e) {
          t.run(queue, in.get(), layout, out.get(), outLayout, e);
        });
        const std::string bound = boundLabel(knownCeilings, transposeWork(layout, c), ms);
        row("transpose", describeTransposeConfig(c), imageOpBytes(ImageOp::Transpose, layout, outLayout), ms, copyGbps,
            bound);
        const double gbps = imageGigabytesPerSecond(imageOpBytes(ImageOp::Transpose, layout, outLayout), ms);
        if (gbps > bestTranspose)
          bestTranspose = gbps, bestTransposeName = describeTransposeConfig(c), bestTransposeBound = bound;
      } catch (const std::exception& e) {
        std::printf("transpose  %-44s skipped: %s\n", describeTransposeConfig(c).c_str(), e.what());
      }
    }
    std::printf("best transpose: %s, %.1f GB/s = %.3fx copy\n", bestTransposeName.c_str(), bestTranspose,
                bestTranspose / copyGbps);
    if (!bestTransposeBound.empty())
      std::printf("= bound by %s of the measured ceiling (every byte read and written once)\n",
                  bestTransposeBound.c_str());

    RotateParams params;
    params.degrees = 30.0;
    const ImageLayout rotated = rotatedLayout(layout, params);
    for (const auto& v : imageRotateVariants()) {
      RotateConfig best;
      double bestGbps = 0.0;
      for (const RotateConfig& c : allRotateConfigs(device, channels)) {
        // The image variants' speed depends on the texture cache's 2D locality: every shape.
        if (c.variant != v.name || (!v.image && !benchShape(c.workGroupX, c.workGroupY))) continue;
        try {
          ImageRotator r(compute, c);
          r.prepare(channels);
          const double ms = medianMs(queue, std::max(3, iterations / 4), [&](ImageOpEvents* e) {
            r.run(queue, in.get(), layout, out.get(), rotated, params, e);
          });
          const double gbps = imageGigabytesPerSecond(imageOpBytes(ImageOp::Rotate, layout, rotated), ms);
          if (gbps > bestGbps) bestGbps = gbps, best = c;
        } catch (const std::exception& e) {
          std::printf("rotate     %-44s skipped: %s\n", describeRotateConfig(c).c_str(), e.what());
        }
      }
      if (bestGbps > 0) {
        const double ms = imageOpBytes(ImageOp::Rotate, layout, rotated) / (bestGbps * 1e6);
        row("rotate 30", "best " + describeRotateConfig(best), imageOpBytes(ImageOp::Rotate, layout, rotated), ms,
            copyGbps, boundLabel(knownCeilings, rotateWork(layout, rotated), ms));
        if (options.nbody.showBuildLog) {
          ImageRotator r(compute, best);
          std::printf("build log of %s:\n%s\n", describeRotateConfig(best).c_str(), r.build(channels).log.c_str());
        }
      }
    }

    std::vector<uint8_t> constant(layout.bytes(), 77);
    Buffer constantIn(compute.context(), CL_MEM_READ_ONLY, layout.bytes());
    queue.writeBuffer(constantIn, 0, layout.bytes(), constant.data());
    // RGBA counts R, G, B, A and luminance; CUB's RGBA anchor counts R, G, B: the
    // like-for-like rows count only those (the UI's "count only the channels shown"),
    // which leaves local memory for up to 16 histogram copies.
    std::vector<HistogramConfig> histogramConfigs = benchmarkedHistogramConfigs(device, channels, kAllHistogramChannels);
    if (channels == 4)
      for (const HistogramConfig& c : benchmarkedHistogramConfigs(device, channels, kRgbHistogramChannels))
        histogramConfigs.push_back(c);
    for (const HistogramConfig& config : histogramConfigs) {
      try {
        ImageHistogrammer hgram(compute, config);
        hgram.prepare(channels);
        Buffer bins(compute.context(), CL_MEM_READ_WRITE, histogramBinCount(layout) * sizeof(cl_uint));
        for (const auto& [data, label] : {std::pair{&in, "random"}, std::pair{&constantIn, "constant"}}) {
          // A copy for the lambda: clang before 16 cannot capture structured bindings.
          const cl_mem input = data->get();
          const double ms = medianMs(queue, iterations, [&](ImageOpEvents* e) {
            hgram.run(queue, input, layout, bins.get(), e);
          });
          row(label == std::string("random") ? "hist rand" : "hist const", describeHistogramConfig(config),
              imageOpBytes(ImageOp::Histogram, layout), ms, copyGbps,
              boundLabel(knownCeilings, histogramWork(layout, config), ms));
        }
      } catch (const std::exception& e) {
        std::printf("histogram  %-44s skipped: %s\n", describeHistogramConfig(config).c_str(), e.what());
      }
    }
  }
  return kExitOk;
}

}  // namespace ks
