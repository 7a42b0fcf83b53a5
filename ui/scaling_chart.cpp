#include "ui/scaling_chart.h"

#include <imgui.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <map>

#include "ui/chart_axis.h"
#include "ui/panels.h"

namespace ks {

std::string nameWithoutDeviceCount(const std::string& fullName) {
  // An imported run's name ends in " @host" (the Runs panel adds it): kept after the cut.
  const size_t at = fullName.rfind(" @");
  const std::string host = at == std::string::npos ? std::string() : fullName.substr(at);
  const std::string name = fullName.substr(0, fullName.size() - host.size());
  // " on <digits> device(s)" or " over <digits> MPI rank(s)", at the end.
  for (const auto& [before, after] : {std::pair<std::string, std::string>{" on ", " device"}, {" over ", " MPI rank"}}) {
    for (const std::string& tail : {after, after + "s"}) {
      if (name.size() < tail.size() || name.compare(name.size() - tail.size(), tail.size(), tail) != 0) continue;
      size_t digits = name.size() - tail.size();
      const size_t end = digits;
      while (digits > 0 && std::isdigit(static_cast<unsigned char>(name[digits - 1]))) --digits;
      if (digits == end || digits < before.size() || name.compare(digits - before.size(), before.size(), before) != 0)
        continue;
      return name.substr(0, digits - before.size()) + host;
    }
  }
  return fullName;
}

namespace {

using Parameters = std::vector<std::pair<std::string, std::string>>;

// A run's configuration whatever it ran on: its parameters by name, less a count
// of devices or ranks should a record carry one (the count is m.split.devices),
// and less how many steps were timed: --bench nbody --devices and MPI ranks were
// run at 20 and 10 iterations of one configuration, and are one line.
Parameters configurationOf(const RunRecord& r) {
  Parameters p;
  for (const auto& kv : r.meta.parameters)
    if (kv.first != "devices" && kv.first != "ranks" && kv.first != "iterations") p.push_back(kv);
  std::sort(p.begin(), p.end());
  return p;
}

// "dt 0.02, preset plummer": the parameters of `mine` whose values differ in `other`.
std::string differences(const Parameters& mine, const Parameters& other) {
  std::string out;
  for (const auto& kv : mine) {  // not a structured binding: clang 14 cannot capture one in the lambda
    const auto it = std::find_if(other.begin(), other.end(), [&](const auto& o) { return o.first == kv.first; });
    if (it != other.end() && it->second == kv.second) continue;
    out += (out.empty() ? "" : ", ") + kv.first + " " + (kv.second.empty() ? "(none)" : kv.second);
  }
  return out;
}

}  // namespace

std::vector<ScalingSeries> scalingSeries(const std::vector<RunRecord>& runs) {
  std::map<Parameters, std::map<int, size_t>> groups;  // newest run per device count
  std::vector<Parameters> order;                       // groups as first met
  for (size_t i = 0; i < runs.size(); ++i) {
    const RunRecord& r = runs[i];
    if (r.meta.scene != "nbody" || r.status != "ok" || !(r.m.rate > 0.0) || !std::isfinite(r.m.rate)) continue;
    Parameters key = configurationOf(r);
    if (!groups.count(key)) order.push_back(key);
    groups[key][std::max(r.m.split.devices, 1)] = i;
  }
  std::vector<ScalingSeries> series;
  std::vector<const Parameters*> keys;
  for (const auto& key : order) {
    const std::map<int, size_t>& counts = groups[key];
    if (counts.size() < 2) continue;
    const auto& [fewest, first] = *counts.begin();
    // The name only labels the line: the grouping is by parameters.
    ScalingSeries s{nameWithoutDeviceCount(runs[first].name), runs[first].meta.parameter("bodies"), {}};
    for (const auto& [devices, run] : counts) {
      const double speedUp = runs[run].m.rate / runs[first].m.rate * fewest;
      s.points.push_back({run, devices, speedUp, speedUp / devices});
    }
    series.push_back(std::move(s));
    keys.push_back(&key);
  }
  // Lines whose runs share a name (and body count) say what sets them apart.
  std::vector<std::string> labels(series.size());
  for (size_t a = 0; a < series.size(); ++a) {
    for (size_t b = 0; b < series.size(); ++b) {
      if (a == b || series[a].name != series[b].name || series[a].bodies != series[b].bodies) continue;
      const std::string differ = differences(*keys[a], *keys[b]);
      if (!differ.empty() && labels[a].find(differ) == std::string::npos)
        labels[a] += (labels[a].empty() ? "" : "; ") + differ;
    }
  }
  for (size_t a = 0; a < series.size(); ++a)
    if (!labels[a].empty()) series[a].name += " (" + labels[a] + ")";
  return series;
}

void drawScalingChart(const RunsState& runs, float height) {
  const std::vector<ScalingSeries> series = scalingSeries(runs.runs);
  const float top = ImGui::GetCursorScreenPos().y;
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  if (series.empty())
    ImGui::TextWrapped("No scaling to show: it needs N-body runs of one configuration on two device counts or more. "
                       "Import the file of kernelscope --bench nbody --devices all --scaling --csv runs.csv (or "
                       "mpirun ... --distributed --scaling), or record the N-body scene on 1, 2, ... devices.");
  else
    ImGui::TextWrapped("Speed-up against the fewest devices (strong scaling: the same bodies shared out); the grey "
                       "line is ideal. Each point: devices, parallel efficiency.");
  ImGui::PopStyleColor();
  if (series.empty()) {
    keepDrawnChart(kScalingChartId, ChartAxes{});  // nothing to plot: the words say what it needs
    return;
  }

  const float line = ImGui::GetTextLineHeight();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float width = std::max(ImGui::GetContentRegionAvail().x, 200.0f);
  // The rest of `height` after the caption (it wraps in a narrow panel) and the legend's lines.
  const float legend = static_cast<float>(series.size()) * ImGui::GetTextLineHeightWithSpacing();
  const float frameHeight = std::max(height - (origin.y - top) - legend, 8.0f * line);
  int most = 2;
  double fastest = 2.0;
  for (const ScalingSeries& s : series)
    for (const ScalingPoint& p : s.points) most = std::max(most, p.devices), fastest = std::max(fastest, p.speedUp);

  ChartAxes axes;
  axes.xUnit = "devices";
  axes.yUnit = "speed-up";
  const float plotHeight = frameHeight - 2.0f * line - 10.0f;
  const std::vector<double> yValues = niceTicksCovering(std::max<double>(most, fastest),
                                                        std::max(2, static_cast<int>(plotHeight / (2.0f * line))));
  const double yTop = yValues.back();
  axes.y = placeTicks(yValues, yTop, false, 0.0f, 0.0f);
  const float yLabels = std::max(widestLabel(axes.y), ImGui::CalcTextSize("speed-up").x) + 10.0f;
  axes.plot = {origin.x + yLabels, origin.y + line + 6.0f, origin.x + width - 12.0f, origin.y + line + 6.0f + plotHeight};
  auto yOf = [&](double v) { return axes.plot.y1 - axes.plot.height() * static_cast<float>(std::clamp(v / yTop, 0.0, 1.0)); };
  for (ChartTick& t : axes.y) t.pixel = yOf(t.value);
  // Device counts from 0 to the most, one tick each (every second or more when crowded).
  const int stride = std::max(1, static_cast<int>(std::ceil(most * 40.0f / std::max(axes.plot.width(), 1.0f))));
  std::vector<double> xValues;
  for (int k = 0; k <= most; k += stride) xValues.push_back(k);
  if (xValues.back() < most) xValues.push_back(most);
  axes.x = placeTicks(xValues, most, false, axes.plot.x0, axes.plot.x1);
  auto xOf = [&](double k) { return axes.plot.x0 + axes.plot.width() * static_cast<float>(std::clamp(k / most, 0.0, 1.0)); };

  bool hovered = false;
  ImDrawList* draw = drawPlotFrame("##scaling", ImVec2(width, frameHeight), axes, &hovered);
  // Ideal: speed-up K on K devices, from 1 device to the most (clipped where the axis ends).
  const double idealEnd = std::min<double>(most, yTop);
  draw->AddLine(ImVec2(xOf(1.0), yOf(1.0)), ImVec2(xOf(idealEnd), yOf(idealEnd)), IM_COL32(150, 150, 150, 200), 1.5f);

  static const ImU32 colours[] = {IM_COL32(86, 150, 220, 255), IM_COL32(230, 159, 0, 255),
                                  IM_COL32(0, 158, 115, 255), IM_COL32(204, 121, 167, 255)};
  const ImU32 labelColour = ImGui::GetColorU32(ImGuiCol_Text, 0.9f);
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  const ScalingPoint* nearest = nullptr;
  float nearestDistance = 10.0f;  // pixels
  std::vector<ScreenRect> taken;
  for (size_t si = 0; si < series.size(); ++si) {
    const ScalingSeries& s = series[si];
    const ImU32 colour = colours[si % (sizeof colours / sizeof colours[0])];
    for (size_t k = 0; k < s.points.size(); ++k) {
      const ScalingPoint& p = s.points[k];
      const ImVec2 at(xOf(p.devices), yOf(p.speedUp));
      if (k > 0) draw->AddLine(ImVec2(xOf(s.points[k - 1].devices), yOf(s.points[k - 1].speedUp)), at, colour, 2.0f);
      draw->AddCircleFilled(at, 4.0f, colour);
      char label[48];
      std::snprintf(label, sizeof label, "%d: %.0f %%", p.devices, p.efficiency * 100.0);
      axes.bars.push_back({label, {at.x - 4.0f, at.y - 4.0f, at.x + 4.0f, at.y + 4.0f}});
      const ImVec2 size = ImGui::CalcTextSize(label);
      float x = at.x - size.x * 0.5f;
      x = std::clamp(x, axes.plot.x0 + 2.0f, axes.plot.x1 - size.x - 2.0f);
      const ScreenRect box{x, at.y - size.y - 6.0f, x + size.x, at.y - 6.0f};
      if (box.y0 >= axes.plot.y0 &&
          std::none_of(taken.begin(), taken.end(), [&](const ScreenRect& t) { return t.overlaps(box); })) {
        draw->AddText(ImVec2(box.x0, box.y0), labelColour, label);
        taken.push_back(box);
      }
      const float distance = std::hypot(mouse.x - at.x, mouse.y - at.y);
      if (hovered && distance < nearestDistance) nearestDistance = distance, nearest = &p;
    }
  }
  // Which line is which: under the plot, in the lines' colours.
  for (size_t si = 0; si < series.size(); ++si) {
    const ScalingSeries& s = series[si];
    const std::string legend = s.name + (s.bodies.empty() ? "" : ", " + s.bodies + " bodies");
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(colours[si % (sizeof colours / sizeof colours[0])]), "%s",
                       legend.c_str());
  }
  if (nearest) {
    char text[160];
    std::snprintf(text, sizeof text, "\n%d %s: speed-up %.2fx, parallel efficiency %.1f %%", nearest->devices,
                  nearest->devices == 1 ? "device" : "devices", nearest->speedUp, nearest->efficiency * 100.0);
    axes.hover = runs.runs[nearest->run].name + text;
    ImGui::SetTooltip("%s", axes.hover.c_str());
  }
  keepDrawnChart(kScalingChartId, std::move(axes));
}

}  // namespace ks
