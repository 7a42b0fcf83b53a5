// The Profiler's clock and power graphs (issue 23, item 5: "the NVML graphs have no
// axes"): each has a value axis in its unit, from 0 and ending on a tick at or above
// the highest sample, and a time axis in seconds before the newest sample, "now" at
// the right edge; side by side in a wide panel, one under the other in a narrow one.
#include <gtest/gtest.h>
#include <imgui.h>

#include <string>

#include "app/app_state.h"
#include "ui/chart_axis.h"
#include "ui/panels.h"
#include "ui/telemetry_chart.h"
#include "imgui_test_context.h"

namespace ks {
namespace {

class TelemetryCharts : public ::testing::Test {
 protected:
  void SetUp() override {
    test::createTestImGuiContext(ImVec2(1600.0f, 1000.0f));
    state_.telemetry.available = true;
    state_.telemetry.status = "PCI bus";
    state_.telemetry.nvmlDevice = "NVIDIA H200";
    // 45 seconds of samples, 5 a second: the clock dips to 1200 MHz for a while.
    for (int i = 0; i <= 225; ++i) {
      GpuSample s;
      s.seconds = 1000.0 + i * 0.2;
      s.smClockMHz = (i > 100 && i < 140) ? 1200.0 : 1980.0;
      s.memClockMHz = 3201.0;
      s.powerW = 150.0 + i;  // up to 375 W
      s.temperatureC = 60.0;
      s.throttleReasons = 0;
      state_.telemetry.history.push_back(s);
    }
  }
  void TearDown() override {
    forgetDrawnCharts();
    ImGui::DestroyContext();
  }
  void frame(float panelWidth) {
    ImGui::GetIO().DeltaTime = 1.0f / 60.0f;
    ImGui::NewFrame();
    ImGui::SetNextWindowPos(ImVec2(10, 10));
    ImGui::SetNextWindowSize(ImVec2(panelWidth, 600));
    ImGui::Begin("Profiler");
    drawClocksSection(state_);
    window_ = {ImGui::GetWindowPos().x, ImGui::GetWindowPos().y, ImGui::GetWindowPos().x + panelWidth,
               ImGui::GetWindowPos().y + 600};
    ImGui::End();
    ImGui::Render();
  }
  void expectAxes(const char* id, const char* unit, double highest) {
    SCOPED_TRACE(id);
    const ChartAxes* axes = drawnChart(id);
    ASSERT_NE(axes, nullptr) << "the chart was not drawn with axes";
    EXPECT_EQ(axes->yUnit, unit);
    EXPECT_EQ(axes->xUnit, "s ago");
    // The value axis: from 0 to a tick at or above the highest sample, at least three ticks, bottom to top.
    ASSERT_GE(axes->y.size(), 3u);
    EXPECT_EQ(axes->y.front().value, 0.0);
    EXPECT_EQ(axes->y.front().label, "0");
    EXPECT_GE(axes->y.back().value, highest);
    EXPECT_LT(axes->y.back().value, highest * 2.0);
    EXPECT_NEAR(axes->y.front().pixel, axes->plot.y1, 0.5f);
    EXPECT_NEAR(axes->y.back().pixel, axes->plot.y0, 0.5f);
    // The time axis: "now" at the right edge, the oldest ticks left, labelled in seconds.
    ASSERT_GE(axes->x.size(), 3u);
    EXPECT_EQ(axes->x.back().label, "now");
    EXPECT_NEAR(axes->x.back().pixel, axes->plot.x1, 0.5f);
    EXPECT_EQ(axes->x.front().label, "40");  // 45 s of samples, ticks every 10 s
    EXPECT_GT(axes->x.front().pixel, axes->plot.x0);
    for (size_t i = 1; i < axes->x.size(); ++i) EXPECT_GT(axes->x[i].pixel, axes->x[i - 1].pixel);
    // Inside the panel, labels included.
    EXPECT_GE(axes->plot.x0 - widestLabel(axes->y), window_.x0);
    EXPECT_LE(axes->plot.x1, window_.x1);
    EXPECT_GT(axes->plot.height(), 2.0f * ImGui::GetTextLineHeight());
  }
  AppState state_;
  ScreenRect window_;
};

TEST_F(TelemetryCharts, ClockAndPowerHaveValueAndTimeAxesSideBySideInAWidePanel) {
  frame(900.0f);
  expectAxes(kSmClockChartId, "MHz", 1980.0);
  expectAxes(kPowerChartId, "W", 375.0);
  const ChartAxes* clock = drawnChart(kSmClockChartId);
  const ChartAxes* power = drawnChart(kPowerChartId);
  ASSERT_TRUE(clock && power);
  EXPECT_LT(clock->plot.x1, power->plot.x0);  // side by side
  EXPECT_NEAR(clock->plot.y0, power->plot.y0, 0.5f);
}

TEST_F(TelemetryCharts, OneUnderTheOtherInANarrowPanel) {
  frame(330.0f);
  expectAxes(kSmClockChartId, "MHz", 1980.0);
  expectAxes(kPowerChartId, "W", 375.0);
  const ChartAxes* clock = drawnChart(kSmClockChartId);
  const ChartAxes* power = drawnChart(kPowerChartId);
  ASSERT_TRUE(clock && power);
  EXPECT_GT(power->plot.y0, clock->plot.y1 + ImGui::GetTextLineHeight());  // under it, its labels between
}

TEST_F(TelemetryCharts, AFigureNvmlDoesNotReportDrawsNoChart) {
  for (GpuSample& s : state_.telemetry.history) s.powerW.reset();
  frame(900.0f);
  EXPECT_NE(drawnChart(kSmClockChartId), nullptr);
  EXPECT_EQ(drawnChart(kPowerChartId), nullptr);
}

}  // namespace
}  // namespace ks
