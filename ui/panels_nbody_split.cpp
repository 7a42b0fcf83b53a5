#include "ui/panels_nbody_split.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>

#include "app/app_state.h"
#include "app/nbody_split_figures.h"
#include "ui/panels.h"

namespace ks {

std::string nbodySplitJoinProblem(const AppState& state, size_t index, size_t display) {
  const DeviceDescriptor& d = state.devices[index];
  if (!d.available) return "not available (device or compiler missing)";
  if (d.platformIndex != state.devices[display].platformIndex)
    return "another platform: the bodies can only be split over devices of " + state.devices[display].platformName +
           ", the platform of the device that draws (one OpenCL context cannot span platforms)";
  return {};
}

std::vector<size_t> nbodySplitTicked(const AppState& state, size_t display) {
  const std::optional<std::vector<size_t>>& requested = state.nbody.choices.split.requested;
  const NBodySplitReadings& split = state.nbody.readings().split;
  if (requested) return requested->empty() ? std::vector<size_t>{display} : *requested;
  if (!split.preparing.empty()) return split.preparing;  // ticked as asked while it gets ready
  if (split.active()) return split.running;
  return {display};
}

void drawNBodySplitChoice(AppState& state) {
  if (!state.activeDevice || *state.activeDevice >= state.devices.size()) return;
  const size_t display = *state.activeDevice;
  NBodySplitChoices& asked = state.nbody.choices.split;
  const NBodySplitReadings& split = state.nbody.readings().split;
  ImGui::Spacing();
  ImGui::Separator();
  ImGui::TextColored(ImVec4(0.6f, 0.8f, 1.0f, 1.0f), "Devices for N-body");
  // One line, the rest on hover: the checkboxes stay in view in a short panel.
  // On the heading's line where it fits (at 1024x700 it was cut there), in view however
  // short the panel: the split's devices build their kernel (a second or two) while the
  // bodies go on as they ran.
  char note[64];
  if (!split.preparing.empty())
    std::snprintf(note, sizeof note, "(preparing %zu devices...)", split.preparing.size());
  else
    std::snprintf(note, sizeof note, "(device %zu draws)", display);
  sameLineIfFits(ImGui::CalcTextSize(note).x);
  if (!split.preparing.empty())
    ImGui::TextColored(ImVec4(1, 0.8f, 0.3f, 1), "%s", note);
  else
    ImGui::TextDisabled("%s", note);
  if (ImGui::IsItemHovered())
    tooltipText(("Tick the devices the N-body step is split over: the bodies are shared out by each device's "
                 "measured speed, and device " + std::to_string(display) + " draws them all.").c_str());
  const std::vector<size_t> ticked = nbodySplitTicked(state, display);
  std::vector<size_t> eligible;
  for (size_t i = 0; i < state.devices.size(); ++i)
    if (nbodySplitJoinProblem(state, i, display).empty()) eligible.push_back(i);
  bool all = std::all_of(eligible.begin(), eligible.end(),
                         [&](size_t i) { return std::find(ticked.begin(), ticked.end(), i) != ticked.end(); });
  ImGui::BeginDisabled(eligible.size() < 2);
  if (ImGui::Checkbox("all##nbody split", &all)) asked.requested = all ? eligible : std::vector<size_t>{display};
  ImGui::EndDisabled();
  for (size_t i = 0; i < state.devices.size(); ++i) {
    const std::string problem = nbodySplitJoinProblem(state, i, display);
    bool on = problem.empty() && std::find(ticked.begin(), ticked.end(), i) != ticked.end();
    // "(draws)" before the name; the name wraps beside its box (on one line a narrow
    // panel cut it, and two devices of one processor read alike), and a click on it ticks.
    std::string label = std::to_string(i) + (i == display ? " (draws): " : ": ") + state.devices[i].name;
    if (!problem.empty()) label += " (cannot join)";
    ImGui::BeginDisabled(!problem.empty());
    bool changed = ImGui::Checkbox(("##nbody split " + std::to_string(i)).c_str(), &on);
    ImGui::SameLine(0.0f, ImGui::GetStyle().ItemInnerSpacing.x);
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextUnformatted(label.c_str());
    ImGui::PopTextWrapPos();
    if (problem.empty() && ImGui::IsItemClicked()) on = !on, changed = true;
    ImGui::EndDisabled();
    if (changed) {
      std::vector<size_t> next;
      for (size_t j : eligible)
        if (j == i ? on : std::find(ticked.begin(), ticked.end(), j) != ticked.end()) next.push_back(j);
      asked.requested = next.empty() ? std::vector<size_t>{display} : next;
    }
    if (!problem.empty() && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) tooltipText(problem.c_str());
  }
  if (!split.message.empty()) ImGui::TextWrapped("%s", split.message.c_str());
}

void drawNBodySplitProfile(const AppState& state) {
  const NBodySplitReadings& split = state.nbody.readings().split;
  if (state.scene != SceneKind::NBody || !split.active()) return;
  if (!ImGui::CollapsingHeader("N-body split over devices", ImGuiTreeNodeFlags_DefaultOpen)) return;
  const RunSplit figures = nbodySplitFigures({split.recent.begin(), split.recent.end()});
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingFixedFit;
  const std::vector<double> other = nbodySplitOtherMedians({split.recent.begin(), split.recent.end()});
  if (ImGui::BeginTable("nbody split", 5, flags)) {
    for (const char* h : {"device", "bodies", "kernel ms (newest)", "kernel ms (median)", "busy before ms (median)"})
      ImGui::TableSetupColumn(h);
    ImGui::TableHeadersRow();
    for (size_t d = 0; d < split.running.size(); ++d) {
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      const size_t index = split.running[d];
      ImGui::Text("%zu: %s", index, index < state.devices.size() ? state.devices[index].name.c_str() : "?");
      ImGui::TableSetColumnIndex(1);
      if (d < split.sliceBodies.size()) ImGui::Text("%zu", split.sliceBodies[d]);
      ImGui::TableSetColumnIndex(2);
      if (d < split.deviceKernelMs.size()) ImGui::Text("%.3f", split.deviceKernelMs[d]);
      ImGui::TableSetColumnIndex(3);
      if (d < figures.deviceKernelMs.size()) ImGui::Text("%.3f", figures.deviceKernelMs[d]);
      ImGui::TableSetColumnIndex(4);
      if (d < other.size()) ImGui::Text("%.3f", other[d]);
    }
    ImGui::EndTable();
  }
  ImGui::Text("exchange: %.3f ms per step (median %.3f); whole step %.3f ms", split.exchangeMs, figures.exchangeMs,
              split.stepMs);
  ImGui::Text("load balance: %.1f %% (median %.1f %%); slices re-sized %u times", split.loadBalance * 100.0,
              figures.loadBalance * 100.0, split.rebalances);
  hintText("Kernel times from each device's OpenCL events. Busy before: from the step's start until the device "
           "began its kernel, as it finished other work first (on the device that draws, mostly the drawing of the "
           "bodies). The exchange is the rest of the step: the new positions going through host memory to every "
           "other device. Load balance: the mean of kernel plus busy before over the slowest (100 %%: all finish "
           "together); the bodies are shared out to even it. Medians over the last %zu frames.",
           split.recent.size());
}

}  // namespace ks
