// The Runs panel: record the running scene, compare runs in a sortable table and
// a bar chart against a chosen baseline, export CSV/JSON, import JSON from
// another machine.
#include <imgui.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <numeric>
#include <string>
#include <vector>

#include "app/app_state.h"
#include "ui/layout.h"
#include "ui/panels.h"

namespace ks {
namespace {

// The value a chart or speed-up compares: higher is better for rate and FPS,
// lower for kernel time (speed-up inverts it).
double metricValue(const RunRecord& r, int metric) {
  switch (metric) {
    case 1: return r.m.kernelMs.median;
    case 2: return r.m.fps;
    default: return r.m.rate;
  }
}

// 0 when the two cannot be compared (no value, or rates in different units).
double speedUp(const RunRecord& r, const RunRecord& base, int metric) {
  if (metric == 0 && r.m.rateUnit != base.m.rateUnit) return 0.0;
  const double v = metricValue(r, metric), b = metricValue(base, metric);
  if (v <= 0 || b <= 0) return 0.0;
  return metric == 1 ? b / v : v / b;
}

}  // namespace

// "bodies=4096 preset=disk": the parameters of a run that its name does not show (a
// value found in the name as a word is shown there already), on one line; the long
// ones (build options) are left to the tooltip.
std::string configurationText(const RunRecord& r) {
  auto inName = [&](const std::string& v) {
    for (size_t at = r.name.find(v); at != std::string::npos; at = r.name.find(v, at + 1)) {
      const bool startsWord = at == 0 || !std::isalnum(static_cast<unsigned char>(r.name[at - 1]));
      const bool endsWord = at + v.size() == r.name.size() || !std::isalnum(static_cast<unsigned char>(r.name[at + v.size()]));
      if (startsWord && endsWord) return true;
    }
    return false;
  };
  std::string text;
  for (const auto& [k, v] : r.meta.parameters) {
    if (v.empty() || v.size() > 24 || k == "iterations" || k == "extra_options" || inName(v)) continue;
    text += (text.empty() ? "" : " ") + k + "=" + v;
  }
  return text;
}

// Empty when two runs are of the same size; else what differs ("1024 bodies against the
// baseline's 4096"), for a speed-up that is not like for like.
std::string sizeDifference(const RunRecord& r, const RunRecord& base) {
  for (const char* key : {"bodies", "image"}) {
    const std::string a = r.meta.parameter(key), b = base.meta.parameter(key);
    if (!a.empty() && !b.empty() && a != b)
      return std::string(key) + " " + a + " against the baseline's " + b;
  }
  return "";
}

namespace {

enum Column { kName, kDevice, kFps, kKernelMedian, kKernelP95, kRate, kSpeedUp, kColumnCount };

void sortRows(std::vector<int>& rows, const std::vector<RunRecord>& runs, const ImGuiTableSortSpecs* specs,
              const RunRecord* base, int metric) {
  if (!specs || specs->SpecsCount == 0) return;
  const ImGuiTableColumnSortSpecs& s = specs->Specs[0];
  auto key = [&](const RunRecord& r) -> double {
    switch (s.ColumnUserID) {
      case kFps: return r.m.fps;
      case kKernelMedian: return r.m.kernelMs.median;
      case kKernelP95: return r.m.kernelMs.p95;
      case kRate: return r.m.rate;
      case kSpeedUp: return base ? speedUp(r, *base, metric) : 0.0;
      default: return 0.0;
    }
  };
  auto less = [&](const RunRecord& x, const RunRecord& y) {
    if (s.ColumnUserID == kName) return x.name < y.name;
    if (s.ColumnUserID == kDevice) return x.meta.device < y.meta.device;
    return key(x) < key(y);
  };
  const bool ascending = s.SortDirection == ImGuiSortDirection_Ascending;
  std::stable_sort(rows.begin(), rows.end(), [&](int a, int b) {
    const RunRecord& x = runs[static_cast<size_t>(a)];
    const RunRecord& y = runs[static_cast<size_t>(b)];
    return ascending ? less(x, y) : less(y, x);
  });
}

void drawRecordControls(AppState& state) {
  RecordingState& rec = state.runs.recording;
  ImGui::SetNextItemWidth(100);
  ImGui::InputInt("warm-up frames", &rec.warmup);
  rec.warmup = std::max(rec.warmup, 0);
  ImGui::SameLine();
  ImGui::Checkbox("by seconds", &rec.bySeconds);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(100);
  if (rec.bySeconds) ImGui::InputFloat("s", &rec.seconds, 1.0f, 5.0f, "%.1f");
  else ImGui::InputInt("frames", &rec.frames);
  rec.frames = std::max(rec.frames, 1);
  rec.seconds = std::max(rec.seconds, 0.1f);
  if (!rec.active) {
    if (ImGui::Button("Record")) rec.startRequested = true;
  } else if (ImGui::Button("Stop")) {
    rec.cancelRequested = true;
  }
  ImGui::SameLine();
  ImGui::ProgressBar(static_cast<float>(std::clamp(rec.progress, 0.0, 1.0)), ImVec2(-1, 0), rec.status.c_str());
}

void drawFileControls(AppState& state) {
  RunsState& runs = state.runs;
  ImGui::SetNextItemWidth(-220);
  ImGui::InputText("##export", runs.exportPath, sizeof runs.exportPath);
  ImGui::SameLine();
  const std::string base = runs.exportPath;
  if (ImGui::Button("Export CSV")) runs.message = exportRuns(runs.runs, base, false);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("writes %s.csv (a relative name: in the folder kernelscope was started in)", base.c_str());
  ImGui::SameLine();
  if (ImGui::Button("Export JSON")) runs.message = exportRuns(runs.runs, base, true);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("writes %s.json (a relative name: in the folder kernelscope was started in)", base.c_str());
  ImGui::SetNextItemWidth(-220);
  ImGui::InputTextWithHint("##import", "runs JSON file from this or another machine", runs.importPath,
                           sizeof runs.importPath);
  ImGui::SameLine();
  if (ImGui::Button("Import JSON")) {
    std::string error;
    if (auto imported = readRunsJson(runs.importPath, &error)) {
      // Sweep files list refused combinations too; only runs that ran have anything to compare.
      size_t added = 0;
      for (RunRecord& r : *imported) {
        if (!r.ok()) continue;
        if (!r.meta.host.empty()) r.name += " @" + r.meta.host;
        runs.runs.push_back(std::move(r));
        ++added;
      }
      runs.message = "imported " + std::to_string(added) + " runs";
      if (added < imported->size())
        runs.message += ", skipped " + std::to_string(imported->size() - added) + " that did not run";
    } else {
      runs.message = error;
      state.report(error);
    }
  }
  ImGui::SameLine();
  if (ImGui::Button("Clear")) runs.runs.clear(), runs.baseline = 0;
  if (!runs.message.empty()) ImGui::TextWrapped("%s", runs.message.c_str());
}

}  // namespace

void drawRunsPanel(AppState& state) {
  RunsState& runs = state.runs;
  if (!runs.showRuns) return;
  placePanel(state, "Runs");  // over the picture: opened to be used
  if (!ImGui::Begin("Runs", &runs.showRuns)) {
    ImGui::End();
    return;
  }
  drawRecordControls(state);
  ImGui::Separator();
  if (runs.baseline >= static_cast<int>(runs.runs.size())) runs.baseline = 0;
  const RunRecord* base = runs.runs.empty() ? nullptr : &runs.runs[static_cast<size_t>(runs.baseline)];
  ImGui::SetNextItemWidth(160);
  ImGui::Combo("compare by", &runs.chartMetric, "rate (GFLOP/s, GB/s)\0kernel median (ms)\0FPS\0");
  // Scrolls sideways in a narrow panel: the name column keeps its width (stretched, it
  // was squeezed to nothing by the fixed columns at 1024 pixels wide).
  const ImGuiTableFlags flags = ImGuiTableFlags_Sortable | ImGuiTableFlags_RowBg | ImGuiTableFlags_Borders |
                                ImGuiTableFlags_Resizable | ImGuiTableFlags_ScrollY | ImGuiTableFlags_ScrollX;
  std::vector<int> rows(runs.runs.size());
  std::iota(rows.begin(), rows.end(), 0);
  const float tableHeight = std::max(120.0f, ImGui::GetContentRegionAvail().y - 190.0f);
  if (ImGui::BeginTable("runs", kColumnCount + 1, flags, ImVec2(0, tableHeight))) {
    ImGui::TableSetupScrollFreeze(1, 1);
    ImGui::TableSetupColumn("base", ImGuiTableColumnFlags_NoSort | ImGuiTableColumnFlags_WidthFixed, 0, kColumnCount);
    ImGui::TableSetupColumn("run", ImGuiTableColumnFlags_WidthFixed,
                            std::max(18.0f * ImGui::GetFontSize(), ImGui::GetContentRegionAvail().x - 44.0f * ImGui::GetFontSize()),
                            kName);
    ImGui::TableSetupColumn("device", ImGuiTableColumnFlags_WidthFixed, 0, kDevice);
    ImGui::TableSetupColumn("FPS", ImGuiTableColumnFlags_WidthFixed, 0, kFps);
    ImGui::TableSetupColumn("kernel ms", ImGuiTableColumnFlags_WidthFixed, 0, kKernelMedian);
    ImGui::TableSetupColumn("p95 ms", ImGuiTableColumnFlags_WidthFixed, 0, kKernelP95);
    ImGui::TableSetupColumn("rate", ImGuiTableColumnFlags_WidthFixed, ImGui::CalcTextSize("99999.9 GFLOP/s").x, kRate);
    ImGui::TableSetupColumn("speed-up", ImGuiTableColumnFlags_WidthFixed,
                            std::max(ImGui::CalcTextSize("speed-up").x, ImGui::CalcTextSize("999.99x *").x), kSpeedUp);
    ImGui::TableHeadersRow();
    sortRows(rows, runs.runs, ImGui::TableGetSortSpecs(), base, runs.chartMetric);
    for (int i : rows) {
      const RunRecord& r = runs.runs[static_cast<size_t>(i)];
      ImGui::PushID(i);
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::RadioButton("##base", &runs.baseline, i);
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(r.name.c_str());
      // The configuration under the name, wrapped: the name alone hid it (recordings are named by number).
      if (const std::string config = configurationText(r); !config.empty()) {
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextDisabled("%s", config.c_str());
        ImGui::PopTextWrapPos();
      }
      if (ImGui::IsItemHovered()) {
        std::string tip = r.meta.device + " (" + r.meta.platform + "), driver " + r.meta.driver + "\n" +
                          r.meta.time + " on " + r.meta.host + ", kernelscope " + r.meta.version;
        if (!r.meta.interop.empty()) tip += "\ninterop: " + r.meta.interop;
        for (const auto& [k, v] : r.meta.parameters) tip += "\n" + k + " = " + v;
        ImGui::SetTooltip("%s", tip.c_str());
      }
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(r.meta.device.c_str());
      ImGui::TableNextColumn();
      if (r.m.fps > 0) ImGui::Text("%.1f", r.m.fps);
      else ImGui::TextDisabled("-");  // a kernel benchmark or sweep row: no frames
      if (r.m.fps <= 0 && ImGui::IsItemHovered()) ImGui::SetTooltip("measured without frames (kernel events only)");
      ImGui::TableNextColumn();
      ImGui::Text("%.4f", r.m.kernelMs.median);
      ImGui::TableNextColumn();
      ImGui::Text("%.4f", r.m.kernelMs.p95);
      ImGui::TableNextColumn();
      ImGui::Text("%.1f %s", r.m.rate, r.m.rateUnit.c_str());
      ImGui::TableNextColumn();
      if (const double x = base ? speedUp(r, *base, runs.chartMetric) : 0.0; x > 0) {
        // Runs of different sizes (bodies, image) are not like for like: marked, and said why.
        const std::string apart = base ? sizeDifference(r, *base) : "";
        if (apart.empty()) {
          ImGui::Text("%.2fx", x);
        } else {
          ImGui::TextColored(ImVec4(0.95f, 0.65f, 0.25f, 1.0f), "%.2fx *", x);
          if (ImGui::IsItemHovered()) ImGui::SetTooltip("not like for like: %s", apart.c_str());
        }
      } else {
        ImGui::TextDisabled("-");
      }
      ImGui::PopID();
    }
    ImGui::EndTable();
  }
  // Bar chart of the chosen metric, in the table's order.
  std::vector<float> values;
  for (int i : rows) values.push_back(static_cast<float>(metricValue(runs.runs[static_cast<size_t>(i)], runs.chartMetric)));
  if (!values.empty()) {
    const float top = *std::max_element(values.begin(), values.end());
    ImGui::PlotHistogram("##chart", values.data(), static_cast<int>(values.size()), 0,
                         runs.chartMetric == 1 ? "kernel median ms (lower is better)" : nullptr, 0.0f, top * 1.1f,
                         // The panel's width: ImGui 1.86's plots take -1 as a width of -1, not as "fill".
                         ImVec2(std::max(ImGui::GetContentRegionAvail().x, 64.0f), 80));
  }
  drawFileControls(state);
  ImGui::End();
}

}  // namespace ks
