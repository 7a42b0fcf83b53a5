#include "app/fps_counter.h"

namespace ks {

void FpsCounter::onFrame(double nowSeconds) {
  if (!started_) {
    started_ = true;
    start_ = nowSeconds;
    return;
  }
  ++frames_;
  const double elapsed = nowSeconds - start_;
  if (elapsed <= 0.0) return;
  const bool full = elapsed >= window_;
  if (full || !filled_) fps_ = static_cast<double>(frames_) / elapsed;
  if (full) {
    filled_ = true;
    frames_ = 0;
    start_ = nowSeconds;
  }
}

}  // namespace ks
