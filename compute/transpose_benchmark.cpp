#include "compute/transpose_benchmark.h"

#include <algorithm>

#include "compute/kernel_files.h"
#include "compute/sample_stats.h"

namespace ks {

TransposeMeasurement measureTranspose(ComputeContext& compute, cl_mem in, cl_mem out, const ImageLayout& layout,
                                      const TransposeConfig& config, int iterations) {
  TransposeMeasurement r;
  r.config = config;
  r.layout = layout;
  try {
    r.sourceHash = hashSource(readKernelSource(compute.kernelsDir(), kTransposeKernelFile));
    ImageTransposer t(compute, config);
    t.prepare(layout.channels);
    const ImageLayout outLayout = transposedLayout(layout);
    for (int i = 0; i < 3; ++i) t.run(compute.queue(), in, layout, out, outLayout);
    compute.queue().finish();
    for (int i = 0; i < std::max(iterations, 1); ++i) {
      ImageOpEvents events;
      t.run(compute.queue(), in, layout, out, outLayout, &events);
      r.runMs.push_back(events.elapsedMs());
    }
    const double median = summarize(r.runMs).median;
    r.gigabytesPerSecond = imageGigabytesPerSecond(imageOpBytes(ImageOp::Transpose, layout, outLayout), median);
  } catch (const ProgramBuildError& e) {
    r.problem = std::string(e.what()) + "\n" + e.build().log;
  } catch (const std::exception& e) {
    r.problem = e.what();
  }
  return r;
}

}  // namespace ks
