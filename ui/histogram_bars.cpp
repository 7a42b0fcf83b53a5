#include "ui/histogram_bars.h"

#include <algorithm>
#include <cmath>

#include "compute/image_histogram.h"

namespace ks {

HistogramBarsLayout histogramBarsLayout(float plotX0, float plotX1) {
  HistogramBarsLayout l;
  const float inset = std::min(kMinBarWidth, std::max(plotX1 - plotX0, 0.0f) / 4.0f);
  l.x0 = plotX0 + inset;
  l.x1 = std::max(plotX1 - inset, l.x0);
  l.binWidth = (l.x1 - l.x0) / float(kHistogramBins);
  return l;
}

float HistogramBarsLayout::grow() const { return std::max(0.0f, kMinBarWidth - binWidth) * 0.5f; }

ScreenRect HistogramBarsLayout::bar(int bin, const std::function<double(int)>& count) const {
  const bool emptyLeft = bin == 0 || count(bin - 1) <= 0.0, emptyRight = bin + 1 == kHistogramBins || count(bin + 1) <= 0.0;
  return {x0 + binWidth * float(bin) - (emptyLeft ? grow() : 0.0f), 0.0f,
          x0 + binWidth * float(bin + 1) + (emptyRight ? grow() : 0.0f), 0.0f};
}

int HistogramBarsLayout::binAt(float x, const std::function<double(int)>& count) const {
  if (binWidth <= 0.0f) return 0;
  // The pixel under x (ImGui's cursor is on whole pixels), at its centre as the shader
  // samples it, in bins.
  const float at = (std::floor(x) + 0.5f - x0) / binWidth, across = 1.0f / binWidth;
  // The largest of bins first..last (within the 256), the first of equals; -1 for none.
  auto largest = [&](int first, int last) {
    int best = -1;
    for (int b = std::max(first, 0); b <= std::min(last, kHistogramBins - 1); ++b)
      if (best < 0 || count(b) > count(best)) best = b;
    return best;
  };
  int shown = across <= 1.0f ? (at >= 0.0f && at < float(kHistogramBins) ? static_cast<int>(std::floor(at)) : -1)
                             : largest(static_cast<int>(std::floor(at - 0.5f * across + 1e-4f)),
                                       static_cast<int>(std::ceil(at + 0.5f * across - 1e-4f)) - 1);
  if (shown < 0 || count(shown) <= 0.0) {
    const float reach = grow() / binWidth;
    const int near = largest(static_cast<int>(std::floor(at - 0.5f * across - reach + 1e-4f)),
                             static_cast<int>(std::ceil(at + 0.5f * across + reach - 1e-4f)) - 1);
    if (near >= 0 && count(near) > 0.0) shown = near;
  }
  return shown >= 0 ? shown : std::clamp(static_cast<int>(std::floor(at)), 0, kHistogramBins - 1);
}

}  // namespace ks
