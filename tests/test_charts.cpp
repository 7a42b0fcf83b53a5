// The panels' charts (issue 22): the Runs comparison as bars with a value axis and
// the baseline, the image lab's histogram with level and count axes (and the count
// under the cursor on a log scale), the Profiler's frame times on a ms axis; the
// histogram's bars wide enough to read at 1024x700, and the image lab's channel
// check boxes that stay under the cursor when one is unticked (item 10). Frames are
// built with the app's drawing (drawPanels) in an ImGui context without a window;
// what is checked is what the charts report they drew (ui/chart_axis.h drawnChart)
// and the places ImGui holds.
#include <gtest/gtest.h>
#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "app/app_state.h"
#include "compute/nbody_variants.h"
#include "compute/plain_config_words.h"
#include "staged_readings.h"
#include "lab/run_record.h"
#include "lab/sweep_runs.h"
#include "test_devices.h"
#include "ui/chart_axis.h"
#include "ui/fonts.h"
#include "ui/frame_rate_text.h"
#include "ui/histogram_bars.h"
#include "ui/layout.h"
#include "ui/panels.h"
#include "ui/scaling_chart.h"
#include "ui/speed_accuracy_chart.h"
#include "ui/style.h"
#include "imgui_test_context.h"

namespace ks {
namespace {

// An ImGui context set up as ui/imgui_layer.cpp sets it up, and an AppState.
class ChartsUi : public ::testing::Test {
 protected:
  void SetUp() override {
    test::createTestImGuiContext(ImVec2(1600.0f, 1000.0f));
    applyAppStyle();
    forgetDrawnCharts();  // the last test's, which may pass for this one's
  }
  void TearDown() override {
    forgetDrawnCharts();
    ImGui::DestroyContext();
  }

