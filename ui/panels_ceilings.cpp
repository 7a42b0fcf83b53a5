// The Device info panel's measured ceilings: each figure with its unit (how it
// was measured in a tooltip), the measurement's progress, "Measure again", and
// the vendor table's peak FP32 as a cross-check of the measured rate.
#include <imgui.h>

#include <cstdio>
#include <string>

#include "app/app_state.h"
#include "ui/panels.h"

namespace ks {
namespace {

void tooltip(const std::string& text) {
  if (!text.empty() && ImGui::IsItemHovered()) {
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 32.0f);
    ImGui::TextUnformatted(text.c_str());
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
}

std::string valueText(const CeilingFigure& f, const CeilingName& name) {
  if (!f.measured()) return "-";
  char text[64];
  std::snprintf(text, sizeof text, f.value >= 100.0 ? "%.0f %s" : "%.2f %s", f.value, name.unit);
  return text;
}

}  // namespace

void drawMeasuredCeilings(AppState& state) {
  DeviceCeilings& c = state.ceilings;
  if (!ImGui::CollapsingHeader("Measured ceilings", ImGuiTreeNodeFlags_DefaultOpen)) return;
  ImGui::BeginDisabled(c.measuring);
  if (ImGui::Button("Measure again")) state.commands.push(MeasureCeilings{});
  ImGui::EndDisabled();
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
    ImGui::SetTooltip("Runs the micro-benchmarks again, one at a time beside the frames (the N-body steps wait for each), and "
                      "replaces the cached figures");
  ImGui::SameLine();
  ImGui::PushTextWrapPos(0.0f);
  if (c.measuring) ImGui::TextDisabled("measuring: %s", c.progress.c_str());
  else ImGui::TextDisabled("%s", c.source.empty() ? "not measured" : c.source.c_str());
  ImGui::PopTextWrapPos();
  const bool sideBySide = ImGui::GetContentRegionAvail().x >= 24.0f * ImGui::GetFontSize();
  if (ImGui::BeginTable(sideBySide ? "ceilings" : "ceilings stacked", sideBySide ? 2 : 1, ImGuiTableFlags_RowBg)) {
    ImGui::TableSetupColumn("what", ImGuiTableColumnFlags_WidthStretch);
    if (sideBySide) ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthFixed);
    for (size_t i = 0; i < kCeilingCount; ++i) {
      const CeilingName& name = ceilingName(ceilingAt(i));
      const CeilingFigure& f = c.measured.figures[i];
      // The tooltip says how it was measured, or why there is no figure.
      const std::string how = f.measured() ? "How: " + f.method : (f.error.empty() ? std::string() : f.error);
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      ImGui::PushTextWrapPos(0.0f);  // a narrow panel wraps the longer names
      ImGui::TextUnformatted(name.label);
      ImGui::PopTextWrapPos();
      tooltip(how);
      if (sideBySide) ImGui::TableSetColumnIndex(1);
      else ImGui::Indent();
      const std::string value = valueText(f, name);
      if (f.measured()) ImGui::TextUnformatted(value.c_str());
      else ImGui::TextDisabled("%s", f.error.rfind("not available", 0) == 0 ? "not available" : "-");
      tooltip(how);
      if (!sideBySide) ImGui::Unindent();
    }
    ImGui::EndTable();
  }
  // The vendor table only cross-checks the measured FP32 rate.
  ImGui::PushTextWrapPos(0.0f);
  if (c.peak) {
    const double measured = c.measured.value(Ceiling::Fp32Mad);
    if (measured > 0.0)
      ImGui::TextDisabled("vendor table: peak FP32 %.0f GFLOP/s; measured %.0f%% of it", c.peak->gflops,
                          100.0 * measured / c.peak->gflops);
    else
      ImGui::TextDisabled("vendor table: peak FP32 %.0f GFLOP/s", c.peak->gflops);
    tooltip(c.peak->formula);
  } else {
    ImGui::TextDisabled("vendor table: no peak FP32 for this device");
    tooltip(c.peakUnknownWhy);
  }
  ImGui::PopTextWrapPos();
}

}  // namespace ks
