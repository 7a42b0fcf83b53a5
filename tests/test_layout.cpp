// The panel layout (issue 22), through ImGui without a window: every panel inside the
// window after a resize, View > Reset layout, Tab, the image lab's histogram in view,
// the Sweep panel's results and check boxes, opaque menus. Frames are built with the
// app's own drawing (drawPanels) and style, never rendered; what is checked is what
// ImGui itself holds: window places, table rectangles, the colours it drew with.
#include <GLFW/glfw3.h>
#include <gtest/gtest.h>
#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <cctype>
#include <functional>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "app/app_state.h"
#include "staged_readings.h"
#include "asked_scene.h"
#include "compute/device_catalog.h"
#include "compute/kernel_files.h"
#include "compute/kernel_op.h"
#include "compute/nbody_variants.h"
#include "io/resources.h"
#include "lab/run_record.h"
#include "ui/fonts.h"
#include "ui/layout.h"
#include "ui/panels.h"
#include "compute/plain_config_words.h"
#include "app/image_kernel_builds.h"
#include "ui/style.h"
#include "imgui_test_context.h"

namespace ks {
namespace {
namespace fs = std::filesystem;

// An ImGui context of its own, set up as ui/imgui_layer.cpp sets it up (style
// included), and an AppState; frame() feeds the mouse and the keys pressed, then
// does what the frame loop does between NewFrame and Render.
class LayoutUi : public ::testing::Test {
 protected:
  void SetUp() override {
    test::createTestImGuiContext(ImVec2(1600.0f, 1000.0f), true);
    applyAppStyle();
    state_.runs.showRuns = state_.runs.showSweep = true;  // every panel open but the build log
  }
  void TearDown() override { ImGui::DestroyContext(); }

