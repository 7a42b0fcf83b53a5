#pragma once
// How often the panels are built. A frame that runs the kernels and draws the
// picture need not rebuild every panel: no display shows more than a few hundred
// frames a second, and on a fast GPU building the panels took a third of the image
// lab's frame (0.35 of 1.24 ms on an H200, docs/BENCHMARKS.md). Frames in between
// draw the panels as last built; input waits for the next build (ui/input_queue
// keeps every event), at most 1/rate seconds.
#include <chrono>

namespace ks {

class PanelPacing {
 public:
  using Clock = std::chrono::steady_clock;
  // Twice a 60 Hz display. Measured on the H200 (docs/BENCHMARKS.md): 60 and 120
  // gave the same frames; at 240 the N-body frames (300 a second) alternated with
  // and without panels, and their median rose 6 % while their mean stayed.
  static constexpr double kDefaultPerSecond = 120.0;
  // perSecond <= 0: every frame.
  explicit PanelPacing(double perSecond = kDefaultPerSecond) : perSecond_(perSecond) {}
  // Whether the frame starting at `now` builds the panels (`force`: whatever the
  // rate, e.g. the frame a screenshot shows). The first frame always does.
  bool due(Clock::time_point now, bool force = false) {
    const bool build = force || perSecond_ <= 0.0 || !built_ ||
                       std::chrono::duration<double>(now - lastBuilt_).count() >= 1.0 / perSecond_;
    if (build) {
      sinceLast_ = built_ ? std::chrono::duration<double>(now - lastBuilt_).count() : 0.0;
      lastBuilt_ = now;
      built_ = true;
    }
    return build;
  }
  // Seconds from the build before to the last one (0 for the first): ImGui's frame time.
  double secondsBetweenBuilds() const { return sinceLast_; }
  double perSecond() const { return perSecond_; }

 private:
  double perSecond_;
  bool built_ = false;
  Clock::time_point lastBuilt_{};
  double sinceLast_ = 0.0;
};

}  // namespace ks
