#pragma once
// What kernelscope remembers between runs (settings.json beside imgui.ini in the
// user's config directory). ImGui keeps window positions; we keep the rest.
#include <array>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/result.h"
#include "io/image_lab_choices.h"
#include "io/nbody_choices.h"

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
  ImageLabChoices imageLab;               // as the user left it (not the image, zoom or pan)
  // The N-body lab's choices as the user left them; none in a file written before
  // they were kept (the lab starts from its defaults for the device).
  std::optional<NBodyChoices> nbody;
};

// $XDG_CONFIG_HOME/kernelscope, else $HOME/.config/kernelscope.
std::filesystem::path defaultConfigDir();
// Where program binaries are cached: inside an explicit --config-dir (a private
// configuration keeps a private cache), else $XDG_CACHE_HOME/kernelscope/programs
// or ~/.cache/kernelscope/programs; none (memory only) when there is no home,
// so that the working directory (maybe the source tree) is never written to.
std::optional<std::filesystem::path> defaultProgramCacheDir(const std::optional<std::filesystem::path>& configDir);

// What a settings file gave: the settings, and the part of it left at its defaults.
struct SettingsRead {
  Settings settings;
  std::string ignored;  // a damaged "image_lab" section: "ignoring the image lab settings in '...' (why)"; else empty
  // Each value of the "nbody" section that was refused (that field keeps its default), in words for the log.
  std::vector<std::string> nbodyProblems;
};
// A missing file gives defaults. A corrupt or incompatible one is the error
// "ignoring settings file '...' (why)": the caller starts from defaults and says
// whether it will rewrite the file. A damaged "image_lab" section alone gives the
// image lab's defaults, the rest as saved, and says so in `ignored`. Values out of
// range are brought into range; in the "nbody" section they are refused one by one
// (`nbodyProblems`), each field keeping its default.
Result<SettingsRead> loadSettings(const std::filesystem::path& file);
Result<void> saveSettings(const Settings& settings, const std::filesystem::path& file);

}  // namespace ks
