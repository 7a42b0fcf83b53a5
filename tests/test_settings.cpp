// io/settings.h (settings.json round trip and recovery) and compute/kernel_files.h
// (finding kernels/ at run time). All files live in a fresh temp directory.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "io/config_json.h"
#include "io/settings.h"
#include "compute/kernel_files.h"
#include "test_support.h"

namespace ks {
namespace {
namespace fs = std::filesystem;
using test::readFile;
using test::TempDir;
using test::writeFile;

// The settings a run starts from, as app/main.cpp takes them: the defaults when
// the file is refused. `warning` receives what the run says: the refusal, or the
// part of the file left at its defaults.
Settings startingSettings(const fs::path& file, std::string& warning) {
  const auto read = loadSettings(file);
  warning = read ? read->ignored : read.error().what();
  return read ? read->settings : Settings{};
}

void expectDefaults(const Settings& s) {
  const Settings d;
  EXPECT_EQ(s.windowWidth, d.windowWidth);
  EXPECT_EQ(s.windowHeight, d.windowHeight);
  EXPECT_EQ(s.devicePlatform, d.devicePlatform);
  EXPECT_EQ(s.deviceName, d.deviceName);
  EXPECT_EQ(s.vsync, d.vsync);
  EXPECT_EQ(s.panels.devices, d.panels.devices);
  EXPECT_EQ(s.panels.deviceInfo, d.panels.deviceInfo);
  EXPECT_EQ(s.panels.scene, d.panels.scene);
  EXPECT_EQ(s.panels.interop, d.panels.interop);
  EXPECT_EQ(s.panels.buildLog, d.panels.buildLog);
  EXPECT_TRUE(s.imageLab == d.imageLab);
  EXPECT_EQ(s.panels.log, d.panels.log);
  EXPECT_EQ(s.panels.imguiDemo, d.panels.imguiDemo);
}

TEST(Settings, RoundTrip) {
  TempDir dir;
  // a directory that does not exist yet: saveSettings creates it
  const fs::path file = dir / "config/kernelscope/settings.json";
  Settings s;
  s.windowWidth = 1024;
  s.windowHeight = 700;
  s.devicePlatform = "Portable Computing Language";
  s.deviceName = "pthread-skylake \"quoted\" \\ name";
  s.vsync = false;
  s.panels.devices = false;
  s.panels.deviceInfo = false;
  s.panels.scene = false;
  s.panels.interop = false;
  s.panels.buildLog = true;
  s.panels.profiler = false;
  s.panels.log = false;
  s.panels.imguiDemo = true;
  ASSERT_TRUE(saveSettings(s, file));
  ASSERT_TRUE(fs::exists(file));
  EXPECT_FALSE(fs::exists(file.string() + ".tmp")) << "temporary file left behind";

  std::string warning;
  const Settings back = startingSettings(file, warning);
  EXPECT_EQ(warning, "");
  EXPECT_EQ(back.windowWidth, 1024);
  EXPECT_EQ(back.windowHeight, 700);
  EXPECT_EQ(back.devicePlatform, s.devicePlatform);
  EXPECT_EQ(back.deviceName, s.deviceName);
  EXPECT_FALSE(back.vsync);
  EXPECT_FALSE(back.panels.devices);
  EXPECT_FALSE(back.panels.deviceInfo);
  EXPECT_FALSE(back.panels.scene);
  EXPECT_FALSE(back.panels.profiler);
  EXPECT_FALSE(back.panels.interop);
  EXPECT_TRUE(back.panels.buildLog);
  EXPECT_FALSE(back.panels.log);
  EXPECT_TRUE(back.panels.imguiDemo);

  // saving again replaces the file
  s.windowWidth = 640;
  ASSERT_TRUE(saveSettings(s, file));
  EXPECT_EQ(startingSettings(file, warning).windowWidth, 640);
  EXPECT_EQ(warning, "");
}

// The configurations' files keep the keys earlier versions wrote (settings.json and
// tuning.json load as before), and every configuration of the variant tables comes
// back from its JSON unchanged.
TEST(ConfigJson, KeysAreThoseEarlierVersionsWroteAndEveryConfigurationRoundTrips) {
  auto keys = [](const nlohmann::json& j) {
    std::vector<std::string> k;
    for (auto it = j.begin(); it != j.end(); ++it) k.push_back(it.key());
    return k;
  };
  using Keys = std::vector<std::string>;
  EXPECT_EQ(keys(rotateConfigJson(RotateConfig{})),
            (Keys{"pixels_per_item", "rows_per_item", "variant", "work_group_x", "work_group_y"}));
  EXPECT_EQ(keys(transposeConfigJson(TransposeConfig{})),
            (Keys{"rows_per_item", "tile", "variant", "work_group", "work_group_x", "work_group_y"}));
  EXPECT_EQ(keys(histogramConfigJson(HistogramConfig{})),
            (Keys{"copies", "groups_per_compute_unit", "pixels_per_item", "variant", "work_group"}));
  // What an earlier version wrote, read back.
  const RotateConfig old = rotateConfigFromJson(nlohmann::json::parse(
      R"({"variant": "nearest_local", "work_group_x": 16, "work_group_y": 4, "pixels_per_item": 2, "rows_per_item": 1})"));
  EXPECT_EQ(old, (RotateConfig{"nearest_local", 16, 4, 2, 1}));

  DeviceDescriptor device;  // no runtime handle: every configuration of the tables is listed
  device.maxWorkGroupSize = 1024;
  device.maxWorkItemSizes = {1024, 1024, 64};
  device.localMemBytes = 48 * 1024;
  device.deviceVersion = "OpenCL 3.0";
  device.openclCVersion = "OpenCL C 3.0";
  size_t checked = 0;
  for (int channels : {1, 4}) {
    for (const RotateConfig& c : allRotateConfigs(device, channels)) {
      EXPECT_EQ(rotateConfigFromJson(rotateConfigJson(c)), c) << describeRotateConfig(c);
      ++checked;
    }
    for (const TransposeConfig& c : allTransposeConfigs(device, channels)) {
      EXPECT_EQ(transposeConfigFromJson(transposeConfigJson(c)), c) << describeTransposeConfig(c);
      ++checked;
    }
    for (HistogramConfig c : allHistogramConfigs(device, channels)) {
      c.countedChannels = kAllHistogramChannels;  // not kept: the lab derives it from the channels shown
      EXPECT_EQ(histogramConfigFromJson(histogramConfigJson(c)), c) << describeHistogramConfig(c);
      ++checked;
    }
  }
  EXPECT_GT(checked, 100u);
}

TEST(Settings, MissingFileGivesDefaultsWithoutWarning) {
  TempDir dir;
  std::string warning;
  const Settings s = startingSettings(dir / "settings.json", warning);
  expectDefaults(s);
  EXPECT_EQ(warning, "");
}

// settings.json as the first version (6feacb9, app/settings.cpp) wrote it: six
// panels, no recent images, no image_lab or nbody sections. It loads without a
// warning; what it holds is kept and what it lacks takes its default.
TEST(Settings, TheFirstVersionsFileStillLoads) {
  TempDir dir;
  const fs::path file = dir / "settings.json";
  writeFile(file, R"({
  "device": {"name": "pthread-haswell-AMD EPYC", "platform": "Portable Computing Language"},
  "panels": {"build_log": true, "device_info": false, "devices": true, "imgui_demo": false, "log": false, "scene": true},
  "version": 1,
  "vsync": false,
  "window": {"height": 700, "width": 1000}
})");
  std::string warning;
  const Settings s = startingSettings(file, warning);
  EXPECT_EQ(warning, "");
  EXPECT_EQ(s.windowWidth, 1000);
  EXPECT_EQ(s.windowHeight, 700);
  EXPECT_FALSE(s.vsync);
  EXPECT_EQ(s.devicePlatform, "Portable Computing Language");
  EXPECT_EQ(s.deviceName, "pthread-haswell-AMD EPYC");
  EXPECT_TRUE(s.panels.buildLog);
  EXPECT_FALSE(s.panels.deviceInfo);
  EXPECT_FALSE(s.panels.log);
  const Settings defaults;
  EXPECT_EQ(s.panels.profiler, defaults.panels.profiler);
  EXPECT_EQ(s.panels.imageLab, defaults.panels.imageLab);
  EXPECT_TRUE(s.recentImages.empty());
  EXPECT_FALSE(s.nbody.has_value());
  EXPECT_EQ(s.imageLab.rotateVariant, defaults.imageLab.rotateVariant);
}

TEST(Settings, CorruptFileGivesDefaultsAndWarning) {
  TempDir dir;
  const fs::path file = dir / "settings.json";
  writeFile(file, "{ \"version\": 1, \"window\": { \"width\": 900,");  // truncated
  std::string warning;
  const Settings s = startingSettings(file, warning);
  expectDefaults(s);
  EXPECT_FALSE(warning.empty());
  EXPECT_NE(warning.find(file.string()), std::string::npos) << warning;

  // not even JSON
  writeFile(file, "\x01\x02 binary garbage");
  warning.clear();
  expectDefaults(startingSettings(file, warning));
  EXPECT_FALSE(warning.empty());

  // JSON, but the wrong types inside: defaults as a whole, not half a file
  writeFile(file, R"({"version": 1, "window": {"width": "wide", "height": 700}})");
  warning.clear();
  expectDefaults(startingSettings(file, warning));
  EXPECT_FALSE(warning.empty());
}

// A settings.json as a window run wrote it before loadSettings returned ks::Result
// (PoCL, 1600x1000, the lab untouched): it loads whole, nothing ignored.
TEST(Settings, AFileWrittenBeforeTheResultReaderStillLoads) {
  TempDir dir;
  const fs::path file = dir / "settings.json";
  writeFile(file,
      "{\"device\":{\"name\":\"pthread-haswell-AMD EPYC\",\"platform\":\"Portable Computing Language\"},\"image_lab\":{"
      "\"angle\":0.0,\"background\":[0.10000000149011612,0.10000000149011612,0.11999999731779099,1.0],\"count_sh"
      "own_only\":false,\"expand_canvas\":false,\"histogram_of_result\":true,\"histogram_variant\":\"\",\"inspect_res"
      "ult\":true,\"log_scale\":false,\"rotate_block\":[4,1],\"rotate_variant\":\"\",\"rotate_work_group\":[16,16],\"sa"
      "ve_path\":\"kernelscope-result.png\",\"show_channels\":[true,true,true,false,true],\"transparent_backgroun"
      "d\":false,\"transpose\":false,\"transpose_variant\":\"\",\"view\":\"result\"},\"panels\":{\"build_log\":false,\"devi"
      "ce_info\":true,\"devices\":true,\"image_lab\":true,\"imgui_demo\":false,\"interop\":true,\"log\":true,\"nbody\":t"
      "rue,\"profiler\":true,\"scene\":true},\"recent_images\":[],\"version\":1,\"vsync\":true,\"window\":{\"height\":100"
      "0,\"width\":1600}}");
  const auto read = loadSettings(file);
  ASSERT_TRUE(read) << read.error().what();
  EXPECT_EQ(read->ignored, "");
  EXPECT_EQ(read->settings.windowWidth, 1600);
  EXPECT_EQ(read->settings.windowHeight, 1000);
  EXPECT_EQ(read->settings.deviceName, "pthread-haswell-AMD EPYC");
  EXPECT_TRUE(read->settings.imageLab == ImageLabChoices{});
  EXPECT_FALSE(read->settings.panels.buildLog);
}

// A refused file is a ks::Error that names the file, as the image readers' are;
// the message is the one runs print.
TEST(Settings, ARefusedFileIsAnErrorNamingTheFile) {
  TempDir dir;
  const fs::path file = dir / "settings.json";
  writeFile(file, R"({"version": 1, "window": {"width": "wide"}})");
  const auto read = loadSettings(file);
  ASSERT_FALSE(read);
  EXPECT_EQ(read.error().details().file, file);
  const std::string message = read.error().what();
  EXPECT_EQ(message.rfind("ignoring settings file '" + file.string() + "' (", 0), 0u) << message;

  // A file that cannot be written: the error names it too.
  writeFile(dir / "not-a-folder", "x");
  const fs::path unwritable = dir / "not-a-folder" / "settings.json";
  const auto saved = saveSettings(Settings{}, unwritable);
  ASSERT_FALSE(saved);
  EXPECT_EQ(saved.error().details().file, unwritable);
  EXPECT_EQ(std::string(saved.error().what()).rfind("settings file: ", 0), 0u) << saved.error().what();
}

TEST(Settings, WrongVersionGivesDefaultsAndWarning) {
  TempDir dir;
  const fs::path file = dir / "settings.json";
  writeFile(file, R"({"version": 2, "window": {"width": 900, "height": 700}, "vsync": false})");
  std::string warning;
  expectDefaults(startingSettings(file, warning));
  EXPECT_FALSE(warning.empty());
  EXPECT_NE(warning.find("version"), std::string::npos) << warning;

  // no version at all counts as wrong too
  writeFile(file, R"({"window": {"width": 900, "height": 700}})");
  warning.clear();
  expectDefaults(startingSettings(file, warning));
  EXPECT_FALSE(warning.empty());
}

TEST(Settings, WindowSizeIsClamped) {
  TempDir dir;
  const fs::path file = dir / "settings.json";
  writeFile(file, R"({"version": 1, "window": {"width": 10, "height": 999999}})");
  std::string warning;
  const Settings s = startingSettings(file, warning);
  EXPECT_EQ(warning, "");
  EXPECT_EQ(s.windowWidth, 320);
  EXPECT_EQ(s.windowHeight, 16384);
}

// Every image lab field away from its default, so that a field that is not
// written or not read shows up as a difference.
ImageLabChoices unusualImageLab() {
  ImageLabChoices lab;
  lab.rotateVariant = "nearest_local";
  lab.rotateGroup = {32, 4};
  lab.rotateBlock = {2, 2};
  lab.angle = -37.5f;
  lab.expandCanvas = true;
  lab.transparentBackground = true;
  lab.background = {0.25f, 0.5f, 0.75f, 0.125f};
  lab.transpose = true;
  lab.transposeVariant = "tiled_padded";
  lab.transposeChoice = TransposeConfig{"tiled_padded", 16, 2, 128, 8, 4};
  lab.histogramVariant = "subhist_uchar";
  lab.histogramChoice = HistogramConfig{"subhist_uchar", 128, 200, 2, 3};
  lab.histogramOfResult = false;
  lab.showChannel = {false, true, false, true, false};
  lab.countShownOnly = true;
  lab.logScale = true;
  lab.view = ImageLabChoices::View::SideBySide;
  lab.inspectResult = false;
  lab.savePath = "/tmp/some where/result \"1\".png";
  return lab;
}

TEST(Settings, ImageLabRoundTrip) {
  TempDir dir;
  const fs::path file = dir / "settings.json";
  Settings s;
  s.imageLab = unusualImageLab();
  ASSERT_TRUE(saveSettings(s, file));
  std::string warning;
  const Settings back = startingSettings(file, warning);
  EXPECT_EQ(warning, "");
  EXPECT_TRUE(back.imageLab == s.imageLab) << readFile(file);
  EXPECT_EQ(back.imageLab.transposeChoice->tile, 16);
  EXPECT_EQ(back.imageLab.histogramChoice->pixelsPerItem, 200);

  // without full configurations (variant only): none comes back
  s.imageLab.transposeChoice.reset();
  s.imageLab.histogramChoice.reset();
  ASSERT_TRUE(saveSettings(s, file));
  const Settings again = startingSettings(file, warning);
  EXPECT_FALSE(again.imageLab.transposeChoice.has_value());
  EXPECT_FALSE(again.imageLab.histogramChoice.has_value());
  EXPECT_EQ(again.imageLab.transposeVariant, "tiled_padded");
}

// A settings.json that kernelscope wrote before the image lab's choices were kept as
// one struct (commit c133f64, tests/fixtures): every value comes back, and saved
// again it is the same file, byte for byte.
TEST(Settings, AFileWrittenBeforeTheChoicesStructLoadsWithTheSameValues) {
  const fs::path fixture = fs::path(KS_TEST_FIXTURES) / "settings_written_by_c133f64.json";
  const auto read = loadSettings(fixture);
  ASSERT_TRUE(read) << read.error().what();
  EXPECT_EQ(read->ignored, "");
  const Settings& s = read->settings;
  EXPECT_TRUE(s.imageLab == unusualImageLab());
  EXPECT_EQ(s.imageLab.view, ImageLabChoices::View::SideBySide);
  EXPECT_EQ(s.imageLab.savePath, "/tmp/some where/result \"1\".png");
  EXPECT_EQ(s.windowWidth, 1500);
  EXPECT_EQ(s.deviceName, "cpu-haswell-AMD EPYC");
  EXPECT_EQ(s.recentImages, (std::vector<std::string>{"/tmp/big.jpg", "/home/u/photo one.png"}));
  EXPECT_TRUE(s.panels.buildLog);
  EXPECT_FALSE(s.panels.nbody);
  TempDir dir;
  ASSERT_TRUE(saveSettings(s, dir / "settings.json"));
  EXPECT_EQ(readFile(dir / "settings.json"), readFile(fixture));
}

// Spinning is a choice of the moment: a start with a turning picture would surprise.
TEST(Settings, SpinIsNotKept) {
  TempDir dir;
  const fs::path file = dir / "settings.json";
  Settings s;
  s.imageLab.spin = true;
  s.imageLab.spinDegreesPerSecond = 90.0f;
  ASSERT_TRUE(saveSettings(s, file));
  EXPECT_EQ(readFile(file).find("spin"), std::string::npos) << readFile(file);
  std::string warning;
  const Settings back = startingSettings(file, warning);
  EXPECT_EQ(warning, "");
  EXPECT_FALSE(back.imageLab.spin);
  EXPECT_EQ(back.imageLab.spinDegreesPerSecond, ImageLabChoices{}.spinDegreesPerSecond);
}

// Recent files are kept absolute; a relative entry (from an early version) names no
// particular file, so it is left out rather than opened against some other folder.
TEST(Settings, RelativeRecentImagesAreLeftOut) {
  TempDir dir;
  const fs::path file = dir / "settings.json";
  writeFile(file, R"({"version": 1, "window": {"width": 900, "height": 700},
      "recent_images": ["photo.png", "/home/u/a.png", "../b.png", 7, "/c.jpg"]})");
  std::string warning;
  const Settings s = startingSettings(file, warning);
  EXPECT_EQ(warning, "");
  EXPECT_EQ(s.recentImages, (std::vector<std::string>{"/home/u/a.png", "/c.jpg"}));
}

