#include "io/settings.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>

#include "io/config_json.h"
#include "compute/atomic_file.h"

namespace ks {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr const char* kImageViews[] = {"original", "result", "side_by_side"};

// j[key] read as a T, or fallback when absent; a bad value names its key.
template <typename T, typename Read>
T field(const json& j, const char* key, T fallback, Read read) {
  if (!j.contains(key)) return fallback;
  try {
    return read(j.at(key));
  } catch (const std::exception& e) {
    throw std::runtime_error(std::string("'") + key + "': " + e.what());
  }
}
template <typename T>
T field(const json& j, const char* key, T fallback) {
  return field(j, key, fallback, [](const json& v) { return v.get<T>(); });
}

ImageLabSettings imageLabFrom(const json& j) {
  if (!j.is_object()) throw std::runtime_error("not a JSON object");
  const ImageLabSettings d;
  ImageLabSettings s;
  // Work-group and block sizes only need to be sane numbers here; whether the
  // device runs them is the image lab's question (it falls back to its defaults).
  auto pair = [&j](const char* key, std::array<int, 2> fallback, int lo, int hi) {
    const auto v = field(j, key, fallback);
    return std::array<int, 2>{std::clamp(v[0], lo, hi), std::clamp(v[1], lo, hi)};
  };
  s.rotateVariant = field(j, "rotate_variant", d.rotateVariant);
  s.rotateGroup = pair("rotate_work_group", d.rotateGroup, 1, 1024);
  s.rotateBlock = pair("rotate_block", d.rotateBlock, 1, 64);
  const float angle = field(j, "angle", d.angle);
  s.angle = std::isfinite(angle) ? std::clamp(angle, -180.0f, 180.0f) : d.angle;
  s.expandCanvas = field(j, "expand_canvas", d.expandCanvas);
  s.transparentBackground = field(j, "transparent_background", d.transparentBackground);
  s.background = field(j, "background", d.background);
  for (float& c : s.background) c = std::isfinite(c) ? std::clamp(c, 0.0f, 1.0f) : 0.0f;
  s.transpose = field(j, "transpose", d.transpose);
  s.transposeVariant = field(j, "transpose_variant", d.transposeVariant);
  s.transposeChoice = field(j, "transpose_config", d.transposeChoice,
                            [](const json& v) { return std::optional(transposeConfigFromJson(v)); });
  s.histogramVariant = field(j, "histogram_variant", d.histogramVariant);
  s.histogramChoice = field(j, "histogram_config", d.histogramChoice,
                            [](const json& v) { return std::optional(histogramConfigFromJson(v)); });
  s.histogramOfResult = field(j, "histogram_of_result", d.histogramOfResult);
  s.showChannel = field(j, "show_channels", d.showChannel);
  s.countShownOnly = field(j, "count_shown_only", d.countShownOnly);
  s.logScale = field(j, "log_scale", d.logScale);
  s.view = field(j, "view", d.view);
  if (std::find(std::begin(kImageViews), std::end(kImageViews), s.view) == std::end(kImageViews))
    throw std::runtime_error("unknown view '" + s.view + "'");
  s.inspectResult = field(j, "inspect_result", d.inspectResult);
  s.savePath = field(j, "save_path", d.savePath);
  return s;
}

json imageLabJson(const ImageLabSettings& s) {
  json j = {{"rotate_variant", s.rotateVariant},
            {"rotate_work_group", s.rotateGroup},
            {"rotate_block", s.rotateBlock},
            {"angle", s.angle},
            {"expand_canvas", s.expandCanvas},
            {"transparent_background", s.transparentBackground},
            {"background", s.background},
            {"transpose", s.transpose},
            {"transpose_variant", s.transposeVariant},
            {"histogram_variant", s.histogramVariant},
            {"histogram_of_result", s.histogramOfResult},
            {"show_channels", s.showChannel},
            {"count_shown_only", s.countShownOnly},
            {"log_scale", s.logScale},
            {"view", s.view},
            {"inspect_result", s.inspectResult},
            {"save_path", s.savePath}};
  if (s.transposeChoice) j["transpose_config"] = transposeConfigJson(*s.transposeChoice);
  if (s.histogramChoice) j["histogram_config"] = histogramConfigJson(*s.histogramChoice);
  return j;
}

}  // namespace

