#include "ui/imgui_layer.h"

#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <GLFW/glfw3.h>

#include "app/render_surface.h"
#include "ui/fonts.h"
#include "ui/style.h"

namespace ks {

ImGuiLayer::ImGuiLayer(RenderSurface& surface, const std::filesystem::path& iniFile)
    : surface_(surface), iniFile_(iniFile.string()) {
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = iniFile_.empty() ? nullptr : iniFile_.c_str();
  // Keyboard navigation needs a key map, which only the GLFW backend provides.
  if (surface.window()) io.ConfigFlags |= ImGuiConfigFlags_NavEnableKeyboard;
  applyAppStyle();
  // HiDPI: the monitor's content scale sizes the text and every spacing of the style.
  float scaleX = 1.0f, scaleY = 1.0f;
  if (surface.window()) glfwGetWindowContentScale(surface.window(), &scaleX, &scaleY);
  const UiFonts fonts = loadUiFonts(uiScaleFor(scaleX, scaleY));
  fontMessage_ = fonts.message;
  builtInFont_ = fonts.text == nullptr;
  if (surface.window()) {
    ImGui_ImplGlfw_InitForOpenGL(surface.window(), true);
    // Space pauses the simulation wherever the focus is (issue 22): ImGui's navigation
    // would also press the highlighted widget with it, so it gets a key no keyboard
    // sends instead (it must have one while navigation is on). Enter still activates.
    io.KeyMap[ImGuiKey_Space] = GLFW_KEY_F25;
  }
  ImGui_ImplOpenGL3_Init("#version 330 core");
}

ImGuiLayer::~ImGuiLayer() {
  ImGui_ImplOpenGL3_Shutdown();
  if (surface_.window()) ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
}

void ImGuiLayer::newFrame(double deltaSeconds) {
  ImGui_ImplOpenGL3_NewFrame();
  if (surface_.window()) {
    ImGui_ImplGlfw_NewFrame();
  } else {
    ImGuiIO& io = ImGui::GetIO();
    const SurfaceSize size = surface_.framebufferSize();
    io.DisplaySize = ImVec2(static_cast<float>(size.width), static_cast<float>(size.height));
    io.DeltaTime = deltaSeconds > 0.0 ? static_cast<float>(deltaSeconds) : 1.0f / 60.0f;
  }
  ImGui::NewFrame();
}

void ImGuiLayer::render() {
  ImGui::Render();
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

}  // namespace ks