// A file from before the image lab was kept: its defaults, no warning.
TEST(Settings, FileWithoutImageLabGivesTheLabsDefaults) {
  TempDir dir;
  const fs::path file = dir / "settings.json";
  writeFile(file, R"({"version": 1, "window": {"width": 900, "height": 700}, "recent_images": ["/a.png"]})");
  std::string warning;
  const Settings s = startingSettings(file, warning);
  EXPECT_EQ(warning, "");
  EXPECT_EQ(s.windowWidth, 900);
  EXPECT_TRUE(s.imageLab == ImageLabChoices{});
}

// A damaged image lab section costs the lab's choices, not the window, device and recent files.
TEST(Settings, DamagedImageLabSectionGivesTheLabsDefaultsAndKeepsTheRest) {
  TempDir dir;
  const fs::path file = dir / "settings.json";
  const std::vector<std::pair<std::string, std::string>> sections = {
      {R"("thirty degrees")", "not a JSON object"},
      {R"({"angle": "thirty"})", "'angle': "},
      {R"({"view": "sideways"})", "unknown view 'sideways'"},
      {R"({"rotate_work_group": [16]})", "'rotate_work_group': "},
      {R"({"transpose_config": {"variant": "tiled"}})", "'transpose_config': "},
      {R"({"show_channels": [true, "no", true, true, true]})", "'show_channels': "},
  };
  for (const auto& [section, reason] : sections) {
    writeFile(file, R"({"version": 1, "window": {"width": 900, "height": 700}, "image_lab": )" + section + "}");
    std::string warning;
    const Settings s = startingSettings(file, warning);
    EXPECT_NE(warning.find("ignoring the image lab settings in '" + file.string() + "'"), std::string::npos)
        << section << ": " << warning;
    EXPECT_NE(warning.find(reason), std::string::npos) << section << ": " << warning;
    EXPECT_EQ(s.windowWidth, 900) << section;
    EXPECT_TRUE(s.imageLab == ImageLabChoices{}) << section;
  }
}

