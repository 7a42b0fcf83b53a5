#include "compute/paced_launches.h"

#include <algorithm>
#include <cmath>

namespace ks {

PacedLaunches::PacedLaunches(Queue& queue, Launch launch, int warmups, int timed, double batchBudgetMs)
    : queue_(queue),
      launch_(std::move(launch)),
      warmups_(std::max(warmups, 0)),
      timed_(std::max(timed, 1)),
      budgetMs_(batchBudgetMs) {}

int PacedLaunches::nextBatchSize() const {
  const int left = warmups_ + timed_ - launched_;
  // Nothing measured yet: one launch tells how long one takes.
  if (longestMs_ <= 0.0) return std::min(left, 1);
  // Counted in double: the blocking measurements give a budget without a limit, and
  // the launches that fit in it do not fit in an int (UBSan: 5e13 in the CLI sweeps).
  const double fits = std::floor(budgetMs_ / longestMs_);
  if (!(fits >= 1.0)) return std::min(left, 1);
  return fits >= static_cast<double>(left) ? left : static_cast<int>(fits);
}

bool PacedLaunches::poll() {
  if (done()) return true;
  if (!inFlight_.empty()) {
    // The queue is in order: the batch's last launch finished means all of them did.
    if (!inFlight_.back().complete()) return false;
    for (size_t i = 0; i < inFlight_.size(); ++i) {
      const double ms = inFlight_[i].elapsedMs();
      longestMs_ = std::max(longestMs_, ms);
      if (firstInFlight_ + static_cast<int>(i) >= warmups_) timedMs_.push_back(ms);
    }
    inFlight_.clear();
    if (done()) return true;
  }
  const int batch = nextBatchSize();
  firstInFlight_ = launched_;
  inFlight_.resize(static_cast<size_t>(batch));
  for (Event& e : inFlight_) {
    launch_(&e);
    ++launched_;
  }
  queue_.flush();  // started now, not at the next blocking call
  return false;
}

}  // namespace ks