fs::path defaultConfigDir() {
  if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg && *xdg) return fs::path(xdg) / "kernelscope";
  if (const char* home = std::getenv("HOME"); home && *home) return fs::path(home) / ".config" / "kernelscope";
  return fs::current_path() / ".kernelscope";
}

std::optional<fs::path> defaultProgramCacheDir(const std::optional<fs::path>& configDir) {
  if (configDir) return *configDir / "program-cache";
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) return fs::path(xdg) / "kernelscope" / "programs";
  if (const char* home = std::getenv("HOME"); home && *home) return fs::path(home) / ".cache" / "kernelscope" / "programs";
  return std::nullopt;
}

Result<SettingsRead> loadSettings(const fs::path& file) {
  SettingsRead read;
  Settings& s = read.settings;
  std::ifstream in(file);
  if (!in) return read;
  try {
    const json j = json::parse(in);
    if (!j.is_object()) throw std::runtime_error("not a JSON object");
    if (const json version = j.value("version", json()); version != Settings::kVersion)
      throw std::runtime_error("settings version " + (version.is_null() ? std::string("missing") : version.dump()) +
                               ", this kernelscope reads version " + std::to_string(Settings::kVersion));
    const Settings defaults;
    s.windowWidth = std::clamp(j.at("window").value("width", defaults.windowWidth), 320, 16384);
    s.windowHeight = std::clamp(j.at("window").value("height", defaults.windowHeight), 240, 16384);
    s.vsync = j.value("vsync", defaults.vsync);
    if (j.contains("device")) {
      s.devicePlatform = j["device"].value("platform", "");
      s.deviceName = j["device"].value("name", "");
    }
    // Entries are absolute since they are kept; a relative one (an early version's)
    // names no file reliably, whatever folder this run starts in: left out.
    if (j.contains("recent_images"))
      for (const auto& f : j["recent_images"])
        if (f.is_string() && fs::path(f.get<std::string>()).is_absolute() && s.recentImages.size() < 10)
          s.recentImages.push_back(f.get<std::string>());
    if (j.contains("panels")) {
      const json& p = j["panels"];
      s.panels.devices = p.value("devices", defaults.panels.devices);
      s.panels.deviceInfo = p.value("device_info", defaults.panels.deviceInfo);
      s.panels.scene = p.value("scene", defaults.panels.scene);
      s.panels.interop = p.value("interop", defaults.panels.interop);
      s.panels.nbody = p.value("nbody", defaults.panels.nbody);
      s.panels.imageLab = p.value("image_lab", defaults.panels.imageLab);
      s.panels.buildLog = p.value("build_log", defaults.panels.buildLog);
      s.panels.profiler = p.value("profiler", defaults.panels.profiler);
      s.panels.log = p.value("log", defaults.panels.log);
      s.panels.imguiDemo = p.value("imgui_demo", defaults.panels.imguiDemo);
    }
    if (j.contains("image_lab")) {
      // A damaged image lab section costs the lab's choices, not the whole file.
      try {
        s.imageLab = imageLabFrom(j["image_lab"]);
      } catch (const std::exception& e) {
        read.ignored = "ignoring the image lab settings in '" + file.string() + "' (" + e.what() + ")";
      }
    }
  } catch (const std::exception& e) {
    return Error("ignoring settings file '" + file.string() + "' (" + e.what() + ")", kExitFailure, {.file = file});
  }
  return read;
}

Result<void> saveSettings(const Settings& s, const fs::path& file) {
  json j = {{"version", Settings::kVersion},
            {"window", {{"width", s.windowWidth}, {"height", s.windowHeight}}},
            {"vsync", s.vsync},
            {"device", {{"platform", s.devicePlatform}, {"name", s.deviceName}}},
            {"recent_images", s.recentImages},
            {"image_lab", imageLabJson(s.imageLab)},
            {"panels",
             {{"devices", s.panels.devices},
              {"device_info", s.panels.deviceInfo},
              {"scene", s.panels.scene},
              {"interop", s.panels.interop},
              {"nbody", s.panels.nbody},
              {"image_lab", s.panels.imageLab},
              {"build_log", s.panels.buildLog},
              {"profiler", s.panels.profiler},
              {"log", s.panels.log},
              {"imgui_demo", s.panels.imguiDemo}}}};
  if (std::string error = replaceFileAtomically(file, j.dump(2) + "\n"); !error.empty())
    return Error("settings file: " + error, kExitFailure, {.file = file});
  return {};
}

}  // namespace ks
