// The Runs panel: record the running scene, compare runs in a sortable table and
// a bar chart against a chosen baseline, export CSV/JSON, import JSON from
// another machine.
#include <imgui.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include "app/app_state.h"
#include "compute/plain_config_words.h"
#include "lab/run_bound.h"
#include "ui/chart_axis.h"
#include "ui/layout.h"
#include "ui/panels.h"
#include "ui/run_labels.h"
#include "ui/scaling_chart.h"
#include "ui/speed_accuracy_chart.h"

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

// The baseline until the user picks one: the first run that has the figure compared
// (a sweep's rows have no FPS: with one of them as the baseline every speed-up was "-").
int defaultBaseline(const std::vector<RunRecord>& runs, int metric) {
  for (size_t i = 0; i < runs.size(); ++i)
    if (metricValue(runs[i], metric) > 0.0) return static_cast<int>(i);
  return 0;
}

// 0 when the two cannot be compared (no value, or rates in different units).
double speedUp(const RunRecord& r, const RunRecord& base, int metric) {
  if (metric == 0 && r.m.rateUnit != base.m.rateUnit) return 0.0;
  const double v = metricValue(r, metric), b = metricValue(base, metric);
  if (v <= 0 || b <= 0) return 0.0;
  return metric == 1 ? b / v : v / b;
}

}  // namespace

// "bodies 4096, preset disk": the parameters of a run that its name does not show (a
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
    // (a 0 or 1 is a switch or a count, never what a name's "recording 1" says)
    const bool shownInName = v != "0" && v != "1" && inName(v);
    if (v.empty() || v.size() > 24 || k == "iterations" || k == "extra_options" || shownInName) continue;
    text += (text.empty() ? "" : ", ") + plainParameterWords(k, v);
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

std::vector<std::string> distinguishingNames(const std::vector<std::string>& names) {
  std::vector<std::string> shared;  // in every name
  if (names.size() > 1) {
    shared = wordsOf(names.front());
    for (const std::string& n : names) {
      const std::vector<std::string> w = wordsOf(n);
      std::erase_if(shared, [&](const std::string& s) { return std::find(w.begin(), w.end(), s) == w.end(); });
    }
  }
  std::vector<std::string> shown;
  for (const std::string& n : names) {
    std::string rest;
    for (const std::string& w : wordsOf(n))
      if (std::find(shared.begin(), shared.end(), w) == shared.end()) rest += (rest.empty() ? "" : " ") + w;
    // Words without a letter ("1:" of "recording 1: image") tell runs apart by number
    // only: the whole name says more.
    const bool hasLetters = std::any_of(rest.begin(), rest.end(), [](unsigned char c) { return std::isalpha(c); });
    shown.push_back(hasLetters ? rest : n);
  }
  return shown;
}

