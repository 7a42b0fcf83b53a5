#pragma once
// An ImGui context for the panel tests, set up as ui/imgui_layer.cpp sets up a
// window's: no .ini file, the font atlas built. `keyboard`: keyboard navigation
// on, with key codes mapped one to one (the tests press ImGui's own key indices).
#include <imgui.h>

namespace ks::test {

inline ImGuiIO& createTestImGuiContext(ImVec2 display, bool keyboard = false) {
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;
  if (keyboard) {
    io.ConfigFlags |= ImGuiConfigFlags_NavEnableKeyboard;
    for (int key = 0; key < ImGuiKey_COUNT; ++key) io.KeyMap[key] = key;
  }
  io.DisplaySize = display;
  unsigned char* pixels = nullptr;
  int width = 0, height = 0;
  io.Fonts->GetTexDataAsRGBA32(&pixels, &width, &height);
  return io;
}

}  // namespace ks::test
