#include "app/kernel_bounds.h"

#include "app/app_state.h"

namespace ks {

std::vector<TimedKernelBound> timedKernelBounds(const AppState& state) {
  std::vector<TimedKernelBound> out;
  for (const ActiveKernel& k : state.activeKernels) {
    if (k.timedAs.empty()) continue;
    const auto* series = state.profiler.find(k.timedAs);
    if (!series || series->samples.empty() || !(series->shown.median > 0.0)) continue;
    out.push_back({k.role, series->shown.median, kernelBound(k.work, series->shown.median, state.ceilings.measured)});
  }
  return out;
}

}  // namespace ks
