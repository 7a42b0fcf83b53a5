#pragma once
// Axes for the panels' charts (ImGui 1.86 has no plotting library): tick values
// on a 1-2-5 series or on powers of ten, their labels, and the drawing of ticks,
// gridlines and labels around a plot rectangle with ImDrawList. What a chart drew
// last frame is kept (drawnChart) so that tests can check its axes without pixels.
#include <imgui.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "app/view_area.h"

namespace ks {

// The step of about `targetTicks` ticks over `range`: 1, 2 or 5 times a power of
// ten, the smallest such step that gives no more than targetTicks intervals.
// 0 when range is not a positive finite number.
double niceTickStep(double range, int targetTicks);
// The multiples of niceTickStep(hi - lo, targetTicks) within [lo, hi]; just lo when
// the range is empty (lo == hi); none when lo or hi is not finite or hi < lo.
std::vector<double> niceTicks(double lo, double hi, int targetTicks);
// Ticks from 0 on a 1-2-5 step whose last tick is at or above `hi`: an axis that
// ends on a labelled tick (its top is ticks.back()). Just 0 when hi is not positive.
std::vector<double> niceTicksCovering(double hi, int targetTicks);
// Ticks for a log(1 + value) scale from 0 to `hi`: 0, then powers of ten up to hi,
// every second or third decade when more than `targetTicks` would crowd the axis.
std::vector<double> logTicks(double hi, int targetTicks);
// Where `value` lies between 0 and `hi` on the scale the charts draw: value / hi,
// or log(1 + value) / log(1 + hi) (as the histogram shader's bars). 0 for hi <= 0.
double scaleFraction(double value, double hi, bool logScale);
// A tick's words: as few digits as `step` needs ("0.5", "20", "1.5k", "2M"); thousands
// and millions written out in full where `abbreviate` is false (a unit follows: "1500 ms").
std::string tickLabel(double value, double step, bool abbreviate = true);

struct ChartTick {
  double value = 0.0;
  float pixel = 0.0f;  // across the screen: x for the x axis, y for the y axis
  std::string label;
};
struct ChartBar {
  std::string label;  // what the bar is (a run's name)
  ScreenRect rect;
};
// One chart as the last frame drew it, in screen pixels.
struct ChartAxes {
  ScreenRect plot;  // the data's area, inside the axes
  std::vector<ChartTick> x, y;
  std::string xUnit, yUnit;
  std::vector<ChartBar> bars;
  std::optional<float> baseline;  // a reference line's x (the Runs chart's baseline run)
  std::string hover;               // the tooltip shown this frame, if any
  ScreenRect legend;               // the names' box in the plot's top band (none: all 0)
};

// Where a names box of `width` x `height` goes in `plot`'s top band: its top-left
// corner, or else its top-right one, or else the first place from the left that none
// of `bars` reaches up into (a checkerboard's full bar at level 0 was under the box);
// the top-left corner when no such place is wide enough.
ScreenRect legendBox(const ScreenRect& plot, const std::vector<ChartBar>& bars, float width, float height);

// Ticks placed along a plot's side: fraction 0..1 of each value (from the left,
// or from the bottom for a y axis) mapped onto [from, to] in pixels.
std::vector<ChartTick> placeTicks(const std::vector<double>& values, double hi, bool logScale, float from, float to,
                                  bool abbreviate = true);

// Draws the y axis left of `plot` (a line, ticks, gridlines across the plot,
// labels right-aligned) and its unit, when given, above the labels.
void drawYAxis(ImDrawList* draw, const ScreenRect& plot, const std::vector<ChartTick>& ticks, const char* unit);
// Draws the x axis under `plot` (a line, ticks, gridlines up the plot when asked,
// labels centred under the ticks) and the unit, when given, left of the labels
// (in the corner under the y axis's labels or the bars' names).
void drawXAxis(ImDrawList* draw, const ScreenRect& plot, const std::vector<ChartTick>& ticks, const char* unit,
               bool gridlines);
// A plot as one item: an invisible button of `size` (`id` names it; its hover is
// returned in `hovered`), the plot's background and both axes with their units (x
// gridlines on). Gives the window's draw list for the data.
ImDrawList* drawPlotFrame(const char* id, ImVec2 size, const ChartAxes& axes, bool* hovered);
// The width of the widest label among `ticks` (a y axis's margin).
float widestLabel(const std::vector<ChartTick>& ticks);

// Keeps what a chart drew this frame under `id`; drawnChart gives it back while it
// is the current ImGui context's latest frame (none for a chart not drawn in it).
void keepDrawnChart(std::string_view id, ChartAxes axes);
const ChartAxes* drawnChart(std::string_view id);
// Forgets every kept chart: for a test's end, since a new ImGui context may get the
// old one's address and frame numbers, and a chart it never drew would seem drawn.
void forgetDrawnCharts();

}  // namespace ks
