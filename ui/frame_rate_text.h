#pragma once
// The frame rate as the Profiler and the status bar say it.
#include <string>

namespace ks {

// "9.3 FPS, 107.5 ms per frame" (brief: "9.3 FPS (107.5 ms)"): the time per frame is
// 1000 / FPS, over the same window as the FPS (the FPS counter's last quarter second).
// Beside the FPS it was the last frame's time alone, and the two disagreed (audit).
// "- FPS" until the counter has a rate.
std::string frameRateText(double fps, bool brief);

}  // namespace ks
