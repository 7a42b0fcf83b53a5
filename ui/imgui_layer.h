#pragma once
// Dear ImGui set-up for either surface: the GLFW backend in a window; size,
// time and no input when headless.
#include <filesystem>
#include <memory>
#include <string>

namespace ks {

class RenderSurface;
class InputQueue;

class ImGuiLayer {
 public:
  ImGuiLayer(RenderSurface& surface, const std::filesystem::path& iniFile);
  ~ImGuiLayer();  // (out of line: InputQueue is incomplete here)
  ImGuiLayer(const ImGuiLayer&) = delete;
  ImGuiLayer& operator=(const ImGuiLayer&) = delete;
  void newFrame(double deltaSeconds);
  // Draws the panels: as built since newFrame (`built`), else as last built.
  void render(bool built = true);
  // Which font the UI uses and at what size, or why ImGui's own: for the log.
  const std::string& fontMessage() const { return fontMessage_; }
  bool usesBuiltInFont() const { return builtInFont_; }
  // Writes the panels' places to the ini file now (the destructor does too), for a
  // process that ends without tearing down.
  void saveLayout() const;

 private:
  RenderSurface& surface_;
  std::string iniFile_;
  std::string fontMessage_;
  bool builtInFont_ = false;  // ImGui keeps the pointer: the string must outlive the context
  std::unique_ptr<InputQueue> inputQueue_;  // with a window: its keys, buttons and cursor
};

}  // namespace ks
