#pragma once
// Key presses, mouse buttons and cursor moves as the window reported them, handed
// to ImGui a frame at a time so that none is lost at a low frame rate (issue 22,
// item 14). ImGui 1.86 reads keys and buttons as states once a frame: a key pressed
// and released between two frames (a quick tap at 3 FPS) was never seen down, a
// double click in one frame was one click, and a click followed by a move was
// placed where the cursor ended up. Here each frame takes the events in order up
// to the first that would change a key or button a second time (or move the
// cursor after a button changed): the rest wait for the next frame.
#include <array>
#include <cstddef>
#include <deque>

struct ImGuiIO;

namespace ks {

struct InputEvent {
  enum class Kind { Key, MouseButton, CursorMove };
  Kind kind = Kind::Key;
  int code = 0;       // GLFW key code or mouse button (0 left, 1 right, 2 middle)
  bool down = false;  // pressed (Key, MouseButton)
  float x = 0.0f, y = 0.0f;  // where the cursor went (CursorMove), in window coordinates
};

class InputQueue {
 public:
  void push(const InputEvent& event);
  // After the platform backend's new frame and before ImGui::NewFrame: this frame's
  // share of the events into io (KeysDown by GLFW key code, the modifiers,
  // MouseDown, and MousePos while events wait). With none waiting, or where the
  // backend saw no cursor, io.MousePos stays as the backend polled it.
  void feed(ImGuiIO& io);
  size_t waiting() const { return events_.size(); }

 private:
  std::deque<InputEvent> events_;
  std::array<bool, 512> keysDown_ = {};  // as ImGuiIO::KeysDown, by GLFW key code
  bool buttonsDown_[5] = {};
  bool hasCursor_ = false;
  float cursorX_ = 0.0f, cursorY_ = 0.0f;
};

}  // namespace ks
