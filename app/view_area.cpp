#include "app/view_area.h"

#include <algorithm>

namespace ks {

std::optional<ScreenRect> largestFreeRect(const ScreenRect& area, const std::vector<ScreenRect>& obstacles,
                                          float pictureWidth, float pictureHeight, float minSide) {
  // A largest free rectangle has each side on the area's edge or on an obstacle's
  // edge, so those edges are the only candidates (a few panels: a few thousand tries).
  std::vector<float> xs = {area.x0, area.x1}, ys = {area.y0, area.y1};
  std::vector<ScreenRect> inside;
  for (const ScreenRect& o : obstacles) {
    if (!o.overlaps(area)) continue;
    inside.push_back(o);
    for (float x : {o.x0, o.x1}) xs.push_back(std::clamp(x, area.x0, area.x1));
    for (float y : {o.y0, o.y1}) ys.push_back(std::clamp(y, area.y0, area.y1));
  }
  for (auto* v : {&xs, &ys}) {
    std::sort(v->begin(), v->end());
    v->erase(std::unique(v->begin(), v->end()), v->end());
  }
  const float w = std::max(pictureWidth, 1.0f), h = std::max(pictureHeight, 1.0f);
  std::optional<ScreenRect> best;
  float bestScale = 0.0f, bestArea = 0.0f;
  for (size_t a = 0; a < xs.size(); ++a)
    for (size_t b = a + 1; b < xs.size(); ++b) {
      if (xs[b] - xs[a] < minSide) continue;
      for (size_t c = 0; c < ys.size(); ++c)
        for (size_t d = c + 1; d < ys.size(); ++d) {
          const ScreenRect r{xs[a], ys[c], xs[b], ys[d]};
          if (r.height() < minSide) continue;
          // Of equal scales the larger rectangle: more room around the picture to pan.
          const float scale = std::min(r.width() / w, r.height() / h), size = r.width() * r.height();
          if (scale < bestScale || (scale == bestScale && size <= bestArea)) continue;
          if (std::any_of(inside.begin(), inside.end(), [&](const ScreenRect& o) { return o.overlaps(r); })) continue;
          best = r;
          bestScale = scale;
          bestArea = size;
        }
    }
  return best;
}

}  // namespace ks
