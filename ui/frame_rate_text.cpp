#include "ui/frame_rate_text.h"

#include <cmath>
#include <cstdio>

namespace ks {

std::string frameRateText(double fps, bool brief) {
  if (!(fps > 0.0) || !std::isfinite(fps)) return "- FPS";
  char text[64];
  std::snprintf(text, sizeof text, brief ? "%.1f FPS (%.1f ms)" : "%.1f FPS, %.1f ms per frame", fps, 1000.0 / fps);
  return text;
}

}  // namespace ks
