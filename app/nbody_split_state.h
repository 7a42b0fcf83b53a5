#pragma once
// The viewer's N-body step split over several devices (issue 24): what the user
// asks for (the Devices panel, --devices: a choice) and what runs, with the figures
// the Profiler, the runs and the headless summary show (readings, written by the
// scene). The scene (app/nbody_split_runner.h) acts on the request between frames.
#include <cstddef>
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "io/nbody_choices.h"  // NBodySplitChoices

namespace ks {

struct NBodySplitReadings {
  std::vector<size_t> running;         // the devices the step is split over now; empty: the display device alone
  std::vector<size_t> preparing;       // devices whose kernels build for a split to come (off the frame)
  std::vector<size_t> sliceBodies;     // bodies each running device integrates (padded, whole work-groups)
  std::vector<double> deviceKernelMs;  // each running device's kernel time per step, the newest frame's
  // Each running device's time per step from the launch until its kernel began:
  // other work on the device first (the display device's drawing). Kernel plus
  // this is what the device spends on its share, which the slices even out.
  std::vector<double> deviceOtherMs;
  double exchangeMs = 0.0;             // per step, beyond the slowest kernel: exchange and launches (newest frame)
  double stepMs = 0.0;                 // per step, first launch until every device holds every position
  double loadBalance = 0.0;            // mean of kernel plus other work over the slowest (1: all finish together)
  unsigned long long timedFrames = 0;  // frames whose split steps were timed (never goes down)
  unsigned rebalances = 0;             // times the slices were re-sized from measured speed
  std::string message;                 // the outcome of the last request
  // The last frames' figures, for medians (the headless summary).
  struct Sample {
    std::vector<double> deviceKernelMs;
    double exchangeMs = 0.0, stepMs = 0.0;
    std::vector<double> deviceOtherMs;  // empty: none measured
  };
  std::deque<Sample> recent;
  static constexpr size_t kRecentFrames = 300;
  bool active() const { return !running.empty(); }
};

}  // namespace ks
