#pragma once
// Summary statistics of timing samples, and a rolling window of them. Used by
// the profiling panel (per kernel and frame stage), recordings and sweeps, so
// every median / p95 in the app is computed the same way.
#include <cstddef>
#include <deque>
#include <vector>

namespace ks {

struct SampleSummary {
  size_t count = 0;
  double last = 0.0, mean = 0.0, min = 0.0, median = 0.0, p95 = 0.0, max = 0.0;
  double stddev = 0.0;  // population standard deviation (divides by count)
};

// Percentile p in [0, 100] of sorted samples, linear interpolation between the
// closest ranks (NumPy's default): p=50 of {1,2,3,4} is 2.5. Empty input: 0.
double percentileOfSorted(const std::vector<double>& sorted, double p);

// Summary of samples in the order they were taken (last = the final one).
SampleSummary summarize(const std::vector<double>& samples);

// The newest `capacity` samples; older ones fall out. Capacity >= 1.
class RollingSamples {
 public:
  explicit RollingSamples(size_t capacity = 240) : capacity_(capacity < 1 ? 1 : capacity) {}
  void push(double value);
  void setCapacity(size_t capacity);  // keeps the newest samples that fit
  void clear() { samples_.clear(); }
  size_t capacity() const { return capacity_; }
  size_t size() const { return samples_.size(); }
  bool empty() const { return samples_.empty(); }
  const std::deque<double>& samples() const { return samples_; }  // oldest first
  SampleSummary summary() const;

 private:
  size_t capacity_;
  std::deque<double> samples_;
};

}  // namespace ks
