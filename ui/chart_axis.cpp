#include "ui/chart_axis.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

namespace ks {

double niceTickStep(double range, int targetTicks) {
  if (!std::isfinite(range) || range <= 0.0) return 0.0;
  const double raw = range / std::max(targetTicks, 1);
  const double decade = std::pow(10.0, std::floor(std::log10(raw)));
  for (const double m : {1.0, 2.0, 5.0})
    if (m * decade >= raw * (1.0 - 1e-9)) return m * decade;
  return 10.0 * decade;
}

std::vector<double> niceTicks(double lo, double hi, int targetTicks) {
  if (!std::isfinite(lo) || !std::isfinite(hi) || hi < lo) return {};
  const double step = niceTickStep(hi - lo, targetTicks);
  if (step <= 0.0) return {lo};
  std::vector<double> ticks;
  // Counted in steps from a multiple of the step: adding steps up would drift (0.1 + 0.2).
  const double first = std::ceil(lo / step - 1e-9);
  for (double i = first; i * step <= hi + step * 1e-9; i += 1.0) {
    const double v = i * step;
    ticks.push_back(std::abs(v) < step * 1e-9 ? 0.0 : v);  // no "-0"
  }
  return ticks;
}

std::vector<double> niceTicksCovering(double hi, int targetTicks) {
  const double step = niceTickStep(hi, targetTicks);
  if (step <= 0.0) return {0.0};
  const double top = std::ceil(hi / step - 1e-9);
  std::vector<double> ticks;
  for (double i = 0.0; i <= top; i += 1.0) ticks.push_back(i * step);
  return ticks;
}

std::vector<double> logTicks(double hi, int targetTicks) {
  std::vector<double> ticks{0.0};
  if (!std::isfinite(hi) || hi < 1.0) return ticks;
  const int decades = static_cast<int>(std::floor(std::log10(hi) + 1e-12)) + 1;  // 1, 10, ... up to hi
  const int room = std::max(targetTicks - 1, 1);                                 // besides the 0
  const int stride = (decades + room - 1) / room;
  for (int k = 0; k < decades; k += stride) ticks.push_back(std::pow(10.0, k));
  return ticks;
}

double scaleFraction(double value, double hi, bool logScale) {
  if (!std::isfinite(value) || !std::isfinite(hi) || hi <= 0.0) return 0.0;
  const double f = logScale ? std::log1p(std::max(value, 0.0)) / std::log1p(hi) : value / hi;
  return std::clamp(f, 0.0, 1.0);
}

std::string tickLabel(double value, double step, bool abbreviate) {
  if (!std::isfinite(value)) return "";
  // Thousands and millions as k and M where the step is coarse enough to lose nothing visible.
  double scale = 1.0;
  const char* suffix = "";
  if (abbreviate && std::abs(value) >= 1e6 && step >= 1e5) scale = 1e6, suffix = "M";
  else if (abbreviate && std::abs(value) >= 1e3 && step >= 1e2) scale = 1e3, suffix = "k";
  const double scaledStep = step > 0.0 && std::isfinite(step) ? step / scale : 1.0;
  const int decimals = std::clamp(static_cast<int>(-std::floor(std::log10(scaledStep) + 1e-9)), 0, 6);
  char text[48];
  std::snprintf(text, sizeof text, "%.*f", decimals, value / scale);
  std::string s = text;
  if (s.find('.') != std::string::npos) {  // 1.50k -> 1.5k, 2.0 -> 2
    s.erase(s.find_last_not_of('0') + 1);
    if (s.back() == '.') s.pop_back();
  }
  if (s == "-0") s = "0";
  return s + suffix;
}

std::vector<ChartTick> placeTicks(const std::vector<double>& values, double hi, bool logScale, float from, float to,
                                  bool abbreviate) {
  std::vector<ChartTick> ticks;
  // The labels' precision: the spacing of the ticks (powers of ten on a log scale: their own).
  const double step = values.size() > 1 ? values[1] - values[0] : std::abs(hi);
  for (const double v : values) {
    const float f = static_cast<float>(scaleFraction(v, hi, logScale));
    ticks.push_back({v, from + (to - from) * f, tickLabel(v, logScale ? std::max(v, 1.0) : step, abbreviate)});
  }
  return ticks;
}

namespace {

ImU32 axisColour() { return IM_COL32(150, 150, 160, 255); }
ImU32 gridColour() { return IM_COL32(255, 255, 255, 30); }
ImU32 labelColour() { return ImGui::GetColorU32(ImGuiCol_Text, 0.8f); }

}  // namespace

ScreenRect legendBox(const ScreenRect& plot, const std::vector<ChartBar>& bars, float width, float height) {
  constexpr float kInset = 2.0f;
  const ScreenRect corner{plot.x0 + kInset, plot.y0 + kInset, plot.x0 + kInset + width, plot.y0 + kInset + height};
  std::vector<ScreenRect> tall;  // the bars that reach into the band
  for (const ChartBar& b : bars)
    if (b.rect.y0 < corner.y1) tall.push_back(b.rect);
  std::sort(tall.begin(), tall.end(), [](const ScreenRect& a, const ScreenRect& b) { return a.x0 < b.x0; });
  auto at = [&](float x) { return ScreenRect{x, corner.y0, x + width, corner.y1}; };
  auto clear = [&](const ScreenRect& box) {
    return std::none_of(tall.begin(), tall.end(), [&](const ScreenRect& b) { return b.x0 < box.x1 && b.x1 > box.x0; });
  };
  // The corners first (a label between bars reads oddly), then the first gap from the left.
  if (clear(corner)) return corner;
  if (const ScreenRect right = at(plot.x1 - kInset - width); right.x0 > corner.x0 && clear(right)) return right;
  float x = corner.x0;
  for (const ScreenRect& b : tall)
    if (b.x0 < x + width && b.x1 > x) x = b.x1 + kInset;  // past this bar
  if (x + width > plot.x1) return corner;
  return at(x);
}

ImDrawList* drawPlotFrame(const char* id, ImVec2 size, const ChartAxes& axes, bool* hovered) {
  ImGui::InvisibleButton(id, size);
  *hovered = ImGui::IsItemHovered();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  draw->AddRectFilled(ImVec2(axes.plot.x0, axes.plot.y0), ImVec2(axes.plot.x1, axes.plot.y1), IM_COL32(20, 22, 28, 255));
  drawYAxis(draw, axes.plot, axes.y, axes.yUnit.c_str());
  drawXAxis(draw, axes.plot, axes.x, axes.xUnit.c_str(), true);
  return draw;
}

float widestLabel(const std::vector<ChartTick>& ticks) {
  float widest = 0.0f;
  for (const ChartTick& t : ticks) widest = std::max(widest, ImGui::CalcTextSize(t.label.c_str()).x);
  return widest;
}

void drawYAxis(ImDrawList* draw, const ScreenRect& plot, const std::vector<ChartTick>& ticks, const char* unit) {
  draw->AddLine(ImVec2(plot.x0, plot.y0), ImVec2(plot.x0, plot.y1), axisColour());
  const float half = ImGui::GetTextLineHeight() * 0.5f;
  for (const ChartTick& t : ticks) {
    draw->AddLine(ImVec2(plot.x0 - 4.0f, t.pixel), ImVec2(plot.x0, t.pixel), axisColour());
    if (t.pixel > plot.y0 + 0.5f && t.pixel < plot.y1 - 0.5f)
      draw->AddLine(ImVec2(plot.x0 + 1.0f, t.pixel), ImVec2(plot.x1, t.pixel), gridColour());
  }
  // Labels from the top down (the top one tells the scale; 0 is the one to lose in a
  // short chart), each kept beside the plot's height and left out where it would
  // overlap the one above.
  float lastBottom = -1e9f;
  for (auto t = ticks.rbegin(); t != ticks.rend(); ++t) {
    const float y = std::clamp(t->pixel - half, plot.y0 - half * 0.5f, plot.y1 - half * 1.5f);
    if (y < lastBottom) continue;
    const float width = ImGui::CalcTextSize(t->label.c_str()).x;
    draw->AddText(ImVec2(plot.x0 - 6.0f - width, y), labelColour(), t->label.c_str());
    lastBottom = y + 2.0f * half;
  }
  if (unit && *unit) {
    const float width = ImGui::CalcTextSize(unit).x;
    draw->AddText(ImVec2(plot.x0 - 6.0f - width, plot.y0 - 2.0f * half - 2.0f), labelColour(), unit);
  }
}

void drawXAxis(ImDrawList* draw, const ScreenRect& plot, const std::vector<ChartTick>& ticks, const char* unit,
               bool gridlines) {
  draw->AddLine(ImVec2(plot.x0, plot.y1), ImVec2(plot.x1, plot.y1), axisColour());
  float lastRight = -1e9f;
  for (const ChartTick& t : ticks) {
    draw->AddLine(ImVec2(t.pixel, plot.y1), ImVec2(t.pixel, plot.y1 + 4.0f), axisColour());
    if (gridlines && t.pixel > plot.x0 + 0.5f && t.pixel < plot.x1 - 0.5f)
      draw->AddLine(ImVec2(t.pixel, plot.y0), ImVec2(t.pixel, plot.y1 - 1.0f), gridColour());
    const float width = ImGui::CalcTextSize(t.label.c_str()).x;
    // Centred under the tick, but not past the plot's right end; one that would run
    // into the last label is left out.
    const float x = std::min(t.pixel - width * 0.5f, plot.x1 - width);
    if (x < lastRight + 6.0f) continue;
    draw->AddText(ImVec2(x, plot.y1 + 5.0f), labelColour(), t.label.c_str());
    lastRight = x + width;
  }
  // The unit in the corner left of the axis, under the y labels or the bars' names.
  if (unit && *unit)
    draw->AddText(ImVec2(plot.x0 - 6.0f - ImGui::CalcTextSize(unit).x, plot.y1 + 5.0f), labelColour(), unit);
}

namespace {

struct KeptChart {
  const ImGuiContext* context = nullptr;
  int frame = -1;
  ChartAxes axes;
};

std::map<std::string, KeptChart, std::less<>>& keptCharts() {
  static std::map<std::string, KeptChart, std::less<>> charts;
  return charts;
}

}  // namespace

void keepDrawnChart(std::string_view id, ChartAxes axes) {
  keptCharts()[std::string(id)] = {ImGui::GetCurrentContext(), ImGui::GetFrameCount(), std::move(axes)};
}

void forgetDrawnCharts() { keptCharts().clear(); }

const ChartAxes* drawnChart(std::string_view id) {
  const auto it = keptCharts().find(id);
  if (it == keptCharts().end() || it->second.context != ImGui::GetCurrentContext() ||
      it->second.frame != ImGui::GetFrameCount())
    return nullptr;
  return &it->second.axes;
}

}  // namespace ks
