#include "ui/input_queue.h"

#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <set>
#include <utility>

namespace ks {
namespace {

// Past this many waiting events the app is far behind the hand (a frame of seconds):
// everything waiting is taken at once rather than replayed over dozens of frames.
constexpr size_t kMostWaiting = 256;

}  // namespace

void InputQueue::push(const InputEvent& event) {
  if (event.kind == InputEvent::Kind::Key && (event.code < 0 || event.code >= static_cast<int>(keysDown_.size())))
    return;
  if (event.kind == InputEvent::Kind::MouseButton && (event.code < 0 || event.code >= 5)) return;
  events_.push_back(event);
}

void InputQueue::feed(ImGuiIO& io) {
  const bool catchUp = events_.size() > kMostWaiting;
  std::set<std::pair<InputEvent::Kind, int>> changed;  // keys and buttons changed this frame
  bool buttonChanged = false;
  while (!events_.empty()) {
    const InputEvent& e = events_.front();
    if (e.kind == InputEvent::Kind::CursorMove) {
      // A click stays where it was made: a move after it waits for the next frame.
      if (buttonChanged && !catchUp) break;
      hasCursor_ = true;
      cursorX_ = e.x;
      cursorY_ = e.y;
    } else {
      bool& state = e.kind == InputEvent::Kind::Key ? keysDown_[e.code] : buttonsDown_[e.code];
      if (state != e.down) {
        // A second change of the same key or button this frame would undo the first
        // before ImGui saw it.
        if (!changed.insert({e.kind, e.code}).second && !catchUp) break;
        if (e.kind == InputEvent::Kind::MouseButton) buttonChanged = true;
        state = e.down;
      }
    }
    events_.pop_front();
  }
  const size_t keys = std::min(keysDown_.size(), sizeof(io.KeysDown) / sizeof(io.KeysDown[0]));
  for (size_t k = 0; k < keys; ++k) io.KeysDown[k] = keysDown_[k];
  io.KeyCtrl = keysDown_[GLFW_KEY_LEFT_CONTROL] || keysDown_[GLFW_KEY_RIGHT_CONTROL];
  io.KeyShift = keysDown_[GLFW_KEY_LEFT_SHIFT] || keysDown_[GLFW_KEY_RIGHT_SHIFT];
  io.KeyAlt = keysDown_[GLFW_KEY_LEFT_ALT] || keysDown_[GLFW_KEY_RIGHT_ALT];
  io.KeySuper = keysDown_[GLFW_KEY_LEFT_SUPER] || keysDown_[GLFW_KEY_RIGHT_SUPER];
  for (int b = 0; b < 5; ++b) io.MouseDown[b] = buttonsDown_[b];
  // While events wait, the cursor is where the last one taken left it (a click where it
  // was made). With none waiting the backend's polled position stands: it follows the
  // cursor out of the window too, where no move events come (the last one inside left
  // a picture's tooltip showing).
  if (!events_.empty() && hasCursor_ && ImGui::IsMousePosValid(&io.MousePos)) io.MousePos = ImVec2(cursorX_, cursorY_);
}

}  // namespace ks
