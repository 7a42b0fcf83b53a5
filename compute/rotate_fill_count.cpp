#include "compute/rotate_fill_count.h"

#include <chrono>
#include <exception>
#include <thread>

#include "compute/rotate_coverage.h"

namespace ks {

RotateFillCount RotateFillCount::start(const ImageLayout& in, const RotateParams& params, RotateSampling sampling,
                                       bool offThread) {
  RotateFillCount fill;
  std::promise<uint64_t> promise;
  fill.count_ = promise.get_future().share();
  if (!offThread || sampling != RotateSampling::Forward) {
    try {
      promise.set_value(rotateFillPixelCount(in, params, sampling));
    } catch (...) {
      promise.set_exception(std::current_exception());
    }
    return fill;
  }
  // Detached, with everything it uses owned by value: a scene that goes (a device
  // switch, quitting) never waits for it; the promise's state outlives both sides.
  std::thread([in, params, sampling, promise = std::move(promise)]() mutable {
    try {
      promise.set_value(rotateFillPixelCount(in, params, sampling));
    } catch (...) {
      promise.set_exception(std::current_exception());
    }
  }).detach();
  return fill;
}

bool RotateFillCount::ready() const {
  return !count_.valid() || count_.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
}

uint64_t RotateFillCount::get() const { return count_.valid() ? count_.get() : 0; }

}  // namespace ks
