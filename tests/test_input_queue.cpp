// Input at a low frame rate (issue 22, item 14): a key tapped, a button clicked or
// a key pressed twice between two frames reaches ImGui as a hand made it. Events go
// through InputQueue into an ImGui context of its own, as ImGuiLayer feeds them
// after the GLFW backend's new frame.
#include <GLFW/glfw3.h>
#include <gtest/gtest.h>
#include <imgui.h>

#include "imgui_test_context.h"
#include "ui/input_queue.h"

namespace ks {
namespace {

class InputQueueUi : public ::testing::Test {
 protected:
  void SetUp() override { test::createTestImGuiContext(ImVec2(800.0f, 600.0f)); }
  void TearDown() override { ImGui::DestroyContext(); }

  // One frame: the queue's share of the events, then a window with a button.
  // Returns whether the button was clicked this frame; `keyPressed` whether `key` was.
  bool frame(int key = -1, bool* keyPressed = nullptr) {
    ImGuiIO& io = ImGui::GetIO();
    io.DeltaTime = 1.0f / 3.0f;  // 3 FPS
    io.MousePos = polled_;  // as ImGui_ImplGlfw_NewFrame polls the cursor: where it is now
    queue_.feed(io);
    ImGui::NewFrame();
    if (keyPressed) *keyPressed = ImGui::IsKeyPressed(key, false);
    ImGui::SetNextWindowPos(ImVec2(0.0f, 0.0f));
    ImGui::SetNextWindowSize(ImVec2(400.0f, 300.0f));
    ImGui::Begin("panel", nullptr, ImGuiWindowFlags_NoMove);
    ImGui::SetCursorScreenPos(ImVec2(100.0f, 100.0f));
    const bool clicked = ImGui::Button("press me", ImVec2(80.0f, 30.0f));
    ImGui::End();
    ImGui::Render();
    return clicked;
  }
  void key(int code, bool down) { queue_.push({InputEvent::Kind::Key, code, down}); }
  void button(bool down) { queue_.push({InputEvent::Kind::MouseButton, 0, down}); }
  void move(float x, float y) {
    queue_.push({InputEvent::Kind::CursorMove, 0, false, x, y});
    polled_ = ImVec2(x, y);
  }

  InputQueue queue_;
  ImVec2 polled_{0.0f, 0.0f};  // where the backend finds the cursor (in the window)
};

TEST_F(InputQueueUi, AKeyTappedBetweenTwoFramesIsPressedForOneFrame) {
  frame();
  key(GLFW_KEY_ENTER, true);
  key(GLFW_KEY_ENTER, false);
  bool pressed = false;
  frame(GLFW_KEY_ENTER, &pressed);
  EXPECT_TRUE(pressed) << "a tap shorter than a frame was lost";
  frame(GLFW_KEY_ENTER, &pressed);
  EXPECT_FALSE(pressed);
  EXPECT_FALSE(ImGui::GetIO().KeysDown[GLFW_KEY_ENTER]) << "the key stayed down after its release";
  EXPECT_EQ(queue_.waiting(), 0u);
}

TEST_F(InputQueueUi, TwoTapsBetweenTwoFramesAreTwoPresses) {
  frame();
  for (int i = 0; i < 2; ++i) {
    key(GLFW_KEY_DOWN, true);
    key(GLFW_KEY_DOWN, false);
  }
  int presses = 0;
  for (int i = 0; i < 6; ++i) {
    bool pressed = false;
    frame(GLFW_KEY_DOWN, &pressed);
    presses += pressed;
  }
  EXPECT_EQ(presses, 2);
}

TEST_F(InputQueueUi, AClickThenAMoveAwayBetweenTwoFramesClicksWhereItWasMade) {
  move(10.0f, 10.0f);
  frame();
  move(140.0f, 115.0f);  // on the button
  button(true);
  button(false);
  move(600.0f, 500.0f);  // away, before the next frame
  int clicks = 0;
  for (int i = 0; i < 5; ++i) clicks += frame();
  EXPECT_EQ(clicks, 1) << "the click landed where the cursor ended up";
  EXPECT_EQ(ImGui::GetIO().MousePos.x, 600.0f);
}

TEST_F(InputQueueUi, ADoubleClickBetweenTwoFramesIsTwoClicks) {
  move(140.0f, 115.0f);
  frame();
  for (int i = 0; i < 2; ++i) {
    button(true);
    button(false);
  }
  int clicks = 0;
  for (int i = 0; i < 6; ++i) clicks += frame();
  EXPECT_EQ(clicks, 2);
}

// With nothing waiting, the cursor is where the backend polled it: outside the window
// no move events come, and the last one inside kept a tooltip up (seen in the window).
TEST_F(InputQueueUi, WithNothingWaitingTheCursorIsWhereTheBackendSawIt) {
  move(140.0f, 115.0f);
  frame();
  polled_ = ImVec2(1500.0f, 950.0f);  // out of the window: no move event
  frame();
  EXPECT_EQ(ImGui::GetIO().MousePos.x, 1500.0f);
  EXPECT_EQ(ImGui::GetIO().MousePos.y, 950.0f);
}

TEST_F(InputQueueUi, ModifiersFollowTheirKeys) {
  key(GLFW_KEY_LEFT_CONTROL, true);
  frame();
  EXPECT_TRUE(ImGui::GetIO().KeyCtrl);
  key(GLFW_KEY_LEFT_CONTROL, false);
  frame();
  EXPECT_FALSE(ImGui::GetIO().KeyCtrl);
}

TEST_F(InputQueueUi, AFarBacklogIsTakenAtOnce) {
  frame();
  for (int i = 0; i < 200; ++i) {
    key(GLFW_KEY_A, true);
    key(GLFW_KEY_A, false);
  }
  frame();
  EXPECT_EQ(queue_.waiting(), 0u) << "a long backlog is replayed one frame per tap";
  EXPECT_FALSE(ImGui::GetIO().KeysDown[GLFW_KEY_A]);
}

}  // namespace
}  // namespace ks