TEST(Settings, ImageLabValuesAreBroughtIntoRange) {
  TempDir dir;
  const fs::path file = dir / "settings.json";
  writeFile(file, R"({"version": 1, "window": {"width": 900, "height": 700}, "image_lab": {
      "angle": 1000, "background": [2, -1, 0.5, 1], "rotate_work_group": [0, 5000], "rotate_block": [-3, 99]}})");
  std::string warning;
  const Settings s = startingSettings(file, warning);
  EXPECT_EQ(warning, "");
  EXPECT_EQ(s.imageLab.angle, 180.0f);
  EXPECT_EQ(s.imageLab.background, (std::array<float, 4>{1.0f, 0.0f, 0.5f, 1.0f}));
  EXPECT_EQ(s.imageLab.rotateGroup, (std::array<int, 2>{1, 1024}));
  EXPECT_EQ(s.imageLab.rotateBlock, (std::array<int, 2>{1, 64}));
  // keys left out keep their defaults
  EXPECT_EQ(s.imageLab.view, ImageLabChoices::View::Result);
  EXPECT_TRUE(s.imageLab.histogramOfResult);
}

TEST(Settings, DefaultConfigDirFollowsXdg) {
  const char* old = std::getenv("XDG_CONFIG_HOME");
  const std::string saved = old ? old : "";
  setenv("XDG_CONFIG_HOME", "/some/where", 1);
  EXPECT_EQ(defaultConfigDir(), fs::path("/some/where/kernelscope"));
  if (old)
    setenv("XDG_CONFIG_HOME", saved.c_str(), 1);
  else
    unsetenv("XDG_CONFIG_HOME");
}

