#include "compute/sample_stats.h"

#include <algorithm>
#include <cmath>

namespace ks {

double percentileOfSorted(const std::vector<double>& sorted, double p) {
  if (sorted.empty()) return 0.0;
  p = std::clamp(p, 0.0, 100.0);
  const double rank = p / 100.0 * static_cast<double>(sorted.size() - 1);
  const size_t below = static_cast<size_t>(std::floor(rank));
  const size_t above = std::min(below + 1, sorted.size() - 1);
  const double fraction = rank - static_cast<double>(below);
  return sorted[below] + (sorted[above] - sorted[below]) * fraction;
}

SampleSummary summarize(const std::vector<double>& samples) {
  SampleSummary s;
  s.count = samples.size();
  if (samples.empty()) return s;
  s.last = samples.back();
  std::vector<double> sorted = samples;
  std::sort(sorted.begin(), sorted.end());
  s.min = sorted.front();
  s.max = sorted.back();
  s.median = percentileOfSorted(sorted, 50.0);
  s.p95 = percentileOfSorted(sorted, 95.0);
  // Two passes: the mean first, then squared deviations from it (no
  // cancellation from sum-of-squares minus square-of-sum).
  double sum = 0.0;
  for (double v : samples) sum += v;
  s.mean = sum / static_cast<double>(s.count);
  double squares = 0.0;
  for (double v : samples) squares += (v - s.mean) * (v - s.mean);
  s.stddev = std::sqrt(squares / static_cast<double>(s.count));
  return s;
}

void RollingSamples::push(double value) {
  samples_.push_back(value);
  while (samples_.size() > capacity_) samples_.pop_front();
}

void RollingSamples::setCapacity(size_t capacity) {
  capacity_ = capacity < 1 ? 1 : capacity;
  while (samples_.size() > capacity_) samples_.pop_front();
}

SampleSummary RollingSamples::summary() const {
  return summarize(std::vector<double>(samples_.begin(), samples_.end()));
}

}  // namespace ks
