#include "app/bench_image_sweep_report.h"

#include <cstdio>
#include <utility>

#include "app/bench_ceilings.h"
#include "lab/sweep_runs.h"

namespace ks {

void ImageSweepReport::refused(const std::string& described, RunRecord run, const std::string& why) {
  std::printf("%-*s refused: %s\n", nameWidth_, described.c_str(), why.c_str());
  runs_.push_back(std::move(run));
  bounds_.emplace_back();
}

void ImageSweepReport::measured(const std::string& described, RunRecord run, const KernelBound& bound,
                                bool ceilingsKnown) {
  if (!run.ok())
    std::printf("%-*s %s\n", nameWidth_, described.c_str(), run.status.substr(0, 160).c_str());
  else if (!ceilingsKnown)
    std::printf("%-*s %10.4f ms %9.1f GB/s\n", nameWidth_, described.c_str(), run.m.kernelMs.median, run.m.rate);
  else
    std::printf("%-*s %10.4f ms %9.1f GB/s   bound by %s\n", nameWidth_, described.c_str(), run.m.kernelMs.median,
                run.m.rate, bound.label().empty() ? "nothing measured" : bound.label().c_str());
  std::fflush(stdout);
  runs_.push_back(std::move(run));
  bounds_.push_back(bound);
}

int ImageSweepReport::finish(ComputeContext& compute, const AppOptions& options) {
  if (const int best = bestRunIndex(runs_); best >= 0) {
    const RunRecord& run = runs_[static_cast<size_t>(best)];
    std::printf("best: %s (%s), %.1f GB/s (median %.4f ms)\n", run.name.c_str(), run.meta.parameter("image").c_str(),
                run.m.rate, run.m.kernelMs.median);
    if (const std::string bound = bounds_[static_cast<size_t>(best)].label(); !bound.empty())
      std::printf("= bound by %s of the measured ceiling (every byte read and written once)\n", bound.c_str());
  } else {
    std::printf("best: none of the %zu combinations ran\n", runs_.size());
  }
  if (options.nbody.csv || options.nbody.json) stampCeilings(runs_, ceilingsForRuns(compute, options));
  return writeRunFiles(runs_, options.nbody.csv, options.nbody.json);
}

}  // namespace ks