  // `glfwKey`: a key pressed this frame, as the window reports it (shortcuts) and as
  // the GLFW backend hands it to ImGui (Tab: ImGui's own keyboard focus moves).
  void frame(ImVec2 mouse = ImVec2(-1, -1), bool leftDown = false, int glfwKey = -1) {
    ImGuiIO& io = ImGui::GetIO();
    io.DeltaTime = 1.0f / 60.0f;
    io.MousePos = mouse;
    io.MouseDown[0] = leftDown;
    io.KeysDown[ImGuiKey_Tab] = glfwKey == GLFW_KEY_TAB;
    ImGui::NewFrame();
    handleShortcuts(state_, glfwKey >= 0 ? std::vector<int>{glfwKey} : std::vector<int>{});
    drawPanels(state_);
    ImGui::Render();
  }
  // The app's own font (DejaVu Sans, taller than ImGui's built-in one), in a fresh
  // context; false where the font is missing.
  bool useAppFont() {
    ImGui::DestroyContext();
    ImGui::CreateContext();  // its atlas not built yet: the app's font is its first, the default
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;
    io.ConfigFlags |= ImGuiConfigFlags_NavEnableKeyboard;
    for (int key = 0; key < ImGuiKey_COUNT; ++key) io.KeyMap[key] = key;
    io.DisplaySize = ImVec2(1600.0f, 1000.0f);
    applyAppStyle();
    if (!loadUiFonts(1.0f).text) return false;
    unsigned char* pixels = nullptr;
    int width = 0, height = 0;
    ImGui::GetIO().Fonts->GetTexDataAsRGBA32(&pixels, &width, &height);
    return true;
  }
  void frames(int n) {
    for (int i = 0; i < n; ++i) frame();
  }
  void click(ImVec2 at) {
    frame(at);
    frame(at, true);
    frame(at);
    frame();
  }
  // A drag of a window's title bar by `by`, in steps as a hand does.
  void dragTitle(const char* title, ImVec2 by) {
    ImGuiWindow* w = ImGui::FindWindowByName(title);
    ASSERT_NE(w, nullptr) << title;
    ImVec2 at(w->Pos.x + 60.0f, w->Pos.y + ImGui::GetFrameHeight() * 0.5f);
    frame(at);
    frame(at, true);
    for (int i = 1; i <= 10; ++i) frame(ImVec2(at.x + by.x * i / 10, at.y + by.y * i / 10), true);
    frame(ImVec2(at.x + by.x, at.y + by.y));
  }
  // Where View is in the menu bar.
  static ImVec2 viewMenuTitle() {
    const ImGuiStyle& style = ImGui::GetStyle();
    return ImVec2(style.WindowPadding.x + ImGui::CalcTextSize("File").x + 2.0f * style.ItemSpacing.x + 14.0f,
                  ImGui::GetFrameHeight() * 0.5f);
  }
  // Clicks View in the menu bar; its menu, open.
  const ImGuiWindow* openViewMenu() {
    click(viewMenuTitle());
    const ImGuiWindow* menu = ImGui::FindWindowByName("##Menu_00");  // ImGui's name for a first-level menu
    const ImGuiContext& g = *ImGui::GetCurrentContext();
    const ImGuiWindow* bar = ImGui::FindWindowByName("##MainMenuBar");
    const ImGuiID view = ImHashStr("View", 0, ImHashStr("##menubar", 0, bar->ID));  // BeginMenuBar pushes "##menubar"
    if (!menu || !menu->Active || g.OpenPopupStack.empty() || g.OpenPopupStack[0].PopupId != view) return nullptr;
    return menu;
  }
  void resize(float width, float height) {
    ImGui::GetIO().DisplaySize = ImVec2(width, height);
    frames(3);
  }
  // The panels drawn in the last frame: top-level windows but the menu and status bars.
  static std::vector<ImGuiWindow*> panels() {
    std::vector<ImGuiWindow*> shown;
    for (ImGuiWindow* w : ImGui::GetCurrentContext()->Windows)
      if (w->WasActive && !w->IsFallbackWindow &&
          !(w->Flags & (ImGuiWindowFlags_ChildWindow | ImGuiWindowFlags_Tooltip | ImGuiWindowFlags_Popup)) &&
          std::string(w->Name) != "##MainMenuBar" && std::string(w->Name) != "##statusbar")
        shown.push_back(w);
    return shown;
  }
  static std::string placeOf(const ImGuiWindow* w) {
    return std::string(w->Name) + " at " + std::to_string(w->Pos.x) + "," + std::to_string(w->Pos.y) + " size " +
           std::to_string(w->Size.x) + "x" + std::to_string(w->Size.y);
  }
  // Every panel between the menu bar and the status bar, inside the window's width.
  void expectEveryPanelInside() {
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    const float top = ImGui::GetFrameHeight(), bottom = display.y - kStatusBarHeight;
    for (const ImGuiWindow* w : panels()) {
      EXPECT_TRUE(w->Pos.x >= 0.0f && w->Pos.y >= top && w->Pos.x + w->Size.x <= display.x &&
                  w->Pos.y + w->Size.y <= bottom)
          << placeOf(w) << " is not inside the " << display.x << "x" << display.y << " window";
    }
    const ImGuiWindow* bar = ImGui::FindWindowByName("##statusbar");
    EXPECT_EQ(bar->Pos.y + bar->Size.y, display.y) << "the status bar: " << placeOf(bar);
  }
  AppState state_;
};

// The picture in the image lab: a 640x480 RGBA one with a histogram and statistics.
void openPicture(AppState& state) {
  state.scene = SceneKind::Image;
  ImageLabState& lab = state.image;
  stagedReadings(lab).width = stagedReadings(lab).resultWidth = 640;
  stagedReadings(lab).height = stagedReadings(lab).resultHeight = 480;
  stagedReadings(lab).channels = stagedReadings(lab).resultChannels = 4;
  stagedReadings(lab).hasOriginal = stagedReadings(lab).hasResult =
      true;  // no renderer: the view places them, nothing draws
  stagedReadings(lab).histogram.imageChannels = 4;
  stagedReadings(lab).histogram.bins.assign(256 * 5, 10u);
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

// 1600x1000 shrunk to 1024x700: every panel, by the edges or moved by the user,
// stays inside. Before, panels kept their first place: the image lab, the log and
// the interop panel out of view, the profiler over the status bar.
TEST_F(LayoutUi, EveryPanelStaysInsideTheWindowWhenItShrinks) {
  for (const SceneKind scene : {SceneKind::NBody, SceneKind::Image, SceneKind::Julia}) {
    SCOPED_TRACE(static_cast<int>(scene));
    state_ = AppState();
    state_.runs.showRuns = state_.runs.showSweep = state_.panels.buildLog = state_.showHelp = true;
    if (scene == SceneKind::Image) openPicture(state_);
    state_.scene = scene;
    ImGui::GetIO().DisplaySize = ImVec2(1600.0f, 1000.0f);
    frames(3);
    expectEveryPanelInside();
    // The user moves the log towards the bottom right corner.
    dragTitle("Log", ImVec2(1100.0f, 300.0f));
    resize(1024.0f, 700.0f);
    EXPECT_GE(panels().size(), 10u);
    expectEveryPanelInside();
    resize(1600.0f, 1000.0f);
    expectEveryPanelInside();
  }
}

// A run that starts in a smaller window than the last one ended in: the panels that
// followed the edges follow the new window's (imgui.ini says which), the one the
// user moved is kept inside. Before, every panel came back at its old place in
// pixels: off-screen.
TEST_F(LayoutUi, ARunInASmallerWindowPutsThePanelsByItsEdges) {
  keepLayoutInIni(state_);
  frames(3);
  dragTitle("Log", ImVec2(1200.0f, 100.0f));
  const std::string ini = ImGui::SaveIniSettingsToMemory();
  ImGui::DestroyContext();

  SetUp();  // the next run: a new context and state, the file read before the first frame
  state_ = AppState();
  state_.runs.showRuns = state_.runs.showSweep = true;
  keepLayoutInIni(state_);
  ImGui::LoadIniSettingsFromMemory(ini.c_str(), ini.size());
  ImGui::GetIO().DisplaySize = ImVec2(1024.0f, 700.0f);
  frames(3);
  expectEveryPanelInside();
  const ImGuiWindow* nbody = ImGui::FindWindowByName("N-body");
  EXPECT_FLOAT_EQ(nbody->Pos.x + nbody->Size.x, 1024.0f) << placeOf(nbody);
  // With Runs and Sweep open in a window this narrow, the profiler is at the foot of
  // the left column, over their strip.
  const ImGuiWindow* profiler = ImGui::FindWindowByName("Profiler");
  EXPECT_FLOAT_EQ(profiler->Pos.y + profiler->Size.y, ImGui::FindWindowByName("Runs")->Pos.y) << placeOf(profiler);
  const ImGuiWindow* log = ImGui::FindWindowByName("Log");
  EXPECT_FLOAT_EQ(log->Pos.x + log->Size.x, 1024.0f) << "the moved panel, pushed inside: " << placeOf(log);
}

// Panels by the edges follow them: the scene's panel keeps to the right edge, the
// profiler to the bottom, at every size; a panel the user moved stays where it was put.
TEST_F(LayoutUi, PanelsFollowTheWindowsEdges) {
  frames(3);
  dragTitle("Devices", ImVec2(300.0f, 200.0f));
  const ImVec2 moved = ImGui::FindWindowByName("Devices")->Pos;
  for (const ImVec2 size : {ImVec2(1280, 800), ImVec2(1024, 700), ImVec2(1920, 1080)}) {
    resize(size.x, size.y);
    const ImGuiWindow* nbody = ImGui::FindWindowByName("N-body");
    const ImGuiWindow* profiler = ImGui::FindWindowByName("Profiler");
    EXPECT_FLOAT_EQ(nbody->Pos.x + nbody->Size.x, size.x) << placeOf(nbody);
    EXPECT_FLOAT_EQ(nbody->Pos.y, ImGui::GetFrameHeight()) << placeOf(nbody);
    // Runs and Sweep are open: in a narrow window the strip is theirs, and the profiler
    // is at the foot of the left column, over it.
    const float foot = size.x < 1400.0f ? ImGui::FindWindowByName("Runs")->Pos.y : size.y - kStatusBarHeight;
    EXPECT_FLOAT_EQ(profiler->Pos.y + profiler->Size.y, foot) << placeOf(profiler);
    EXPECT_FLOAT_EQ(profiler->Pos.x, 0.0f) << placeOf(profiler);
  }
  const ImGuiWindow* devices = ImGui::FindWindowByName("Devices");
  EXPECT_FLOAT_EQ(devices->Pos.x, moved.x) << "a panel the user moved follows the layout";
  EXPECT_FLOAT_EQ(devices->Pos.y, moved.y);
  const ImGuiWindow* deviceInfo = ImGui::FindWindowByName("Device info");
  EXPECT_FLOAT_EQ(deviceInfo->Pos.y, ImGui::GetFrameHeight()) << "the moved panel's place was left empty";
}

// At 1280x800 the picture, not six panels, has most of the window: the part left
// free is over half its width and two thirds of its height. Before, the middle 48%
// between two columns, under the Runs, Sweep and Profiler panels.
TEST_F(LayoutUi, ThePictureHasMostOfTheWindowAt1280x800) {
  state_.runs.showRuns = state_.runs.showSweep = false;  // closed at a first start
  openPicture(state_);
  ImGui::GetIO().DisplaySize = ImVec2(1280.0f, 800.0f);
  frames(4);  // the fit waits for the second frame
  ASSERT_TRUE(state_.image.viewArea);
  const ScreenRect area = *state_.image.viewArea;  // fractions of the window
  EXPECT_GT(area.width(), 0.5f) << area.x0 << ".." << area.x1;
  EXPECT_GT(area.height(), 0.6f) << area.y0 << ".." << area.y1;
  ASSERT_EQ(state_.image.shownPictures.size(), 1u);
  EXPECT_GT(state_.image.shownPictures[0].width(), 0.45f * 1280.0f);
}

// The histogram's bars and statistics are in view at 1280x800 without scrolling, beside
// the picture, not under it. Before, they were at the foot of the image lab's panel,
// below the fold.
TEST_F(LayoutUi, TheHistogramAndStatisticsAreInViewAt1280x800) {
  state_.runs.showRuns = state_.runs.showSweep = false;
  openPicture(state_);
  ImGui::GetIO().DisplaySize = ImVec2(1280.0f, 800.0f);
  frames(4);
  for (const char* id : {"stats", "percentiles"}) {
    SCOPED_TRACE(id);
    const ImGuiTable* table = nullptr;
    for (ImGuiWindow* w : ImGui::GetCurrentContext()->Windows)
      if (w->WasActive && !table) table = ImGui::TableFindByID(w->GetID(id));
    ASSERT_NE(table, nullptr) << "no statistics table drawn";
    const ImGuiWindow* panel = table->OuterWindow;
    EXPECT_EQ(panel->Scroll.y, 0.0f);
    EXPECT_LE(table->OuterRect.Max.y, panel->InnerRect.Max.y) << placeOf(panel) << ": the table ends at "
                                                              << table->OuterRect.Max.y << ", out of view";
    EXPECT_LE(table->OuterRect.Max.x, panel->InnerRect.Max.x) << placeOf(panel);
    EXPECT_LE(panel->Pos.y + panel->Size.y, 800.0f - kStatusBarHeight) << placeOf(panel);
    for (const ScreenRect& picture : state_.image.shownPictures)
      EXPECT_FALSE(picture.overlaps({panel->Pos.x, panel->Pos.y, panel->Pos.x + panel->Size.x,
                                     panel->Pos.y + panel->Size.y}))
          << placeOf(panel) << " covers the picture";
  }
}

// View > Reset layout puts a moved and resized panel back by the edges, opens a
// collapsed one, and leaves closed panels closed. Before, there was no way back.
TEST_F(LayoutUi, ResetLayoutPutsPanelsBackAndKeepsWhichAreOpen) {
  state_.panels.log = false;
  frames(3);
  ImGuiWindow* devices = ImGui::FindWindowByName("Devices");
  ImGuiWindow* profiler = ImGui::FindWindowByName("Profiler");
  const ImVec2 devicesPos = devices->Pos, profilerPos = profiler->Pos, profilerSize = profiler->Size;
  dragTitle("Devices", ImVec2(500.0f, 300.0f));
  dragTitle("Profiler", ImVec2(200.0f, -300.0f));
  ASSERT_NE(devices->Pos.x, devicesPos.x) << "the test's drag did not move the panel";
  profiler->Collapsed = true;
  frames(2);
  // View, then its first item.
  const ImGuiWindow* menu = openViewMenu();
  ASSERT_TRUE(menu) << "the View menu did not open";
  click(ImVec2(menu->Pos.x + 30.0f, menu->DC.CursorStartPos.y + ImGui::GetFontSize() * 0.5f));
  frames(2);
  EXPECT_EQ(devices->Pos.x, devicesPos.x);
  EXPECT_EQ(devices->Pos.y, devicesPos.y);
  EXPECT_EQ(profiler->Pos.x, profilerPos.x);
  EXPECT_EQ(profiler->Pos.y, profilerPos.y);
  EXPECT_EQ(profiler->Size.y, profilerSize.y) << "the profiler is still collapsed";
  EXPECT_FALSE(state_.panels.log) << "a closed panel opened";
  EXPECT_TRUE(state_.panels.devices && state_.panels.profiler && state_.runs.showSweep);
}

// Tab hides every panel but leaves the picture (fitted to the whole window) and the
// menu and status bars; Tab again brings them back where they were, and neither
// press left a text field with the keyboard (ImGui's Tab moves focus to one).
TEST_F(LayoutUi, TabHidesEveryPanelButThePicture) {
  state_.runs.showRuns = state_.runs.showSweep = false;
  openPicture(state_);
  ImGui::GetIO().DisplaySize = ImVec2(1280.0f, 800.0f);
  frames(4);
  const float fittedWidth = state_.image.shownPictures.at(0).width();
  const size_t shown = panels().size();
  ASSERT_GE(shown, 6u);
  ImGuiWindow* lab = ImGui::FindWindowByName("Image lab");
  const ImVec2 labPos = lab->Pos;
  click(ImVec2(lab->Pos.x + 60.0f, lab->Pos.y + ImGui::GetFrameHeight() * 0.5f));  // the panel has the keyboard
  ASSERT_TRUE(ImGui::GetIO().WantCaptureKeyboard) << "the click did not give the panel the keyboard";
  const PanelVisibility open = state_.panels;

  frame(ImVec2(-1, -1), false, GLFW_KEY_TAB);
  frames(3);
  EXPECT_TRUE(panels().empty()) << placeOf(panels().front()) << " is still shown";
  EXPECT_TRUE(ImGui::FindWindowByName("##MainMenuBar")->WasActive);
  EXPECT_TRUE(ImGui::FindWindowByName("##statusbar")->WasActive);
  EXPECT_GT(state_.image.shownPictures.at(0).width(), fittedWidth * 1.2f) << "the picture was not fitted again";
  EXPECT_FALSE(ImGui::GetIO().WantTextInput);

  frame(ImVec2(-1, -1), false, GLFW_KEY_TAB);
  frames(3);
  EXPECT_EQ(panels().size(), shown);
  EXPECT_EQ(lab->Pos.x, labPos.x);
  EXPECT_EQ(lab->Pos.y, labPos.y);
  EXPECT_FLOAT_EQ(state_.image.shownPictures.at(0).width(), fittedWidth);
  EXPECT_FALSE(ImGui::GetIO().WantTextInput) << "Tab gave a text field the keyboard: letters would go there";
  EXPECT_EQ(state_.panels.devices, open.devices);
  EXPECT_EQ(state_.panels.log, open.log);
  EXPECT_EQ(state_.panels.imageLab, open.imageLab);
}

// Menus, combo lists and panels are drawn opaque: what is under them does not show
// through. Before, ImGui's dark style drew them at 94%.
TEST_F(LayoutUi, MenusAndPanelsAreOpaque) {
  frames(2);
  const ImGuiStyle& style = ImGui::GetStyle();
  const ImGuiWindow* menu = openViewMenu();
  ASSERT_TRUE(menu) << "the View menu did not open";
  // The first thing a window draws is its background.
  for (const ImGuiWindow* w : {menu, static_cast<const ImGuiWindow*>(ImGui::FindWindowByName("Profiler"))}) {
    ASSERT_FALSE(w->DrawList->VtxBuffer.empty());
    EXPECT_EQ(w->DrawList->VtxBuffer[0].col >> IM_COL32_A_SHIFT, 255u) << w->Name << "'s background is see-through";
  }
  EXPECT_EQ(style.Colors[ImGuiCol_PopupBg].w, 1.0f) << "combo lists and tooltips";
}

// The Sweep panel, opened from the View menu at 1280x800, shows its results: a
// header and four rows at least, in view. Before, the table had what the panel left
// below the settings: nothing.
TEST_F(LayoutUi, TheSweepResultsAreInViewAtTheDefaultSize) {
  state_.runs.showRuns = false;
  for (int i = 0; i < 8; ++i) {
    RunRecord r;
    r.name = "tiled wg=" + std::to_string(32 << i);
    r.m.kernelMs.median = 1.0 + i;
    r.m.rate = 100.0;
    r.m.rateUnit = "GB/s";
    state_.runs.sweep.results.push_back(r);
  }
  ImGui::GetIO().DisplaySize = ImVec2(1280.0f, 800.0f);
  for (const SweepTarget target :
       {SweepTarget::NBody, SweepTarget::Transpose, SweepTarget::Interop, SweepTarget::Rotate}) {
    SCOPED_TRACE(static_cast<int>(target));
    state_.runs.sweep.target = state_.runs.sweep.resultsTarget = target;
    frames(3);
    ImGuiWindow* sweep = ImGui::FindWindowByName("Sweep");
    ASSERT_NE(sweep, nullptr);
    const ImGuiTable* table = ImGui::TableFindByID(sweep->GetID("sweep results"));
    ASSERT_NE(table, nullptr);
    const float row = ImGui::GetTextLineHeight() + 2.0f * ImGui::GetStyle().CellPadding.y;
    EXPECT_GE(table->OuterRect.GetHeight(), 5.0f * row) << placeOf(sweep);
    EXPECT_LE(table->OuterRect.Min.y + 5.0f * row, sweep->InnerRect.Max.y)
        << placeOf(sweep) << ": the table starts at " << table->OuterRect.Min.y << ", its rows out of view";
  }
}

// Issue 22 (audit at 1024x700): the Sweep panel's rows said each configuration whole,
// wrapped over five lines, so two rows were in view; each row says what tells it apart
// from the others on two lines at most (the whole words in its tooltip), in the app's
// font, beside the Runs panel.
TEST_F(LayoutUi, TheSweepRowsTakeTwoLinesAtMostAt1024) {
  if (!useAppFont()) GTEST_SKIP() << "no DejaVu Sans";
  state_.runs.showRuns = state_.runs.showSweep = true;
  size_t measured = 0;
  for (const char* variant : {"blocked", "tiled"})
    for (int wg : {64, 128})
      for (int unroll : {1, 4, 8}) {
        NBodyConfig c;
        c.variant = variant;
        c.workGroup = wg;
        c.unroll = unroll;
        c.bodiesPerItem = 1;
        c.split = 1;
        RunRecord r;  // as lab/sweep_runs.cpp names a measured configuration
        r.name = describeNBodyConfig(c);
        r.m.kernelMs.median = 40.0 + unroll;
        r.m.rate = 1.5;
        r.m.rateUnit = "GFLOP/s";
        state_.runs.sweep.results.push_back(r);
        ++measured;
      }
  state_.runs.sweep.target = state_.runs.sweep.resultsTarget = SweepTarget::NBody;
  resize(1024.0f, 700.0f);
  ImGuiWindow* sweep = ImGui::FindWindowByName("Sweep");
  ASSERT_TRUE(sweep && sweep->WasActive);
  const ImGuiTable* table = ImGui::TableFindByID(sweep->GetID("sweep results"));
  ASSERT_TRUE(table && table->InnerWindow);
  const float line = ImGui::GetTextLineHeight(), padding = 2.0f * ImGui::GetStyle().CellPadding.y;
  const float header = line + padding;
  const float meanRow = (table->InnerWindow->ContentSize.y - header) / float(measured);
  EXPECT_LE(meanRow, 2.0f * line + padding + 1.0f) << "rows of " << meanRow / line << " lines";
}

// The Sweep panel's progress bar after a switch of kind (issue 22): the last sweep's
// count ("12 / 12") is of the kind swept, not of the one chosen now; a new sweep
// starts from nothing.
TEST_F(LayoutUi, TheSweepProgressIsOfTheKindChosen) {
  SweepUiState& sweep = state_.runs.sweep;
  sweep.target = sweep.resultsTarget = SweepTarget::NBody;
  sweep.done = sweep.total = 12;
  sweep.refused = 3;
  SweepProgress shown = sweepProgressToShow(sweep);
  EXPECT_FLOAT_EQ(shown.fraction, 1.0f);
  EXPECT_NE(shown.overlay.find("12 / 12"), std::string::npos) << shown.overlay;
  sweep.target = SweepTarget::Transpose;
  shown = sweepProgressToShow(sweep);
  EXPECT_FLOAT_EQ(shown.fraction, 0.0f) << "the N-body sweep's count under transpose";
  EXPECT_EQ(shown.overlay.find("12"), std::string::npos) << shown.overlay;
  EXPECT_EQ(shown.overlay, "no transpose sweep yet");
  sweep.active = true;  // a sweep of this kind running: its own count
  sweep.resultsTarget = SweepTarget::Transpose;
  sweep.done = 2;
  sweep.total = 8;
  shown = sweepProgressToShow(sweep);
  EXPECT_FLOAT_EQ(shown.fraction, 0.25f);
  EXPECT_NE(shown.overlay.find("2 / 8"), std::string::npos) << shown.overlay;
}

// The Sweep panel (audit): the results of the kind chosen only (after a switch it
// showed the other kind's), what was measured before the refused, which follow in a
// section of their own, shut while anything was measured (they came first and pushed
// the results out of view), and each refusal's whole reason in a tooltip (cut, with none).
TEST_F(LayoutUi, TheSweepShowsItsOwnResultsFirstAndRefusalsInFull) {
  state_.runs.showRuns = false;
  SweepUiState& sweep = state_.runs.sweep;
  sweep.target = sweep.resultsTarget = SweepTarget::Transpose;
  const std::string why = "refused: a 64x64 tile needs 16384 bytes of local memory per work-group and the device "
                          "offers 8192; choose a smaller tile";
  for (int i = 0; i < 6; ++i) {
    RunRecord r;
    r.name = "tiled tile=64 rows/item=" + std::to_string(1 << i);
    r.status = why;
    sweep.results.push_back(r);
  }
  for (int i = 0; i < 3; ++i) {
    RunRecord r;
    r.name = "tiled tile=16 rows/item=" + std::to_string(1 << i);
    r.m.kernelMs.median = 1.0 + i;
    r.m.rate = 100.0;
    r.m.rateUnit = "GB/s";
    sweep.results.push_back(r);
  }
  SweepRows rows = sweepRowsToShow(sweep);
  EXPECT_EQ(rows.measured, (std::vector<size_t>{6, 7, 8}));
  EXPECT_EQ(rows.refused, (std::vector<size_t>{0, 1, 2, 3, 4, 5}));
  sweep.target = SweepTarget::NBody;
  rows = sweepRowsToShow(sweep);
  EXPECT_TRUE(rows.measured.empty() && rows.refused.empty()) << "the transpose sweep's rows under N-body";

  // Nothing measured: the refusals are open; hovering a cut reason shows all of it.
  sweep.target = SweepTarget::Transpose;
  sweep.results.resize(6);
  resize(1024.0f, 700.0f);
  ImGuiWindow* panel = ImGui::FindWindowByName("Sweep");
  ASSERT_NE(panel, nullptr);
  const ImGuiTable* table = ImGui::TableFindByID(panel->GetID("sweep results"));
  ASSERT_NE(table, nullptr);
  const float x = (table->Columns[2].MinX + table->Columns[2].MaxX) * 0.5f;
  ASSERT_LT(table->Columns[2].MaxX - table->Columns[2].MinX, ImGui::CalcTextSize(why.c_str()).x) << "the reason fits: nothing to test";
  float tooltipArea = 0.0f;
  for (float y = table->OuterRect.Min.y; y < table->OuterRect.Max.y && tooltipArea == 0.0f; y += 3.0f) {
    frame(ImVec2(x, y));
    frame(ImVec2(x, y));
    for (ImGuiWindow* w : ImGui::GetCurrentContext()->Windows)
      if ((w->Flags & ImGuiWindowFlags_Tooltip) && w->WasActive) tooltipArea = w->Size.x * w->Size.y;
  }
  EXPECT_GE(tooltipArea, ImGui::CalcTextSize(why.c_str()).x * ImGui::GetTextLineHeight())
      << "no tooltip with the whole reason over a refused row";
}

// The Sweep panel's check boxes and radio buttons wrap inside it at both window
// sizes, for every target. Before, the transpose variants ran past its right edge.
TEST_F(LayoutUi, TheSweepChoicesStayInsideThePanel) {
  for (const ImVec2 size : {ImVec2(1600, 1000), ImVec2(1024, 700)})
    for (const SweepTarget target :
         {SweepTarget::NBody, SweepTarget::Transpose, SweepTarget::Interop, SweepTarget::Rotate}) {
      SCOPED_TRACE(std::to_string(size.x) + " target " + std::to_string(static_cast<int>(target)));
      state_.runs.sweep.target = target;
      resize(size.x, size.y);
      const ImGuiWindow* sweep = ImGui::FindWindowByName("Sweep");
      ASSERT_NE(sweep, nullptr);
      // The right edge of everything drawn in the panel, against its content's edge.
      EXPECT_LE(sweep->DC.CursorMaxPos.x, sweep->WorkRect.Max.x + 0.5f) << placeOf(sweep);
    }
}

// Device info in the left column: each value gets room to wrap at whole words. With
// names in a column as wide as the longest, a 220-pixel panel left the values a few
// letters a line ("Portable Computi ng Langua ge"); a narrow panel puts each name above its value.
TEST_F(LayoutUi, DeviceInfoValuesHaveRoomToWrapAtWords) {
  DeviceDescriptor d;
  d.platformName = "Portable Computing Language";
  d.platformVersion = "OpenCL 3.0 PoCL 3.1+debian Linux, None+Asserts, RELOC, SPIR, LLVM 15.0.6";
  d.name = "pthread-skylake-avx512-AMD EPYC 7B13 64-Core Processor";
  d.vendor = "AuthenticAMD";
  state_.devices = {d};
  state_.activeDevice = 0;
  state_.panels.deviceInfo = true;
  // Runs and Sweep shut: with them open at 1024x700 the crowded column folds Device
  // info to its title bar (APanelOfACrowdedColumnIsUsefulOrFoldedToItsTitle).
  state_.runs.showRuns = state_.runs.showSweep = false;
  for (ImVec2 size : {ImVec2(1600, 1000), ImVec2(1024, 700)}) {
    resize(size.x, size.y);
    const ImGuiWindow* info = ImGui::FindWindowByName("Device info");
    ASSERT_NE(info, nullptr);
    ImGuiContext& g = *ImGui::GetCurrentContext();
    const ImGuiTable* table = nullptr;
    for (int i = 0; i < g.Tables.GetMapSize(); ++i)
      if (const ImGuiTable* t = g.Tables.TryGetMapData(i); t && t->OuterWindow == info && t->LastFrameActive == g.FrameCount)
        table = t;
    ASSERT_NE(table, nullptr) << size.x << "x" << size.y;
    const ImGuiTableColumn& values = table->Columns[table->ColumnsCount - 1];
    EXPECT_GE(values.WidthGiven, 12.0f * ImGui::GetFontSize())
        << size.x << "x" << size.y << ": " << table->ColumnsCount << " columns in a " << info->Size.x << "-pixel panel";
  }
}

// Issue 22 (audit at 1024x700): the Devices panel cut each device's name at its right
// edge ("0: pthread-haswell-AMD EPYC [C"), so two devices of one processor read alike;
// the names wrap in the panel now: nothing in it is wider than it, at both sizes and in
// the app's font.
TEST_F(LayoutUi, DeviceNamesWrapInsideTheDevicesPanel) {
  for (const bool appFont : {false, true}) {
    if (appFont && !useAppFont()) continue;  // the built-in font was checked
    DeviceDescriptor cpu, pthread;
    cpu.platformName = pthread.platformName = "Portable Computing Language";
    cpu.name = "cpu-haswell-Intel(R) Xeon(R) CPU @ 2.20GHz";
    pthread.name = "pthread-haswell-Intel(R) Xeon(R) CPU @ 2.20GHz";
    cpu.kind = pthread.kind = DeviceKind::Cpu;
    cpu.available = pthread.available = true;
    state_.devices = {cpu, pthread};
    state_.activeDevice = 1;
    state_.panels.devices = true;
    state_.runs.showRuns = state_.runs.showSweep = false;  // the left column's panels open, none folded
    for (ImVec2 size : {ImVec2(1600, 1000), ImVec2(1024, 700)}) {
      SCOPED_TRACE(std::to_string(int(size.x)) + "x" + std::to_string(int(size.y)) + (appFont ? " app font" : ""));
      resize(size.x, size.y);
      const ImGuiWindow* devices = ImGui::FindWindowByName("Devices");
      ASSERT_TRUE(devices && devices->WasActive && !devices->Collapsed);
      EXPECT_LE(devices->ContentSize.x, devices->ContentRegionRect.GetWidth() + 0.5f)
          << "something in a " << devices->Size.x << "-pixel panel is wider than it";
      EXPECT_EQ(devices->ScrollMax.x, 0.0f);
    }
  }
}

// The particles are drawn into the part of the window the panels leave free, not under
// the panels: the cloud's centre (the middle of that area) is in view at both sizes. The
// Julia picture too (it was centred in the whole window, a third of it under panels).
TEST_F(LayoutUi, TheParticlesDrawWhereNoPanelCoversThem) {
  state_.runs.showRuns = state_.runs.showSweep = false;  // as the app starts: they open over the view
  for (const SceneKind scene : {SceneKind::NBody, SceneKind::Julia})
  for (ImVec2 size : {ImVec2(1600, 1000), ImVec2(1280, 800), ImVec2(1024, 700)}) {
    SCOPED_TRACE(scene == SceneKind::Julia ? "Julia" : "N-body");
    state_.scene = scene;
    state_.sceneArea = {0.0f, 0.0f, 1.0f, 1.0f};  // as a scene starts
    resize(size.x, size.y);
    const ScreenRect a{state_.sceneArea.x0 * size.x, state_.sceneArea.y0 * size.y, state_.sceneArea.x1 * size.x,
                       state_.sceneArea.y1 * size.y};
    EXPECT_GE(a.width(), 0.3f * size.x) << size.x << "x" << size.y;
    EXPECT_GE(a.height(), 0.4f * size.y) << size.x << "x" << size.y;
    for (const ImGuiWindow* w : panels()) {
      const ScreenRect p{w->Pos.x, w->Pos.y, w->Pos.x + w->Size.x, w->Pos.y + w->Size.y};
      EXPECT_FALSE(a.overlaps(p)) << size.x << "x" << size.y << ": the view " << a.x0 << "," << a.y0 << " - " << a.x1
                                  << "," << a.y1 << " is under " << placeOf(w);
    }
  }
}

// Runs and Sweep, opened, cover neither the particles nor the picture, nor each
// other, at both sizes (audit: they opened over the middle of the picture, and at
// 1024 wide the Sweep panel hid the Runs chart). They share the strip along the bottom.
TEST_F(LayoutUi, RunsAndSweepCoverNeitherTheViewNorEachOther) {
  for (const SceneKind scene : {SceneKind::NBody, SceneKind::Image}) {
    if (scene == SceneKind::Image) openPicture(state_);
    else state_.scene = scene;
    for (ImVec2 size : {ImVec2(1600, 1000), ImVec2(1024, 700)}) {
      SCOPED_TRACE(std::to_string(static_cast<int>(size.x)) + (scene == SceneKind::Image ? " image lab" : " N-body"));
      resize(size.x, size.y);
      const ImGuiWindow* runs = ImGui::FindWindowByName("Runs");
      const ImGuiWindow* sweep = ImGui::FindWindowByName("Sweep");
      ASSERT_TRUE(runs && runs->WasActive && sweep && sweep->WasActive);
      const ScreenRect r{runs->Pos.x, runs->Pos.y, runs->Pos.x + runs->Size.x, runs->Pos.y + runs->Size.y};
      const ScreenRect s{sweep->Pos.x, sweep->Pos.y, sweep->Pos.x + sweep->Size.x, sweep->Pos.y + sweep->Size.y};
      EXPECT_FALSE(r.overlaps(s)) << placeOf(runs) << " and " << placeOf(sweep);
      // Each gets room for its table: 280 pixels across at least (the Sweep panel's
      // choices wrap inside that), a third of the window down.
      for (const ImGuiWindow* w : {runs, sweep}) {
        EXPECT_GE(w->Size.x, 280.0f) << placeOf(w);
        EXPECT_GE(w->Size.y, 0.33f * size.y) << placeOf(w);
      }
      const ScreenRect view{state_.sceneArea.x0 * size.x, state_.sceneArea.y0 * size.y, state_.sceneArea.x1 * size.x,
                            state_.sceneArea.y1 * size.y};
      EXPECT_GE(view.width(), 0.3f * size.x);
      EXPECT_GE(view.height(), 0.3f * size.y);
      for (const ImGuiWindow* w : {runs, sweep}) {
        const ScreenRect p{w->Pos.x, w->Pos.y, w->Pos.x + w->Size.x, w->Pos.y + w->Size.y};
        EXPECT_FALSE(view.overlaps(p)) << "the view " << view.x0 << "," << view.y0 << " - " << view.x1 << ","
                                       << view.y1 << " is under " << placeOf(w);
        if (scene != SceneKind::Image) continue;
        for (const ScreenRect& picture : state_.image.shownPictures)
          EXPECT_FALSE(picture.overlaps(p)) << "a picture is under " << placeOf(w);
      }
    }
  }
}

// With Runs and Sweep open in a narrow window (1024 and 1280 wide) the strip along
// the bottom is theirs: each about half the width, their controls and table inside
// it (audit: beside the Profiler, and the histogram in the image lab, Runs got 410
// or 312 pixels and its controls ran past its edge). The Profiler and the histogram
// go to the left column, in view.
TEST_F(LayoutUi, RunsAndSweepShareTheStripInANarrowWindow) {
  for (const SceneKind scene : {SceneKind::NBody, SceneKind::Image}) {
    if (scene == SceneKind::Image) openPicture(state_);
    else state_.scene = scene;
    for (ImVec2 size : {ImVec2(1024, 700), ImVec2(1280, 800)}) {
      SCOPED_TRACE(std::to_string(static_cast<int>(size.x)) + (scene == SceneKind::Image ? " image lab" : " N-body"));
      resize(size.x, size.y);
      for (const char* title : {"Runs", "Sweep"}) {
        const ImGuiWindow* w = ImGui::FindWindowByName(title);
        ASSERT_TRUE(w && w->WasActive) << title;
        EXPECT_GE(w->Size.x, 0.45f * size.x) << placeOf(w);
        EXPECT_LE(w->ContentSize.x, w->InnerRect.GetWidth() + 1.0f) << placeOf(w) << ": its content is wider";
      }
      for (const char* title : {"Profiler", "Histogram"}) {
        if (scene != SceneKind::Image && std::string(title) == "Histogram") continue;
        const ImGuiWindow* w = ImGui::FindWindowByName(title);
        ASSERT_TRUE(w && w->WasActive) << title;
        EXPECT_EQ(w->Pos.x, 0.0f) << placeOf(w);
      }
      expectEveryPanelInside();
      if (scene == SceneKind::Image) {
        // Runs alone: the histogram stays beside it in the strip, its bars a pixel a level.
        state_.runs.showSweep = false;
        frames(3);
        const ImGuiWindow* runs = ImGui::FindWindowByName("Runs");
        const ImGuiWindow* histogram = ImGui::FindWindowByName("Histogram");
        EXPECT_EQ(histogram->Pos.y, runs->Pos.y) << placeOf(histogram) << " is not beside " << placeOf(runs);
        EXPECT_GE(histogram->Size.x, 256.0f + 8.0f * ImGui::GetFontSize()) << placeOf(histogram);
        EXPECT_GE(runs->Size.x, 0.45f * size.x) << placeOf(runs);
        state_.runs.showSweep = true;
        frames(3);
      }
      // Six panels in the left column: none over another (in the window, panels given
      // less than ImGui's smallest size were grown, counted as moved, and piled up).
      const std::vector<ImGuiWindow*> shown = panels();
      EXPECT_GE(shown.size(), scene == SceneKind::Image ? 9u : 8u);
      for (size_t i = 0; i < shown.size(); ++i)
        for (size_t j = i + 1; j < shown.size(); ++j) {
          const ImGuiWindow *a = shown[i], *b = shown[j];
          const ScreenRect ra{a->Pos.x, a->Pos.y, a->Pos.x + a->Size.x, a->Pos.y + a->Size.y};
          const ScreenRect rb{b->Pos.x, b->Pos.y, b->Pos.x + b->Size.x, b->Pos.y + b->Size.y};
          EXPECT_FALSE(ra.overlaps(rb)) << placeOf(a) << " and " << placeOf(b);
        }
    }
  }
}

// The Profiler's controls and numbers stay inside it where it is narrow: beside Runs
// and Sweep at 1600x1000, in the left column at 1024x700 (audit: Reset, the vsync box
// and the frame-time line ran past its right edge).
TEST_F(LayoutUi, TheProfilerFitsItsWidthBesideRunsAndSweep) {
  for (int i = 0; i < 30; ++i) state_.profiler.record("frame", 123.456 + i);
  for (ImVec2 size : {ImVec2(1600, 1000), ImVec2(1024, 700)}) {
    resize(size.x, size.y);
    ImGuiWindow* profiler = ImGui::FindWindowByName("Profiler");
    ASSERT_TRUE(profiler && profiler->WasActive);
    ASSERT_LT(profiler->Size.x, 400.0f) << "a wide panel: nothing to test";
    EXPECT_LE(profiler->ContentSize.x, profiler->InnerRect.GetWidth() + 1.0f)
        << placeOf(profiler) << ": its content is wider";
  }
}

// Runs and Sweep opened after the picture was fitted: it is fitted again into what
// they leave (it stayed at its size, under the taller strip).
TEST_F(LayoutUi, OpeningRunsAndSweepRefitsThePicture) {
  state_.runs.showRuns = state_.runs.showSweep = false;
  openPicture(state_);
  for (ImVec2 size : {ImVec2(1600, 1000), ImVec2(1024, 700)}) {
    SCOPED_TRACE(std::to_string(static_cast<int>(size.x)));
    state_.runs.showRuns = state_.runs.showSweep = false;
    resize(size.x, size.y);
    ASSERT_FALSE(state_.image.shownPictures.empty());
    state_.runs.showRuns = state_.runs.showSweep = true;
    frames(4);
    for (const char* title : {"Runs", "Sweep"}) {
      const ImGuiWindow* w = ImGui::FindWindowByName(title);
      ASSERT_TRUE(w && w->WasActive) << title;
      const ScreenRect p{w->Pos.x, w->Pos.y, w->Pos.x + w->Size.x, w->Pos.y + w->Size.y};
      for (const ScreenRect& picture : state_.image.shownPictures)
        EXPECT_FALSE(picture.overlaps(p)) << "the picture " << picture.x0 << "," << picture.y0 << " - " << picture.x1
                                          << "," << picture.y1 << " is under " << placeOf(w);
    }
  }
}

// View ticks what is shown: a scene's own panel only in its scene (audit: Image lab
// was ticked in the N-body scene, where it does not show, and picking it there hid it
// for later). Picked in another scene, it opens there.
TEST_F(LayoutUi, TheViewMenuOpensAnotherScenesPanelInItsScene) {
  state_.scene = SceneKind::NBody;
  state_.panels.imageLab = true;  // open, for when the image lab is the scene
  frames(2);
  ASSERT_TRUE(openViewMenu()) << "the View menu did not open";
  ImGuiWindow* menu = ImGui::FindWindowByName("##Menu_00");
  const ImGuiID item = menu->GetID("Image lab");
  std::optional<ImVec2> at;
  for (float y = menu->Pos.y; y < menu->Pos.y + menu->Size.y && !at; y += 3.0f) {
    frame(ImVec2(menu->Pos.x + 30.0f, y));
    if (ImGui::GetCurrentContext()->HoveredId == item) at = ImVec2(menu->Pos.x + 30.0f, y);
  }
  ASSERT_TRUE(at) << "no Image lab item in the View menu";
  frame(*at, true);
  frame(*at);
  frames(2);
  EXPECT_TRUE(state_.panels.imageLab) << "picking Image lab in the N-body scene hid it";
  ASSERT_TRUE(askedScene(state_).has_value()) << "picking Image lab did not go to the image lab";
  EXPECT_EQ(*askedScene(state_), SceneKind::Image);
}

// The help window lists the image lab's own controls too (Fit, 1:1, the views), and Tab.
TEST_F(LayoutUi, TheHelpListsTheImageLabsControls) {
  for (const char* control : {"Fit, 1:1", "original / result", "Tab", "wheel"}) {
    const auto& rows = helpRows();
    EXPECT_TRUE(std::any_of(rows.begin(), rows.end(), [&](const auto& r) { return std::string(r[0]) == control; }))
        << control << " is not in the help";
  }
  state_.showHelp = true;
  frames(2);
  const ImGuiWindow* help = ImGui::FindWindowByName("Keyboard and mouse");
  ASSERT_NE(help, nullptr);
  EXPECT_TRUE(help->WasActive);
}

// A transposed result (portrait from landscape) is fitted again while the view is as
// Fit left it (before, it kept the landscape zoom and spilled under the panels); a zoom
// the user chose stays.
TEST_F(LayoutUi, AResultOfAnotherShapeIsFittedAgain) {
  state_.runs.showRuns = state_.runs.showSweep = false;
  openPicture(state_);
  stagedReadings(state_.image).width = stagedReadings(state_.image).resultWidth = 3000;
  stagedReadings(state_.image).height = stagedReadings(state_.image).resultHeight = 2000;
  frames(4);
  const float landscapeZoom = state_.image.zoom;
  std::swap(stagedReadings(state_.image).resultWidth,
            stagedReadings(state_.image).resultHeight);  // the transpose switched on
  frames(3);
  EXPECT_LT(state_.image.zoom, landscapeZoom * 0.9f) << "the portrait result kept the landscape zoom";
  const ScreenRect shown = state_.image.shownPictures.at(0);
  const float top = ImGui::GetFrameHeight(), bottom = ImGui::GetIO().DisplaySize.y - kStatusBarHeight;
  EXPECT_GE(shown.y0, top - 0.5f);
  EXPECT_LE(shown.y1, bottom + 0.5f);

  state_.image.zoom *= 1.5f;  // the user zooms in
  const float chosen = state_.image.zoom;
  std::swap(stagedReadings(state_.image).resultWidth, stagedReadings(state_.image).resultHeight);
  frames(3);
  EXPECT_EQ(state_.image.zoom, chosen) << "a zoom the user chose was replaced";
}

// Esc quits at once unless recorded runs would be lost; then it asks (the audit lost
// two recorded runs to one Esc). Esc again, or Cancel, keeps the session.
TEST_F(LayoutUi, EscAsksBeforeLosingRecordedRuns) {
  state_.runs.showRuns = state_.runs.showSweep = false;
  frames(2);
  RunRecord run;
  run.name = "recording 1";
  state_.runs.addMeasuredRun(run);
  ImGui::FocusWindow(nullptr);  // the picture has the keyboard (a click on it): Esc is the app's
  // ImGui sees the press in the same frame (ui/input_queue.cpp): it did not cancel the question it asked.
  ImGui::GetIO().KeysDown[ImGuiKey_Escape] = true;
  frame(ImVec2(-1, -1), false, GLFW_KEY_ESCAPE);
  ImGui::GetIO().KeysDown[ImGuiKey_Escape] = false;
  frames(2);
  EXPECT_FALSE(state_.commands.has<Quit>()) << "quit with a run not exported";
  const ImGuiWindow* question = ImGui::FindWindowByName("Quit kernelscope?");
  ASSERT_TRUE(question && question->WasActive) << "no question asked";
  ImGui::GetIO().KeysDown[ImGuiKey_Escape] = true;  // Esc in the question: Cancel
  frame();
  ImGui::GetIO().KeysDown[ImGuiKey_Escape] = false;
  frames(2);
  EXPECT_FALSE(state_.quitConfirmShown);
  EXPECT_FALSE(state_.commands.has<Quit>());
  EXPECT_FALSE(ImGui::FindWindowByName("Quit kernelscope?")->WasActive);

  // Export that cannot write: no quit, and the Runs panel says why.
  std::snprintf(state_.runs.exportPath, sizeof state_.runs.exportPath, "/dev/null/runs");
  requestQuit(state_);
  answerQuitQuestion(state_, QuitChoice::ExportAndQuit);
  EXPECT_FALSE(state_.commands.has<Quit>());
  EXPECT_TRUE(state_.runs.showRuns);
  EXPECT_FALSE(state_.runs.message.empty());

  // Written: nothing is lost, Esc quits at once.
  const fs::path file = fs::temp_directory_path() / "ks-layout-quit-runs";
  std::snprintf(state_.runs.exportPath, sizeof state_.runs.exportPath, "%s", file.c_str());
  ASSERT_TRUE(exportAllRuns(state_.runs, true)) << state_.runs.message;
  EXPECT_EQ(state_.runs.unexportedRuns(), 0u);
  fs::remove(file.string() + ".json");
  ImGui::FocusWindow(nullptr);
  frame(ImVec2(-1, -1), false, GLFW_KEY_ESCAPE);
  EXPECT_TRUE(state_.commands.has<Quit>());
}

// Runs imported from a file are in a file already: they are not "never exported"
// (the audit was asked to export runs it had just imported).
TEST_F(LayoutUi, ImportedRunsDoNotMakeQuittingAsk) {
  RunRecord run;
  run.name = "recording 1";
  run.meta.host = "elsewhere";
  run.m.fps = 60.0;
  run.m.frames = 10;
  state_.runs.addMeasuredRun(run);
  const fs::path file = fs::temp_directory_path() / "ks-layout-import-runs";
  std::snprintf(state_.runs.exportPath, sizeof state_.runs.exportPath, "%s", file.c_str());
  ASSERT_TRUE(exportAllRuns(state_.runs, true)) << state_.runs.message;
  std::snprintf(state_.runs.importPath, sizeof state_.runs.importPath, "%s.json", file.c_str());
  ASSERT_TRUE(importRunsFile(state_.runs)) << state_.runs.message;
  fs::remove(file.string() + ".json");
  ASSERT_EQ(state_.runs.runs.size(), 2u) << state_.runs.message;
  EXPECT_EQ(state_.runs.unexportedRuns(), 0u) << "an imported run counted as never exported";
  requestQuit(state_);
  EXPECT_TRUE(state_.commands.has<Quit>());
  EXPECT_FALSE(state_.quitConfirmShown);

  // A run recorded after the import does make it ask; Clear forgets it with the rest.
  state_.commands.take<Quit>();
  state_.runs.addMeasuredRun(run);
  EXPECT_EQ(state_.runs.unexportedRuns(), 1u);
  requestQuit(state_);
  EXPECT_FALSE(state_.commands.has<Quit>());
  EXPECT_TRUE(state_.quitConfirmShown);
  state_.runs.clearRuns();
  EXPECT_EQ(state_.runs.unexportedRuns(), 0u);
}

TEST_F(LayoutUi, EscQuitsAtOnceWithoutRecordedRuns) {
  frames(2);
  ImGui::FocusWindow(nullptr);
  frame(ImVec2(-1, -1), false, GLFW_KEY_ESCAPE);
  EXPECT_TRUE(state_.commands.has<Quit>());
}

// The one-key shortcuts the help lists (C, R, V, Esc) after a click on a panel, which gives
// it the keyboard: before, Esc did nothing while any panel had it. Esc that closes a menu
// only closes it.
TEST_F(LayoutUi, ShortcutsAndEscWorkAfterAClickOnAPanel) {
  frames(2);
  const ImGuiWindow* runs = ImGui::FindWindowByName("Runs");
  ASSERT_NE(runs, nullptr);
  click(ImVec2(runs->Pos.x + 60.0f, runs->Pos.y + ImGui::GetFrameHeight() * 0.5f));  // its title bar
  ASSERT_TRUE(ImGui::GetIO().WantCaptureKeyboard) << "the click did not give the panel the keyboard";
  frame(ImVec2(-1, -1), false, GLFW_KEY_C);
  EXPECT_TRUE(state_.commands.takeAny<ResetCamera>()) << "C did nothing";
  frame(ImVec2(-1, -1), false, GLFW_KEY_R);
  EXPECT_TRUE(state_.commands.takeAny<ResetNBody>()) << "R did nothing";
  const bool vsync = state_.vsync;
  frame(ImVec2(-1, -1), false, GLFW_KEY_V);
  EXPECT_NE(state_.vsync, vsync) << "V did nothing";
  ASSERT_TRUE(ImGui::GetIO().WantCaptureKeyboard);

  ASSERT_NE(openViewMenu(), nullptr);
  ImGui::GetIO().KeysDown[ImGuiKey_Escape] = true;  // as the GLFW backend hands it to ImGui
  frame(ImVec2(-1, -1), false, GLFW_KEY_ESCAPE);
  ImGui::GetIO().KeysDown[ImGuiKey_Escape] = false;
  frames(2);
  EXPECT_TRUE(ImGui::GetCurrentContext()->OpenPopupStack.empty()) << "Esc did not close the menu";
  EXPECT_FALSE(state_.commands.has<Quit>()) << "the Esc that closed a menu quit as well";

  click(ImVec2(runs->Pos.x + 60.0f, runs->Pos.y + ImGui::GetFrameHeight() * 0.5f));
  ASSERT_TRUE(ImGui::GetIO().WantCaptureKeyboard);
  frame(ImVec2(-1, -1), false, GLFW_KEY_ESCAPE);
  EXPECT_TRUE(state_.commands.has<Quit>()) << "Esc did nothing while a panel had the keyboard";
}

// Esc in the very frame after a click opened a menu closed the menu and quit as well: ImGui
// closes the menu on Esc before the shortcuts run, and they knew only whether a menu was
// open at the last frame's shortcuts, which ran before that frame's click opened it. Esc that
// closes a menu only closes it, whatever the frames between; the Esc after it quits.
TEST_F(LayoutUi, EscInTheFrameAfterAMenuOpensOnlyClosesIt) {
  state_.runs.showRuns = state_.runs.showSweep = false;
  frames(2);
  const ImVec2 view = viewMenuTitle();
  frame(view);
  frame(view, true);  // the click: the menu opens while this frame's panels are drawn
  ASSERT_FALSE(ImGui::GetCurrentContext()->OpenPopupStack.empty()) << "the click did not open the View menu";
  ImGui::GetIO().KeysDown[ImGuiKey_Escape] = true;  // the next frame, as the GLFW backend hands it to ImGui
  frame(view, false, GLFW_KEY_ESCAPE);
  ImGui::GetIO().KeysDown[ImGuiKey_Escape] = false;
  frames(2);
  EXPECT_TRUE(ImGui::GetCurrentContext()->OpenPopupStack.empty()) << "Esc did not close the menu";
  EXPECT_FALSE(state_.commands.has<Quit>()) << "the Esc that closed the menu quit as well";

  ImGui::GetIO().KeysDown[ImGuiKey_Escape] = true;  // nothing open now: Esc quits
  frame(ImVec2(-1, -1), false, GLFW_KEY_ESCAPE);
  ImGui::GetIO().KeysDown[ImGuiKey_Escape] = false;
  EXPECT_TRUE(state_.commands.has<Quit>()) << "Esc did nothing after the menu closed";
}

// Esc with the help open closes the help; the Esc after it quits (it quit with the help open).
TEST_F(LayoutUi, EscClosesTheHelpBeforeItQuits) {
  frames(2);
  frame(ImVec2(-1, -1), false, GLFW_KEY_H);
  ASSERT_TRUE(state_.showHelp) << "H did not open the help";
  frame(ImVec2(-1, -1), false, GLFW_KEY_ESCAPE);
  EXPECT_FALSE(state_.showHelp) << "Esc did not close the help";
  EXPECT_FALSE(state_.commands.has<Quit>()) << "the Esc that closed the help quit as well";
  frame(ImVec2(-1, -1), false, GLFW_KEY_ESCAPE);
  EXPECT_TRUE(state_.commands.has<Quit>()) << "Esc did nothing after the help closed";
}

// H shows the help while Tab hides the panels (before, it stayed hidden with them).
TEST_F(LayoutUi, TheHelpShowsWhilePanelsAreHidden) {
  frame(ImVec2(-1, -1), false, GLFW_KEY_TAB);
  frame(ImVec2(-1, -1), false, GLFW_KEY_H);
  frames(2);
  const ImGuiWindow* help = ImGui::FindWindowByName("Keyboard and mouse");
  ASSERT_NE(help, nullptr);
  EXPECT_TRUE(help->WasActive);
  EXPECT_TRUE(state_.layout.panelsHidden);
  EXPECT_EQ(panels().size(), 1u) << "the help alone";
}

// File > Examples opens resources/examples' pictures in the image lab; each item's
// tooltip says what it shows.
TEST_F(LayoutUi, FileExamplesOpensATeachingPicture) {
  const auto resources = findResourcesDir(executableDir());
  ASSERT_TRUE(resources) << "resources/ not found";
  state_.resourcesDir = resources->string();
  frames(2);
  const ImGuiStyle& style = ImGui::GetStyle();
  const float line = ImGui::GetTextLineHeight();
  click(ImVec2(style.WindowPadding.x + 10.0f, ImGui::GetFrameHeight() * 0.5f));  // File
  const ImGuiWindow* file = ImGui::FindWindowByName("##Menu_00");
  ASSERT_TRUE(file && file->Active) << "the File menu did not open";
  // "Open image..." first, "Examples" second.
  const ImVec2 examples(file->Pos.x + 30.0f, file->DC.CursorStartPos.y + line + style.ItemSpacing.y + line * 0.5f);
  for (int i = 0; i < 4; ++i) frame(examples);
  const ImGuiWindow* list = ImGui::FindWindowByName("##Menu_01");
  ASSERT_TRUE(list && list->Active) << "Examples did not open its list";
  const ImVec2 first(list->Pos.x + 30.0f, list->DC.CursorStartPos.y + line * 0.5f);
  for (int i = 0; i < 3; ++i) frame(first);
  bool tooltip = false;
  for (ImGuiWindow* w : ImGui::GetCurrentContext()->Windows)
    tooltip |= w->WasActive && (w->Flags & ImGuiWindowFlags_Tooltip);
  EXPECT_TRUE(tooltip) << "no tooltip on the example";
  click(first);
  const std::vector<OpenImages> asked = state_.commands.take<OpenImages>();
  ASSERT_EQ(asked.size(), 1u);
  ASSERT_EQ(asked[0].paths().size(), 1u);
  const fs::path opened = asked[0].paths().front();
  EXPECT_EQ(opened, *resources / "examples" / exampleImages().front().file);
  EXPECT_TRUE(fs::exists(opened)) << opened;
  EXPECT_TRUE(askedScene(state_) == SceneKind::Image);
}

// Without resources/ the menu is there, disabled, and its tooltip says why.
TEST_F(LayoutUi, FileExamplesIsDisabledWithoutResources) {
  state_.resourcesDir.clear();
  frames(2);
  click(ImVec2(ImGui::GetStyle().WindowPadding.x + 10.0f, ImGui::GetFrameHeight() * 0.5f));
  const ImGuiWindow* file = ImGui::FindWindowByName("##Menu_00");
  ASSERT_TRUE(file && file->Active);
  const float line = ImGui::GetTextLineHeight();
  const ImVec2 examples(file->Pos.x + 30.0f,
                        file->DC.CursorStartPos.y + line + ImGui::GetStyle().ItemSpacing.y + line * 0.5f);
  for (int i = 0; i < 3; ++i) frame(examples);
  EXPECT_EQ(ImGui::FindWindowByName("##Menu_01") ? ImGui::FindWindowByName("##Menu_01")->Active : false, false);
  EXPECT_FALSE(state_.commands.has<OpenImages>());
}

// The Runs table's words: a run's configuration on one line under its name (the name
// alone hid it), and a speed-up between runs of different sizes marked as such.
TEST(RunsTableWords, ConfigurationAndRunsOfDifferentSizes) {
  RunRecord a, b, c;
  a.meta.parameters = {{"variant", "blocked"}, {"work_group", "256"}, {"bodies", "4096"}, {"iterations", "20"},
                       {"extra_options", "-cl-nv-maxrregcount=64"}};
  b.meta.parameters = {{"variant", "tiled"}, {"bodies", "16384"}};
  c.meta.parameters = {{"variant", "naive"}, {"bodies", "4096"}};
  EXPECT_EQ(configurationText(a), "variant blocked, work group 256, bodies 4096");
  a.name = "blocked wg=256 unroll=8";  // what the name shows is not repeated
  EXPECT_EQ(configurationText(a), "bodies 4096");
  EXPECT_EQ(sizeDifference(b, a), "bodies 16384 against the baseline's 4096");
  EXPECT_EQ(sizeDifference(c, a), "");
  RunRecord image1, image2;
  image1.meta.parameters = {{"image", "RGBA 8192x8192"}};
  image2.meta.parameters = {{"image", "gray 8192x8192"}};
  EXPECT_NE(sizeDifference(image1, image2).find("image RGBA 8192x8192"), std::string::npos);
}

// A run's configuration values read as words: "angle 0°", not "angle 0.000000"; "vsync on",
// not "vsync 1"; variant ids in words. The record (CSV, JSON) keeps the raw values.
TEST(RunsTableWords, ConfigurationValuesReadAsWords) {
  RunRecord image;
  image.name = "recording 1: image";  // its "1" is not the vsync's: that stays
  image.meta.parameters = {{"image", "RGBA 3000x2000"}, {"rotate", "bilinear_image"}, {"angle", "-35.529232"},
                           {"transpose", "off"}, {"histogram", "local_atomic_fused"}, {"vsync", "1"}};
  EXPECT_EQ(configurationText(image),
            "image RGBA 3000x2000, rotate bilinear through the texture unit, angle -35.53\u00b0, transpose off, "
            "histogram local atomics in one kernel, vsync on");
  EXPECT_EQ(image.meta.parameter("angle"), "-35.529232") << "the record keeps its raw value";
  EXPECT_EQ(image.meta.parameter("vsync"), "1");
  image.meta.parameters = {{"angle", "0.000000"}, {"vsync", "0"}};
  EXPECT_EQ(configurationText(image), "angle 0\u00b0, vsync off");
  EXPECT_EQ(plainParameterWords("angle", "30"), "angle 30\u00b0");
  EXPECT_EQ(plainParameterWords("native_rsqrt", "1"), "native rsqrt on");
  EXPECT_EQ(plainParameterWords("steps_per_frame", "1"), "steps per frame 1");
  EXPECT_EQ(plainParameterWords("variant", "block4x16_gray"), "variant 4x16 gray blocks");
}

// The Runs table's name column keeps room for the names at 1024x700 (stretched, the
// fixed columns squeezed it to nothing; the table scrolls sideways instead).
TEST_F(LayoutUi, TheRunsTableKeepsRoomForTheNames) {
  state_.runs.showSweep = false;
  for (ImVec2 size : {ImVec2(1600, 1000), ImVec2(1024, 700)}) {
    resize(size.x, size.y);
    const ImGuiWindow* runs = ImGui::FindWindowByName("Runs");
    ASSERT_NE(runs, nullptr);
    ImGuiContext& g = *ImGui::GetCurrentContext();
    const ImGuiTable* table = nullptr;
    for (int i = 0; i < g.Tables.GetMapSize(); ++i)
      if (const ImGuiTable* t = g.Tables.TryGetMapData(i);
          t && t->OuterWindow == runs && t->LastFrameActive == g.FrameCount && t->ColumnsCount == 9)
        table = t;
    ASSERT_NE(table, nullptr) << size.x << "x" << size.y;
    EXPECT_GE(table->Columns[1].WidthGiven, 12.0f * ImGui::GetFontSize()) << size.x << "x" << size.y;
    // Every header shown whole, with its sort arrow (the audit: "speed..." at 1024 wide).
    const float sortArrow = std::floor(0.65f * ImGui::GetFontSize() + ImGui::GetStyle().FramePadding.x);  // as ImGui's TableHeader
    for (int n = 1; n < table->ColumnsCount; ++n) {
      if (!(table->Columns[n].Flags & ImGuiTableColumnFlags_IsEnabled)) continue;
      const char* name = ImGui::TableGetColumnName(table, n);
      EXPECT_GE(table->Columns[n].WidthGiven, ImGui::CalcTextSize(name).x + sortArrow)
          << name << " is clipped at " << size.x << "x" << size.y;
    }
  }
}

// Every figure in the Runs table shown whole at both sizes, runs recorded after the panel
// first showed (the audit: "0.0 GB," at 1600x1000, the rate column sized once, before any run).
TEST_F(LayoutUi, TheRunsTableFiguresAreNotCut) {
  state_.runs.showSweep = false;
  frames(3);  // the panel shows, empty
  RunRecord recording, sweepRow, nbody;
  recording.name = "recording 1: image";
  recording.m.fps = 4.4;
  recording.m.kernelMs.median = 244.696;
  recording.m.kernelMs.p95 = 1244.696;
  recording.m.rate = 12.3;
  recording.m.rateUnit = "GB/s";
  sweepRow.name = "sweep 2";
  sweepRow.m.rate = 60.0;
  sweepRow.m.rateUnit = "FPS (median frame)";
  nbody.name = "blocked wg=256 unroll=8 B=2 S=1 fp32";
  nbody.m.fps = 1234.5;
  nbody.m.rate = 12345.6;
  nbody.m.rateUnit = "GFLOP/s";
  state_.runs.runs = {recording, sweepRow, nbody};
  for (ImVec2 size : {ImVec2(1600, 1000), ImVec2(1024, 700)}) {
    resize(size.x, size.y);
    const ImGuiWindow* runs = ImGui::FindWindowByName("Runs");
    ASSERT_NE(runs, nullptr);
    ImGuiContext& g = *ImGui::GetCurrentContext();
    const ImGuiTable* table = nullptr;
    for (int i = 0; i < g.Tables.GetMapSize(); ++i)
      if (const ImGuiTable* t = g.Tables.TryGetMapData(i);
          t && t->OuterWindow == runs && t->LastFrameActive == g.FrameCount && t->ColumnsCount == 9)
        table = t;
    ASSERT_NE(table, nullptr) << size.x << "x" << size.y;
    // The figures' columns (FPS, kernel ms, p95 ms, rate) and each run's text in them.
    auto cell = [](int column, const RunRecord& r) {
      char text[64];
      switch (column) {
        case 3: std::snprintf(text, sizeof text, "%.1f", r.m.fps); break;
        case 4: std::snprintf(text, sizeof text, "%.4f", r.m.kernelMs.median); break;
        case 5: std::snprintf(text, sizeof text, "%.4f", r.m.kernelMs.p95); break;
        default: std::snprintf(text, sizeof text, "%.1f %s", r.m.rate, r.m.rateUnit.c_str());
      }
      return std::string(text);
    };
    int shownFigures = 0;
    for (int column = 3; column <= 6; ++column) {
      if (!(table->Columns[column].Flags & ImGuiTableColumnFlags_IsEnabled)) continue;
      ++shownFigures;
      for (const RunRecord& r : state_.runs.runs)
        EXPECT_GE(table->Columns[column].WidthGiven + 0.5f, ImGui::CalcTextSize(cell(column, r).c_str()).x)
            << "'" << cell(column, r) << "' is cut in " << ImGui::TableGetColumnName(table, column) << " at " << size.x
            << "x" << size.y;
    }
    EXPECT_GE(shownFigures, 1) << "the figure compared is shown";
    EXPECT_TRUE(table->Columns[6].Flags & ImGuiTableColumnFlags_IsEnabled) << "the rate (compared) is shown";
    EXPECT_GE(table->Columns[1].WidthGiven, 12.0f * ImGui::GetFontSize()) << "the names keep their room";
    EXPECT_LE(table->Columns[8].MaxX, runs->InnerRect.Max.x + 0.5f) << "the speed-up is inside the panel";
  }
}

// Side by side, each picture says which it is (item 17: nothing told them apart).
TEST_F(LayoutUi, SideBySidePicturesAreLabelled) {
  openPicture(state_);
  state_.runs.showRuns = state_.runs.showSweep = false;
  state_.image.choices.view = ImageLabState::View::SideBySide;
  frames(3);
  EXPECT_EQ(state_.image.shownLabels, (std::vector<std::string>{"original", "result"}));
  state_.image.choices.view = ImageLabState::View::Result;
  frames(1);
  EXPECT_TRUE(state_.image.shownLabels.empty());
}

// At 1024x700 with Runs and Sweep open the left column held six panels of 40 to 75
// pixels each, the image lab's histogram unusable (the eighteenth session's audit):
// now every panel there is either a useful height or folded to its title bar, the
// histogram unfolded first; the title bar's arrow unfolds another, which takes the
// room (the histogram folds); in a tall window nothing is folded.
TEST_F(LayoutUi, APanelOfACrowdedColumnIsUsefulOrFoldedToItsTitle) {
  if (!useAppFont()) GTEST_SKIP() << "no DejaVu Sans: the app's font is what the audit saw";
  openPicture(state_);
  resize(1024.0f, 700.0f);
  // A few lines at least; the histogram's bars and statistics seven.
  const float line = ImGui::GetFrameHeightWithSpacing();
  auto leftColumn = [] {
    std::vector<ImGuiWindow*> column;
    for (ImGuiWindow* w : panels())
      if (w->Pos.x == 0.0f) column.push_back(w);
    return column;
  };
  auto expectUsefulOrFolded = [&] {
    int unfolded = 0;
    for (const ImGuiWindow* w : leftColumn()) {
      if (w->Collapsed) {
        EXPECT_EQ(w->Size.y, ImGui::GetFrameHeight()) << placeOf(w);
        continue;
      }
      ++unfolded;
      EXPECT_GE(w->Size.y, (std::string(w->Name) == "Histogram" ? 7.0f : 4.0f) * line - 1.0f)
          << placeOf(w) << " is neither of a useful height nor folded";
    }
    EXPECT_GE(unfolded, 1);
    expectEveryPanelInside();
  };
  ASSERT_GE(leftColumn().size(), 6u);
  expectUsefulOrFolded();
  ImGuiWindow* histogram = ImGui::FindWindowByName("Histogram");
  ImGuiWindow* log = ImGui::FindWindowByName("Log");
  ASSERT_TRUE(histogram && log);
  EXPECT_FALSE(histogram->Collapsed) << "the histogram, worked with, is folded";
  ASSERT_TRUE(log->Collapsed) << placeOf(log) << ": nothing to unfold";
  // The arrow at the left of the Log's title bar.
  auto clickArrow = [&](const ImGuiWindow* w) {
    const ImGuiStyle& style = ImGui::GetStyle();
    click(ImVec2(w->Pos.x + style.FramePadding.x + 0.5f * ImGui::GetFontSize(),
                 w->Pos.y + 0.5f * ImGui::GetFrameHeight()));
    frames(2);
  };
  clickArrow(log);
  EXPECT_FALSE(log->Collapsed) << placeOf(log) << ": the arrow did not unfold it";
  EXPECT_TRUE(histogram->Collapsed) << placeOf(histogram) << ": it kept its room beside the Log";
  expectUsefulOrFolded();
  clickArrow(histogram);
  EXPECT_FALSE(histogram->Collapsed) << placeOf(histogram);
  EXPECT_TRUE(log->Collapsed) << placeOf(log);
  expectUsefulOrFolded();
  // Without Runs and Sweep there is room for all, at both sizes: none folded.
  state_.runs.showRuns = state_.runs.showSweep = false;
  for (const ImVec2 size : {ImVec2(1024, 700), ImVec2(1600, 1000)}) {
    resize(size.x, size.y);
    for (const ImGuiWindow* w : panels()) EXPECT_FALSE(w->Collapsed) << placeOf(w) << " folded at " << size.x;
    expectEveryPanelInside();
  }
}

// The Sweep table's configurations are read whole at 1024 wide: a rotate sweep's
// "ppi=" was cut off at the column's edge (the eighteenth session's screenshot
// 06-rotate-done-1024); each now wraps inside its column.
TEST_F(LayoutUi, TheSweepConfigurationsAreReadWholeInANarrowWindow) {
  SweepUiState& sweep = state_.runs.sweep;
  sweep.target = sweep.resultsTarget = SweepTarget::Rotate;
  for (int i = 0; i < 4; ++i) {
    RunRecord r;
    r.name = "rotate bilinear_image wg=" + std::to_string(8 << i) + "x32 ppi=4 rpi=" + std::to_string(1 << i);
    r.m.kernelMs.median = 1.0 + i;
    r.m.rate = 0.5;
    r.m.rateUnit = "GB/s";
    sweep.results.push_back(r);
  }
  resize(1024.0f, 700.0f);
  ImGuiWindow* panel = ImGui::FindWindowByName("Sweep");
  ASSERT_NE(panel, nullptr);
  const ImGuiTable* table = ImGui::TableFindByID(panel->GetID("sweep results"));
  ASSERT_NE(table, nullptr);
  const ImGuiTableColumn& configuration = table->Columns[0];
  ASSERT_LT(configuration.WorkMaxX - configuration.WorkMinX, ImGui::CalcTextSize(sweep.results[0].name.c_str()).x)
      << "the configuration fits on one line: nothing to test";
  EXPECT_LE(configuration.ContentMaxXUnfrozen, configuration.WorkMaxX + 0.5f)
      << "a configuration runs past its column's edge (" << configuration.WorkMaxX << ")";
}

// The text one panel draws this frame (after a normal frame for the layout): ImGui
// logs it to the "clipboard", which End() hands over when it stops the log.
std::string panelText(const std::function<void()>& drawPanel) {
  static std::string captured;
  captured.clear();
  ImGuiIO& io = ImGui::GetIO();
  const auto previous = io.SetClipboardTextFn;
  io.SetClipboardTextFn = [](void*, const char* text) { captured += text; };
  io.DeltaTime = 1.0f / 60.0f;
  ImGui::NewFrame();
  ImGui::LogToClipboard();
  drawPanel();
  ImGui::LogFinish();  // when the panel drew no window
  ImGui::Render();
  io.SetClipboardTextFn = previous;
  std::string text = captured;
  std::replace(text.begin(), text.end(), '\n', ' ');  // wrapped lines
  return text;
}

// The histogram of a rotated picture leaves the fill around it out, and says so
// beside the statistics, in words (issue 22: a tall spike at the background value).
TEST_F(LayoutUi, TheHistogramSaysHowManyPixelsOutsideThePictureItLeavesOut) {
  openPicture(state_);
  auto histogramText = [&] { return panelText([&] { drawHistogramPanel(state_); }); };
  resize(1600.0f, 1000.0f);
  EXPECT_EQ(histogramText().find("outside the rotated picture"), std::string::npos) << "nothing left out, nothing said";
  stagedReadings(state_.image).histogramLeftOut = 12345;
  for (const ImVec2 size : {ImVec2(1600, 1000), ImVec2(1024, 700)}) {
    resize(size.x, size.y);
    const std::string text = histogramText();
    EXPECT_NE(text.find("12 345 pixels outside the rotated picture are not counted"), std::string::npos)
        << size.x << "x" << size.y << ":\n" << text;
  }
}

// The Sweep table says configurations in words: "ppi=4 rpi=2" meant nothing to a
// new user (issue 22). The records keep the files' names; only the table reads them out.
TEST_F(LayoutUi, TheSweepTableSaysConfigurationsInPlainWords) {
  SweepUiState& sweep = state_.runs.sweep;
  sweep.target = sweep.resultsTarget = SweepTarget::Rotate;
  RunRecord measured;
  measured.name = "rotate bilinear_image wg=16x8 ppi=4 rpi=2";
  measured.m.kernelMs.median = 1.0;
  measured.m.rate = 0.5;
  measured.m.rateUnit = "GB/s";
  measured.status = "ok";
  RunRecord refused = measured;
  refused.name = "rotate nearest_local wg=32x8 ppi=2x4";
  refused.status = "refused: too much local memory";
  sweep.results = {measured, refused};
  resize(1600.0f, 1000.0f);
  const std::string text = panelText([&] { drawSweepPanel(state_); });
  for (const char* shorthand : {"wg=", "ppi=", "rpi="})
    EXPECT_EQ(text.find(shorthand), std::string::npos) << shorthand << " in the Sweep panel:\n" << text;
  EXPECT_NE(text.find("4 pixels per"), std::string::npos) << text;
  EXPECT_NE(text.find("2 rows per"), std::string::npos) << text;
  EXPECT_NE(text.find("block of 2x4 pixels"), std::string::npos) << text;
  EXPECT_EQ(sweep.results[0].name, measured.name) << "the record keeps the name files and the tuning cache use";
  EXPECT_EQ(plainConfigurationWords("histogram local_atomic wg=256 copies=8 groups/CU=2 counting R G B"),
            "histogram local atomics: work-group 256, 8 histogram copies per group, 2 work-groups per compute unit, "
            "counting R G B");
  EXPECT_EQ(plainConfigurationWords("blocked wg=256 unroll=8 B=2 S=1 fp32 native_rsqrt"),
            "blocked kernel: 256 work-items per group, tiles of 256 bodies in local memory, inner loop unrolled 8 "
            "times, 2 bodies per work-item, 1 work-item per body, single precision, fast inverse square root");
  EXPECT_EQ(plainConfigurationWords("interop pbo: pattern"), "interop pbo: pattern");
}

// The image lab says what runs in words: "bilinear_image wg=16x16 ppi=2x4" meant
// nothing to a new user (issue 22). The lab's state keeps the short names, which
// run records and the state dump write.
TEST_F(LayoutUi, TheImageLabSaysWhatRunsInPlainWords) {
  openPicture(state_);
  ImageLabState& lab = state_.image;
  stagedReadings(lab).runningRotate = "bilinear_image wg=16x16 ppi=2x4";
  lab.choices.transpose = true;
  stagedReadings(lab).runningTranspose = "tiled_padded T=32 rows=4 wg=256";
  resize(1600.0f, 1000.0f);
  const std::string text = panelText([&] { drawImagePanel(state_); });
  for (const char* shorthand : {"wg=", "ppi=", "T=", "rows="})
    EXPECT_EQ(text.find(shorthand), std::string::npos) << shorthand << " in the Image lab:\n" << text;
  EXPECT_NE(text.find("rotating with bilinear through the texture unit: work-group 16x16, a block of 2x4 pixels per work-item"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("transposing with padded tiles: tile 32, 4 rows per work-item, work-group 256"),
            std::string::npos)
      << text;
  EXPECT_EQ(lab.readings().runningRotate, "bilinear_image wg=16x16 ppi=2x4") << "the state keeps the short name";
}

// N-body configurations in words (issue 22): the work-group is also the tile of bodies
// the tiled kernels keep in local memory; the naive kernel has none. A refused run's
// bracketed values and a split recording's device count read as words too.
TEST(PlainConfigurationWords, NBodyConfigurations) {
  EXPECT_EQ(plainConfigurationWords("naive wg=128 fp64"), "naive kernel: 128 work-items per group, double precision");
  EXPECT_EQ(plainConfigurationWords("tiled wg=64 unroll=4 fp32 fast-math ftz [-cl-nv-maxrregcount=64]"),
            "tiled kernel: 64 work-items per group, tiles of 64 bodies in local memory, inner loop unrolled 4 times, "
            "single precision, fast relaxed maths, denormals flushed to zero, [-cl-nv-maxrregcount=64]");
  EXPECT_EQ(plainConfigurationWords("tiled wg=64 unroll=4 fp32 (unroll=4 B=2 S=1)"),
            "tiled kernel: 64 work-items per group, tiles of 64 bodies in local memory, inner loop unrolled 4 times, "
            "single precision, (inner loop unrolled 4 times, 2 bodies per work-item, 1 work-item per body)");
  EXPECT_EQ(plainConfigurationWords("recording 2: N-body blocked wg=256 unroll=8 B=2 S=1 fp32 on 2 devices"),
            "recording 2: N-body blocked kernel: 256 work-items per group, tiles of 256 bodies in local memory, inner "
            "loop unrolled 8 times, 2 bodies per work-item, 1 work-item per body, single precision, on 2 devices");
  // The transpose's naive and tiled are other kernels: no N-body words for them.
  EXPECT_EQ(plainConfigurationWords("transpose tiled T=32 rows=4"), "transpose tiled: tile 32, 4 rows per work-item");
  EXPECT_EQ(plainConfigurationWords("recording 1: image rotate nearest wg=16x16 ppi=4 + transpose tiled T=32 rows=4"),
            "recording 1: image rotate nearest: work-group 16x16, 4 pixels per work-item; transpose tiled: tile 32, 4 "
            "rows per work-item");
}

// The long form cites where a variant's design comes from, from its descriptor.
TEST(PlainConfigurationWords, TheVariantDescriptionCitesItsSource) {
  EXPECT_NE(configurationVariantDescription("tiled wg=256 unroll=8 fp32").find("AMD's OpenCL University Kit nbody_sim"),
            std::string::npos);
  EXPECT_NE(configurationVariantDescription("transpose tiled_diagonal T=32 rows=4").find("NVIDIA"), std::string::npos);
  EXPECT_NE(configurationVariantDescription("subhist_uchar wg=64 ppi=255").find("histogram256"), std::string::npos);
  EXPECT_EQ(configurationVariantDescription("naive wg=32x8"), transposeOp().variant("naive")->description);
  EXPECT_EQ(configurationVariantDescription("naive wg=32 fp32"), nbodyOp().variant("naive")->description);
  EXPECT_NE(configurationVariantDescription("blocked wg=256 unroll=8 B=2 S=1 fp32").find("AMD's OpenCL University Kit"),
            std::string::npos);
  EXPECT_EQ(configurationVariantDescription("nothing wg=1"), "");
  EXPECT_EQ(configurationVariantDescription("interop pbo"), "");
}

// The N-body panel says what runs in words, not "blocked wg=256 unroll=8 B=2 ..."
// (issue 22); the state keeps the short name the records and the state dump write.
TEST_F(LayoutUi, TheNBodyPanelSaysWhatRunsInPlainWords) {
  state_.scene = SceneKind::NBody;
  stagedReadings(state_.nbody).runningConfig = NBodyConfig{};  // blocked, 256 work-items, unroll 8
  stagedReadings(state_.nbody).runningConfig.unroll = 4;
  resize(1600.0f, 1000.0f);
  const std::string text = panelText([&] { drawNBodyPanel(state_); });
  // (the check boxes keep the names of the OpenCL function and build options they switch)
  for (const char* shorthand : {"wg=", "unroll=", "B=", "S=", "fp32", "CL_KERNEL_"})
    EXPECT_EQ(text.find(shorthand), std::string::npos) << shorthand << " in the N-body panel:\n" << text;
  EXPECT_NE(text.find("running the blocked kernel: 256 work-items per group, tiles of 256 bodies in local memory, "
                      "inner loop unrolled 4 times, 2 bodies per work-item, 1 work-item per body, single precision, "
                      "fast inverse square root"),
            std::string::npos)
      << text;
}

// Paused before a first drift (after a reset or a scene switch), the N-body panel said
// "measuring..." for as long as the pause lasted: it says when the drift comes.
TEST_F(LayoutUi, ThePausedNBodyPanelSaysWhenTheDriftIsMeasured) {
  state_.scene = SceneKind::NBody;
  state_.nbody.choices.conservation.on = true;
  stagedReadings(state_.nbody).conservation.hasDrift = false;
  resize(1600.0f, 1000.0f);
  state_.nbody.choices.paused = false;
  EXPECT_NE(panelText([&] { drawNBodyPanel(state_); }).find("energy drift: measuring..."), std::string::npos);
  state_.nbody.choices.paused = true;
  const std::string paused = panelText([&] { drawNBodyPanel(state_); });
  EXPECT_EQ(paused.find("measuring..."), std::string::npos) << paused;
  EXPECT_NE(paused.find("energy drift: measured once the simulation runs"), std::string::npos) << paused;
}

// The status bar says how kernel output reaches the screen in words, not "interop: host".
TEST_F(LayoutUi, TheStatusBarSaysHowOutputReachesTheScreenInWords) {
  resize(1024.0f, 700.0f);
  state_.interopPath = InteropPath::Host;
  const std::string text = panelText([&] { drawStatusBar(state_); });
  EXPECT_EQ(text.find("interop:"), std::string::npos) << text;
  EXPECT_NE(text.find("shown via a copy through host memory"), std::string::npos) << text;
}

// The Runs table names each run in words; the record keeps its name for the files.
// (In the short words of the chart's bars, on one line: the long words, wrapped, took six
// lines a run at 1024x700; they are in the row's tooltip.)
TEST_F(LayoutUi, TheRunsTableNamesRunsInPlainWords) {
  RunRecord r;
  r.name = "blocked wg=256 unroll=8 B=2 S=1 fp32 native_rsqrt";
  r.status = "ok";
  r.m.rate = 1.0;
  r.m.rateUnit = "GFLOP/s";
  state_.runs.runs = {r};
  state_.runs.showRuns = true;
  resize(1600.0f, 1000.0f);
  const std::string text = panelText([&] { drawRunsPanel(state_); });
  EXPECT_NE(text.find("blocked, 256 per group"), std::string::npos) << text;
  EXPECT_EQ(text.find("wg=256"), std::string::npos) << text;
  EXPECT_EQ(state_.runs.runs[0].name, r.name);
}

// The image operations' variant ids with an underscore ("bilinear_image",
// "block4x16_gray", "local_atomic_fused"): shorthand a person should never read.
std::vector<std::string> underscoredImageVariantIds() {
  std::vector<std::string> ids;
  for (const KernelOp* op : {&rotateOp(), &transposeOp(), &histogramOp()})
    for (const std::string& id : op->variantNames())
      if (id.find('_') != std::string::npos) ids.push_back(id);
  return ids;
}

// The first underscored variant id in `text`, or "" (an id is a whole word of it).
std::string underscoredIdIn(const std::string& text) {
  for (const std::string& id : underscoredImageVariantIds())
    for (size_t at = text.find(id); at != std::string::npos; at = text.find(id, at + 1)) {
      const size_t end = at + id.size();
      const bool endsWord = end == text.size() || !(std::isalnum(static_cast<unsigned char>(text[end])) || text[end] == '_');
      const bool startsWord = at == 0 || !(std::isalnum(static_cast<unsigned char>(text[at - 1])) || text[at - 1] == '_');
      if (startsWord && endsWord) return id;
    }
  return "";
}

// Every variant id with an underscore has words of its own, without one; the ids
// stay what files, settings and the CLI use.
TEST(PlainVariantNames, EveryUnderscoredVariantReadsAsWords) {
  ASSERT_FALSE(underscoredImageVariantIds().empty());
  for (const KernelOp* op : {&rotateOp(), &transposeOp(), &histogramOp()})
    for (const std::string& id : op->variantNames()) {
      const std::string words = plainVariantName(op->name, id);
      EXPECT_EQ(words.find('_'), std::string::npos) << op->name << " " << id << ": " << words;
      EXPECT_EQ(plainVariantName(id), words) << "no id of two image operations reads two ways: " << id;
    }
  EXPECT_EQ(plainVariantName("rotate", "bilinear_image"), "bilinear through the texture unit");
  EXPECT_EQ(plainVariantName("nearest"), "nearest");
  EXPECT_EQ(plainVariantName("no_such_variant"), "no_such_variant");
  EXPECT_EQ(plainConfigurationWords("histogram local_atomic_fused wg=256 copies=8"),
            "histogram local atomics in one kernel: work-group 256, 8 histogram copies per group");
  EXPECT_EQ(plainConfigurationWords("block4x16_gray T=64 wg=256"), "4x16 gray blocks: tile 64, work-group 256");
  // Refusals and descriptions name variants by id (the CLI's words); where a person reads them, in words.
  const std::string refusal = transposeOp().refusal("gray_only", {{"variant", "block4x16_gray"}});
  EXPECT_EQ(variantIdsInWords(refusal),
            "the 4x16 gray blocks variant is for gray images (for RGBA, 4x4 blocks already moves 16-byte vectors)");
  EXPECT_EQ(variantIdsInWords("the forward mapping of local_atomic_fused, not local_atomic_fusedx"),
            "the forward mapping of local atomics in one kernel, not local_atomic_fusedx");
  EXPECT_EQ(underscoredIdIn(configurationVariantDescription("block4x16_gray_columns T=64 wg=256")), "");
}

// What the status bar says is building names the variant in words ("building kernel
// rotate bilinear_image for ..." was shorthand).
TEST(PlainVariantNames, TheKernelsBeingBuiltAreNamedInWords) {
  DeviceDescriptor device;  // no runtime handle: the checks assume what they cannot ask
  device.deviceVersion = "OpenCL 3.0";
  device.localMemBytes = 65536;
  device.maxWorkGroupSize = 1024;
  device.maxWorkItemSizes = {1024, 1024, 64};
  device.atomicFenceCapabilities = CL_DEVICE_ATOMIC_ORDER_ACQ_REL | CL_DEVICE_ATOMIC_SCOPE_DEVICE;
  RotateConfig rotate;
  rotate.variant = "bilinear_image";
  rotate.workGroupX = 32;
  rotate.workGroupY = 8;
  rotate.pixelsPerItem = 2;
  rotate.rowsPerItem = 4;
  HistogramConfig histogram;
  histogram.variant = "local_atomic_fused";
  histogram.workGroup = 256;
  histogram.copies = 8;
  histogram.groupsPerComputeUnit = 2;
  TransposeConfig transpose;
  transpose.variant = "block4x16_gray";
  transpose.tile = 64;
  transpose.workGroup = 64;
  ASSERT_EQ(imageTransposeConfigProblem(transpose, device, 1), "");
  std::string what;
  for (const ProgramToBuild& b : imagePipelineBuilds(&rotate, &transpose, &histogram, 1, device)) what += b.what + "; ";
  EXPECT_NE(what.find("rotate bilinear through the texture unit"), std::string::npos) << what;
  EXPECT_NE(what.find("transpose 4x16 gray blocks"), std::string::npos) << what;
  EXPECT_EQ(underscoredIdIn(what), "") << what;
}

// The image lab, its histogram and the Sweep panel read variants in words: in the
// combos' boxes, their lists, the running lines and the sweep's check boxes (issue 22).
TEST_F(LayoutUi, ImageVariantsAreShownInWordsNotIds) {
  openPicture(state_);
  ImageLabState& lab = state_.image;
  stagedReadings(lab).defaultRotate.variant = "bilinear_image";
  stagedReadings(lab).runningRotate = "bilinear_image wg=16x16 ppi=2x4";
  lab.choices.transpose = true;
  lab.choices.transposeVariant = "block4x16_gray";
  stagedReadings(lab).runningTranspose = "block4x16_gray T=64 wg=256";
  lab.choices.histogramVariant = "local_atomic_fused";
  stagedReadings(lab).runningHistogram = "local_atomic_fused wg=256 copies=8 groups/CU=2";
  for (const ImVec2 size : {ImVec2(1600, 1000), ImVec2(1024, 700)}) {
    resize(size.x, size.y);
    const std::string text = panelText([&] {
      drawImagePanel(state_);
      drawHistogramPanel(state_);
    });
    EXPECT_EQ(underscoredIdIn(text), "") << size.x << "x" << size.y << ":\n" << text;
    EXPECT_NE(text.find("bilinear through the texture unit"), std::string::npos) << text;
    EXPECT_NE(text.find("4x16 gray blocks"), std::string::npos) << text;
    EXPECT_NE(text.find("local atomics in one kernel"), std::string::npos) << text;
  }
  EXPECT_EQ(lab.choices.transposeVariant, "block4x16_gray") << "the choice keeps its id (settings.json)";
  for (const SweepTarget target : {SweepTarget::Rotate, SweepTarget::Transpose, SweepTarget::Histogram}) {
    state_.runs.showSweep = true;
    state_.runs.sweep.target = target;
    resize(1600.0f, 1000.0f);
    const std::string sweep = panelText([&] { drawSweepPanel(state_); });
    EXPECT_EQ(underscoredIdIn(sweep), "") << "Sweep panel (" << static_cast<int>(target) << "):\n" << sweep;
  }
}

// The statistics tables' headers are words ("lum", "p1", "p99" were shorthand), each
// explained on hover.
TEST_F(LayoutUi, TheStatisticsTablesHeadersAreWords) {
  openPicture(state_);
  resize(1600.0f, 1000.0f);
  const std::string text = panelText([&] { drawHistogramPanel(state_); });
  std::istringstream words(text);
  for (std::string w; words >> w;)
    for (const char* shorthand : {"lum", "p1", "p5", "p25", "p75", "p95", "p99"})
      EXPECT_NE(w, shorthand) << "in the statistics:\n" << text;
  EXPECT_NE(text.find("percentile"), std::string::npos) << text;
  EXPECT_NE(text.find("99th"), std::string::npos) << text;
  EXPECT_NE(text.find("light"), std::string::npos) << text;
}

// The N-body panel's kernel controls, the ones tweaked live, are in view without
// scrolling at 1024x700, with Runs and Sweep open too (the panel is shortest then):
// a paragraph on how the figures are counted pushed the work-group below its edge.
TEST_F(LayoutUi, TheNBodyWorkGroupIsInViewWithoutScrollingAt1024x700) {
  if (!useAppFont()) GTEST_SKIP() << "no DejaVu Sans: the app's font is what the audit saw";
  state_.scene = SceneKind::NBody;
  for (const bool work : {false, true}) {
    SCOPED_TRACE(work ? "Runs and Sweep open" : "Runs and Sweep shut");
    state_.runs.showRuns = state_.runs.showSweep = work;
    resize(1024.0f, 700.0f);
    ImGuiWindow* panel = ImGui::FindWindowByName("N-body");
    ASSERT_TRUE(panel && panel->WasActive);
    ASSERT_EQ(panel->Scroll.y, 0.0f);
    // Found by hovering: where in the panel, scrolled to its top, the mouse is over
    // each; a combo cut by the panel's edge is hovered over the part in view only.
    for (const char* label : {"variant", "work-group"}) {
      const ImGuiID id = panel->GetID(label);
      float first = -1.0f, last = -1.0f;
      const float x = panel->InnerRect.Min.x + 30.0f;
      for (float y = panel->InnerRect.Min.y + 1.0f; y < panel->InnerRect.Max.y; y += 2.0f) {
        frame(ImVec2(x, y));
        if (ImGui::GetCurrentContext()->HoveredId != id) continue;
        if (first < 0.0f) first = y;
        last = y;
      }
      EXPECT_GE(last - first, ImGui::GetFrameHeight() - 4.0f)
          << "the " << label << " combo is not in view in " << placeOf(panel) << " (hovered from " << first << " to "
          << last << ")";
    }
  }
}

// An unfolding counts in the scene it was made in: the Log unfolded beside the
// particles at 1024x700 (the Profiler folded) left the image lab's histogram folded
// when the lab opened (audit); there the histogram is unfolded, and back in the
// N-body scene the Log is again.
TEST_F(LayoutUi, AnUnfoldedPanelKeepsItsRoomInItsOwnScene) {
  if (!useAppFont()) GTEST_SKIP() << "no DejaVu Sans: the app's font is what the audit saw";
  state_.scene = SceneKind::NBody;
  resize(1024.0f, 700.0f);
  ImGuiWindow* log = ImGui::FindWindowByName("Log");
  ASSERT_TRUE(log && log->Collapsed) << "nothing to unfold";
  const ImGuiStyle& style = ImGui::GetStyle();
  click(ImVec2(log->Pos.x + style.FramePadding.x + 0.5f * ImGui::GetFontSize(), log->Pos.y + 0.5f * ImGui::GetFrameHeight()));
  frames(2);
  ASSERT_FALSE(log->Collapsed) << placeOf(log);
  openPicture(state_);
  frames(3);
  const ImGuiWindow* histogram = ImGui::FindWindowByName("Histogram");
  ASSERT_NE(histogram, nullptr);
  EXPECT_FALSE(histogram->Collapsed) << placeOf(histogram) << ": folded for the Log unfolded in the N-body scene";
  state_.scene = SceneKind::NBody;
  frames(3);
  EXPECT_FALSE(log->Collapsed) << placeOf(log) << ": the unfolding was forgotten in its own scene";
}

}  // namespace
}  // namespace ks
