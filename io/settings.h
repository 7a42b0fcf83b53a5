#pragma once
// What kernelscope remembers between runs (settings.json beside imgui.ini in the
// user's config directory). ImGui keeps window positions; we keep the rest.
#include <array>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "compute/image_histogram.h"
#include "compute/image_transpose.h"
#include "core/result.h"

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

// The image lab as the user left it: kernel choices, rotation, histogram and view
// options (not the image, zoom or pan). The fields mirror ImageLabState's; an empty
// variant means the device's default (image_lab_settings.h converts and checks).
struct ImageLabSettings {
  std::string rotateVariant;
  std::array<int, 2> rotateGroup{16, 16};
  std::array<int, 2> rotateBlock{4, 1};
  float angle = 0.0f;
  bool expandCanvas = false;
  bool transparentBackground = false;
  std::array<float, 4> background{0.1f, 0.1f, 0.12f, 1.0f};
  bool transpose = false;
  std::string transposeVariant;
  std::optional<TransposeConfig> transposeChoice;
  std::string histogramVariant;
  std::optional<HistogramConfig> histogramChoice;
  bool histogramOfResult = true;
  std::array<bool, 5> showChannel{true, true, true, false, true};  // R G B A luminance
  bool countShownOnly = false;
  bool logScale = false;
  std::string view = "result";  // "original", "result" or "side_by_side"
  bool inspectResult = true;
  std::string savePath = "kernelscope-result.png";
  bool operator==(const ImageLabSettings&) const = default;
};

struct Settings {
  static constexpr int kVersion = 1;
  int windowWidth = 1280, windowHeight = 800;
  // The device chosen last time, by names (indices change when drivers do).
  std::string devicePlatform, deviceName;
  PanelVisibility panels;
  bool vsync = true;
  std::vector<std::string> recentImages;  // most recent first
  ImageLabSettings imageLab;
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
};
// A missing file gives defaults. A corrupt or incompatible one is the error
// "ignoring settings file '...' (why)": the caller starts from defaults and says
// whether it will rewrite the file. A damaged "image_lab" section alone gives the
// image lab's defaults, the rest as saved, and says so in `ignored`. Values out of
// range are brought into range.
Result<SettingsRead> loadSettings(const std::filesystem::path& file);
Result<void> saveSettings(const Settings& settings, const std::filesystem::path& file);

}  // namespace ks
