#include "ui/imgui_layer.h"

#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <GLFW/glfw3.h>

#include "app/render_surface.h"
#include "ui/fonts.h"
#include "ui/input_queue.h"
#include "ui/style.h"

namespace ks {
namespace {

// GLFW's callbacks are plain functions: the window's queue, and the callbacks they
// replaced (ImGui's backend's, which call the window's own key callback in turn).
InputQueue* g_inputQueue = nullptr;
GLFWkeyfun g_nextKey = nullptr;
GLFWmousebuttonfun g_nextButton = nullptr;
GLFWcursorposfun g_nextCursor = nullptr;

void queueKey(GLFWwindow* window, int key, int scancode, int action, int mods) {
  if (g_inputQueue && action != GLFW_REPEAT) g_inputQueue->push({InputEvent::Kind::Key, key, action == GLFW_PRESS});
  if (g_nextKey) g_nextKey(window, key, scancode, action, mods);
}
void queueButton(GLFWwindow* window, int button, int action, int mods) {
  if (g_inputQueue) g_inputQueue->push({InputEvent::Kind::MouseButton, button, action == GLFW_PRESS});
  if (g_nextButton) g_nextButton(window, button, action, mods);
}
void queueCursor(GLFWwindow* window, double x, double y) {
  if (g_inputQueue)
    g_inputQueue->push({InputEvent::Kind::CursorMove, 0, false, static_cast<float>(x), static_cast<float>(y)});
  if (g_nextCursor) g_nextCursor(window, x, y);
}

}  // namespace

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
    // Keys, buttons and the cursor reach ImGui through the queue (newFrame), one
    // change of each a frame: the backend's own handling of them is overwritten there.
    inputQueue_ = std::make_unique<InputQueue>();
    g_inputQueue = inputQueue_.get();
    g_nextKey = glfwSetKeyCallback(surface.window(), queueKey);
    g_nextButton = glfwSetMouseButtonCallback(surface.window(), queueButton);
    g_nextCursor = glfwSetCursorPosCallback(surface.window(), queueCursor);
  }
  ImGui_ImplOpenGL3_Init("#version 330 core");
}

ImGuiLayer::~ImGuiLayer() {
  ImGui_ImplOpenGL3_Shutdown();
  if (surface_.window()) {
    glfwSetKeyCallback(surface_.window(), g_nextKey);
    glfwSetMouseButtonCallback(surface_.window(), g_nextButton);
    glfwSetCursorPosCallback(surface_.window(), g_nextCursor);
    g_inputQueue = nullptr;
    ImGui_ImplGlfw_Shutdown();
  }
  ImGui::DestroyContext();
}

void ImGuiLayer::saveLayout() const {
  if (!iniFile_.empty()) ImGui::SaveIniSettingsToDisk(iniFile_.c_str());
}

void ImGuiLayer::newFrame(double deltaSeconds) {
  ImGui_ImplOpenGL3_NewFrame();
  if (surface_.window()) {
    ImGui_ImplGlfw_NewFrame();
    inputQueue_->feed(ImGui::GetIO());
  } else {
    ImGuiIO& io = ImGui::GetIO();
    const SurfaceSize size = surface_.framebufferSize();
    io.DisplaySize = ImVec2(static_cast<float>(size.width), static_cast<float>(size.height));
    io.DeltaTime = deltaSeconds > 0.0 ? static_cast<float>(deltaSeconds) : 1.0f / 60.0f;
  }
  ImGui::NewFrame();
}

void ImGuiLayer::render(bool built) {
  // The last draw data stays valid until the next ImGui::NewFrame.
  if (built) ImGui::Render();
  if (ImDrawData* data = ImGui::GetDrawData()) ImGui_ImplOpenGL3_RenderDrawData(data);
}

}  // namespace ks