namespace {

enum Column { kName, kDevice, kFps, kKernelMedian, kKernelP95, kRate, kBound, kSpeedUp, kColumnCount };

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
      case kBound: return runBoundPercent(r.m.bound);
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

// The unit of the metric compared (the value axis's).
std::string metricUnit(const RunRecord* base, int metric) {
  switch (metric) {
    case 1: return "ms";
    case 2: return "FPS";
    default: return base ? base->m.rateUnit : "";
  }
}

// Besides its rows, the chart has a caption line above and the axis's labels under them.
float chartExtraHeight() { return ImGui::GetTextLineHeightWithSpacing() + ImGui::GetTextLineHeight() + 12.0f; }

// A horizontal bar per run, in the table's order, named on the left, its value at the
// bar's end; a value axis underneath (ticks with values, the unit), and the baseline
// run's value as a line across the bars: what is right of it is better for a rate or
// FPS, worse for a kernel time.
// `labels`: each row's, from runLabels, within `namesShare` of the width.
void drawComparisonChart(const RunsState& runs, const std::vector<int>& rows, const std::vector<std::string>& labels,
                         float namesShare, const RunRecord* base, float rowHeight) {
  if (rows.empty() || !base) return;
  const int metric = runs.chartMetric;
  const std::string unit = metricUnit(base, metric);
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  // The baseline named on hover: its name in words wrapped over several lines at 1024 wide and pushed the
  // chart's axis out of view.
  ImGui::TextWrapped("%s is better; the line and the orange bar: the baseline", metric == 1 ? "shorter" : "longer");
  ImGui::PopStyleColor();
  if (ImGui::IsItemHovered()) tooltipText(("The baseline: " + plainConfigurationWords(base->name)).c_str());
  // A run's value on this axis; none where it has none or is in another unit (GFLOP/s beside GB/s).
  auto valueOf = [&](const RunRecord& r) -> std::optional<double> {
    if (metric == 0 && r.m.rateUnit != base->m.rateUnit) return std::nullopt;
    const double v = metricValue(r, metric);
    return v > 0.0 && std::isfinite(v) ? std::optional<double>(v) : std::nullopt;
  };
  auto valueText = [&](const RunRecord& r) {
    char text[64];
    if (const auto v = valueOf(r))
      std::snprintf(text, sizeof text, metric == 1 ? "%.4g %s" : "%.1f %s", *v, unit.c_str());
    else if (metric == 0 && r.m.rateUnit != base->m.rateUnit)
      std::snprintf(text, sizeof text, "in %s", r.m.rateUnit.c_str());
    else
      std::snprintf(text, sizeof text, "-");
    return std::string(text);
  };
  // What tells the runs apart in short words ("1: blocked, 64 per group", "bilinear through
  // the texture unit"; it was "1: wg=64"), within the names' room; whole in the bar's tooltip.
  const std::vector<std::string>& names = labels;
  double largest = 0.0;
  float namesWidth = 0.0f, valuesWidth = 0.0f;
  for (size_t n = 0; n < rows.size(); ++n) {
    const RunRecord& r = runs.runs[static_cast<size_t>(rows[n])];
    largest = std::max(largest, valueOf(r).value_or(0.0));
    namesWidth = std::max(namesWidth, ImGui::CalcTextSize(names[n].c_str()).x);
    valuesWidth = std::max(valuesWidth, ImGui::CalcTextSize(valueText(r).c_str()).x);
  }
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float width = std::max(ImGui::GetContentRegionAvail().x, 200.0f);
  const float frameHeight = rowHeight * static_cast<float>(rows.size()) + ImGui::GetTextLineHeight() + 12.0f;
  // Names get up to their share of the width (cut with "..." beyond), the values what they need.
  namesWidth = std::min(namesWidth, width * namesShare) + 8.0f;
  namesWidth = std::max(namesWidth, ImGui::CalcTextSize(unit.c_str()).x + 8.0f);  // the unit goes under the names
  valuesWidth += 8.0f;
  ChartAxes axes;
  axes.plot = {origin.x + namesWidth, origin.y, origin.x + width - valuesWidth,
               origin.y + rowHeight * static_cast<float>(rows.size())};
  axes.xUnit = unit;
  // A tick about every 60 pixels, the axis ending on one at or past the largest value.
  const std::vector<double> values = niceTicksCovering(largest, std::max(1, static_cast<int>(axes.plot.width() / 60.0f)));
  const double top = values.back() > 0.0 ? values.back() : 1.0;
  axes.x = placeTicks(values, top, false, axes.plot.x0, axes.plot.x1);
  auto xOf = [&](double v) { return axes.plot.x0 + axes.plot.width() * static_cast<float>(v / top); };

  ImGui::InvisibleButton("##comparison", ImVec2(width, frameHeight));
  const bool hovered = ImGui::IsItemHovered();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  draw->AddRectFilled(ImVec2(axes.plot.x0, axes.plot.y0), ImVec2(axes.plot.x1, axes.plot.y1), IM_COL32(20, 22, 28, 255));
  drawXAxis(draw, axes.plot, axes.x, unit.c_str(), true);
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
  struct ValueLabel {
    ImVec2 at;
    std::string text;
    bool measured;
  };
  std::vector<ValueLabel> valueLabels;
  for (size_t n = 0; n < rows.size(); ++n) {
    const int i = rows[n];
    const RunRecord& r = runs.runs[static_cast<size_t>(i)];
    const float y0 = axes.plot.y0 + rowHeight * static_cast<float>(n), y1 = y0 + rowHeight;
    const std::string name = fitText(names[n], namesWidth - 8.0f);
    const float textY = y0 + (rowHeight - ImGui::GetTextLineHeight()) * 0.5f;
    draw->AddText(ImVec2(origin.x, textY), text, name.c_str());
    const auto v = valueOf(r);
    const ScreenRect bar{axes.plot.x0, y0 + 1.0f, v ? xOf(*v) : axes.plot.x0, y1 - 1.0f};
    const bool isBase = i == runs.baseline;
    if (v) draw->AddRectFilled(ImVec2(bar.x0, bar.y0), ImVec2(bar.x1, bar.y1),
                               isBase ? IM_COL32(230, 159, 0, 255) : IM_COL32(86, 150, 220, 255));
    valueLabels.push_back({ImVec2(bar.x1 + 4.0f, textY), valueText(r), v.has_value()});
    axes.bars.push_back({name, bar});
    if (hovered && ImGui::GetIO().MousePos.y >= y0 && ImGui::GetIO().MousePos.y < y1) {
      axes.hover = plainConfigurationWords(r.name) + "\n" + valueText(r);  // the bar's label is the short name
      if (const double x = speedUp(r, *base, metric); x > 0 && !isBase) {
        char times[32];
        std::snprintf(times, sizeof times, ", %.2fx the baseline's", x);
        axes.hover += times;
      }
      if (const std::string apart = sizeDifference(r, *base); !apart.empty()) axes.hover += "\nnot like for like: " + apart;
      ImGui::SetTooltip("%s", axes.hover.c_str());
    }
  }
  if (const auto b = valueOf(*base)) {
    axes.baseline = xOf(*b);
    draw->AddLine(ImVec2(*axes.baseline, axes.plot.y0), ImVec2(*axes.baseline, axes.plot.y1),
                  IM_COL32(255, 200, 80, 255), 2.0f);
  }
  // The values last, over the baseline's line.
  for (const ValueLabel& l : valueLabels)
    draw->AddText(l.at, ImGui::GetColorU32(ImGuiCol_Text, l.measured ? 1.0f : 0.5f), l.text.c_str());
  keepDrawnChart("runs", std::move(axes));
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
    if (ImGui::Button("Record")) state.commands.push(StartRecording{});
  } else if (ImGui::Button("Stop")) {
    state.commands.push(StopRecording{});
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
  if (ImGui::Button("Export CSV")) exportAllRuns(runs, false);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("writes %s.csv (a relative name: in the folder kernelscope was started in)", base.c_str());
  ImGui::SameLine();
  if (ImGui::Button("Export JSON")) exportAllRuns(runs, true);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("writes %s.json (a relative name: in the folder kernelscope was started in)", base.c_str());
  ImGui::SetNextItemWidth(-220);
  ImGui::InputTextWithHint("##import", "runs JSON file from this or another machine", runs.importPath,
                           sizeof runs.importPath);
  ImGui::SameLine();
  if (ImGui::Button("Import JSON") && !importRunsFile(runs)) state.report(runs.message);
  ImGui::SameLine();
  if (ImGui::Button("Clear")) runs.clearRuns();
  if (!runs.message.empty()) ImGui::TextWrapped("%s", runs.message.c_str());
}

}  // namespace

