#include "ui/speed_accuracy_chart.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "ui/panels.h"

namespace ks {

std::optional<double> runGigaInteractionsPerSecond(const RunRecord& run) {
  const std::string bodies = run.meta.parameter("bodies");
  const double n = bodies.empty() ? 0.0 : std::strtod(bodies.c_str(), nullptr);
  const double ms = run.m.kernelMs.median;
  if (!(n > 0.0) || !(ms > 0.0) || !std::isfinite(ms)) return std::nullopt;
  return n * n / (ms * 1e-3) * 1e-9;
}

std::vector<double> decadeTicks(double lo, double hi, int targetTicks) {
  if (!std::isfinite(lo) || !std::isfinite(hi) || lo <= 0.0 || hi < lo) return {};
  const int first = static_cast<int>(std::floor(std::log10(lo) + 1e-9));
  const int last = std::max(static_cast<int>(std::ceil(std::log10(hi) - 1e-9)), first + 1);
  const int stride = std::max(1, (last - first + std::max(targetTicks, 2) - 2) / std::max(targetTicks - 1, 1));
  std::vector<double> ticks;
  for (int k = first; k <= last; k += stride) ticks.push_back(std::pow(10.0, k));
  if (std::log10(ticks.back()) < last - 1e-9) ticks.push_back(std::pow(10.0, last));  // the axis ends on a label
  return ticks;
}

std::string decadeLabel(double power) {
  const int k = static_cast<int>(std::lround(std::log10(power)));
  return k == 0 ? "1" : "1e" + std::to_string(k);
}

namespace {

struct Point {
  int run;           // index into runs.runs
  double x, drift;   // the x axis's value, |energy drift|
  std::string name;  // what tells it from the others
};

std::string driftText(const RunRecord& r) {
  char text[200];
  std::snprintf(text, sizeof text, "energy drift %+.3e after %llu steps\nmomentum %.2e, angular momentum %.2e",
                r.m.energyDrift, r.m.driftSteps, r.m.momentumDrift, r.m.angularMomentumDrift);
  return text;
}

// The runs that ran, sorted out: those with a drift and a speed on the axis become
// points; the rest are named under the plot.
struct Sorted {
  std::vector<Point> points;
  std::vector<std::string> without;  // "no drift measured" (and drifts with no speed on the axis)
  std::string unit;                  // of the x axis
};

Sorted sortRuns(const RunsState& runs) {
  Sorted out;
  // Across: interactions/s where every run with a drift has it (N-body runs), else the
  // runs' rate in the first one's unit (runs in another unit cannot share the axis).
  std::vector<int> drifted;
  for (size_t i = 0; i < runs.runs.size(); ++i) {
    const RunRecord& r = runs.runs[i];
    if (!r.ok()) continue;
    if (r.m.hasDrift() && std::isfinite(r.m.energyDrift)) drifted.push_back(static_cast<int>(i));
    else out.without.push_back(r.name);
  }
  bool interactions = !drifted.empty();
  for (int i : drifted) interactions = interactions && runGigaInteractionsPerSecond(runs.runs[size_t(i)]).has_value();
  out.unit = interactions ? "G interactions/s"
                          : (drifted.empty() ? std::string() : runs.runs[size_t(drifted.front())].m.rateUnit);
  for (int i : drifted) {
    const RunRecord& r = runs.runs[size_t(i)];
    const std::optional<double> x = interactions ? runGigaInteractionsPerSecond(r)
                                    : r.m.rateUnit == out.unit && r.m.rate > 0.0 ? std::optional<double>(r.m.rate)
                                                                                 : std::nullopt;
    if (x) out.points.push_back({i, *x, std::abs(r.m.energyDrift), r.name});
    else out.without.push_back(r.name + " (no speed on this axis)");
  }
  std::vector<std::string> names;
  for (const Point& p : out.points) names.push_back(p.name);
  names = distinguishingNames(names);
  for (size_t k = 0; k < out.points.size(); ++k) out.points[k].name = names[k];
  return out;
}

}  // namespace

std::string speedAccuracyNote(const RunsState& runs) {
  const std::vector<std::string> without = sortRuns(runs).without;
  // Up to a few names (two lines' worth in a narrow panel), then how many more.
  constexpr size_t kNamed = 4;
  std::string note;
  for (size_t k = 0; k < std::min(without.size(), kNamed); ++k) note += (note.empty() ? "" : ", ") + without[k];
  if (without.size() > kNamed) note += " and " + std::to_string(without.size() - kNamed) + " more";
  return note.empty() ? note : "No drift measured: " + note;
}

void drawSpeedAccuracyChart(const RunsState& runs, float height) {
  Sorted sorted = sortRuns(runs);
  std::vector<Point>& points = sorted.points;
  const std::string& unit = sorted.unit;
  const RunRecord* base = runs.baseline >= 0 && size_t(runs.baseline) < runs.runs.size()
                              ? &runs.runs[size_t(runs.baseline)] : nullptr;

  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  if (points.empty())
    ImGui::TextWrapped("No run has an energy drift yet: record the N-body scene with Accuracy on, or import a "
                       "sweep made with --drift-steps.");
  else
    ImGui::TextWrapped("Lower is more accurate, further right is faster. Orange: the baseline%s%s.",
                       base && base->m.hasDrift() ? ", " : " (no drift measured)",
                       base && base->m.hasDrift() ? base->name.c_str() : "");
  ImGui::PopStyleColor();

  const float line = ImGui::GetTextLineHeight();
  const std::string missing = speedAccuracyNote(runs);
  const float footer = missing.empty() ? 0.0f : 2.0f * ImGui::GetTextLineHeightWithSpacing();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float width = std::max(ImGui::GetContentRegionAvail().x, 200.0f);
  const float frameHeight = std::max(height - ImGui::GetTextLineHeightWithSpacing() - footer, 6.0f * line);

  ChartAxes axes;
  axes.xUnit = unit;
  axes.yUnit = "|energy drift|";
  double lo = 1.0, hi = 10.0, right = 0.0;
  for (const Point& p : points) right = std::max(right, p.x);
  if (!(right > 0.0)) right = 1.0;
  {
    double smallest = 0.0, largest = 0.0;
    for (const Point& p : points)
      if (p.drift > 0.0) smallest = smallest > 0.0 ? std::min(smallest, p.drift) : p.drift, largest = std::max(largest, p.drift);
    if (largest > 0.0) lo = smallest, hi = largest;
    else if (!points.empty()) lo = 1e-17, hi = 1e-16;  // every drift exactly 0: a decade at double's rounding
  }
  // The plot: the y labels and unit on the left, a line for the x labels under it, the
  // unit's line above it.
  const float plotHeight = frameHeight - 2.0f * line - 10.0f;
  const std::vector<double> decades = decadeTicks(lo, hi, std::max(2, static_cast<int>(plotHeight / (2.5f * line))));
  const double yLo = decades.front(), yHi = decades.back();
  for (double d : decades) axes.y.push_back({d, 0.0f, decadeLabel(d)});
  const float yLabels = std::max(widestLabel(axes.y), ImGui::CalcTextSize(unit.c_str()).x) + 10.0f;
  axes.plot = {origin.x + yLabels, origin.y + line + 6.0f, origin.x + width - 12.0f, origin.y + line + 6.0f + plotHeight};
  auto yOf = [&](double drift) {
    const double f = (std::log10(std::max(drift, yLo)) - std::log10(yLo)) / (std::log10(yHi) - std::log10(yLo));
    return axes.plot.y1 - axes.plot.height() * static_cast<float>(std::clamp(f, 0.0, 1.0));
  };
  for (ChartTick& t : axes.y) t.pixel = yOf(t.value);
  const std::vector<double> xValues =
      niceTicksCovering(points.empty() ? 1.0 : right, std::max(1, static_cast<int>(axes.plot.width() / 70.0f)));
  const double xTop = xValues.back() > 0.0 ? xValues.back() : 1.0;
  axes.x = placeTicks(xValues, xTop, false, axes.plot.x0, axes.plot.x1);
  auto xOf = [&](double x) { return axes.plot.x0 + axes.plot.width() * static_cast<float>(std::clamp(x / xTop, 0.0, 1.0)); };

  bool hovered = false;
  ImDrawList* draw = drawPlotFrame("##speed-accuracy", ImVec2(width, frameHeight), axes, &hovered);
  // The units: the drift's above its labels (drawYAxis), the speed's in the corner under them.

  const ImU32 pointColour = IM_COL32(86, 150, 220, 255), baseColour = IM_COL32(230, 159, 0, 255);
  const ImU32 labelColour = ImGui::GetColorU32(ImGuiCol_Text, 0.9f);
  const float radius = 4.0f;
  std::vector<ScreenRect> taken;  // labels placed so far: one that would overlap is left to the tooltip
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  int nearest = -1;
  float nearestDistance = 10.0f;  // pixels: how close the cursor must be to a point
  // The baseline last, so that its marker is drawn over any other at the same place.
  std::vector<size_t> order(points.size());
  for (size_t k = 0; k < order.size(); ++k) order[k] = k;
  std::stable_partition(order.begin(), order.end(), [&](size_t k) { return points[k].run != runs.baseline; });
  for (size_t k : order) {
    const Point& p = points[k];
    const bool isBase = p.run == runs.baseline;
    const ImVec2 at(xOf(p.x), yOf(p.drift));
    if (isBase) {
      draw->AddCircleFilled(at, radius + 2.0f, baseColour);
      draw->AddCircle(at, radius + 5.0f, baseColour, 0, 1.5f);
      axes.baseline = at.x;
    } else {
      draw->AddCircleFilled(at, radius, pointColour);
    }
    const ScreenRect marker{at.x - radius, at.y - radius, at.x + radius, at.y + radius};
    axes.bars.push_back({p.name, marker});
    // The name right of the point, or left of it where the plot ends.
    const ImVec2 size = ImGui::CalcTextSize(p.name.c_str());
    float x = at.x + radius + 6.0f;
    if (x + size.x > axes.plot.x1) x = at.x - radius - 6.0f - size.x;
    const ScreenRect label{x, at.y - size.y * 0.5f, x + size.x, at.y + size.y * 0.5f};
    const bool free = label.x0 >= axes.plot.x0 &&
                      std::none_of(taken.begin(), taken.end(), [&](const ScreenRect& t) { return t.overlaps(label); });
    if (free) {
      draw->AddText(ImVec2(label.x0, label.y0), isBase ? baseColour : labelColour, p.name.c_str());
      taken.push_back(label);
    }
    const float distance = std::hypot(mouse.x - at.x, mouse.y - at.y);
    if (hovered && distance < nearestDistance) nearestDistance = distance, nearest = static_cast<int>(k);
  }
  if (nearest >= 0) {
    const Point& p = points[size_t(nearest)];
    const RunRecord& r = runs.runs[size_t(p.run)];
    char speed[96];
    std::snprintf(speed, sizeof speed, "%.4g %s", p.x, unit.c_str());
    axes.hover = r.name + (p.run == runs.baseline ? " (the baseline)" : "") + "\n" + speed + "\n" + driftText(r);
    ImGui::SetTooltip("%s", axes.hover.c_str());
  }
  if (!missing.empty()) {
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextDisabled("%s", missing.c_str());
    ImGui::PopTextWrapPos();
  }
  keepDrawnChart(kSpeedAccuracyChartId, std::move(axes));
}

}  // namespace ks
