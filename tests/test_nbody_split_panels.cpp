// The panels' part of the viewer's split N-body step (issue 24), through ImGui
// without a window: the Devices panel offers the drawing device's platform and
// says why the others cannot join; "all" and a device's check box set the
// request; the Profiler has a row per device with its bodies and kernel time,
// the exchange and the load balance while split, and none otherwise. What the
// panels wrote is read from ImGui's text log of the frame.
#include <gtest/gtest.h>
#include <imgui.h>
#include <imgui_internal.h>

#include <string>
#include <vector>

#include "app/app_state.h"
#include "staged_readings.h"
#include "ui/panels.h"
#include "ui/panels_nbody_split.h"
#include "ui/style.h"
#include "imgui_test_context.h"
#include "test_devices.h"

namespace ks {
namespace {

using test::fakeDevice;

class NBodySplitPanels : public ::testing::Test {
 protected:
  void SetUp() override {
    test::createTestImGuiContext(ImVec2(1600.0f, 1000.0f));
    applyAppStyle();
    state_.devices = {fakeDevice(0, 0, "Vendor A", "gpu-a0"), fakeDevice(0, 1, "Vendor A", "gpu-a1"),
                      fakeDevice(1, 0, "Vendor B", "cpu-b0")};
    state_.activeDevice = 0;
  }
  void TearDown() override { ImGui::DestroyContext(); }
  // One frame of `draw`, in a window of its own as tall as it needs; returns the text it wrote.
  template <typename Draw>
  std::string frameText(Draw draw) {
    ImGui::GetIO().DeltaTime = 1.0f / 60.0f;
    ImGui::NewFrame();
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(ImVec2(1600, 1000));
    ImGui::Begin("split test");
    ImGui::LogToBuffer();
    draw();
    const std::string text = ImGui::GetCurrentContext()->LogBuffer.c_str();
    ImGui::LogFinish();
    ImGui::End();
    ImGui::Render();
    return text;
  }
  AppState state_;
};

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST_F(NBodySplitPanels, TheChoiceOffersTheDrawingDevicesPlatformAndSaysWhyOthersCannotJoin) {
  const std::string text = frameText([&] { drawNBodySplitChoice(state_); });
  EXPECT_TRUE(has(text, "Devices for N-body")) << text;
  EXPECT_TRUE(has(text, "0 (draws): gpu-a0")) << text;
  EXPECT_TRUE(has(text, "1: gpu-a1")) << text;
  EXPECT_TRUE(has(text, "(cannot join)")) << text;
  EXPECT_TRUE(nbodySplitJoinProblem(state_, 0, 0).empty());
  EXPECT_TRUE(nbodySplitJoinProblem(state_, 1, 0).empty());
  EXPECT_TRUE(has(nbodySplitJoinProblem(state_, 2, 0), "another platform")) << nbodySplitJoinProblem(state_, 2, 0);
  state_.devices[1].available = false;
  EXPECT_TRUE(has(nbodySplitJoinProblem(state_, 1, 0), "not available"));
  // Ticked: the display device alone at first; a pending request, else what runs.
  state_.devices[1].available = true;
  EXPECT_EQ(nbodySplitTicked(state_, 0), std::vector<size_t>{0});
  stagedReadings(state_.nbody).split.running = {0, 1};
  EXPECT_EQ(nbodySplitTicked(state_, 0), (std::vector<size_t>{0, 1}));
  state_.nbody.choices.split.requested = std::vector<size_t>{1};
  EXPECT_EQ(nbodySplitTicked(state_, 0), std::vector<size_t>{1});
}

// While the split's devices build their kernel, the heading's line says so (in
// view however short the panel) and the devices asked for stay ticked.
TEST_F(NBodySplitPanels, ASplitBeingPreparedIsSaidOnTheHeadingLineAndStaysTicked) {
  EXPECT_FALSE(has(frameText([&] { drawNBodySplitChoice(state_); }), "preparing")) << "nothing under way";
  stagedReadings(state_.nbody).split.preparing = {0, 1};
  const std::string text = frameText([&] { drawNBodySplitChoice(state_); });
  EXPECT_TRUE(has(text, "Devices for N-body (preparing 2 devices...)")) << text;
  EXPECT_EQ(nbodySplitTicked(state_, 0), (std::vector<size_t>{0, 1}));
}

TEST_F(NBodySplitPanels, TheProfilerHasARowPerDeviceWhileSplitAndNoneOtherwise) {
  state_.panels.profiler = true;
  auto profiler = [&] { return frameText([&] { drawNBodySplitProfile(state_); }); };
  EXPECT_FALSE(has(profiler(), "N-body split over devices")) << "not split: no rows";
  NBodySplitReadings& split = stagedReadings(state_.nbody).split;
  split.running = {0, 1};
  split.sliceBodies = {640, 512};
  split.deviceKernelMs = {12.5, 11.25};
  split.exchangeMs = 1.5;
  split.stepMs = 14.0;
  split.loadBalance = 0.95;
  split.recent.push_back({{12.5, 11.25}, 1.5, 14.0});
  const std::string text = profiler();
  for (const char* part : {"N-body split over devices", "0: gpu-a0", "1: gpu-a1", "640", "512", "12.500", "11.250",
                           "exchange: 1.500 ms per step", "load balance: 95.0 %"})
    EXPECT_TRUE(has(text, part)) << part << "\n" << text;
}

}  // namespace
}  // namespace ks
