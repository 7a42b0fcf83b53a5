#pragma once
// Frames per second for the status bar and the profiler, over quarter-second windows.

namespace ks {

// The first frame only starts the count: it holds the program builds and first-run
// costs (half a second on a GPU), which would otherwise be the whole rate of a
// short run. Until the first window is full the rate so far is shown, updated
// every frame; afterwards once per window, so the digits stay readable.
class FpsCounter {
 public:
  explicit FpsCounter(double windowSeconds = 0.25) : window_(windowSeconds) {}
  // Call once per frame with the time the frame ended (any clock, in seconds).
  void onFrame(double nowSeconds);
  double fps() const { return fps_; }  // 0 until the second frame

 private:
  double window_;
  double start_ = 0.0;
  bool started_ = false, filled_ = false;
  unsigned long long frames_ = 0;
  double fps_ = 0.0;
};

}  // namespace ks
