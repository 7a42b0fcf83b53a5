#pragma once
// The launches that measure one kernel configuration, enqueued a few at a time
// and polled without waiting, for the UI's sweeps: the frame loop must never
// wait for a whole measurement (on a CPU device one configuration's warm-up and
// timed launches take seconds). A batch is sized from the launches already done
// so that it runs for about `batchBudgetMs` on the device: the first batch is one
// launch, a fast GPU then takes the rest back to back, a slow CPU one per poll.
#include <functional>
#include <vector>

#include "compute/cl_objects.h"

namespace ks {

class PacedLaunches {
 public:
  // Enqueues one launch, its completion and profiling times in *event.
  using Launch = std::function<void(Event* event)>;
  PacedLaunches(Queue& queue, Launch launch, int warmups, int timed, double batchBudgetMs);
  // Never waits: once the batch in flight has finished (none at first), reads
  // its times and enqueues the next one. True once every timed launch has
  // finished. Throws what a launch or an event throws (ClError).
  bool poll();
  bool done() const { return timedMs_.size() == static_cast<size_t>(timed_); }
  // Device times of the timed launches, in launch order.
  const std::vector<double>& timedMs() const { return timedMs_; }
  // The longest launch so far (warm-ups included), 0 before the first finished.
  double longestLaunchMs() const { return longestMs_; }
  // Launches in the batch enqueued last.
  int lastBatchSize() const { return static_cast<int>(inFlight_.size()); }

 private:
  int nextBatchSize() const;
  Queue& queue_;
  Launch launch_;
  int warmups_, timed_;
  double budgetMs_;
  int launched_ = 0;  // warm-ups and timed ones
  std::vector<Event> inFlight_;
  int firstInFlight_ = 0;  // the launch number of inFlight_[0]
  std::vector<double> timedMs_;
  double longestMs_ = 0.0;
};

}  // namespace ks
