#pragma once
// A run's fill count (compute/rotate_coverage.h) that does not hold the frame that
// starts the run (issue 22). Nearest and bilinear solve each output row's span in
// constant time (tens of microseconds for any picture): counted at once. The forward (seed) mapping repeats
// the scatter, a pass over every source pixel (100-112 ms for a 6000x4000 picture):
// counted on a thread of its own, the result read once ready(). The same function
// counts either way, so the count stays exact.
#include <cstdint>
#include <future>

#include "compute/image_layout.h"
#include "compute/image_rotate.h"

namespace ks {

class RotateFillCount {
 public:
  // No count: zero pixels, ready.
  RotateFillCount() = default;
  // Counts rotating an `in`-sized picture; off this thread where the count is a pass
  // over the source pixels and `offThread` (a caller already off the frame loop, such
  // as a CPU device's run worker, passes false and counts in place).
  static RotateFillCount start(const ImageLayout& in, const RotateParams& params, RotateSampling sampling,
                               bool offThread);
  // Whether the count has arrived; never waits.
  bool ready() const;
  // The count: waits for it if it has not arrived; rethrows the count's failure.
  uint64_t get() const;

 private:
  std::shared_future<uint64_t> count_;  // invalid: no count (zero)
};

}  // namespace ks
