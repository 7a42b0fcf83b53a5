// What the Sweep panel says about long launches (issue 22). On a GPU a launch over
// ~100 ms pauses the window for each one, so the panel warns and offers a smaller N;
// on a CPU device the sweep's launches run on a worker thread (app/sweep_trial.h),
// so the window keeps drawing and the panel says that the simulation waits instead.
// What the panel wrote is read from ImGui's text log of the frame.
#include <gtest/gtest.h>
#include <imgui.h>
#include <imgui_internal.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "app/app_state.h"
#include "staged_readings.h"
#include "ui/panels.h"
#include "ui/style.h"
#include "imgui_test_context.h"
#include "test_support.h"

namespace ks {
namespace {

class SweepPanelLaunches : public ::testing::Test {
 protected:
  void SetUp() override {
    test::createTestImGuiContext(ImVec2(1600.0f, 1000.0f));
    applyAppStyle();
    state_.devices.resize(1);
    state_.activeDevice = 0;
    state_.scene = SceneKind::NBody;
    state_.runs.showSweep = true;
    state_.runs.sweep.target = SweepTarget::NBody;
    // The scene's steps: 50 ms at 4096 bodies; the sweep at 16384 takes 16 times that a launch.
    stagedReadings(state_.nbody).runningBodies = 4096;
    stagedReadings(state_.nbody).kernelMs = 50.0;
    state_.runs.sweep.bodies = 16384;
  }
  void TearDown() override { ImGui::DestroyContext(); }
  // The panel's second frame (in its first, a new window is laid out, not drawn).
  // Its text goes to a file: the panel's own End() ends ImGui's log, which empties
  // a log kept in a buffer.
  std::string panelText() {
    ImGui::GetIO().DeltaTime = 1.0f / 60.0f;
    ImGui::NewFrame();
    drawSweepPanel(state_);
    ImGui::Render();
    ImGui::NewFrame();
    const std::string file = (dir_.path() / "panel.txt").string();
    std::filesystem::remove(file);  // ImGui appends to a log file
    ImGui::LogToFile(-1, file.c_str());
    drawSweepPanel(state_);
    ImGui::LogFinish();
    ImGui::Render();
    std::ifstream in(file);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  test::TempDir dir_{"ks-sweep-panel"};
  AppState state_;
};

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST_F(SweepPanelLaunches, AGpuWarnsThatLongLaunchesPauseTheWindow) {
  state_.devices[0].kind = DeviceKind::Gpu;
  const std::string text = panelText();
  EXPECT_TRUE(has(text, "the window pauses for each")) << text;
  EXPECT_TRUE(has(text, "(under 100 ms a launch)")) << text;  // the button that offers a smaller N
}

TEST_F(SweepPanelLaunches, ACpuDeviceSaysTheLaunchesRunBesideTheWindow) {
  state_.devices[0].kind = DeviceKind::Cpu;
  std::string text = panelText();
  EXPECT_FALSE(has(text, "pauses")) << text;
  EXPECT_TRUE(has(text, "launches run beside the window; the simulation waits until the sweep ends")) << text;
  // While it runs: the launches' time once one has finished, and no warning that the window pauses.
  state_.runs.sweep.active = true;
  state_.runs.sweep.holdsDevice = true;
  text = panelText();
  EXPECT_FALSE(has(text, "0.0 ms")) << text;
  EXPECT_TRUE(has(text, "launches run beside the window; the simulation waits")) << text;
  state_.runs.sweep.launchMs = 812.0;
  text = panelText();
  EXPECT_FALSE(has(text, "pauses")) << text;
  EXPECT_TRUE(has(text, "launches of up to 812.0 ms run beside the window; the simulation waits")) << text;
  // In the image lab no simulation runs to wait.
  state_.scene = SceneKind::Image;
  text = panelText();
  EXPECT_TRUE(has(text, "launches of up to 812.0 ms run beside the window")) << text;
  EXPECT_FALSE(has(text, "simulation")) << text;
}

}  // namespace
}  // namespace ks