bool exportAllRuns(RunsState& runs, bool json) {
  const ExportOutcome outcome = exportRuns(runs.runs, runs.exportPath, json);
  runs.message = outcome.message;
  if (outcome.written) runs.markAllExported();
  return outcome.written;
}

bool importRunsFile(RunsState& runs) {
  std::string error;
  const auto imported = readRunsJson(runs.importPath, &error);
  if (!imported) {
    runs.message = error;
    return false;
  }
  // Sweep files list refused combinations too; only runs that ran have anything to compare.
  size_t added = 0;
  for (RunRecord r : *imported) {
    if (!r.ok()) continue;
    if (!r.meta.host.empty()) r.name += " @" + r.meta.host;
    runs.addImportedRun(std::move(r));  // in a file already: quitting does not ask for it
    ++added;
  }
  runs.message = "imported " + std::to_string(added) + " runs";
  if (added < imported->size()) runs.message += ", skipped " + std::to_string(imported->size() - added) + " that did not run";
  return true;
}

void drawRunsPanel(AppState& state) {
  RunsState& runs = state.runs;
  if (!runs.showRuns) return;
  placePanel(state, "Runs");  // in the strip along the bottom, beside the Sweep panel
  if (!ImGui::Begin("Runs", &runs.showRuns)) {
    ImGui::End();
    return;
  }
  drawRecordControls(state);
  ImGui::Separator();
  ImGui::SetNextItemWidth(160);
  ImGui::Combo("compare by", &runs.chartMetric, "rate (GFLOP/s, GB/s)\0kernel median (ms)\0FPS\0");
  if (!runs.baselineChosen || runs.baseline >= static_cast<int>(runs.runs.size()))
    runs.baseline = defaultBaseline(runs.runs, runs.chartMetric);
  const RunRecord* base = runs.runs.empty() ? nullptr : &runs.runs[static_cast<size_t>(runs.baseline)];
  ImGui::SameLine();
  int chart = static_cast<int>(runs.chart);
  ImGui::SetNextItemWidth(170);
  if (ImGui::Combo("chart", &chart, "bars\0speed vs accuracy\0scaling\0")) runs.chart = static_cast<RunsState::Chart>(chart);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("bars: the compared figure of each run against the baseline\nspeed vs accuracy: N-body runs' "
                      "interactions/s against the energy drift they measured\nscaling: N-body runs split over 1, 2, "
                      "... devices or MPI ranks, speed-up against the ideal");
  const bool scatter = runs.chart != RunsState::Chart::Bars;
  // The table fits the panel's width (a sideways scroll hid the speed-up): the names and
  // the device wrap in the columns that stretch. A narrow panel (about 500 pixels at
  // 1024 wide) leaves out the device, the p95 and the figures not compared; the device
  // goes under the name.
  const bool narrow = ImGui::GetContentRegionAvail().x < 52.0f * ImGui::GetFontSize();
  const ImGuiTableFlags flags = ImGuiTableFlags_Sortable | ImGuiTableFlags_RowBg | ImGuiTableFlags_Borders |
                                ImGuiTableFlags_Resizable | ImGuiTableFlags_ScrollY;
  std::vector<int> rows(runs.runs.size());
  std::iota(rows.begin(), rows.end(), 0);
  // The table keeps at least about half of what it shares with the chart (a header and
  // four rows or more); the chart gets the rest up to what its bars need, and scrolls
  // when it needs more (a sweep adds a bar per configuration).
  // (a line for the last export's or import's message only when there is one)
  const float fileControlsHeight = 3.0f * ImGui::GetFrameHeightWithSpacing() +
                                   (runs.message.empty() ? 0.0f : ImGui::GetTextLineHeightWithSpacing());
  const float shared = ImGui::GetContentRegionAvail().y - fileControlsHeight;
  const float runCount = static_cast<float>(std::max<size_t>(runs.runs.size(), 1));
  // The bars' labels in a third of the chart's width: what tells the runs apart, the
  // words that differ first where cutting left two alike (a sweep's bars all read
  // "blocked, 128 per group..." at 1024 wide).
  std::vector<std::string> names;
  for (const RunRecord& r : runs.runs) names.push_back(r.name);
  // A third of the width, or half where a third cuts any (one line a bar keeps the
  // chart short enough for the table's three rows at 1024x700).
  const float chartWidth = std::max(ImGui::GetContentRegionAvail().x - ImGui::GetStyle().ScrollbarSize, 200.0f);
  float namesShare = 1.0f / 3.0f;
  std::vector<std::string> barLabels = runLabels(names, chartWidth * namesShare, 1);
  if (std::any_of(barLabels.begin(), barLabels.end(),
                  [](const std::string& l) { return l.size() >= 3 && l.compare(l.size() - 3, 3, "...") == 0; })) {
    namesShare = 0.5f;
    barLabels = runLabels(names, chartWidth * namesShare, 1);
  }
  const float chartRowHeight = ImGui::GetTextLineHeight() + 4.0f;
  // (one line more for a caption that wraps in a narrow panel)
  const float barsHeight =
      runs.runs.empty() ? 0.0f : chartExtraHeight() + ImGui::GetTextLineHeightWithSpacing() + runCount * chartRowHeight + 4.0f;
  // The scatter needs height for its log axis whatever the number of runs (its caption
  // and axis labels take about six lines of it): the table keeps a quarter or a few
  // rows (the points name the runs), the scatter the rest.
  const float fewRows = ImGui::GetFrameHeight() + 3.0f * ImGui::GetTextLineHeightWithSpacing();
  // The bars keep room for their caption, axis and two bars at least, and the table
  // three rows (at 1024x700 four rows left the chart a strip that scrolled).
  // (with the line a caption takes when it wraps: the axis's labels were cut without it)
  const float twoBars = std::min(barsHeight, chartExtraHeight() + ImGui::GetTextLineHeightWithSpacing() +
                                                 2.0f * chartRowHeight + 4.0f);
  // A row is two lines (what tells the run apart, then its parameters) where three such
  // rows leave the chart its room, else one (at 1024x700: wrapped whole, a run took six
  // lines and one was in view); every cell's whole words are in its tooltip. A row is
  // never shorter than the baseline's radio button.
  auto rowHeight = [](float lines) {
    return std::max(lines * ImGui::GetTextLineHeight(), ImGui::GetFrameHeight()) + 2.0f * ImGui::GetStyle().CellPadding.y;
  };
  const float header = ImGui::GetTextLineHeight() + 2.0f * ImGui::GetStyle().CellPadding.y;
  const bool twoLineRows = scatter || shared - twoBars >= header + 3.0f * rowHeight(2.0f) + 2.0f;
  const float minTable = header + 3.0f * rowHeight(twoLineRows ? 2.0f : 1.0f) + 2.0f;
  const float chartHeight =
      scatter ? std::max(shared - std::max(fewRows, shared / 4.0f), 16.0f * ImGui::GetTextLineHeight())
              : std::min(barsHeight, std::max(shared - std::max(minTable, 0.5f * shared), twoBars));
  const float tableHeight = std::max(fewRows, shared - chartHeight);
  std::vector<std::string> rowLabels;  // in the name column's width, once it is known
  if (ImGui::BeginTable("runs", kColumnCount + 1, flags, ImVec2(0, tableHeight))) {
    ImGui::TableSetupScrollFreeze(1, 1);
    const ImGuiTableColumnFlags hiddenWhenNarrow = narrow ? ImGuiTableColumnFlags_Disabled : ImGuiTableColumnFlags_None;
    ImGui::TableSetupColumn("base", ImGuiTableColumnFlags_NoSort | ImGuiTableColumnFlags_WidthFixed, 0, kColumnCount);
    ImGui::TableSetupColumn("run", ImGuiTableColumnFlags_WidthStretch, 2.0f, kName);
    ImGui::TableSetupColumn("device", ImGuiTableColumnFlags_WidthStretch | hiddenWhenNarrow, 1.0f, kDevice);
    // Narrow, of FPS, kernel ms and rate only the figure compared (the chart's) stays.
    auto unlessCompared = [&](int metric) {
      return narrow && runs.chartMetric != metric ? ImGuiTableColumnFlags_Disabled : ImGuiTableColumnFlags_None;
    };
    // The figures' columns fit their widest cell every frame (ImGui fits a fixed column that
    // cannot be resized to its contents): sized once, before any run, "12.3 GB/s" was cut to "12.3 GB,".
    const ImGuiTableColumnFlags fitted = ImGuiTableColumnFlags_WidthFixed | ImGuiTableColumnFlags_NoResize;
    ImGui::TableSetupColumn("FPS", fitted | unlessCompared(2), 0, kFps);
    ImGui::TableSetupColumn("kernel ms", fitted | unlessCompared(1), 0, kKernelMedian);
    ImGui::TableSetupColumn("p95 ms", fitted | hiddenWhenNarrow, 0, kKernelP95);
    ImGui::TableSetupColumn("rate", fitted | unlessCompared(0), 0, kRate);
    ImGui::TableSetupColumn("bound by", ImGuiTableColumnFlags_WidthFixed | hiddenWhenNarrow,
                            narrow ? 0.0f : ImGui::CalcTextSize("local atomics 104 %").x, kBound);
    // Its header with room for the sort arrow beside it, as ImGui's table header leaves
    // it ("speed..." was clipped at 1024 wide).
    const float sortArrow = std::floor(0.65f * ImGui::GetFontSize() + ImGui::GetStyle().FramePadding.x);
    ImGui::TableSetupColumn("speed-up", ImGuiTableColumnFlags_WidthFixed,
                            std::max(ImGui::CalcTextSize("speed-up").x + sortArrow, ImGui::CalcTextSize("999.99x *").x),
                            kSpeedUp);
    ImGui::TableHeadersRow();
    sortRows(rows, runs.runs, ImGui::TableGetSortSpecs(), base, runs.chartMetric);
    for (int i : rows) {
      const RunRecord& r = runs.runs[static_cast<size_t>(i)];
      ImGui::PushID(i);
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      if (ImGui::RadioButton("##base", &runs.baseline, i)) runs.baselineChosen = true;
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("compare the other runs with this one");
      ImGui::TableNextColumn();
      drawRunThrottleMark(r);  // panels_clocks.cpp
      // What tells the run apart from the others (its bar's words), then, where rows have
      // two lines, its parameters; the whole of both in the tooltip.
      if (rowLabels.empty()) rowLabels = runLabels(names, std::max(ImGui::GetContentRegionAvail().x, 40.0f), 1);
      ImGui::TextUnformatted(rowLabels[static_cast<size_t>(i)].c_str());
      const bool nameHovered = ImGui::IsItemHovered();
      std::string details = configurationText(r);
      auto addDetail = [&](const std::string& words) { details += (details.empty() ? "" : "; ") + words; };
      if (narrow && !r.meta.device.empty()) addDetail("on " + r.meta.device);  // its column is left out
      const std::string bound = narrow ? runBoundCell(r.m.bound) : std::string();
      if (!bound.empty()) addDetail("bound by " + bound);  // its column is left out: the same words
      bool detailsHovered = false;
      if (!details.empty() && twoLineRows) {  // else in the tooltip only
        ImGui::TextDisabled("%s", fitText(details, std::max(ImGui::GetContentRegionAvail().x, 40.0f)).c_str());
        detailsHovered = ImGui::IsItemHovered();
      }
      if (nameHovered || detailsHovered) {
        std::string tip = plainConfigurationWords(r.name);
        if (const std::string what = configurationVariantDescription(r.name); !what.empty()) tip += "\n\n" + what;
        if (!details.empty()) tip += "\n\n" + details;
        tip += "\n\n" + r.meta.device + " (" + r.meta.platform + "), driver " + r.meta.driver + "\n" + r.meta.time +
               " on " + r.meta.host + ", kernelscope " + r.meta.version;
        if (!r.meta.interop.empty()) tip += "\ninterop: " + r.meta.interop;
        for (const auto& [k, v] : r.meta.parameters) tip += "\n" + plainParameterWords(k, v);
        if (!bound.empty())
          tip += "\n\nbound by: the measured ceiling each kernel reached first when the run ended (the Profiler's "
                 "roofline): its work counted from the source over its median time, against the device's ceilings.";
        tooltipText(tip.c_str());
      }
      drawRunEnergyLine(r);  // panels_clocks.cpp
      if (ImGui::TableNextColumn()) {
        if (twoLineRows) {
          ImGui::PushTextWrapPos(0.0f);
          ImGui::TextUnformatted(r.meta.device.c_str());
          ImGui::PopTextWrapPos();
        } else {
          ImGui::TextUnformatted(fitText(r.meta.device, ImGui::GetContentRegionAvail().x).c_str());
          if (ImGui::IsItemHovered()) tooltipText(r.meta.device.c_str());
        }
      }
      if (ImGui::TableNextColumn()) {
        if (r.m.fps > 0) ImGui::Text("%.1f", r.m.fps);
        else ImGui::TextDisabled("-");  // a kernel benchmark or sweep row: no frames
        if (r.m.fps <= 0 && ImGui::IsItemHovered()) ImGui::SetTooltip("measured without frames (kernel events only)");
      }
      if (ImGui::TableNextColumn()) ImGui::Text("%.4f", r.m.kernelMs.median);
      if (ImGui::TableNextColumn()) ImGui::Text("%.4f", r.m.kernelMs.p95);
      if (ImGui::TableNextColumn()) ImGui::Text("%.1f %s", r.m.rate, r.m.rateUnit.c_str());
      if (!ImGui::TableNextColumn()) {
      } else if (const std::string bound = runBoundCell(r.m.bound); !bound.empty()) {
        // Wrapped in the column where rows have two lines, else cut with "..." at a word
        // ("fast inverse square root 12 %" was cut to "fast inverse square r"); whole in the tooltip.
        if (twoLineRows) {
          ImGui::PushTextWrapPos(0.0f);
          ImGui::TextUnformatted(bound.c_str());
          ImGui::PopTextWrapPos();
        } else {
          ImGui::TextUnformatted(fitText(bound, ImGui::GetContentRegionAvail().x).c_str());
        }
        if (ImGui::IsItemHovered())
          tooltipText((bound + "\n\nThe measured ceiling each kernel reached first (the Profiler's roofline), and how "
                       "much of it: its work counted from the source over its median time, against the device's ceilings.")
                          .c_str());
      } else {
        ImGui::TextDisabled("-");
        if (ImGui::IsItemHovered())
          tooltipText("No ceilings were measured for this run's device (Device info > Measured ceilings, or "
                      "kernelscope --bench ceilings), so nothing says what bound it.");
      }
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
  if (runs.chart == RunsState::Chart::SpeedVsAccuracy) {
    drawSpeedAccuracyChart(runs, chartHeight);
  } else if (runs.chart == RunsState::Chart::Scaling) {
    drawScalingChart(runs, chartHeight);
  } else if (!runs.runs.empty()) {
    std::vector<std::string> labels;
    for (int i : rows) labels.push_back(barLabels[static_cast<size_t>(i)]);
    if (ImGui::BeginChild("##comparison chart", ImVec2(0, chartHeight)))
      drawComparisonChart(runs, rows, labels, namesShare, base, chartRowHeight);
    ImGui::EndChild();
  }
  drawFileControls(state);
  ImGui::End();
}

}  // namespace ks
