#pragma once
// Where the image lab's pictures go: the free part of the window that the panels leave.

#include <optional>
#include <vector>

namespace ks {

struct ScreenRect {
  float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  float width() const { return x1 - x0; }
  float height() const { return y1 - y0; }
  bool overlaps(const ScreenRect& o) const { return o.x0 < x1 && o.x1 > x0 && o.y0 < y1 && o.y1 > y0; }
};

// The rectangle inside `area` that no obstacle overlaps and in which a picture of
// pictureWidth x pictureHeight shows at the largest scale; none when every such
// rectangle is narrower or lower than `minSide`.
std::optional<ScreenRect> largestFreeRect(const ScreenRect& area, const std::vector<ScreenRect>& obstacles,
                                          float pictureWidth, float pictureHeight, float minSide);

}  // namespace ks
