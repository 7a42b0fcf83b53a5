// The Sweep panel: choose parameter values (check boxes over the variant tables),
// start, watch progress with an ETA, cancel, apply the best configuration (it
// becomes this device's default in the tuning cache).
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "app/app_state.h"
#include "app/sweep_runner.h"
#include "ui/layout.h"
#include "ui/panels.h"
#include "ui/run_labels.h"
#include "compute/plain_config_words.h"
#include "compute/histogram_sweep.h"
#include "compute/kernel_op.h"
#include "compute/nbody_step_budget.h"
#include "compute/rotate_sweep_plan.h"
#include "lab/sweep_runs.h"

namespace ks {
namespace {

template <typename T>
void toggle(std::vector<T>& chosen, const T& value, bool on) {
  const auto it = std::find(chosen.begin(), chosen.end(), value);
  if (on && it == chosen.end()) chosen.push_back(value);
  if (!on && it != chosen.end()) chosen.erase(it);
}

// A label and its check boxes, on as many lines as the panel's width needs (on one
// line the transpose variants ran past its right edge); an empty selection means
// "every value" where `emptyMeansAll`, and says so.
void choices(const char* label, const std::vector<std::string>& values, const std::vector<bool>& on,
             const std::function<void(size_t, bool)>& set, bool emptyMeansAll) {
  ImGui::PushID(label);
  ImGui::TextUnformatted(label);
  bool any = false;
  for (size_t i = 0; i < values.size(); ++i) {
    sameLineIfCheckboxFits(values[i].c_str());
    bool checked = on[i];
    if (ImGui::Checkbox(values[i].c_str(), &checked)) set(i, checked);
    any = any || on[i];
  }
  if (emptyMeansAll && !any) {
    sameLineIfFits(ImGui::CalcTextSize("(all)").x);
    ImGui::TextDisabled("(all)");
  }
  ImGui::PopID();
}

void intChoices(const char* label, std::vector<int>& chosen, const std::vector<int>& values, bool emptyMeansAll) {
  std::vector<std::string> texts;
  std::vector<bool> on;
  for (int v : values) {
    texts.push_back(std::to_string(v));
    on.push_back(std::find(chosen.begin(), chosen.end(), v) != chosen.end());
  }
  choices(label, texts, on, [&](size_t i, bool checked) { toggle(chosen, values[i], checked); }, emptyMeansAll);
}

// Variants by name: each box reads its variant in words, and `chosen` keeps the ids.
void nameChoices(const char* label, std::vector<std::string>& chosen, const std::vector<std::string>& names) {
  std::vector<bool> on;
  std::vector<std::string> shown;
  for (const auto& n : names) {
    on.push_back(std::find(chosen.begin(), chosen.end(), n) != chosen.end());
    shown.push_back(plainVariantName(n) + "##" + n);
  }
  choices(label, shown, on, [&](size_t i, bool checked) { toggle(chosen, names[i], checked); }, false);
}

const ImVec4 kWarning(0.95f, 0.65f, 0.25f, 1.0f);

// What one launch will cost at the N the sweep runs, from the scene's own steps
// (a sweep launch is one step): above ~100 ms the window pauses for each launch,
// so say so and offer the N that keeps it smooth. Always two lines, so that the
// buttons below stay put while the estimate moves across the limit.
void launchEstimate(AppState& state) {
  const NBodyReadings& nb = state.nbody.readings();
  if (nb.kernelMs <= 0.0 || nb.runningBodies == 0 || state.scene != SceneKind::NBody) return;
  const size_t bodies = sweptBodies(state);
  const double ms = predictedNBodyStepMs(nb.runningBodies, nb.kernelMs, bodies);
  // A CPU device's launches run beside the window (app/sweep_trial.h): long ones cost no frames.
  if (state.activeDevice && *state.activeDevice < state.devices.size() &&
      sweepLaunchesOffTheFrame(state.devices[*state.activeDevice])) {
    hintText("one launch: about %.1f ms at %zu bodies here", ms, bodies);
    hintText("launches run beside the window; the simulation waits until the sweep ends");
    return;
  }
  if (ms <= kSmoothLaunchMs) {
    hintText("one launch: about %.1f ms at %zu bodies here", ms, bodies);
    hintText("under %.0f ms: the window keeps drawing during the sweep", kSmoothLaunchMs);
    return;
  }
  ImGui::PushStyleColor(ImGuiCol_Text, kWarning);
  ImGui::TextWrapped("one launch: about %.0f ms at %zu bodies: the window pauses for each", ms, bodies);
  ImGui::PopStyleColor();
  const size_t smooth = bodiesWithinStepMs(nb.runningBodies, nb.kernelMs, kSmoothLaunchMs, bodies);
  char use[48];
  std::snprintf(use, sizeof use, "use %zu bodies", smooth);
  if (ImGui::SmallButton(use)) state.runs.sweep.bodies = static_cast<int>(smooth);
  ImGui::SameLine();
  ImGui::TextDisabled("(under %.0f ms a launch)", kSmoothLaunchMs);
}

const char* sweepKindName(SweepTarget t) {
  switch (t) {
    case SweepTarget::NBody: return "N-body";
    case SweepTarget::Transpose: return "transpose";
    case SweepTarget::Interop: return "interop paths";
    case SweepTarget::Rotate: return "rotate";
    case SweepTarget::Histogram: return "histogram";
  }
  return "";
}

// A measured row: its configuration, median and rate. `label`: what tells it apart from
// the sweep's other configurations, in short words on at most two lines (the whole
// words wrapped over five lines a row at 1024 wide: two rows were in view); the whole
// words in the tooltip.
void measuredRow(const RunRecord& r, const std::function<std::string()>& label) {
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  ImGui::TextUnformatted(label().c_str());
  if (ImGui::IsItemHovered()) tooltipText(plainConfigurationWords(r.name).c_str());
  ImGui::TableNextColumn();
  ImGui::Text("%.4f", r.m.kernelMs.median);
  ImGui::TableNextColumn();
  // Three decimals under 10 (a CPU's histogram: 0.035 GB/s read "0.0 GB/s").
  if (r.m.rate < 10.0) ImGui::Text("%.3f %s", r.m.rate, r.m.rateUnit.c_str());
  else ImGui::Text("%.1f %s", r.m.rate, r.m.rateUnit.c_str());
}

// A refused row: the configuration and why; both are cut at the columns' edges, so
// the whole of them is in the tooltip of either.
void refusedRow(const RunRecord& r) {
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  const std::string configuration = plainConfigurationWords(r.name);
  ImGui::TextDisabled("%s", configuration.c_str());
  const bool hovered = ImGui::IsItemHovered();
  ImGui::TableNextColumn();
  ImGui::TableNextColumn();
  ImGui::TextDisabled("%s", r.status.c_str());
  if (hovered || ImGui::IsItemHovered()) tooltipText((configuration + "\n" + r.status).c_str());
}

std::string formatSeconds(double s) {
  char text[32];
  if (s >= 60) std::snprintf(text, sizeof text, "%dm%02ds", static_cast<int>(s) / 60, static_cast<int>(s) % 60);
  else std::snprintf(text, sizeof text, "%.1fs", s);
  return text;
}

// The rotate sweep's ranges, from the rotate descriptor; the shapes are those of 256 work-items.
void drawRotateSweepChoices(SweepUiState& ui) {
  const KernelOp& op = rotateOp();
  nameChoices("variants", ui.rotateVariants, op.variantNames());
  intChoices("pixels/item", ui.rotatePixelsPerItem, op.parameter("pixels_per_item").values, true);
  intChoices("rows/item (image variants)", ui.rotateRowsPerItem, op.parameter("rows_per_item").values, true);
  hintText("work-groups: every shape of %d work-items (fewer where the device takes fewer); the image turned by %g "
           "degrees",
           kRotateSweptWorkGroupItems, kRotateSweepDegrees);
}

// The histogram sweep's ranges: one row of check boxes per parameter of the histogram
// descriptor, its values the descriptor's; the variants that use it in brackets
// where not all do.
void drawHistogramSweepChoices(SweepUiState& ui) {
  const KernelOp& op = histogramOp();
  nameChoices("variants", ui.histogram.variants, op.variantNames());
  for (const auto& p : histogramConfigParameters()) {
    std::string label = p.name;
    std::replace(label.begin(), label.end(), '_', ' ');
    std::string users;
    size_t userCount = 0;
    for (const KernelOpVariant& v : op.variants)
      if (v.parameter(p.name)) users += (userCount++ ? ", " : "") + plainVariantName(op.name, v.name);
    if (userCount < op.variants.size()) label += " (" + users + ")";
    intChoices(label.c_str(), ui.histogram.values[p.name], op.parameter(p.name).values, true);
  }
}

}  // namespace

SweepProgress sweepProgressToShow(const SweepUiState& ui) {
  SweepProgress p;
  // The counts are of the last sweep: under another kind they would read as its own.
  if (!ui.active && ui.resultsTarget != ui.target) {
    p.overlay = std::string("no ") + sweepKindName(ui.target) + " sweep yet";
    return p;
  }
  p.fraction = ui.total ? static_cast<float>(ui.done) / static_cast<float>(ui.total) : 0.0f;
  char overlay[96];
  std::snprintf(overlay, sizeof overlay, "%zu / %zu  (%zu refused)  elapsed %s  ETA %s", ui.done, ui.total, ui.refused,
                formatSeconds(ui.elapsedSeconds).c_str(), ui.active ? formatSeconds(ui.etaSeconds).c_str() : "-");
  p.overlay = overlay;
  return p;
}

SweepRows sweepRowsToShow(const SweepUiState& sweep) {
  SweepRows rows;
  if (sweep.resultsTarget != sweep.target && !sweep.active) return rows;  // of the other kind: stale here
  for (size_t i = 0; i < sweep.results.size(); ++i) (sweep.results[i].ok() ? rows.measured : rows.refused).push_back(i);
  return rows;
}

void drawSweepPanel(AppState& state) {
  RunsState& runs = state.runs;
  SweepUiState& ui = runs.sweep;
  if (!runs.showSweep) return;
  placePanel(state, "Sweep");  // in the strip along the bottom, beside the Runs panel
  if (!ImGui::Begin("Sweep", &runs.showSweep)) {
    ImGui::End();
    return;
  }
  // The settings fold away while a sweep runs (they cannot change then), so that its
  // results are in view in a short panel (the strip at 1024x700); a click opens them.
  if (ui.active) ImGui::SetNextItemOpen(false, ImGuiCond_Always);
  if (ImGui::CollapsingHeader("settings", ImGuiTreeNodeFlags_DefaultOpen)) {
    ImGui::BeginDisabled(ui.active);
    int target = static_cast<int>(ui.target);
    ImGui::RadioButton("N-body", &target, 0);
    sameLineIfCheckboxFits("Transpose");
    ImGui::RadioButton("Transpose", &target, 1);
    sameLineIfCheckboxFits("Rotate");
    ImGui::RadioButton("Rotate", &target, 3);
    sameLineIfCheckboxFits("Histogram");
    ImGui::RadioButton("Histogram", &target, 4);
    sameLineIfCheckboxFits("Interop paths (running scene)");
    ImGui::RadioButton("Interop paths (running scene)", &target, 2);
    ui.target = static_cast<SweepTarget>(target);
    if (ui.target == SweepTarget::Interop) {
      ImGui::TextWrapped("Each interop path the device offers, on the scene as it runs now: switch, warm-up frames, "
                         "then the frames below recorded; the rate is FPS from the median frame.");
      ImGui::SetNextItemWidth(150);
      ImGui::InputInt("warm-up frames", &ui.warmupFrames);
      ui.warmupFrames = std::clamp(ui.warmupFrames, 1, 10000);
    } else if (ui.target == SweepTarget::NBody) {
      const KernelOp& op = nbodyOp();
      nameChoices("variants", ui.nbodyVariants, op.variantNames());
      intChoices("work-group", ui.workGroups, nbodySweptWorkGroups(), true);
      intChoices("unroll", ui.unrolls, op.parameter("unroll").values, true);
      intChoices("bodies/item", ui.bodiesPerItem, op.parameter("bodies_per_item").values, true);
      intChoices("split", ui.splits, op.parameter("split").values, true);
      ImGui::SetNextItemWidth(150);
      // The scene's N until the user types another: a winner is tuned for the N it ran at.
      int bodies = static_cast<int>(sweptBodies(state));
      if (ImGui::InputInt("bodies", &bodies, 1024, 16384)) ui.bodies = std::clamp(bodies, 1, 1 << 24);
      if (ui.bodies > 0) {
        ImGui::SameLine();
        if (ImGui::SmallButton("the scene's")) ui.bodies = 0;
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("sweep at as many bodies as the N-body scene runs");
      }
      launchEstimate(state);
      hintText("precision and build flags: as the N-body scene runs now");
    } else {
      if (ui.target == SweepTarget::Rotate) {
        drawRotateSweepChoices(ui);
      } else if (ui.target == SweepTarget::Histogram) {
        drawHistogramSweepChoices(ui);
      } else {
        const KernelOp& op = transposeOp();
        nameChoices("variants", ui.transposeVariants, op.variantNames());
        intChoices("tile", ui.tiles, op.parameter("tile").values, true);
        intChoices("rows/item (tiled)", ui.rowsPerItem, op.parameter("rows_per_item").values, true);
        intChoices("work-group (4x4)", ui.tileWorkGroups, op.parameter("work_group").values, true);
      }
      ImGui::SetNextItemWidth(150);
      ImGui::InputInt("image size", &ui.imageSize, 256, 1024);
      ui.imageSize = std::clamp(ui.imageSize, 16, 16384);
      int rgba = ui.channels == 4 ? 1 : 0;
      sameLineIfCheckboxFits("gray");
      ImGui::RadioButton("gray", &rgba, 0);
      ImGui::SameLine();
      ImGui::RadioButton("RGBA", &rgba, 1);
      ui.channels = rgba ? 4 : 1;
    }
    ImGui::SetNextItemWidth(150);
    ImGui::InputInt(ui.target == SweepTarget::Interop ? "frames recorded" : "repetitions (median kept)",
                    &ui.repetitions);
    ui.repetitions = std::clamp(ui.repetitions, 1, 10000);
    ImGui::EndDisabled();
  }

  if (!ui.active) {
    if (ImGui::Button("Start sweep")) state.commands.push(StartSweep{});
    ImGui::SameLine();
    // The best of the last sweep, only while its kind is chosen (it is of that kind).
    ImGui::BeginDisabled(bestRunIndex(ui.results) < 0 || ui.resultsTarget != ui.target);
    if (ImGui::Button("Apply best")) state.commands.push(ApplySweepBest{});
    ImGui::EndDisabled();
  } else if (ImGui::Button("Cancel")) {
    state.commands.push(CancelSweep{});
  }
  ImGui::SameLine();
  const SweepProgress progress = sweepProgressToShow(ui);
  ImGui::ProgressBar(progress.fraction, ImVec2(-1, 0), progress.overlay.c_str());
  if (!ui.status.empty() && (ui.active || ui.resultsTarget == ui.target)) ImGui::TextWrapped("%s", ui.status.c_str());
  if (ui.active && ui.holdsDevice) {
    const char* waits = state.scene == SceneKind::NBody ? "; the simulation waits until the sweep ends" : "";
    if (ui.launchMs > 0.0)
      ImGui::TextDisabled("launches of up to %.1f ms run beside the window%s", ui.launchMs, waits);
    else  // none has finished yet
      ImGui::TextDisabled("launches run beside the window%s", waits);
  }
  else if (ui.active && ui.launchMs > kSmoothLaunchMs)
    ImGui::TextColored(kWarning, "a launch takes %.0f ms here: the window pauses for each", ui.launchMs);
  else if (ui.active && ui.launchMs > 0.0)
    ImGui::TextDisabled("launches of %.1f ms, queued about %.0f ms at a time so that the window keeps drawing",
                        ui.launchMs, kSweepBatchMs);
  if (!ui.message.empty()) ImGui::TextWrapped("%s", ui.message.c_str());
  const SweepRows rows = sweepRowsToShow(ui);
  if (!ui.results.empty() && ui.resultsTarget != ui.target && !ui.active)
    hintText("The last sweep was of %s: its results show when %s is chosen above.", sweepKindName(ui.resultsTarget),
             sweepKindName(ui.resultsTarget));
  // What is left of the panel, and never less than a header and four rows: a table
  // that scrolls needs a height, and with none left it had none (the panel scrolls instead).
  const float row = ImGui::GetTextLineHeight() + 2.0f * ImGui::GetStyle().CellPadding.y;
  const float tableHeight = std::max(ImGui::GetContentRegionAvail().y, 5.0f * row + 2.0f);
  if (ImGui::BeginTable("sweep results", 3, ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY | ImGuiTableFlags_Borders,
                        ImVec2(0.0f, tableHeight))) {
    ImGui::TableSetupScrollFreeze(0, 1);
    // The configuration is the longest text of a measured row: the widest column.
    ImGui::TableSetupColumn("configuration", ImGuiTableColumnFlags_WidthStretch, 1.6f);
    ImGui::TableSetupColumn("median ms", ImGuiTableColumnFlags_WidthFixed);
    ImGui::TableSetupColumn("rate / status", ImGuiTableColumnFlags_WidthStretch, 1.0f);
    ImGui::TableHeadersRow();
    // The results first; the refused after them, in a section shut while anything ran
    // (a sweep refuses many combinations, and they pushed the results out of view).
    // As many lines a row as the table's height gives every measured row, two at least
    // (five, wrapped whole, left two rows in view at 1024x700), six at most.
    const float lines = (tableHeight - row) / std::max<float>(float(rows.measured.size()), 1.0f) /
                        (ImGui::GetTextLineHeight() + 2.0f * ImGui::GetStyle().CellPadding.y);
    const int labelLines = std::clamp(static_cast<int>(lines), 2, 6);
    std::vector<std::string> names, labels;
    for (size_t i : rows.measured) names.push_back(ui.results[i].name);
    for (size_t n = 0; n < rows.measured.size(); ++n)
      measuredRow(ui.results[rows.measured[n]], [&] {
        if (labels.empty())  // in the column's width, known in its first cell
          labels = runLabels(names, std::max(ImGui::GetContentRegionAvail().x, 40.0f), labelLines);
        return labels[n];
      });
    if (!rows.refused.empty()) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      char label[64];
      std::snprintf(label, sizeof label, "%zu refused###refused", rows.refused.size());
      // Shut while a sweep runs (its refusals come first) and after one that measured
      // something; open when nothing ran, as then they are all there is to read.
      if (rows.measured.empty() && !ui.active) ImGui::SetNextItemOpen(true, ImGuiCond_Always);
      else ImGui::SetNextItemOpen(false, ImGuiCond_Appearing);
      const bool open = ImGui::TreeNodeEx(label, ImGuiTreeNodeFlags_SpanFullWidth | ImGuiTreeNodeFlags_NoTreePushOnOpen);
      if (ImGui::IsItemHovered()) tooltipText("Combinations the device cannot run, each with the reason (hover it).");
      if (open)
        for (size_t i : rows.refused) refusedRow(ui.results[i]);
    }
    ImGui::EndTable();
  }
  ImGui::End();
}

}  // namespace ks
