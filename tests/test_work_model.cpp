// The kernels' work models and the ceiling that binds each (issue 23): hand counts
// from the kernels' sources, fractions of measured ceilings, and the roofline the
// Profiler draws from them.
#include <gtest/gtest.h>
#include <imgui.h>

#include <cmath>
#include <string>

#include "app/app_state.h"
#include "app/kernel_bounds.h"
#include "compute/work_model.h"
#include "ui/chart_axis.h"
#include "ui/panels.h"
#include "ui/style.h"
#include "imgui_test_context.h"

namespace ks {
namespace {

MeasuredCeilings ceilings() {
  MeasuredCeilings c;
  c[Ceiling::Copy].value = 1000.0;       // GB/s
  c[Ceiling::Read].value = 1200.0;       // GB/s
  c[Ceiling::Fp32Mad].value = 2000.0;    // GFLOP/s: 1000 G instructions/s
  c[Ceiling::NativeRsqrt].value = 250.0; // G/s
  c[Ceiling::Rsqrt].value = 100.0;
  c[Ceiling::LocalBandwidth].value = 5000.0;
  c[Ceiling::LocalAtomics].value = 100.0;
  c.time = "2026-11-26T00:00:00Z";
  return c;
}

TEST(WorkModel, NBodyIsTwelveInstructionsAndOneRsqrtPerInteraction) {
  NBodyConfig c;  // blocked wg=256 B=2 fp32 native_rsqrt
  const KernelWork w = nbodyStepWork(1000, c);
  EXPECT_EQ(w.fp32Instructions, 12.0e6);
  EXPECT_EQ(w.fp64Instructions, 0.0);
  EXPECT_EQ(w.rsqrtOps, 1.0e6);
  EXPECT_TRUE(w.nativeRsqrt);
  EXPECT_EQ(w.dramBytes, 1000.0 * 80.0) << "positions and velocities in and out, the display out";
  EXPECT_GT(w.localBytes, 0.0);
  c.variant = "naive";
  EXPECT_EQ(nbodyStepWork(1000, c).localBytes, 0.0) << "the naive kernel reads bodies from global memory";
  c.fp64 = true;
  const KernelWork w64 = nbodyStepWork(1000, c);
  EXPECT_EQ(w64.fp64Instructions, 12.0e6);
  EXPECT_EQ(w64.fp32Instructions, 0.0);
  EXPECT_FALSE(w64.nativeRsqrt);
}

TEST(WorkModel, TransposeMovesEveryByteTwiceAndTheHistogramReadsOnce) {
  const ImageLayout rgba{1000, 500, 4};
  EXPECT_EQ(transposeWork(rgba, TransposeConfig{}).dramBytes, 4.0e6);
  HistogramConfig h;
  h.variant = "local_atomic";
  h.countedChannels = 0b111;  // R, G, B
  const KernelWork w = histogramWork(rgba, h);
  EXPECT_EQ(w.dramBytes, 2.0e6);
  EXPECT_TRUE(w.readOnly);
  EXPECT_EQ(w.localAtomics, 500000.0 * 3);
  h.variant = "subhist_uchar";
  EXPECT_EQ(histogramWork(rgba, h).localAtomics, 0.0);
}

// 700 G instructions/s against 1000: FP32-bound at 70 %, the other resources lower.
TEST(WorkModel, TheBindingCeilingIsTheLargestFraction) {
  NBodyConfig c;
  const KernelWork w = nbodyStepWork(10000, c);  // 1.2e9 instructions, 1e8 rsqrt
  const double ms = 1.2e9 / 700e9 * 1e3;
  const KernelBound b = kernelBound(w, ms, ceilings());
  ASSERT_GE(b.binding, 0);
  EXPECT_EQ(b.label(), "FP32 issue: 70 %");
  for (const ResourceUse& u : b.uses) EXPECT_LE(u.fraction(), 0.7 + 1e-9) << u.label;
  EXPECT_NEAR(b.opsRate, 700.0, 1e-6) << "G instructions/s";
  EXPECT_NEAR(b.intensity, 1.2e9 / w.dramBytes, 1e-6);

  // 2 MB read in 2 us = 1000 GB/s of a 1200 GB/s read ceiling (83 %), 1.5e6 atomics in
  // 2 us = 750 G/s against 100: atomics bind (far past their measured rate).
  HistogramConfig h;
  h.countedChannels = 0b111;
  const KernelBound hb = kernelBound(histogramWork({1000, 500, 4}, h), 0.002, ceilings());
  EXPECT_EQ(hb.label(), "local atomics: 750 %");
  const KernelBound tb = kernelBound(transposeWork({1000, 500, 4}, TransposeConfig{}), 0.005, ceilings());
  EXPECT_EQ(tb.uses.front().label, std::string("DRAM"));
  EXPECT_NEAR(tb.uses.front().fraction(), 0.8, 1e-9);
}

// The roofline and the Profiler label each resource in words: "native_rsqrt" (the
// OpenCL function) was shorthand a user read on the chart (issue 22).
TEST(WorkModel, TheResourcesAreLabelledInWords) {
  for (const bool native : {true, false}) {
    NBodyConfig c;
    c.nativeRsqrt = native;
    const KernelBound b = kernelBound(nbodyStepWork(10000, c), 1.0, ceilings());
    bool rsqrt = false;
    for (const ResourceUse& u : b.uses) {
      EXPECT_EQ(std::string(u.label).find('_'), std::string::npos) << u.label;
      rsqrt = rsqrt || std::string(u.label).find("inverse square root") != std::string::npos;
    }
    EXPECT_TRUE(rsqrt) << (native ? "native" : "precise") << ": the rsqrt's use is among the resources";
  }
}

TEST(WorkModel, NothingMeasuredBindsNothing) {
  const KernelBound b = kernelBound(nbodyStepWork(100, NBodyConfig{}), 1.0, MeasuredCeilings{});
  EXPECT_EQ(b.binding, -1);
  EXPECT_EQ(b.label(), "");
  EXPECT_EQ(kernelBound(nbodyStepWork(100, NBodyConfig{}), 0.0, ceilings()).binding, -1) << "no time, no rate";
}

// The Profiler's roofline: the N-body step's point below the FP32 roof, labelled with
// what binds it; the axes are decades.
TEST(Roofline, TheRunningKernelIsAPointLabelledWithItsBound) {
  ImGuiIO& io = test::createTestImGuiContext(ImVec2(1600.0f, 1000.0f));
  applyAppStyle();
  AppState state;
  state.ceilings.measured = ceilings();
  ActiveKernel k;
  k.role = "n-body step";
  k.timedAs = "nbody step";
  k.work = nbodyStepWork(10000, NBodyConfig{});
  state.activeKernels = {k};
  const double ms = 1.2e9 / 700e9 * 1e3;
  for (int i = 0; i < 5; ++i) state.profiler.record("nbody step", ms, true);
  state.profiler.refreshShownNow();
  ASSERT_EQ(timedKernelBounds(state).size(), 1u);
  for (int i = 0; i < 2; ++i) {
    io.DeltaTime = 1.0f / 60.0f;
    ImGui::NewFrame();
    ImGui::SetNextWindowSize(ImVec2(700, 600));
    ImGui::Begin("roofline test");
    drawRoofline(state);
    ImGui::End();
    ImGui::Render();
  }
  const ChartAxes* chart = drawnChart("roofline");
  ASSERT_NE(chart, nullptr);
  ASSERT_EQ(chart->bars.size(), 1u);
  EXPECT_EQ(chart->bars[0].label, "n-body step: FP32 issue: 70 %");
  const ScreenRect& dot = chart->bars[0].rect;
  const float x = (dot.x0 + dot.x1) / 2, y = (dot.y0 + dot.y1) / 2;
  EXPECT_TRUE(x > chart->plot.x0 && x < chart->plot.x1 && y > chart->plot.y0 && y < chart->plot.y1);
  // On log axes: the point sits where its values fall between the decades around it.
  ASSERT_GE(chart->x.size(), 2u);
  ASSERT_GE(chart->y.size(), 2u);
  for (size_t i = 1; i < chart->x.size(); ++i) EXPECT_NEAR(chart->x[i].value / chart->x[i - 1].value, 10.0, 1e-9);
  const auto logPixel = [](const std::vector<ChartTick>& t, double v) {
    const double a = std::log10(t.front().value), b = std::log10(t.back().value);
    return t.front().pixel + float((std::log10(v) - a) / (b - a)) * (t.back().pixel - t.front().pixel);
  };
  const KernelBound b = timedKernelBounds(state)[0].bound;
  EXPECT_NEAR(x, logPixel(chart->x, b.intensity), 1.0f);
  EXPECT_NEAR(y, logPixel(chart->y, 700.0), 1.0f);
  ImGui::DestroyContext();
}

}  // namespace
}  // namespace ks
