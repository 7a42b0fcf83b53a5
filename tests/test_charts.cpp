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
#include <string>
#include <vector>

#include "app/app_state.h"
#include "lab/run_record.h"
#include "ui/chart_axis.h"
#include "ui/layout.h"
#include "ui/panels.h"
#include "ui/style.h"

namespace ks {
namespace {

// An ImGui context set up as ui/imgui_layer.cpp sets it up, and an AppState.
class ChartsUi : public ::testing::Test {
 protected:
  void SetUp() override {
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;
    io.DisplaySize = ImVec2(1600.0f, 1000.0f);
    unsigned char* pixels = nullptr;
    int width = 0, height = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &width, &height);
    applyAppStyle();
  }
  void TearDown() override { ImGui::DestroyContext(); }

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
  void resize(ImVec2 size) {
    ImGui::GetIO().DisplaySize = size;
    frames(3);
  }
  static std::string sizeText(ImVec2 size) {
    return std::to_string(static_cast<int>(size.x)) + "x" + std::to_string(static_cast<int>(size.y));
  }
  AppState state_;
};

const ImVec2 kSizes[] = {ImVec2(1600, 1000), ImVec2(1024, 700)};

// A 640x480 RGBA picture in the image lab with a histogram: level L of channel c
// counted (L + 1) * (c + 1) * 10 times, so each level's count is its own.
void openPicture(AppState& state) {
  state.scene = SceneKind::Image;
  ImageLabState& lab = state.image;
  lab.width = lab.resultWidth = 640;
  lab.height = lab.resultHeight = 480;
  lab.channels = lab.resultChannels = 4;
  lab.hasOriginal = lab.hasResult = true;
  lab.histogram.imageChannels = 4;
  lab.histogram.bins.resize(256 * 5);
  for (int c = 0; c < 5; ++c)
    for (int level = 0; level < 256; ++level)
      lab.histogram.bins[static_cast<size_t>(c * 256 + level)] = static_cast<uint32_t>((level + 1) * (c + 1) * 10);
  lab.statistics.imageChannels = 4;
  lab.statistics.channels.resize(5);
  for (ChannelStatistics& s : lab.statistics.channels) {
    s.count = 307200;
    s.min = 0;
    s.max = 255;
    s.mean = 127.53;
    s.stddev = 73.9;
    s.median = 128;
  }
}

TEST_F(ChartsUi, Measure) {
  openPicture(state_);
  for (const ImVec2 size : {ImVec2(1600, 1000), ImVec2(1280, 800), ImVec2(1024, 700)}) {
    resize(size);
    for (const char* id : {"stats", "percentiles"}) {
      const ImGuiTable* table = nullptr;
      for (ImGuiWindow* w : ImGui::GetCurrentContext()->Windows)
        if (w->WasActive && !table) table = ImGui::TableFindByID(w->GetID(id));
      ASSERT_NE(table, nullptr);
      printf("%s %s: %f wide, %f tall; panel %f x %f\n", sizeText(size).c_str(), id, table->OuterRect.GetWidth(),
             table->OuterRect.GetHeight(), table->OuterWindow->Size.x, table->OuterWindow->Size.y);
    }
  }
}

}  // namespace
}  // namespace ks