TEST(Settings, ProgramCacheDirIsPrivateToAnExplicitConfigDirElseXdgCache) {
  EXPECT_EQ(defaultProgramCacheDir(fs::path("/my/config")), fs::path("/my/config/program-cache"));
  const char* oldXdg = std::getenv("XDG_CACHE_HOME");
  const char* oldHome = std::getenv("HOME");
  const std::string savedXdg = oldXdg ? oldXdg : "", savedHome = oldHome ? oldHome : "";
  setenv("XDG_CACHE_HOME", "/xdg/cache", 1);
  EXPECT_EQ(defaultProgramCacheDir(std::nullopt), fs::path("/xdg/cache/kernelscope/programs"));
  unsetenv("XDG_CACHE_HOME");
  setenv("HOME", "/home/someone", 1);
  EXPECT_EQ(defaultProgramCacheDir(std::nullopt), fs::path("/home/someone/.cache/kernelscope/programs"));
  unsetenv("HOME");
  EXPECT_EQ(defaultProgramCacheDir(std::nullopt), std::nullopt) << "never the working directory";
  if (oldXdg) setenv("XDG_CACHE_HOME", savedXdg.c_str(), 1);
  if (oldHome) setenv("HOME", savedHome.c_str(), 1);
}

// ---- kernels directory ----------------------------------------------------------

