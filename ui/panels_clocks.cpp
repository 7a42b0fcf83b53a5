// The Profiler's "Clocks and power" section: SM and memory clocks, board power,
// temperature and throttle reasons as NVML reports them (compute/gpu_monitor.h
// samples them off the frame loop), with small graphs of the SM clock and the
// power over value and time axes (ui/telemetry_chart.h); one line why where NVML
// has nothing to say.
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "app/app_state.h"
#include "ui/panels.h"
#include "ui/telemetry_chart.h"

namespace ks {

void drawClocksSection(AppState& state) {
  if (!ImGui::CollapsingHeader("Clocks and power", ImGuiTreeNodeFlags_DefaultOpen)) return;
  const GpuTelemetryState& t = state.telemetry;
  const std::vector<std::string> lines = telemetryLines(t);
  if (!t.available || t.history.empty()) {
    hintText("%s", lines.front().c_str());
    return;
  }
  const GpuSample& newest = t.history.back();
  const bool throttled = newest.throttleReasons && clockThrottled(*newest.throttleReasons);
  ImGui::TextUnformatted(lines[0].c_str());
  ImGui::TextUnformatted(lines[1].c_str());
  if (throttled) ImGui::TextColored(ImVec4(0.95f, 0.6f, 0.2f, 1.0f), "%s", lines[2].c_str());
  else ImGui::TextUnformatted(lines[2].c_str());
  if (ImGui::IsItemHovered())
    tooltipText("NVML's clocks throttle reasons. GPU idle and the applications clocks setting are not counted as "
                "throttling; a run recorded while any other reason held the clock is flagged in the Runs panel.");
  hintText("%s", lines[3].c_str());
  // Side by side where the panel is wide enough, else one under the other.
  const float avail = ImGui::GetContentRegionAvail().x;
  const bool sideBySide = avail >= 30.0f * ImGui::GetFontSize();
  const float width = sideBySide ? (avail - ImGui::GetStyle().ItemSpacing.x) * 0.5f : avail;
  drawTelemetryChart(kSmClockChartId, t.history, &GpuSample::smClockMHz, "SM clock", "MHz", width);
  if (sideBySide) ImGui::SameLine();
  drawTelemetryChart(kPowerChartId, t.history, &GpuSample::powerW, "board power", "W", width);
}

}  // namespace ks

namespace ks {

namespace {

std::string energyText(const RunEnergy& e) {
  if (!e.measured()) return {};
  char text[128];
  std::snprintf(text, sizeof text, "%.1f W, %.4g %s, SM clock %.0f MHz (%s)", e.watts, e.perUnit, e.unit.c_str(),
                e.smClockMHz, e.source.c_str());
  if (e.unit.empty()) std::snprintf(text, sizeof text, "%.1f W, SM clock %.0f MHz (%s)", e.watts, e.smClockMHz, e.source.c_str());
  return text;
}

}  // namespace

void drawRunThrottleMark(const RunRecord& r) {
  const RunEnergy& e = r.m.energy;
  if (!e.throttled) return;
  ImGui::TextColored(ImVec4(0.95f, 0.6f, 0.2f, 1.0f), "throttled");
  if (ImGui::IsItemHovered()) {
    const std::string tip = "The clock throttled during this recording (" + e.throttleReasons +
                            "): its speed is not what the device gives at full clock.";
    tooltipText(tip.c_str());
  }
  ImGui::SameLine();
}

void drawRunEnergyLine(const RunRecord& r) {
  const std::string text = energyText(r.m.energy);
  if (text.empty()) return;
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextDisabled("%s", text.c_str());
  ImGui::PopTextWrapPos();
  if (ImGui::IsItemHovered())
    tooltipText("The board's power over the recording (NVML), and its energy per unit of work: per G interactions "
                "(N-body) or per GB moved (image pipeline). The board's whole draw, drawing included.");
}

}  // namespace ks
