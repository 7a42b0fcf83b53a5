#pragma once
// Where the Histogram panel's bars lie across a plot: the 256 bins leave a bar's
// width free at each end (a bar at level 0 or 255 stays clear of the plot's edges),
// and a bin among empty ones is drawn at least kMinBarWidth wide about its middle,
// as shaders/histogram.frag draws it (at 1024 wide a bin is 1.4 pixels: a
// checkerboard's two bins were lines). The hover picks the bin the shader shows there.
#include <functional>

#include "app/view_area.h"

namespace ks {

inline constexpr float kMinBarWidth = 3.0f;  // screen pixels

struct HistogramBarsLayout {
  float x0 = 0.0f, x1 = 0.0f;  // where bin 0 starts and bin 255 ends
  float binWidth = 0.0f;
  // Bin `bin`'s bar across the screen (y left at 0), `count` giving each bin's count:
  // its own width, grown towards empty neighbours up to kMinBarWidth in all.
  ScreenRect bar(int bin, const std::function<double(int)>& count) const;
  // The bin shown at the pixel of screen x: the bin there (where bins are narrower than a pixel,
  // the largest it covers); over an empty one, the largest within a grown bar's reach.
  int binAt(float x, const std::function<double(int)>& count) const;
  // How far a bar among empty bins reaches past its bin on each side.
  float grow() const;
};

// The bins over the plot from plotX0 to plotX1.
HistogramBarsLayout histogramBarsLayout(float plotX0, float plotX1);

}  // namespace ks
