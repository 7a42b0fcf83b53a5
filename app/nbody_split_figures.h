#pragma once
// The viewer's split figures as a run's (lab/run_split.h): medians over frames
// of each device's kernel time and of the exchange, for a recording (--record,
// the Runs panel's Record) and the headless summary.
#include <vector>

#include "app/nbody_split_state.h"
#include "lab/run_split.h"

namespace ks {

// Medians over `frames` of those with as many devices as the newest (a change
// of devices mid-way leaves the older ones out). The load balance compares what
// each device spends on its share of a step: its kernel and the other work on
// the device before it (the display device's drawing), not kernels alone. The viewer never runs one
// device alone beside the split, so the parallel efficiency is estimated from
// the kernel times: the sum of the devices' kernel times (one device as fast as
// their mean would take that long) over devices x the step time. No frames, or
// one device: a run on one device.
RunSplit nbodySplitFigures(const std::vector<NBodySplitReadings::Sample>& frames);

// Each device's median time per step from the launch until its kernel began
// (NBodySplitReadings::deviceOtherMs), over the frames as above; 0 where none was measured.
std::vector<double> nbodySplitOtherMedians(const std::vector<NBodySplitReadings::Sample>& frames);

// Collects a recording's frames: each new timing of the split once.
class NBodySplitRecording {
 public:
  void clear() { frames_.clear(), seen_ = 0; }
  void onFrame(const NBodySplitReadings& split);
  RunSplit result() const { return nbodySplitFigures(frames_); }

 private:
  std::vector<NBodySplitReadings::Sample> frames_;
  unsigned long long seen_ = 0;
};

}  // namespace ks