TEST(KernelsDir, MissingOverrideThrows) {
  TempDir dir;
  const fs::path missing = dir / "does-not-exist";
  try {
    findKernelsDir(missing, dir.path());
    FAIL() << "no exception for a missing --kernels-dir";
  } catch (const KernelsDirError& e) {
    EXPECT_NE(std::string(e.what()).find(missing.string()), std::string::npos) << e.what();
  }
  // a file is not a directory
  writeFile(dir / "file.cl", "x");
  EXPECT_THROW(findKernelsDir(dir / "file.cl", dir.path()), KernelsDirError);
}

TEST(KernelsDir, ExistingOverrideIsReturned) {
  TempDir dir;
  fs::create_directories(dir / "my-kernels");
  const fs::path found = findKernelsDir(dir / "my-kernels", dir / "unrelated-exe-dir");
  EXPECT_EQ(found, fs::weakly_canonical(dir / "my-kernels"));
  // the override wins over kernels/ beside the executable
  fs::create_directories(dir / "bin/kernels");
  EXPECT_EQ(findKernelsDir(dir / "my-kernels", dir / "bin"), fs::weakly_canonical(dir / "my-kernels"));
  // a relative spelling with ".." resolves to the same directory
  EXPECT_EQ(findKernelsDir(dir / "bin/../my-kernels", dir / "bin"), fs::weakly_canonical(dir / "my-kernels"));
}

