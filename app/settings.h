#pragma once
// What kernelscope remembers between runs (settings.json beside imgui.ini in the
// user's config directory). ImGui keeps window positions; we keep the rest.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace ks {

struct PanelVisibility {
  bool devices = true;
  bool deviceInfo = true;
  bool scene = true;
  bool interop = true;
  bool nbody = true;
  bool imageLab = true;
  bool buildLog = false;
  bool profiler = true;
  bool log = true;
  bool imguiDemo = false;
};

struct Settings {
  static constexpr int kVersion = 1;
  int windowWidth = 1280, windowHeight = 800;
  // The device chosen last time, by names (indices change when drivers do).
  std::string devicePlatform, deviceName;
  PanelVisibility panels;
  bool vsync = true;
  std::vector<std::string> recentImages;  // most recent first
};

// $XDG_CONFIG_HOME/kernelscope, else $HOME/.config/kernelscope.
std::filesystem::path defaultConfigDir();
// Where program binaries are cached: inside an explicit --config-dir (a private
// configuration keeps a private cache), else $XDG_CACHE_HOME/kernelscope/programs
// or ~/.cache/kernelscope/programs; none (memory only) when there is no home,
// so that the working directory (maybe the source tree) is never written to.
std::optional<std::filesystem::path> defaultProgramCacheDir(const std::optional<std::filesystem::path>& configDir);

// A missing file gives defaults; a corrupt or incompatible one gives defaults and
// a warning in *warning (the caller says whether it will be rewritten).
Settings loadSettings(const std::filesystem::path& file, std::string* warning);
// Returns an error message, or empty on success.
std::string saveSettings(const Settings& settings, const std::filesystem::path& file);

}  // namespace ks
