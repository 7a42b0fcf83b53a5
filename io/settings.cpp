#include "io/settings.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>

#include "compute/atomic_file.h"

namespace ks {
namespace fs = std::filesystem;
using nlohmann::json;

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
        s.imageLab = j["image_lab"].get<ImageLabChoices>();
      } catch (const std::exception& e) {
        read.ignored = "ignoring the image lab settings in '" + file.string() + "' (" + e.what() + ")";
      }
    }
    if (j.contains("nbody")) {
      // A bad value costs that value: the rest of the lab's choices are kept.
      s.nbody.emplace();
      for (const auto& problem : readNBodyChoices(j["nbody"], *s.nbody))
        read.nbodyProblems.push_back("settings file '" + file.string() + "': N-body choices: " + problem +
                                     "; using the default");
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
            {"image_lab", s.imageLab},
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
  if (s.nbody) j["nbody"] = *s.nbody;
  if (std::string error = replaceFileAtomically(file, j.dump(2) + "\n"); !error.empty())
    return Error("settings file: " + error, kExitFailure, {.file = file});
  return {};
}

}  // namespace ks
