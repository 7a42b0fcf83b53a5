#pragma once
// The running kernels against the device's measured ceilings: each active
// kernel's work (compute/work_model.h) over its median time in the Profiler.
// The Profiler's roofline, the headless summary and the state dump read this.
#include <string>
#include <vector>

#include "compute/work_model.h"

namespace ks {

struct AppState;

struct TimedKernelBound {
  std::string name;  // "n-body step", "rotate"
  double ms = 0.0;   // median time per launch
  KernelBound bound;
};

// Kernels without a timing yet are left out.
std::vector<TimedKernelBound> timedKernelBounds(const AppState& state);

}  // namespace ks
