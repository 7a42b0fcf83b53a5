#pragma once
// What the command line's image sweeps (--bench transpose, rotate, histogram) print
// and write alike: a line a configuration (refused with its reason, or its median
// time, rate and, where the device's ceilings are known, what bound it), the best
// run, the ceilings stamped on the runs and the --csv/--json files.
#include <string>
#include <vector>

#include "app/cli.h"
#include "compute/compute_context.h"
#include "compute/work_model.h"
#include "lab/run_record.h"

namespace ks {

class ImageSweepReport {
 public:
  // `nameWidth`: the column the configurations are printed in.
  explicit ImageSweepReport(int nameWidth) : nameWidth_(nameWidth) {}
  void refused(const std::string& described, RunRecord run, const std::string& why);
  // `bound`: what bound the run (empty where nothing was measured or the run failed);
  // `ceilingsKnown`: whether the device's ceilings were there to say so.
  void measured(const std::string& described, RunRecord run, const KernelBound& bound, bool ceilingsKnown);
  // The best line, then the files; returns the exit code.
  int finish(ComputeContext& compute, const AppOptions& options);

 private:
  int nameWidth_;
  std::vector<RunRecord> runs_;
  std::vector<KernelBound> bounds_;  // beside runs_
};

}  // namespace ks