TEST(KernelsDir, WithoutOverrideKernelsBesideExecutableComeFirst) {
  const char* env = std::getenv("KERNELSCOPE_KERNELS_DIR");
  if (env && *env) GTEST_SKIP() << "KERNELSCOPE_KERNELS_DIR is set in the environment (" << env << ")";
  TempDir dir;
  fs::create_directories(dir / "bin/kernels");
  EXPECT_EQ(findKernelsDir(std::nullopt, dir / "bin"), fs::weakly_canonical(dir / "bin/kernels"));
  // nothing beside the executable: the search still ends in the source tree
  const fs::path fallback = findKernelsDir(std::nullopt, dir / "empty");
  EXPECT_TRUE(fs::is_directory(fallback)) << fallback;
}

TEST(KernelsDir, EnvironmentVariableComesBeforeExecutableDir) {
  TempDir dir;
  fs::create_directories(dir / "from-env");
  fs::create_directories(dir / "bin/kernels");
  const char* old = std::getenv("KERNELSCOPE_KERNELS_DIR");
  const std::string saved = old ? old : "";
  setenv("KERNELSCOPE_KERNELS_DIR", (dir / "from-env").c_str(), 1);
  const fs::path found = findKernelsDir(std::nullopt, dir / "bin");
  if (old)
    setenv("KERNELSCOPE_KERNELS_DIR", saved.c_str(), 1);
  else
    unsetenv("KERNELSCOPE_KERNELS_DIR");
  EXPECT_EQ(found, fs::weakly_canonical(dir / "from-env"));
}

TEST(KernelsDir, ReadKernelSourceNamesMissingFile) {
  TempDir dir;
  writeFile(dir / "a.cl", "__kernel void a() {}\n");
  EXPECT_EQ(readKernelSource(dir.path(), "a.cl"), "__kernel void a() {}\n");
  try {
    readKernelSource(dir.path(), "missing.cl");
    FAIL() << "no exception for a missing kernel file";
  } catch (const KernelsDirError& e) {
    EXPECT_NE(std::string(e.what()).find("missing.cl"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace ks
