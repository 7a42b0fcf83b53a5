#include "ui/telemetry_chart.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "ui/chart_axis.h"

namespace ks {

void drawTelemetryChart(const char* id, const std::vector<GpuSample>& history,
                        std::optional<double> GpuSample::*figure, const char* title, const char* unit, float width) {
  struct Point {
    double seconds, value;
  };
  std::vector<Point> points;
  for (const GpuSample& s : history)
    if (s.*figure) points.push_back({s.seconds, *(s.*figure)});
  ImGui::BeginGroup();
  if (points.empty()) {
    ImGui::TextDisabled("%s: not reported", title);
    ImGui::EndGroup();
    return;
  }
  ImGui::TextDisabled("%s", title);
  const float line = ImGui::GetTextLineHeight();
  const float plotHeight = 3.5f * line;
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  width = std::max(width, 120.0f);

  ChartAxes axes;
  axes.yUnit = unit;
  axes.xUnit = "s ago";
  double highest = 0.0;
  for (const Point& p : points) highest = std::max(highest, p.value);
  // A tick about every 18 pixels of height; the axis ends on a labelled tick.
  const std::vector<double> yValues =
      niceTicksCovering(highest > 0.0 ? highest : 1.0, std::max(1, static_cast<int>(plotHeight / 18.0f)));
  const double top = yValues.back();
  const float plotTop = origin.y + line;  // a line above the plot for the unit over the labels
  const float plotBottom = plotTop + plotHeight;
  axes.y = placeTicks(yValues, top, false, plotBottom, plotTop, false);  // "1500" MHz, not "1.5k"
  const float margin = std::max({widestLabel(axes.y), ImGui::CalcTextSize(unit).x,
                                 ImGui::CalcTextSize(axes.xUnit.c_str()).x}) + 8.0f;
  axes.plot = {origin.x + margin, plotTop, origin.x + width - 2.0f, plotBottom};

  // Time: seconds before the newest sample, at least a second's span.
  const double newest = points.back().seconds;
  const double span = std::max(newest - points.front().seconds, 1.0);
  const std::vector<double> agoValues =
      niceTicks(0.0, span, std::max(2, static_cast<int>(axes.plot.width() / 60.0f)));
  const double agoStep = agoValues.size() > 1 ? agoValues[1] - agoValues[0] : span;
  for (auto ago = agoValues.rbegin(); ago != agoValues.rend(); ++ago) {  // left to right
    const float x = axes.plot.x1 - static_cast<float>(*ago / span) * axes.plot.width();
    axes.x.push_back({*ago, x, *ago == 0.0 ? "now" : tickLabel(*ago, agoStep, false)});
  }

  ImGui::InvisibleButton(id, ImVec2(width, plotHeight + 2.0f * line + 6.0f));
  ImDrawList* draw = ImGui::GetWindowDrawList();
  draw->AddRectFilled(ImVec2(axes.plot.x0, axes.plot.y0), ImVec2(axes.plot.x1, axes.plot.y1), IM_COL32(20, 22, 28, 255));
  drawYAxis(draw, axes.plot, axes.y, unit);
  drawXAxis(draw, axes.plot, axes.x, axes.xUnit.c_str(), true);
  std::vector<ImVec2> line2d;
  for (const Point& p : points) {
    const float fx = static_cast<float>(1.0 - std::clamp((newest - p.seconds) / span, 0.0, 1.0));
    const float fy = static_cast<float>(scaleFraction(p.value, top, false));
    line2d.push_back(ImVec2(axes.plot.x0 + fx * axes.plot.width(), axes.plot.y1 - fy * axes.plot.height()));
  }
  if (line2d.size() == 1) draw->AddCircleFilled(line2d[0], 2.5f, IM_COL32(86, 180, 233, 255));
  draw->AddPolyline(line2d.data(), static_cast<int>(line2d.size()), IM_COL32(86, 180, 233, 255), 0, 1.5f);
  if (ImGui::IsItemHovered()) {
    double low = points.front().value, high = low;
    for (const Point& p : points) low = std::min(low, p.value), high = std::max(high, p.value);
    char range[128];
    std::snprintf(range, sizeof range, "over the last %.0f s (%zu samples): %.0f to %.0f %s", span, points.size(), low,
                  high, unit);
    axes.hover = range;
    ImGui::SetTooltip("%s", range);
  }
  keepDrawnChart(id, std::move(axes));
  ImGui::EndGroup();
}

}  // namespace ks
