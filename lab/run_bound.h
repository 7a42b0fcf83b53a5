#pragma once
// What bound each kernel of a run, read back from the run record's `bound` text
// ("n-body step: FP32 issue: 74 %; histogram: local atomics: 81 %", as
// app/run_recorder and the benches write it), for the Runs panel's column
// (issue 23, item 3): the ceiling and the fraction of it each kernel reached.
#include <string>
#include <vector>

namespace ks {

struct RunKernelBound {
  std::string kernel;   // "n-body step", "rotate"
  std::string ceiling;  // "FP32 issue", "DRAM read"
  double percent = 0.0; // of the measured ceiling
};

// The entries that read as "kernel: ceiling: NN %"; others are left out.
std::vector<RunKernelBound> parseRunBound(const std::string& bound);

// "FP32 issue 74 %" for a run of one kernel; one line per kernel, each named
// ("rotate: DRAM 85 %"), for several; "" when nothing was bound.
std::string runBoundCell(const std::string& bound);

// The largest fraction any kernel reached, in percent (what the column sorts by); -1: none.
double runBoundPercent(const std::string& bound);

}  // namespace ks