  void frame(ImVec2 mouse = ImVec2(-1, -1), bool leftDown = false, float wheel = 0.0f) {
    ImGuiIO& io = ImGui::GetIO();
    io.DeltaTime = 1.0f / 60.0f;
    io.MousePos = mouse;
    io.MouseDown[0] = leftDown;
    io.MouseWheel = wheel;
    ImGui::NewFrame();
    drawPanels(state_);
    ImGui::Render();
  }
  void frames(int n, ImVec2 mouse = ImVec2(-1, -1)) {
    for (int i = 0; i < n; ++i) frame(mouse);
  }
  // Five frames: a table sized to its columns measures them a frame after a change of
  // its padding, and the histogram's layout follows the tables' widths a frame later.
  void resize(ImVec2 size) {
    ImGui::GetIO().DisplaySize = size;
    frames(5);
  }
  static std::string sizeText(ImVec2 size) {
    return std::to_string(static_cast<int>(size.x)) + "x" + std::to_string(static_cast<int>(size.y));
  }
  // The Runs chart's bar labels at this size (none where no chart was drawn).
  std::vector<std::string> runsBarLabels(ImVec2 size) {
    resize(size);
    std::vector<std::string> labels;
    if (const ChartAxes* chart = drawnChart("runs"))
      for (const ChartBar& bar : chart->bars) labels.push_back(bar.label);
    return labels;
  }
  AppState state_;
};

// A bar's label as drawn: its words without the "..." of a cut, and whether it was cut.
struct ShownLabel {
  std::string words;
  bool cut = false;
};
ShownLabel shownLabel(const std::string& label) {
  const bool cut = label.size() > 3 && label.compare(label.size() - 3, 3, "...") == 0;
  return {cut ? label.substr(0, label.size() - 3) : label, cut};
}

const ImVec2 kSizes[] = {ImVec2(1600, 1000), ImVec2(1024, 700)};

// A 640x480 RGBA picture in the image lab with a histogram: level L of channel c
// counted (L + 1) * (c + 1) * 10 times, so each level's count is its own.
void openPicture(AppState& state) {
  state.scene = SceneKind::Image;
  ImageLabState& lab = state.image;
  stagedReadings(lab).width = stagedReadings(lab).resultWidth = 640;
  stagedReadings(lab).height = stagedReadings(lab).resultHeight = 480;
  stagedReadings(lab).channels = stagedReadings(lab).resultChannels = 4;
  stagedReadings(lab).hasOriginal = stagedReadings(lab).hasResult = true;
  stagedReadings(lab).histogram.imageChannels = 4;
  stagedReadings(lab).histogram.bins.resize(256 * 5);
  for (int c = 0; c < 5; ++c)
    for (int level = 0; level < 256; ++level)
      stagedReadings(lab).histogram.bins[static_cast<size_t>(c * 256 + level)] =
          static_cast<uint32_t>((level + 1) * (c + 1) * 10);
  stagedReadings(lab).statistics.imageChannels = 4;
  stagedReadings(lab).statistics.channels.resize(5);
  for (ChannelStatistics& s : stagedReadings(lab).statistics.channels) {
    s.count = 307200;
    s.min = 0;
    s.max = 255;
    s.mean = 127.53;
    s.stddev = 73.9;
    s.median = 128;
  }
}

// The window of a panel drawn in the last frame.
const ImGuiWindow* panel(const char* title) {
  const ImGuiWindow* w = ImGui::FindWindowByName(title);
  return w && w->WasActive ? w : nullptr;
}

// Ticks in order, as far apart as their values are (linear axes), on the plot's side.
void expectLinearTicks(const std::vector<ChartTick>& ticks, float from, float to, double top, bool abbreviated = true) {
  ASSERT_GE(ticks.size(), 2u);
  EXPECT_EQ(ticks.front().value, 0.0);
  const double step = ticks[1].value - ticks[0].value;
  for (size_t i = 0; i < ticks.size(); ++i) {
    EXPECT_NEAR(ticks[i].value, step * double(i), step * 1e-9) << "not one step apart";
    EXPECT_NEAR(ticks[i].pixel, from + (to - from) * float(ticks[i].value / top), 0.5f) << ticks[i].label;
    EXPECT_EQ(ticks[i].label, tickLabel(ticks[i].value, step, abbreviated));
  }
  const double m = step / std::pow(10.0, std::floor(std::log10(step) + 1e-9));
  EXPECT_TRUE(std::abs(m - 1) < 1e-6 || std::abs(m - 2) < 1e-6 || std::abs(m - 5) < 1e-6) << "step " << step;
}

// Item 1 and the charts: the Runs comparison is a bar per run, labelled with what
// tells the runs apart, on a value axis with its unit that ends on a tick past the
// largest value, and the baseline's value as a line. Before: a 1-2 px strip, then an
// unlabelled ImGui histogram with no axis.
TEST_F(ChartsUi, TheRunsComparisonIsABarChartWithAnAxisAndTheBaseline) {
  state_.runs.showRuns = true;
  const double rates[] = {120.0, 180.0, 310.0};
  const char* names[] = {"tiled wg=64 fp32 @lab", "tiled wg=128 fp32 @lab", "naive wg=64 fp32 @lab"};
  for (int i = 0; i < 3; ++i) {
    RunRecord r;
    r.name = names[i];
    r.m.rate = rates[i];
    r.m.rateUnit = "GB/s";
    r.m.kernelMs.median = 1.0 + i;
    state_.runs.runs.push_back(r);
  }
  state_.runs.baseline = 1;
  state_.runs.baselineChosen = true;
  for (const ImVec2 size : kSizes) {
    SCOPED_TRACE(sizeText(size));
    resize(size);
    const ImGuiWindow* runs = panel("Runs");
    ASSERT_NE(runs, nullptr);
    const ChartAxes* chart = drawnChart("runs");
    ASSERT_NE(chart, nullptr) << "no comparison chart drawn";
    const ScreenRect& plot = chart->plot;
    EXPECT_GE(plot.width(), 0.4f * runs->InnerRect.GetWidth()) << "the bars' room";
    EXPECT_LE(plot.x1, runs->InnerRect.Max.x) << "past the panel's right edge";
    EXPECT_EQ(chart->xUnit, "GB/s");
    expectLinearTicks(chart->x, plot.x0, plot.x1, chart->x.back().value);
    EXPECT_GE(chart->x.back().value, 310.0);
    EXPECT_LT(chart->x[chart->x.size() - 2].value, 310.0) << "the axis goes a tick too far";
    const double top = chart->x.back().value;
    ASSERT_EQ(chart->bars.size(), 3u);
    // Each bar names its run by what differs, in words ("tiled wg=64": "tiled, 64 per group"),
    // and is as long as its value.
    const std::vector<std::string> labels = {"tiled, 64 per group", "tiled, 128 per group", "naive, 64 per group"};
    for (const ChartBar& bar : chart->bars) {
      const auto named = std::find(labels.begin(), labels.end(), bar.label);
      ASSERT_NE(named, labels.end()) << "'" << bar.label << "' names no run in words";
      const RunRecord* run = &state_.runs.runs[static_cast<size_t>(named - labels.begin())];
      EXPECT_EQ(bar.label.find("@lab"), std::string::npos) << "the words every run has are left out";
      EXPECT_NEAR(bar.rect.x1 - bar.rect.x0, plot.width() * float(run->m.rate / top), 0.5f) << bar.label;
      EXPECT_GE(bar.rect.height(), ImGui::GetTextLineHeight()) << "a bar thinner than its label";
    }
    ASSERT_TRUE(chart->baseline);
    EXPECT_NEAR(*chart->baseline, plot.x0 + plot.width() * float(rates[1] / top), 0.5f);
  }
  // Kernel time: its own unit; FPS of runs measured without frames: no bar at all.
  state_.runs.chartMetric = 1;
  frames(2);
  ASSERT_NE(drawnChart("runs"), nullptr);
  EXPECT_EQ(drawnChart("runs")->xUnit, "ms");
  EXPECT_GE(drawnChart("runs")->x.back().value, 3.0);
  state_.runs.chartMetric = 2;
  frames(2);
  ASSERT_NE(drawnChart("runs"), nullptr);
  for (const ChartBar& bar : drawnChart("runs")->bars) EXPECT_EQ(bar.rect.width(), 0.0f) << bar.label;
}

// The bars name image runs in words, not by variant id ("bilinear_image"): the plain
// name, cut after a whole word with "..." where it does not fit, each bar still told apart.
TEST_F(ChartsUi, TheRunsBarsNameVariantsInWords) {
  state_.runs.showRuns = true;
  const char* variants[] = {"bilinear_image", "nearest_image", "bilinear_local"};
  for (int i = 0; i < 3; ++i) {
    RunRecord r;
    r.name = std::string("rotate ") + variants[i] + " wg=16x8 ppi=4";
    r.m.rate = 100.0 + 50.0 * i;
    r.m.rateUnit = "GB/s";
    state_.runs.runs.push_back(r);
  }
  for (const ImVec2 size : kSizes) {
    SCOPED_TRACE(sizeText(size));
    std::vector<std::string> labels = runsBarLabels(size);
    ASSERT_EQ(labels.size(), 3u) << "no comparison chart of the three runs drawn";
    for (const std::string& label : labels) {
      EXPECT_EQ(label.find('_'), std::string::npos) << "a variant id: " << label;
      // The label is the plain name of one of the runs' variants, or its start up to a whole word.
      // (Not a structured binding: clang 14 cannot capture one in the lambda.)
      const ShownLabel drawn = shownLabel(label);
      const std::string& shown = drawn.words;
      const bool cut = drawn.cut;
      const bool named = std::any_of(std::begin(variants), std::end(variants), [&](const char* id) {
        const std::string words = plainVariantName("rotate", id);
        return cut ? words.rfind(shown, 0) == 0 && (shown.size() == words.size() || words[shown.size()] == ' ')
                   : words == shown;
      });
      EXPECT_TRUE(named) << "'" << label << "' is no variant's name in words";
      EXPECT_FALSE(shown.empty());
    }
    std::sort(labels.begin(), labels.end());
    EXPECT_EQ(std::unique(labels.begin(), labels.end()), labels.end()) << "two bars with one label";
  }
}

// The bars name N-body recordings in words, as the table's rows do: "1: blocked, 64 per group",
// not the record's shorthand ("1: blocked wg=64 B=2 S=1"); cut after a whole word with "..."
// where the names' third of the chart is too narrow, but never before the work-group.
TEST_F(ChartsUi, TheRunsBarsSaySettingsInWords) {
  state_.runs.showRuns = true;
  NBodyConfig blocked64, blocked128, tiled;
  blocked64.variant = blocked128.variant = "blocked";
  blocked64.workGroup = tiled.workGroup = 64;
  blocked128.workGroup = 128;
  tiled.variant = "tiled";
  tiled.fastRelaxedMath = true;
  const NBodyConfig* configs[] = {&blocked64, &blocked128, &tiled};
  // The label each should have whole: the words that differ between the runs (the
  // blocked runs' bodies per work-item and work-items per body, alike wherever given,
  // tell none apart).
  const char* words[] = {"1: blocked, 64 per group", "2: blocked, 128 per group",
                         "3: tiled, 64 per group, fast relaxed maths"};
  const char* atLeast[] = {"1: blocked, 64 per group", "2: blocked, 128 per group", "3: tiled, 64 per group"};
  for (int i = 0; i < 3; ++i) {
    RunRecord r;  // as app/run_recorder.cpp names a recording
    r.name = "recording " + std::to_string(i + 1) + ": nbody " + describeNBodyConfig(*configs[i]);
    r.m.fps = 30.0 + 10.0 * i;
    r.m.rate = 5.0 + i;
    r.m.rateUnit = "GFLOP/s";
    state_.runs.addMeasuredRun(r);
  }
  for (const ImVec2 size : kSizes) {
    SCOPED_TRACE(sizeText(size));
    const std::vector<std::string> labels = runsBarLabels(size);
    ASSERT_EQ(labels.size(), 3u) << "no comparison chart of the three runs drawn";
    for (size_t n = 0; n < 3; ++n) {
      const std::string& label = labels[n];
      EXPECT_EQ(label.find('='), std::string::npos) << "a setting as key=value: " << label;
      const auto [shown, cut] = shownLabel(label);
      const std::string whole = words[n];
      if (cut) {
        EXPECT_EQ(whole.rfind(shown, 0), 0u) << "'" << label << "' is not the start of '" << whole << "'";
        EXPECT_TRUE(shown.size() < whole.size() && (whole[shown.size()] == ' ' || whole[shown.size()] == ','))
            << "'" << label << "' cut inside a word";
        EXPECT_EQ(shown.rfind(atLeast[n], 0), 0u) << "'" << label << "' is cut before its work-group";
      } else {
        EXPECT_EQ(shown, whole);
      }
    }
  }
}

// The "bound by" cell is read whole at both sizes (audit at 1024x700: "fast inverse square
// root 12 %" was cut to "fast inverse square r" by the column's edge): it wraps in its column.
TEST_F(ChartsUi, TheRunsBoundByCellIsNotCut) {
  state_.runs.showRuns = true;
  for (int i = 0; i < 2; ++i) {
    RunRecord r;
    r.name = "recording " + std::to_string(i + 1) + ": nbody blocked wg=" + std::to_string(64 << i) +
             " unroll=8 B=1 S=1 fp32 native_rsqrt";
    r.m.fps = 9.0;
    r.m.rate = 1.6 - 0.4 * i;
    r.m.rateUnit = "GFLOP/s";
    r.m.kernelMs.median = 40.0 + 13.0 * i;
    r.m.bound = "n-body step: fast inverse square root: " + std::to_string(12 + i) + " %";
    state_.runs.addMeasuredRun(r);
  }
  for (const ImVec2 size : kSizes) {
    SCOPED_TRACE(sizeText(size));
    resize(size);
    ImGuiWindow* runs = ImGui::FindWindowByName("Runs");
    ASSERT_TRUE(runs && runs->WasActive);
    const ImGuiTable* table = ImGui::TableFindByID(runs->GetID("runs"));
    ASSERT_NE(table, nullptr);
    const ImGuiTableColumn* bound = nullptr;
    for (int c = 0; c < table->ColumnsCount; ++c)
      if (std::string(ImGui::TableGetColumnName(table, c)) == "bound by") bound = &table->Columns[c];
    ASSERT_NE(bound, nullptr);
    if (!bound->IsEnabled) continue;  // a narrow panel says it under the run's name, wrapped
    EXPECT_LE(bound->ContentMaxXUnfrozen, bound->MaxX + 0.5f) << "the bound-by text runs past its column";
  }
}

// The Runs panel at 1024x700 (audit): a header and four runs in view, the names with
// room, the speed-up column inside the panel (it was off to the right, past a
// sideways scroll); the baseline, until the user picks
// one, a run that has the figure compared (a sweep row without FPS made every
// speed-up "-").
TEST_F(ChartsUi, TheRunsTableIsReadableAt1024) {
  state_.runs.showRuns = true;
  for (int i = 0; i < 4; ++i) {  // a sweep's rows: kernels alone, no frames
    RunRecord r;
    r.name = "tiled wg=" + std::to_string(64 << i) + " unroll=4 fp32 native_rsqrt";
    r.meta.device = "pthread-AMD EPYC 7B13 64-Core Processor";
    r.m.rate = 10.0 + i;
    r.m.rateUnit = "GFLOP/s";
    r.m.kernelMs.median = 4.0 - i;
    state_.runs.addMeasuredRun(r);
  }
  for (int i = 0; i < 2; ++i) {  // recordings of the running scene
    RunRecord r;
    r.name = "recording " + std::to_string(i + 1) + ": N-body tiled wg=128 unroll=4 fp32 native_rsqrt";
    r.meta.device = "pthread-AMD EPYC 7B13 64-Core Processor";
    r.m.fps = 30.0 + 15.0 * i;
    r.m.rate = 9.0;
    r.m.rateUnit = "GFLOP/s";
    r.m.kernelMs.median = 5.0;
    state_.runs.addMeasuredRun(r);
  }
  state_.runs.chartMetric = 2;  // FPS
  resize(ImVec2(1024, 700));
  ImGuiWindow* runs = ImGui::FindWindowByName("Runs");
  ASSERT_TRUE(runs && runs->WasActive);
  const ImGuiTable* table = ImGui::TableFindByID(runs->GetID("runs"));
  ASSERT_NE(table, nullptr);
  EXPECT_EQ(state_.runs.baseline, 4) << "the first run with an FPS";
  const ImGuiTableColumn& speedUp = table->Columns[table->ColumnsCount - 1];
  EXPECT_TRUE(speedUp.IsVisibleX) << "the speed-up column is out of view";
  EXPECT_LE(speedUp.MaxX, table->InnerClipRect.Max.x + 0.5f) << "the speed-up column runs past the panel";
  EXPECT_LE(table->InnerClipRect.Max.x, runs->InnerRect.Max.x + 0.5f);
  EXPECT_GE(table->Columns[1].WidthGiven, 10.0f * ImGui::GetFontSize()) << "the names' room";
  const float twoLineRow = 2.0f * ImGui::GetTextLineHeight() + 2.0f * ImGui::GetStyle().CellPadding.y;
  // Three runs (four left the chart no room at this size: issue 22's layout item 2).
  EXPECT_GE(table->OuterRect.GetHeight(), ImGui::GetFrameHeight() + 3.0f * twoLineRow) << "fewer than three runs in view";
  EXPECT_LE(table->OuterRect.Max.y, runs->InnerRect.Max.y + 0.5f) << "the table runs past the panel's bottom";
  // The chart stays in the panel, under the table, and says which run is the baseline.
  const ChartAxes* chart = drawnChart("runs");
  ASSERT_NE(chart, nullptr);
  ASSERT_TRUE(chart->baseline) << "the baseline run has an FPS: it has a line";
  EXPECT_GE(chart->plot.y0, table->OuterRect.Max.y);
  // Two bars at least in view with the chart's caption and axis (audit: a strip of one
  // bar cut in half, scrolled).
  const ImGuiWindow* child = nullptr;
  for (ImGuiWindow* w : ImGui::GetCurrentContext()->Windows)
    if (w->ParentWindow == runs && std::string(w->Name).find("comparison chart") != std::string::npos) child = w;
  ASSERT_NE(child, nullptr);
  const float bar = ImGui::GetTextLineHeight() + 4.0f;
  EXPECT_GE(child->InnerRect.Max.y - chart->plot.y0, 2.0f * bar) << "fewer than two bars in view";
  EXPECT_LE(child->Pos.y + child->Size.y, runs->InnerRect.Max.y + 0.5f) << "the chart runs past the panel";
}

// Two recordings at 1024x700 beside the Sweep panel (the audit's FPS comparison): both
// bars and the axis's labels under them in view, with a caption that wraps.
// In the app's own font (DejaVu Sans, taller than ImGui's built-in one): the audit saw
// the axis's labels cut there.
TEST_F(ChartsUi, TwoRecordedRunsShowWholeAt1024) {
  ImGui::DestroyContext();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;
  applyAppStyle();
  const UiFonts fonts = loadUiFonts(1.0f);
  if (!fonts.text) GTEST_SKIP() << fonts.message;
  unsigned char* pixels = nullptr;
  int atlasW = 0, atlasH = 0;
  ImGui::GetIO().Fonts->GetTexDataAsRGBA32(&pixels, &atlasW, &atlasH);
  state_.runs.showRuns = state_.runs.showSweep = true;
  for (int i = 0; i < 2; ++i) {
    RunRecord r;
    r.name = "recording " + std::to_string(i + 1) + ": nbody blocked wg=" + std::to_string(64 << i) +
             " unroll=8 B=1 S=1 fp32 native_rsqrt";
    r.meta.device = "pthread-skylake-avx512-AMD EPYC";
    r.meta.parameters = {{"bodies", "3328"}, {"preset", "disk"}, {"fast_math", "0"}};
    r.m.fps = 17.5 - 3.0 * i;
    r.m.rate = 5.0 - i;
    r.m.rateUnit = "GFLOP/s";
    r.m.kernelMs.median = 44.0 + 10.0 * i;
    state_.runs.addMeasuredRun(r);
  }
  resize(ImVec2(1024, 700));
  const ImGuiWindow* runs = panel("Runs");
  ASSERT_NE(runs, nullptr);
  const ChartAxes* chart = drawnChart("runs");
  ASSERT_NE(chart, nullptr);
  EXPECT_EQ(chart->bars.size(), 2u);
  const ImGuiWindow* child = nullptr;
  for (ImGuiWindow* w : ImGui::GetCurrentContext()->Windows)
    if (w->ParentWindow == runs && std::string(w->Name).find("comparison chart") != std::string::npos) child = w;
  ASSERT_NE(child, nullptr);
  EXPECT_EQ(child->ScrollMax.y, 0.0f) << "the chart scrolls";
  EXPECT_GE(child->InnerRect.Max.y, chart->plot.y1 + ImGui::GetTextLineHeight()) << "the axis's labels are cut";
}

// Runs as the audit had them at 1024x700: two recordings that differ in their work-group,
// then a sweep's configurations (variants, work-groups, unrolling); each added to the Runs panel.
void addSweepAndRecordings(RunsState& runs) {
  for (int i = 0; i < 2; ++i) {
    NBodyConfig c;
    c.workGroup = 64 << i;
    c.unroll = 8;
    c.bodiesPerItem = 1;
    c.split = 1;
    c.nativeRsqrt = true;
    RunRecord r;  // as app/run_recorder.cpp names a recording
    r.name = "recording " + std::to_string(i + 1) + ": nbody " + describeNBodyConfig(c);
    r.meta.device = "pthread-haswell-AMD EPYC";
    r.meta.parameters = {{"bodies", "1792"}, {"preset", "disk"}, {"bodies_per_item", "1"}, {"split", "1"},
                         {"native_rsqrt", "1"}, {"fast_math", "0"}};
    r.m.fps = 7.9 - 2.0 * i;
    r.m.rate = 1.3 + 0.5 * i;
    r.m.rateUnit = "GFLOP/s";
    r.m.kernelMs.median = 51.0 - 10.0 * i;
    r.m.bound = "n-body step: fast inverse square root: 4 %";
    runs.addMeasuredRun(r);
  }
  for (const char* variant : {"blocked", "tiled"})
    for (int wg : {64, 128})
      for (int unroll : {1, 4, 8}) {
        NBodyConfig c;
        c.variant = variant;
        c.workGroup = wg;
        c.unroll = unroll;
        c.bodiesPerItem = 1;
        c.split = 1;
        c.nativeRsqrt = true;
        RunRecord r;  // as lab/sweep_runs.cpp names a measured configuration
        r.name = describeNBodyConfig(c);
        r.meta.device = "pthread-haswell-AMD EPYC";
        r.meta.parameters = {{"bodies", "1792"}, {"unroll", std::to_string(unroll)}};
        r.m.rate = 1.0 + 0.1 * unroll + 0.001 * wg;
        r.m.rateUnit = "GFLOP/s";
        r.m.kernelMs.median = 40.0 / r.m.rate;
        runs.addMeasuredRun(r);
      }
}

// Issue 22 (audit at 1024x700): the bars of a sweep were cut to the same words ("blocked,
// 128 per group..." on every bar of that work-group); each bar's label now differs, in
// the app's font, at both sizes, with the Sweep panel beside Runs or not.
TEST_F(ChartsUi, TheBarsOfASweepReadApartAt1024) {
  ImGui::DestroyContext();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;
  applyAppStyle();
  const UiFonts fonts = loadUiFonts(1.0f);
  if (!fonts.text) GTEST_SKIP() << fonts.message;
  unsigned char* pixels = nullptr;
  int atlasW = 0, atlasH = 0;
  ImGui::GetIO().Fonts->GetTexDataAsRGBA32(&pixels, &atlasW, &atlasH);
  addSweepAndRecordings(state_.runs);
  for (const bool sweepOpen : {true, false})
    for (const ImVec2 size : kSizes) {
      SCOPED_TRACE(sizeText(size) + (sweepOpen ? " beside the Sweep panel" : " alone"));
      state_.runs.showRuns = true;
      state_.runs.showSweep = sweepOpen;
      resize(size);
      const ChartAxes* chart = drawnChart("runs");
      ASSERT_NE(chart, nullptr);
      ASSERT_EQ(chart->bars.size(), state_.runs.runs.size());
      std::vector<std::string> labels;
      for (const ChartBar& bar : chart->bars) {
        EXPECT_EQ(bar.label.find('='), std::string::npos) << "a setting as key=value: " << bar.label;
        labels.push_back(bar.label);
      }
      std::sort(labels.begin(), labels.end());
      for (size_t i = 1; i < labels.size(); ++i) EXPECT_NE(labels[i - 1], labels[i]) << "two bars read alike";
    }
}

// Issue 22 (audit at 1024x700): the Runs table showed one run, its words wrapped over six
// lines; three runs or more are in view now, with the chart under them, in the app's
// font, with the Sweep panel beside Runs or not.
TEST_F(ChartsUi, TheRunsTableShowsThreeRunsAt1024) {
  ImGui::DestroyContext();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;
  applyAppStyle();
  const UiFonts fonts = loadUiFonts(1.0f);
  if (!fonts.text) GTEST_SKIP() << fonts.message;
  unsigned char* pixels = nullptr;
  int atlasW = 0, atlasH = 0;
  ImGui::GetIO().Fonts->GetTexDataAsRGBA32(&pixels, &atlasW, &atlasH);
  addSweepAndRecordings(state_.runs);
  for (const bool sweepOpen : {true, false}) {
    SCOPED_TRACE(sweepOpen ? "beside the Sweep panel" : "alone");
    state_.runs.showRuns = true;
    state_.runs.showSweep = sweepOpen;
    resize(ImVec2(1024, 700));
    ImGuiWindow* runs = ImGui::FindWindowByName("Runs");
    ASSERT_TRUE(runs && runs->WasActive);
    const ImGuiTable* table = ImGui::TableFindByID(runs->GetID("runs"));
    ASSERT_TRUE(table && table->InnerWindow);
    // The rows' mean height from the table's content: the header's row, then the runs.
    const float header = ImGui::GetTextLineHeight() + 2.0f * ImGui::GetStyle().CellPadding.y;
    const float rowsHeight = table->InnerWindow->ContentSize.y - header;
    const float meanRow = rowsHeight / float(state_.runs.runs.size());
    const float inView = (table->InnerWindow->InnerRect.GetHeight() - header) / meanRow;
    EXPECT_GE(inView, 3.0f) << "rows of " << meanRow << " pixels in a table of " << table->OuterRect.GetHeight();
    EXPECT_LE(table->OuterRect.Max.y, runs->InnerRect.Max.y + 0.5f) << "the table runs past the panel's bottom";
    const ChartAxes* chart = drawnChart("runs");
    ASSERT_NE(chart, nullptr) << "the chart gave way to the table";
    EXPECT_GE(chart->plot.y0, table->OuterRect.Max.y);
    const ImGuiWindow* child = nullptr;
    for (ImGuiWindow* w : ImGui::GetCurrentContext()->Windows)
      if (w->ParentWindow == runs && std::string(w->Name).find("comparison chart") != std::string::npos) child = w;
    ASSERT_NE(child, nullptr);
    ASSERT_GE(chart->bars.size(), 2u);
    EXPECT_LE(chart->bars[1].rect.y1, child->InnerRect.Max.y + 0.5f) << "fewer than two bars in view";
    EXPECT_LE(child->Pos.y + child->Size.y, runs->InnerRect.Max.y + 0.5f) << "the chart runs past the panel";
  }
}

// The Profiler's statistics at 1024 wide in a narrow strip (Runs and Sweep beside it):
// every column as wide as its numbers, the table scrolling sideways instead (audit:
// columns cut mid-number).
TEST_F(ChartsUi, TheProfilersNumbersAreNotCutAt1024) {
  state_.runs.showRuns = state_.runs.showSweep = true;
  for (int i = 0; i < 60; ++i) {
    state_.profiler.record("frame", 1234.567 + i);
    state_.profiler.record("update", 123.456 + i);
  }
  resize(ImVec2(1024, 700));
  ImGuiWindow* profiler = ImGui::FindWindowByName("Profiler");
  ASSERT_TRUE(profiler && profiler->WasActive);
  // There it is in the left column (the strip is Runs' and Sweep's): scrolled down to
  // its statistics, as a user would.
  const ImGuiTable* table = nullptr;
  for (float y = 0.0f; !table && y <= profiler->ScrollMax.y + 20.0f; y += 20.0f) {
    profiler->Scroll.y = std::min(y, profiler->ScrollMax.y);
    frames(2);
    if (const ImGuiTable* t = ImGui::TableFindByID(profiler->GetID("stages")); t && t->LastFrameActive == ImGui::GetFrameCount())
      table = t;
  }
  ASSERT_NE(table, nullptr) << "no statistics table";
  ASSERT_LT(profiler->Size.x, 400.0f) << "a wide panel: nothing to test";
  for (int c = 0; c < table->ColumnsCount; ++c)
    EXPECT_GE(table->Columns[c].WidthGiven + 0.5f, table->Columns[c].WidthAuto)
        << "column " << c << " is cut in a " << profiler->Size.x << "-pixel panel";
}

// The Profiler's FPS and its time per frame are over the same window, the FPS
// counter's: the time is 1000 / FPS (audit: "9.3 FPS, 84.01 ms per frame", the last
// frame's time beside a quarter second's rate). So is the status bar's.
TEST(FrameRateText, TheTimePerFrameIsOverTheFpsWindow) {
  for (const double fps : {9.3, 11.87, 59.94, 144.0, 0.5}) {
    double shown = 0.0, ms = 0.0;
    ASSERT_EQ(std::sscanf(frameRateText(fps, false).c_str(), "%lf FPS, %lf ms per frame", &shown, &ms), 2)
        << frameRateText(fps, false);
    EXPECT_NEAR(shown * ms, 1000.0, 0.05 * (ms + shown) + 0.01) << frameRateText(fps, false);
    double briefFps = 0.0, briefMs = 0.0;
    ASSERT_EQ(std::sscanf(frameRateText(fps, true).c_str(), "%lf FPS (%lf ms)", &briefFps, &briefMs), 2)
        << frameRateText(fps, true);
    EXPECT_EQ(briefFps, shown);
    EXPECT_EQ(briefMs, ms);
  }
  EXPECT_EQ(frameRateText(0.0, false), "- FPS") << "no rate yet";
  EXPECT_EQ(frameRateText(std::nan(""), true), "- FPS");
}

TEST(RunsChartWords, BarsAreNamedByTheWordsThatDiffer) {
  EXPECT_EQ(distinguishingNames({"tiled wg=64 unroll=4 fp32 @vm", "tiled wg=128 unroll=4 fp32 @vm", "naive wg=64 fp32 @vm"}),
            (std::vector<std::string>{"tiled wg=64 unroll=4", "tiled wg=128 unroll=4", "naive wg=64"}));
  EXPECT_EQ(distinguishingNames({"run 1", "run 1"}), (std::vector<std::string>{"run 1", "run 1"}))
      << "names that are all alike stay whole";
  EXPECT_EQ(distinguishingNames({"blocked wg=256"}), (std::vector<std::string>{"blocked wg=256"}));
  EXPECT_TRUE(distinguishingNames({}).empty());
  EXPECT_EQ(distinguishingNames({"recording 1: image", "recording 2: image"}),
            (std::vector<std::string>{"recording 1: image", "recording 2: image"}))
      << "names that differ only in their numbers stay whole, not \"1:\" and \"2:\"";
}

// The y tick values of a histogram row for its largest bin, as the panel should place
// them: linear from 0, or 0 and powers of ten on the log scale.
void expectCountTicks(const ChartAxes& chart, double largest, bool logScale) {
  ASSERT_GE(chart.y.size(), 2u) << "0 and at least one count";
  EXPECT_EQ(chart.y.front().value, 0.0);
  EXPECT_FLOAT_EQ(chart.y.front().pixel, chart.plot.y1) << "0 at the bottom";
  for (const ChartTick& t : chart.y) {
    EXPECT_LE(t.value, largest) << "a count above the bars' full height";
    if (logScale && t.value > 0) {
      EXPECT_DOUBLE_EQ(std::pow(10.0, std::round(std::log10(t.value))), t.value);
    }
    const float f = float(logScale ? std::log1p(t.value) / std::log1p(largest) : t.value / largest);
    EXPECT_NEAR(t.pixel, chart.plot.y1 - chart.plot.height() * f, 0.5f) << t.label;
  }
  if (!logScale) expectLinearTicks(chart.y, chart.plot.y1, chart.plot.y1 - chart.plot.height(), largest);
}

// The histogram's rows have a level axis (0..255, a tick at the middle of its level's
// bar) and a count axis (log when log scale is on); the bars are at least a pixel a
// level wide at 1024x700 as at 1600x1000 (they were about 130 pixels there, beside
// the statistics); the statistics stay inside the panel.
// Issue 23, item 3: the Runs table has a column with the ceiling that bound each run's
// kernels and the fraction reached (before, a grey line under the name, or nothing).
TEST_F(ChartsUi, TheRunsTableHasABoundByColumn) {
  state_.runs.showRuns = true;
  RunRecord r;
  r.name = "tiled wg=64 fp32";
  r.m.rate = 100.0;
  r.m.rateUnit = "GFLOP/s";
  r.m.kernelMs.median = 1.0;
  r.m.bound = "n-body step: FP32 issue: 74 %";
  state_.runs.runs.push_back(r);
  for (const ImVec2 size : kSizes) {
    SCOPED_TRACE(sizeText(size));
    resize(size);
    const ImGuiWindow* runs = panel("Runs");
    ASSERT_NE(runs, nullptr);
    const ImGuiTable* table = nullptr;
    for (const ImGuiTable& t : ImGui::GetCurrentContext()->Tables.Buf)
      if (t.OuterWindow == runs) table = &t;
    ASSERT_NE(table, nullptr) << "no runs table";
    int bound = -1;
    for (int n = 0; n < table->ColumnsCount; ++n)
      if (std::string(ImGui::TableGetColumnName(table, n)) == "bound by") bound = n;
    ASSERT_GE(bound, 0) << "no 'bound by' column";
    // A narrow table (the panel beside Sweep at 1024 wide) leaves the column out and
    // shows the bound under the run's name, as it does the device.
    if (!(table->Columns[bound].Flags & ImGuiTableColumnFlags_IsEnabled)) {
      EXPECT_LT(size.x, 1600.0f) << "the column is left out only in a narrow panel";
      continue;
    }
    EXPECT_GE(table->Columns[bound].WidthGiven, ImGui::CalcTextSize("FP32 issue 74 %").x) << "the cell's text fits";
  }
}

TEST_F(ChartsUi, HistogramRowsHaveLevelAndCountAxesAndRoomAt1024) {
  openPicture(state_);
  const ImageHistogram& h = state_.image.readings().histogram;
  for (const bool logScale : {false, true})
    for (const ImVec2 size : kSizes) {
      SCOPED_TRACE(sizeText(size) + (logScale ? " log" : " linear"));
      state_.image.choices.logScale = logScale;
      resize(size);
      const ImGuiWindow* strip = panel("Histogram");
      ASSERT_NE(strip, nullptr);
      int rows = 0;
      for (int c = 0; c < h.channelCount(); ++c) {
        const std::string name = histogramChannelName(h.imageChannels, c);
        const ChartAxes* chart = drawnChart("histogram " + name);
        if (!state_.image.choices.showChannel[c]) {
          EXPECT_EQ(chart, nullptr) << name << " is not ticked but drawn";
          continue;
        }
        ASSERT_NE(chart, nullptr) << name;
        ++rows;
        const ScreenRect& plot = chart->plot;
        EXPECT_GE(plot.width(), float(kHistogramBins)) << name << ": narrower than a pixel a level";
        EXPECT_LE(plot.x1, strip->InnerRect.Max.x + 0.5f);
        EXPECT_GE(plot.height(), ImGui::GetTextLineHeight());
        EXPECT_EQ(chart->xUnit, "level");
        // The bins leave a bar's width free at each end (ui/histogram_bars.h).
        const HistogramBarsLayout bins = histogramBarsLayout(plot.x0, plot.x1);
        const float levelWidth = bins.binWidth;
        expectLinearTicks(chart->x, bins.x0 + 0.5f * levelWidth, bins.x1 + 0.5f * levelWidth, kHistogramBins);
        EXPECT_LE(chart->x.back().value, 255.0);
        EXPECT_GT(chart->x.back().value + (chart->x[1].value - chart->x[0].value), 255.0) << "ticks stop short";
        // The full height is the largest bin of the channels drawn in this plot (R, G
        // and B overlaid share it).
        double largest = 0.0;
        for (int other = 0; other < h.channelCount(); ++other) {
          const ChartAxes* o = drawnChart(std::string("histogram ") + histogramChannelName(h.imageChannels, other));
          if (o && state_.image.choices.showChannel[other] && o->plot.y0 == plot.y0)
            largest = std::max(largest, double(*std::max_element(h.channel(other), h.channel(other) + kHistogramBins)));
        }
        expectCountTicks(*chart, largest, logScale);
      }
      EXPECT_EQ(rows, 4) << "R, G, B and luminance are ticked";
      for (const char* id : {"stats", "percentiles"}) {
        const ImGuiTable* table = nullptr;
        for (ImGuiWindow* w : ImGui::GetCurrentContext()->Windows)
          if (w->WasActive && !table) table = ImGui::TableFindByID(w->GetID(id));
        ASSERT_NE(table, nullptr) << id;
        EXPECT_LE(table->OuterRect.Max.x, strip->InnerRect.Max.x) << id << " runs past the panel";
      }
    }
}

// Hovering a level shows its count from the read-back, on a log scale too (item 9:
// it showed the log of it), and the chart says which level.
TEST_F(ChartsUi, HoveringTheHistogramShowsTheCountOfTheLevel) {
  openPicture(state_);
  state_.image.choices.logScale = true;
  for (const ImVec2 size : kSizes) {
    SCOPED_TRACE(sizeText(size));
    resize(size);
    for (const int level : {0, 100, 255}) {
      const ChartAxes* chart = drawnChart("histogram G");
      ASSERT_NE(chart, nullptr);
      const ScreenRect plot = chart->plot;
      // ImGui puts the cursor on whole pixels: the first whose centre is inside the
      // level's bar (the pixel the shader draws from it).
      const HistogramBarsLayout bins = histogramBarsLayout(plot.x0, plot.x1);
      const float left = bins.x0 + float(level) * bins.binWidth;
      const ImVec2 at(std::ceil(left - 0.5f), std::floor((plot.y0 + plot.y1) * 0.5f));
      ASSERT_LT(at.x + 0.5f, left + bins.binWidth) << "no whole pixel in level " << level;
      frames(2, at);
      chart = drawnChart("histogram G");
      ASSERT_NE(chart, nullptr);
      // R, G and B are overlaid in one plot at both sizes: the counts of all three.
      auto count = [&](int c) { return std::to_string(state_.image.readings().histogram.channel(c)[level]); };
      EXPECT_EQ(chart->hover, "level " + std::to_string(level) + ": R " + count(0) + ", G " + count(1) + ", B " +
                                  count(2) + " pixels");
      EXPECT_TRUE(drawnChart("histogram luminance")->hover.empty()) << "another row answers for the cursor";
    }
  }
}

// A picture whose histogram is `levels` (per histogram channel, the one level every
// pixel has), as File > Examples' fine checkerboard (gray: half at 0, half at 255) or
// one colour (RGBA: one level a channel) gives it.
void openLoneLevels(AppState& state, int imageChannels, const std::vector<std::vector<int>>& levels, uint32_t pixels) {
  state.scene = SceneKind::Image;
  ImageLabState& lab = state.image;
  stagedReadings(lab).width = stagedReadings(lab).resultWidth = 1024;
  stagedReadings(lab).height = stagedReadings(lab).resultHeight = static_cast<int>(pixels / 1024);
  stagedReadings(lab).channels = stagedReadings(lab).resultChannels = imageChannels;
  stagedReadings(lab).hasOriginal = stagedReadings(lab).hasResult = true;
  ImageHistogram& h = stagedReadings(lab).histogram;
  h.imageChannels = imageChannels;
  h.bins.assign(static_cast<size_t>(kHistogramBins * h.channelCount()), 0);
  for (int c = 0; c < h.channelCount(); ++c)
    for (int level : levels[static_cast<size_t>(c)])
      h.bins[static_cast<size_t>(c * kHistogramBins + level)] = pixels / static_cast<uint32_t>(levels[static_cast<size_t>(c)].size());
  stagedReadings(lab).statistics.imageChannels = imageChannels;
  stagedReadings(lab).statistics.channels.resize(static_cast<size_t>(h.channelCount()));
  for (ChannelStatistics& s : stagedReadings(lab).statistics.channels) s.count = pixels;
}

// Issue 22 (audit): File > Examples' fine checkerboard showed no bars: its two levels (0
// and 255) were a line of 1.4 pixels at each end of the plot at 1024 wide, under its
// edges. Each lone level is a bar now, at least kMinBarWidth wide, clear of the plot's
// edges and as tall as its count, on linear and log scales; hovering any pixel of it
// gives its count. The same for the one-colour example (one level a channel).
TEST_F(ChartsUi, LoneLevelsAreBarsThatCanBeHovered) {
  struct Example {
    const char* name;
    int imageChannels;
    std::vector<std::vector<int>> levels;
    uint32_t pixels;
  };
  const Example examples[] = {{"fine checkerboard", 1, {{0, 255}}, 1024 * 1024},
                              {"one colour", 4, {{200}, {120}, {40}, {255}, {135}}, 512 * 512}};
  for (const Example& example : examples)
    for (const bool logScale : {false, true})
      for (const ImVec2 size : kSizes) {
        SCOPED_TRACE(std::string(example.name) + " " + sizeText(size) + (logScale ? " log" : " linear"));
        openLoneLevels(state_, example.imageChannels, example.levels, example.pixels);
        state_.image.choices.logScale = logScale;
        resize(size);
        const ImageHistogram& h = state_.image.readings().histogram;
        for (int c = 0; c < h.channelCount(); ++c) {
          if (!state_.image.choices.showChannel[static_cast<size_t>(std::min(c, 4))]) continue;
          const std::string channel = histogramChannelName(h.imageChannels, c);
          const ChartAxes* chart = drawnChart("histogram " + channel);
          ASSERT_NE(chart, nullptr) << channel;
          const ScreenRect plot = chart->plot;
          // The channels' names are not drawn over a bar (the checkerboard's level 0 was under
          // "gray") wherever the plot's top band has a place as wide as their box that no bar reaches.
          const ScreenRect legend = chart->legend;
          EXPECT_GT(legend.width(), 0.0f);
          EXPECT_GE(legend.x0, plot.x0);
          EXPECT_LE(legend.x1, plot.x1);
          std::vector<ScreenRect> tall;
          for (const ChartBar& b : chart->bars)
            if (b.rect.y0 < legend.y1) tall.push_back(b.rect);
          std::sort(tall.begin(), tall.end(), [](const ScreenRect& a, const ScreenRect& b) { return a.x0 < b.x0; });
          bool room = false;
          float free = plot.x0;
          for (const ScreenRect& b : tall) {
            room = room || b.x0 - free > legend.width() + 4.0f;
            free = std::max(free, b.x1);
          }
          room = room || plot.x1 - free > legend.width() + 4.0f;
          if (example.imageChannels == 1) {
            EXPECT_TRUE(room) << "the checkerboard's two bars leave room between them";
          }
          for (const ChartBar& b : chart->bars) {
            if (room) {
              EXPECT_FALSE(legend.overlaps(b.rect)) << channel << ": the names' box covers " << b.label;
            }
          }
          for (const int level : example.levels[static_cast<size_t>(c)]) {
            const std::string name = "level " + std::to_string(level);
            const auto bar = std::find_if(chart->bars.begin(), chart->bars.end(),
                                          [&](const ChartBar& b) { return b.label == name; });
            ASSERT_NE(bar, chart->bars.end()) << channel << " " << name << " has no bar";
            const ScreenRect r = bar->rect;
            EXPECT_GE(r.width(), kMinBarWidth - 0.01f) << channel << " " << name << ": a line, not a bar";
            EXPECT_GE(r.x0, plot.x0 + 1.0f) << channel << " " << name << " under the count axis";
            EXPECT_LE(r.x1, plot.x1) << channel << " " << name << " past the plot's end";
            EXPECT_NEAR(r.height(), plot.height(), 0.5f) << channel << " " << name << ": every pixel counts here";
            // The cursor (on whole pixels) over the bar's first and last pixel (the pixels
            // whose centres are in it, as the shader draws them), then its middle.
            const float first = std::ceil(r.x0 - 0.5f), last = std::ceil(r.x1 - 0.5f) - 1.0f;
            ASSERT_GE(last - first + 1.0f, std::floor(kMinBarWidth)) << channel << " " << name << " over too few pixels";
            for (const float x : {first, last, std::floor(0.5f * (first + last))}) {
              frames(2, ImVec2(x, std::floor(0.5f * (plot.y0 + plot.y1))));
              const ChartAxes* hovered = drawnChart("histogram " + channel);
              ASSERT_NE(hovered, nullptr);
              const std::string count = std::to_string(h.channel(c)[level]);
              EXPECT_NE(hovered->hover.find(name + ":"), std::string::npos)
                  << "at x " << x << " of " << r.x0 << ".." << r.x1 << ": " << hovered->hover;
              EXPECT_NE(hovered->hover.find(count), std::string::npos) << hovered->hover;
            }
            frames(1);
          }
        }
      }
}

// Issue 22: the histogram is readable at 1024x700 (its four stacked rows were 22
// pixels tall with one count tick each): R, G and B share one plot, luminance has its
// own, each tall enough for three count ticks; the picture still has most of the
// window's height. A gray picture keeps its one row; a panel made tall enough for
// rows of their own gets them.
TEST_F(ChartsUi, HistogramRowsAreReadableAt1024x700) {
  openPicture(state_);
  for (const ImVec2 size : {ImVec2(1024, 700), ImVec2(1280, 800), ImVec2(1600, 1000)}) {
    SCOPED_TRACE(sizeText(size));
    resize(size);
    const ChartAxes* r = drawnChart("histogram R");
    const ChartAxes* lum = drawnChart("histogram luminance");
    ASSERT_TRUE(r && lum);
    for (const char* name : {"G", "B"}) {
      ASSERT_NE(drawnChart(std::string("histogram ") + name), nullptr);
      EXPECT_EQ(drawnChart(std::string("histogram ") + name)->plot.y0, r->plot.y0) << name << " is not with R";
    }
    for (const ChartAxes* row : {r, lum}) {
      EXPECT_GE(row->plot.height(), 3.0f * ImGui::GetTextLineHeight()) << "a row too short to read";
      EXPECT_GE(row->y.size(), 3u) << "0 and at least two counts; row height " << row->plot.height();
    }
    ASSERT_TRUE(state_.image.viewArea);
    EXPECT_GT(state_.image.viewArea->height(), 0.5f) << "the histogram took the picture's place";
  }
  // Rows of their own where the strip is tall enough.
  ImGui::SetWindowSize("Histogram", ImVec2(900.0f, 700.0f));
  frames(3);
  ASSERT_TRUE(drawnChart("histogram R") && drawnChart("histogram G"));
  EXPECT_NE(drawnChart("histogram R")->plot.y0, drawnChart("histogram G")->plot.y0) << "a tall strip still overlays";
}

// Item 10: unticking a channel while the panels are scrolled leaves what is under the
// cursor where it was: the check box just clicked in the scrolled image lab, and the
// histogram's rows (as tall together whichever channels are ticked) in a strip the
// user made short enough to scroll.
TEST_F(ChartsUi, UntickingAChannelWhileScrolledMovesNothing) {
  openPicture(state_);
  resize(ImVec2(1024, 700));
  ImGuiWindow* lab = ImGui::FindWindowByName("Image lab");
  ASSERT_NE(lab, nullptr);
  ASSERT_GT(lab->ScrollMax.y, 0.0f) << "the image lab does not scroll at 1024x700";
  lab->Scroll.y = lab->ScrollMax.y;  // scrolled to the foot, where a shorter panel moves everything
  // The user makes the histogram strip short and scrolls it down too.
  ImGui::SetWindowSize("Histogram", ImVec2(600.0f, 90.0f));
  frames(3);
  ImGuiWindow* strip = ImGui::FindWindowByName("Histogram");
  ASSERT_GT(strip->ScrollMax.y, 0.0f) << "the short strip does not scroll";
  strip->Scroll.y = strip->ScrollMax.y;
  frames(2);
  // The check boxes of R and B, found by hovering down the panel's left side.
  ImGuiContext& g = *ImGui::GetCurrentContext();
  auto find = [&](const char* name) {
    const ImGuiID id = ImHashStr(name, 0, lab->ID);
    for (float y = lab->InnerRect.Min.y + 2.0f; y < lab->InnerRect.Max.y; y += 3.0f)
      for (float x = lab->InnerRect.Min.x + 8.0f; x < lab->InnerRect.Max.x; x += 12.0f) {
        frame(ImVec2(x, y));
        if (g.HoveredId == id) return ImVec2(x, y);
      }
    return ImVec2(-1, -1);
  };
  const ImVec2 r = find("R");
  ASSERT_GE(r.x, 0.0f) << "the R check box is not in view";
  const float labScroll = lab->Scroll.y, stripScroll = strip->Scroll.y, stripContent = strip->ContentSize.y;
  frame(r);
  frame(r, true);
  frame(r);
  frames(3, r);
  ASSERT_FALSE(state_.image.choices.showChannel[0]) << "the click did not untick R";
  EXPECT_EQ(g.HoveredId, ImHashStr("R", 0, lab->ID)) << "the check box moved from under the cursor";
  EXPECT_EQ(lab->Scroll.y, labScroll);
  EXPECT_EQ(strip->ContentSize.y, stripContent) << "the histogram's rows changed height";
  EXPECT_EQ(strip->Scroll.y, stripScroll) << "the strip scrolled";
  // Ticked again: back as it was.
  frame(r, true);
  frames(3, r);
  EXPECT_TRUE(state_.image.choices.showChannel[0]);
  EXPECT_EQ(strip->ContentSize.y, stripContent);
}

// The Profiler's frame times on a ms axis: ticks from 0 a 1-2-5 step apart, the top
// one at or above the slowest frame, labelled in ms. Before: an ImGui line plot with
// no scale at all.
TEST_F(ChartsUi, TheFrameTimesHaveAMillisecondAxis) {
  // Frames of about 16 ms, and of about a second (a slow CPU device): "1000", not "1k", ms.
  for (const double scale : {1.0, 60.0})
  for (const ImVec2 size : kSizes) {
    SCOPED_TRACE(sizeText(size) + " x" + std::to_string(scale));
    state_.profiler.clear();
    double slowest = 0.0;
    for (int i = 0; i < 120; ++i) {
      const double ms = scale * (14.0 + 9.0 * std::sin(i * 0.3) + (i == 60 ? 20.0 : 0.0));
      slowest = std::max(slowest, ms);
      state_.profiler.record("frame", ms);
    }
    resize(size);
    const ImGuiWindow* profiler = panel("Profiler");
    ASSERT_NE(profiler, nullptr);
    const ChartAxes* chart = drawnChart("frame time");
    ASSERT_NE(chart, nullptr) << "no frame-time chart";
    EXPECT_EQ(chart->yUnit, "ms");
    const ScreenRect& plot = chart->plot;
    EXPECT_GE(plot.width(), 0.75f * profiler->InnerRect.GetWidth());
    EXPECT_GE(plot.height(), 3.0f * ImGui::GetTextLineHeight());
    expectLinearTicks(chart->y, plot.y1, plot.y0, chart->y.back().value, false);
    EXPECT_GE(chart->y.back().value, slowest);
    EXPECT_LT(chart->y[chart->y.size() - 2].value, slowest);
    EXPECT_GE(chart->y.size(), 3u) << "a scale needs more than its ends";
    // Hovering the newest frame names its time.
    frames(2, ImVec2(plot.x1 - 1.0f, (plot.y0 + plot.y1) * 0.5f));
    ASSERT_NE(drawnChart("frame time"), nullptr);
    char newest[32];
    std::snprintf(newest, sizeof newest, "%.2f ms", state_.profiler.find("frame")->samples.samples().back());
    EXPECT_EQ(drawnChart("frame time")->hover.rfind(newest, 0), 0u) << drawnChart("frame time")->hover;
  }
}

// ---- speed against accuracy (issue 23, item 4) -----------------------------------

// An N-body run of `bodies` bodies at `ms` per step whose energy drifted by `drift`.
RunRecord nbodyRunWithDrift(const std::string& name, double ms, double drift, size_t bodies = 4096) {
  RunRecord r;
  r.name = name;
  r.meta.scene = "nbody";
  r.meta.parameters = {{"bodies", std::to_string(bodies)}};
  r.m.kernelMs.median = ms;
  r.m.rate = double(bodies) * double(bodies) * 20.0 / (ms * 1e-3) * 1e-9;
  r.m.rateUnit = "GFLOP/s";
  if (drift != 0.0) {
    r.m.energyDrift = drift;
    r.m.driftSteps = 1000;
  }
  return r;
}

TEST(SpeedAccuracyAxis, DecadesCoverTheDriftsAndEndOnALabel) {
  EXPECT_EQ(decadeTicks(3e-9, 4e-4, 10), (std::vector<double>{1e-9, 1e-8, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3}));
  const std::vector<double> sparse = decadeTicks(3e-15, 0.2, 4);
  ASSERT_GE(sparse.size(), 2u);
  EXPECT_LE(sparse.size(), 5u) << "every second or third decade when they would crowd";
  EXPECT_LE(sparse.front(), 3e-15);
  EXPECT_GE(sparse.back(), 0.2);
  EXPECT_EQ(decadeTicks(1e-6, 1e-6, 5), (std::vector<double>{1e-6, 1e-5})) << "one value: a decade from it";
  EXPECT_TRUE(decadeTicks(0.0, 1.0, 5).empty());
  EXPECT_EQ(decadeLabel(1e-6), "1e-6");
  EXPECT_EQ(decadeLabel(1.0), "1");
  const RunRecord r = nbodyRunWithDrift("x", 2.0, 1e-5, 1000);
  ASSERT_TRUE(runGigaInteractionsPerSecond(r));
  EXPECT_NEAR(*runGigaInteractionsPerSecond(r), 1000.0 * 1000.0 / 2e-3 * 1e-9, 1e-12);
}

// The view: a point per run with a drift, interactions/s across, |energy drift| up on a
// log scale with decade labels; the baseline marked; the runs without drift named, not
// plotted; the cursor on a point names the run and both figures. At both window sizes.
TEST_F(ChartsUi, SpeedAgainstAccuracyPlotsAPointPerRunWithADrift) {
  state_.runs.showRuns = true;
  state_.runs.chart = RunsState::Chart::SpeedVsAccuracy;
  state_.runs.runs = {nbodyRunWithDrift("blocked wg=256 fp32 native_rsqrt", 2.0, 3.1e-5),
                      nbodyRunWithDrift("blocked wg=256 fp64", 8.0, -2.0e-9),
                      nbodyRunWithDrift("blocked wg=256 fp32 native_rsqrt fast-math", 1.6, 4.2e-4),
                      nbodyRunWithDrift("recording 1: nbody blocked wg=256 fp32", 2.1, 0.0)};
  state_.runs.baseline = 1;  // fp64
  state_.runs.baselineChosen = true;
  for (const ImVec2 size : kSizes) {
    SCOPED_TRACE(sizeText(size));
    resize(size);
    const ImGuiWindow* runs = panel("Runs");
    ASSERT_NE(runs, nullptr);
    const ChartAxes* chart = drawnChart(kSpeedAccuracyChartId);
    ASSERT_NE(chart, nullptr) << "no speed-vs-accuracy chart drawn";
    EXPECT_EQ(drawnChart("runs"), nullptr) << "the bars give way to it";
    const ScreenRect& plot = chart->plot;
    EXPECT_GE(plot.width(), 0.6f * runs->InnerRect.GetWidth()) << "the points' room across";
    EXPECT_GE(plot.height(), 7.0f * ImGui::GetTextLineHeight()) << "room for the decades";
    EXPECT_LE(plot.x1, runs->InnerRect.Max.x);
    EXPECT_LE(plot.y1 + ImGui::GetTextLineHeight(), runs->InnerRect.Max.y) << "the x labels are inside the panel";
    EXPECT_EQ(chart->xUnit, "G interactions/s");
    expectLinearTicks(chart->x, plot.x0, plot.x1, chart->x.back().value);
    const double xTop = chart->x.back().value;
    // Decades, bottom to top, from at or under the smallest drift to at or over the largest.
    ASSERT_GE(chart->y.size(), 2u);
    EXPECT_LE(chart->y.front().value, 2.0e-9);
    EXPECT_GE(chart->y.back().value, 4.2e-4);
    const double lo = std::log10(chart->y.front().value), hi = std::log10(chart->y.back().value);
    for (const ChartTick& t : chart->y) {
      EXPECT_DOUBLE_EQ(std::pow(10.0, std::round(std::log10(t.value))), t.value) << t.label;
      EXPECT_NEAR(t.pixel, plot.y1 - plot.height() * float((std::log10(t.value) - lo) / (hi - lo)), 0.5f) << t.label;
      EXPECT_EQ(t.label, decadeLabel(t.value));
    }
    // A point per run with a drift, where its figures put it; the recording without one is not plotted.
    ASSERT_EQ(chart->bars.size(), 3u);
    for (const ChartBar& point : chart->bars) {
      const auto run = std::find_if(state_.runs.runs.begin(), state_.runs.runs.end(), [&](const RunRecord& r) {
        return r.m.hasDrift() && (" " + r.name + " ").find(" " + point.label + " ") != std::string::npos;
      });
      ASSERT_NE(run, state_.runs.runs.end()) << "'" << point.label << "' names no run with a drift";
      const float x = (point.rect.x0 + point.rect.x1) * 0.5f, y = (point.rect.y0 + point.rect.y1) * 0.5f;
      EXPECT_NEAR(x, plot.x0 + plot.width() * float(*runGigaInteractionsPerSecond(*run) / xTop), 0.5f) << point.label;
      EXPECT_NEAR(y, plot.y1 - plot.height() * float((std::log10(std::abs(run->m.energyDrift)) - lo) / (hi - lo)), 0.5f)
          << point.label;
    }
    ASSERT_TRUE(chart->baseline) << "the baseline run is marked";
    EXPECT_NEAR(*chart->baseline, plot.x0 + plot.width() * float(*runGigaInteractionsPerSecond(state_.runs.runs[1]) / xTop),
                0.5f);
    EXPECT_EQ(speedAccuracyNote(state_.runs), "No drift measured: recording 1: nbody blocked wg=256 fp32");
  }
  // The cursor on the fast-math point: its run, its speed and its drift.
  const ChartBar fast = *std::find_if(drawnChart(kSpeedAccuracyChartId)->bars.begin(),
                                      drawnChart(kSpeedAccuracyChartId)->bars.end(),
                                      [](const ChartBar& b) { return b.label.find("fast-math") != std::string::npos; });
  const ImVec2 at((fast.rect.x0 + fast.rect.x1) * 0.5f + 2.0f, (fast.rect.y0 + fast.rect.y1) * 0.5f + 1.0f);
  frames(3, at);
  ASSERT_NE(drawnChart(kSpeedAccuracyChartId), nullptr);
  const std::string& hover = drawnChart(kSpeedAccuracyChartId)->hover;
  EXPECT_NE(hover.find(state_.runs.runs[2].name), std::string::npos) << hover;
  EXPECT_NE(hover.find("G interactions/s"), std::string::npos) << hover;
  EXPECT_NE(hover.find("energy drift +4.200e-04 after 1000 steps"), std::string::npos) << hover;
}

// ---- the scaling view (issue 24) ---------------------------------------------

// Its variant is the name's first word, as the benches' names begin.
RunRecord splitRun(const std::string& name, int devices, double ms, size_t bodies = 1048576) {
  RunRecord r = nbodyRunWithDrift(name, ms, 0.0, bodies);
  r.status = "ok";
  r.m.split.devices = devices;
  r.meta.parameters.emplace_back("variant", name.substr(0, name.find(' ')));
  return r;
}

RunRecord withParameter(RunRecord r, const std::string& key, const std::string& value) {
  r.meta.parameters.emplace_back(key, value);
  return r;
}

// Runs are grouped by their records, not their names: two runs of one name that
// differ in a parameter are two lines, each labelled with what sets it apart; runs
// named alike on other device counts still join (the count is m.split.devices).
TEST(ScalingSeries, RunsOfOneNameThatDifferInAParameterAreTwoLines) {
  const std::vector<RunRecord> runs = {
      withParameter(splitRun("blocked on 1 device", 1, 100.0), "dt", "0.01"),
      withParameter(splitRun("blocked on 2 devices", 2, 50.0), "dt", "0.01"),
      withParameter(splitRun("blocked on 1 device", 1, 100.0), "dt", "0.02"),
      withParameter(splitRun("blocked on 2 devices", 2, 80.0), "dt", "0.02"),
      // A record that carries its device count as a parameter joins its configuration.
      withParameter(withParameter(splitRun("blocked on 4 devices", 4, 25.0), "dt", "0.01"), "devices", "4")};
  const std::vector<ScalingSeries> series = scalingSeries(runs);
  ASSERT_EQ(series.size(), 2u);
  EXPECT_EQ(series[0].name, "blocked (dt 0.01)");
  EXPECT_EQ(series[1].name, "blocked (dt 0.02)");
  ASSERT_EQ(series[0].points.size(), 3u);
  EXPECT_EQ(series[0].points[1].run, 1u);
  EXPECT_NEAR(series[0].points[1].speedUp, 2.0, 1e-9);
  EXPECT_EQ(series[0].points[2].run, 4u);
  EXPECT_NEAR(series[0].points[2].speedUp, 4.0, 1e-9);
  ASSERT_EQ(series[1].points.size(), 2u);
  EXPECT_EQ(series[1].points[1].run, 3u);
  EXPECT_NEAR(series[1].points[1].speedUp, 100.0 / 80.0, 1e-9);
}

TEST(ScalingSeries, NamesLoseTheirDeviceCountAndRunsGroupByConfigurationAndBodies) {
  EXPECT_EQ(nameWithoutDeviceCount("blocked wg=256 fp32 on 4 devices"), "blocked wg=256 fp32");
  EXPECT_EQ(nameWithoutDeviceCount("blocked wg=256 fp32 on 1 device"), "blocked wg=256 fp32");
  EXPECT_EQ(nameWithoutDeviceCount("blocked wg=64 over 12 MPI ranks"), "blocked wg=64");
  EXPECT_EQ(nameWithoutDeviceCount("blocked wg=64 over 1 MPI rank"), "blocked wg=64");
  EXPECT_EQ(nameWithoutDeviceCount("recording on devices"), "recording on devices");
  EXPECT_EQ(nameWithoutDeviceCount("on 3 devices"), "on 3 devices");  // nothing before it
  EXPECT_EQ(nameWithoutDeviceCount("blocked on 2 devices @gpu-host"), "blocked @gpu-host");  // imported
  const std::vector<RunRecord> runs = {
      splitRun("blocked on 1 device", 1, 100.0), splitRun("blocked on 2 devices", 2, 51.0),
      splitRun("blocked on 4 devices", 4, 26.0),
      splitRun("blocked on 2 devices", 2, 400.0, 4194304),  // another N: alone, no series
      splitRun("tiled over 2 MPI ranks", 2, 60.0), splitRun("tiled over 3 MPI ranks", 3, 41.0),
      splitRun("blocked on 2 devices", 2, 50.0)};  // a repeat: the newest of a count is taken
  const std::vector<ScalingSeries> series = scalingSeries(runs);
  ASSERT_EQ(series.size(), 2u);
  EXPECT_EQ(series[0].name, "blocked");
  EXPECT_EQ(series[0].bodies, "1048576");
  ASSERT_EQ(series[0].points.size(), 3u);
  EXPECT_EQ(series[0].points[1].run, 6u);
  EXPECT_NEAR(series[0].points[1].speedUp, 2.0, 1e-9);
  EXPECT_NEAR(series[0].points[2].speedUp, 100.0 / 26.0, 1e-9);
  EXPECT_NEAR(series[0].points[2].efficiency, 100.0 / 26.0 / 4.0, 1e-9);
  // Fewest ranks 2: the speed-up is against them, times two.
  EXPECT_EQ(series[1].name, "tiled");
  ASSERT_EQ(series[1].points.size(), 2u);
  EXPECT_NEAR(series[1].points[0].speedUp, 2.0, 1e-9);
  EXPECT_NEAR(series[1].points[1].speedUp, 2.0 * 60.0 / 41.0, 1e-9);
  EXPECT_NEAR(series[1].points[1].efficiency, 2.0 * 60.0 / 41.0 / 3.0, 1e-9);
}

// Records as the benches write them (lab/sweep_runs.h's nbodyRun): a run split
// over devices (--bench nbody --devices) and one over MPI ranks (mpi/), of one
// configuration and N, measured over different numbers of iterations (the
// seventeenth session ran MPI at 10, the devices at 20). How long a run was
// measured is no part of what scales: they are one line.
RunRecord benchRun(const std::string& suffix, int count, double stepMs, int iterations) {
  NBodyMeasurement m;
  m.config.variant = "blocked";
  m.config.workGroup = 256;
  m.stepMs = {stepMs, stepMs, stepMs};
  m.msPerStep = stepMs;
  RunRecord r = nbodyRun(test::fakeDevice(0, 0, "NVIDIA CUDA", "NVIDIA H200"), m, 1048576, iterations);
  r.name += suffix;
  r.m.split.devices = count;
  return r;
}

TEST(ScalingSeries, DeviceRunsAndMpiRankRunsOfOneConfigurationJoinOneLine) {
  const std::vector<RunRecord> runs = {benchRun(" on 1 device", 1, 560.0, 20),
                                       benchRun(" over 2 MPI ranks", 2, 280.0, 10)};
  ASSERT_EQ(runs[0].status, "ok");
  const std::vector<ScalingSeries> series = scalingSeries(runs);
  ASSERT_EQ(series.size(), 1u);
  EXPECT_EQ(series[0].name, nameWithoutDeviceCount(runs[0].name));
  EXPECT_EQ(series[0].bodies, "1048576");
  ASSERT_EQ(series[0].points.size(), 2u);
  EXPECT_EQ(series[0].points[0].run, 0u);
  EXPECT_EQ(series[0].points[1].run, 1u);
  EXPECT_EQ(series[0].points[1].devices, 2);
  EXPECT_NEAR(series[0].points[1].speedUp, 2.0, 1e-9);
  EXPECT_NEAR(series[0].points[1].efficiency, 1.0, 1e-9);
  // Another configuration stays apart.
  RunRecord other = benchRun(" over 4 MPI ranks", 4, 140.0, 10);
  other.meta.parameters.emplace_back("softening", "0.1");
  EXPECT_EQ(scalingSeries({runs[0], runs[1], other}).front().points.size(), 2u);
}

// The view draws a point per device count where its speed-up puts it, labelled with
// its efficiency, on axes that fit inside the panel at both window sizes.
TEST_F(ChartsUi, ScalingPlotsSpeedUpAgainstDevicesWithTheIdealLine) {
  state_.runs.showRuns = true;
  state_.runs.chart = RunsState::Chart::Scaling;
  state_.runs.runs = {splitRun("blocked wg=256 on 1 device", 1, 554.7), splitRun("blocked wg=256 on 2 devices", 2, 278.4),
                      splitRun("blocked wg=256 on 4 devices", 4, 140.25)};
  for (const ImVec2 size : kSizes) {
    SCOPED_TRACE(sizeText(size));
    resize(size);
    const ImGuiWindow* runs = panel("Runs");
    ASSERT_NE(runs, nullptr);
    const ChartAxes* chart = drawnChart(kScalingChartId);
    ASSERT_NE(chart, nullptr) << "no scaling chart drawn";
    EXPECT_EQ(drawnChart("runs"), nullptr) << "the bars give way to it";
    const ScreenRect& plot = chart->plot;
    EXPECT_GE(plot.width(), 0.6f * runs->InnerRect.GetWidth());
    EXPECT_GE(plot.height(), 6.0f * ImGui::GetTextLineHeight());
    EXPECT_LE(plot.x1, runs->InnerRect.Max.x);
    EXPECT_LE(plot.y1 + ImGui::GetTextLineHeight(), runs->InnerRect.Max.y) << "the x labels are inside the panel";
    EXPECT_EQ(chart->xUnit, "devices");
    EXPECT_EQ(chart->yUnit, "speed-up");
    ASSERT_FALSE(chart->x.empty());
    EXPECT_EQ(chart->x.back().value, 4.0);
    ASSERT_FALSE(chart->y.empty());
    EXPECT_GE(chart->y.back().value, 4.0) << "the ideal line's end is on the axis";
    const double yTop = chart->y.back().value;
    ASSERT_EQ(chart->bars.size(), 3u);
    const int devices[] = {1, 2, 4};
    const double speedUps[] = {1.0, 554.7 / 278.4, 554.7 / 140.25};
    for (size_t k = 0; k < 3; ++k) {
      const ChartBar& p = chart->bars[k];
      char label[32];
      std::snprintf(label, sizeof label, "%d: %.0f %%", devices[k], speedUps[k] / devices[k] * 100.0);
      EXPECT_EQ(p.label, label);
      EXPECT_NEAR((p.rect.x0 + p.rect.x1) * 0.5f, plot.x0 + plot.width() * devices[k] / 4.0f, 0.5f) << p.label;
      EXPECT_NEAR((p.rect.y0 + p.rect.y1) * 0.5f, plot.y1 - plot.height() * float(speedUps[k] / yTop), 0.5f) << p.label;
    }
  }
  // The cursor on the 4-device point: its run and figures.
  const ChartBar four = drawnChart(kScalingChartId)->bars[2];
  frames(3, ImVec2((four.rect.x0 + four.rect.x1) * 0.5f + 1.0f, (four.rect.y0 + four.rect.y1) * 0.5f));
  ASSERT_NE(drawnChart(kScalingChartId), nullptr);
  const std::string& hover = drawnChart(kScalingChartId)->hover;
  EXPECT_NE(hover.find("blocked wg=256 on 4 devices"), std::string::npos) << hover;
  EXPECT_NE(hover.find("4 devices: speed-up 3.96x, parallel efficiency 98.9 %"), std::string::npos) << hover;
}

// No run has a drift: no point, the view says how to get one and names the runs.
TEST_F(ChartsUi, SpeedAgainstAccuracyWithoutDriftsPlotsNothingAndSaysSo) {
  state_.runs.showRuns = true;
  state_.runs.chart = RunsState::Chart::SpeedVsAccuracy;
  state_.runs.runs = {nbodyRunWithDrift("recording 1", 2.0, 0.0), nbodyRunWithDrift("recording 2", 3.0, 0.0)};
  frames(3);
  const ChartAxes* chart = drawnChart(kSpeedAccuracyChartId);
  ASSERT_NE(chart, nullptr);
  EXPECT_TRUE(chart->bars.empty());
  EXPECT_FALSE(chart->baseline);
  EXPECT_EQ(speedAccuracyNote(state_.runs), "No drift measured: recording 1, recording 2");
}

}  // namespace
}  // namespace ks
