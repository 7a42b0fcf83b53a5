// Keyboard shortcuts, from the key presses the window kept since the last frame
// (GLFW key codes): a tap shorter than a frame counts too.
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <vector>

#include "app/app_state.h"
#include "ui/panels.h"

namespace ks {

bool anyPopupOpen() { return ImGui::IsPopupOpen(nullptr, ImGuiPopupFlags_AnyPopupId | ImGuiPopupFlags_AnyPopupLevel); }

void handleShortcuts(AppState& state, const std::vector<int>& keys) {
  const ImGuiIO& io = ImGui::GetIO();
  // Letters, digits, Space and Esc are shortcuts unless a text field takes them: a panel
  // that merely has focus (a click on it) does not use them (ImGuiLayer keeps Space
  // out of ImGui's keyboard navigation; Enter activates a widget). Esc closes ImGui's
  // popups first: it quits only where none is open now nor was when the last frame was
  // drawn (ImGui may have closed it on this Esc already; before, any focused panel kept it).
  const bool popupOpen = anyPopupOpen() || state.layout.popupOpenWhenDrawn;
  if (state.headless || io.WantTextInput) return;
  auto pressed = [&keys](int key) { return std::find(keys.begin(), keys.end(), key) != keys.end(); };
  NBodyChoices& nb = state.nbody.choices;
  // Esc closes the help first, as it closes a popup: a user reading the keys quit.
  if (!popupOpen && pressed(GLFW_KEY_ESCAPE)) {
    if (state.showHelp) state.showHelp = false;
    else requestQuit(state);
  }
  if (pressed(GLFW_KEY_SPACE)) nb.paused = !nb.paused;
  if (pressed(GLFW_KEY_N) && nb.paused) state.commands.push(StepNBody{});
  if (pressed(GLFW_KEY_R)) state.commands.push(ResetNBody{});
  if (pressed(GLFW_KEY_C)) state.commands.push(ResetCamera{});
  if (pressed(GLFW_KEY_F) || pressed(GLFW_KEY_F11)) state.commands.push(ToggleFullscreen{});
  if (pressed(GLFW_KEY_V)) state.vsync = !state.vsync;
  if (pressed(GLFW_KEY_H) || pressed(GLFW_KEY_F1)) state.showHelp = !state.showHelp;
  if (state.scene == SceneKind::Image && pressed(GLFW_KEY_PAGE_DOWN)) state.image.stepFileSet(+1, state.commands);
  if (state.scene == SceneKind::Image && pressed(GLFW_KEY_PAGE_UP)) state.image.stepFileSet(-1, state.commands);
  if (pressed(GLFW_KEY_1)) state.commands.push(OpenScene{SceneKind::NBody});
  if (pressed(GLFW_KEY_2)) state.commands.push(OpenScene{SceneKind::Image});
  if (pressed(GLFW_KEY_3)) state.commands.push(OpenScene{SceneKind::Julia});
  if (pressed(GLFW_KEY_TAB)) {
    state.layout.panelsHidden = !state.layout.panelsHidden;
    // Tab also moves ImGui's keyboard focus to the focused panel's first text field:
    // no panel keeps the focus, so the typing after it stays shortcuts.
    ImGui::FocusWindow(nullptr);
  }
}

}  // namespace ks
