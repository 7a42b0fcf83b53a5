// End to end: the built kernelscope binary (KERNELSCOPE_BINARY) as a child
// process. Every run gets a fresh --config-dir under its own temp dir, and
// DISPLAY/WAYLAND_DISPLAY are unset unless the test runs it under xvfb-run.
// What a run needs and this machine may lack (an OpenCL device, EGL, Xvfb) is
// probed independently of the app, so a broken app never turns into a skip.
#include <gtest/gtest.h>

#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <nlohmann/json.hpp>
#include <stb_image.h>
#include <stb_image_write.h>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <optional>
#include <regex>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "app/frame_profiler.h"
#include "lab/ceilings_cache.h"
#include "lab/run_record.h"
#include "lab/tuning_cache.h"
#include "io/settings.h"
#include "compute/device_catalog.h"
#include "compute/device_selection.h"
#include "compute/image_histogram.h"
#include "compute/image_reference.h"
#include "compute/rotate_coverage.h"
#include "compute/image_rotate.h"
#include "compute/image_transpose.h"
#include "compute/kernel_op.h"
#include "compute/nbody_invariants.h"
#include "compute/nbody_model.h"
#include "compute/parameter_values.h"
#include "test_devices.h"
#include "test_require.h"
#include "test_support.h"

namespace ks {
namespace {
namespace fs = std::filesystem;
using test::TempDir;

const fs::path kBinary = KERNELSCOPE_BINARY;
constexpr int kRunTimeoutSeconds = 40;  // below the ctest TIMEOUT (90 s)

// ---- running the app ----------------------------------------------------------

std::string shellQuote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

using RunResult = test::ShellResult;

struct RunOptions {
  bool display = false;                          // keep DISPLAY etc. (for xvfb-run)
  std::vector<std::string> setEnv;               // "NAME=value"
  std::string prefix;                            // e.g. an xvfb-run invocation
  fs::path workDir;                              // run there (relative paths on the command line)
  int timeoutSeconds = 0;                        // 0: kRunTimeoutSeconds
};

// kernelscope <args> with a private --config-dir (unless args bring one).
RunResult runApp(const TempDir& dir, const std::vector<std::string>& args, const RunOptions& options = {}) {
  std::string cmd = options.workDir.empty() ? "" : "cd " + shellQuote(options.workDir.string()) + " && ";
  cmd += "env -u KERNELSCOPE_KERNELS_DIR -u XDG_CONFIG_HOME";
  if (!options.display) cmd += " -u DISPLAY -u WAYLAND_DISPLAY";
  for (const auto& e : options.setEnv) cmd += " " + shellQuote(e);
  if (!options.prefix.empty()) cmd += " " + options.prefix;
  cmd += " " + shellQuote(kBinary.string());
  bool hasConfig = false;
  for (const auto& a : args) {
    cmd += " " + shellQuote(a);
    hasConfig = hasConfig || a == "--config-dir";
  }
  if (!hasConfig) cmd += " --config-dir " + shellQuote((dir / "config").string());
  return test::runShell(cmd, dir.path(), options.timeoutSeconds > 0 ? options.timeoutSeconds : kRunTimeoutSeconds);
}

bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

// ---- what the machine offers (probed without the app) ------------------------

using test::findInPath;

using test::openClMissing;

// Empty when libEGL loads and offers a platform the app can render headless on
// (EGL_MESA_platform_surfaceless or EGL_EXT_platform_device), else why not.
std::string eglMissing() {
  void* lib = dlopen("libEGL.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) return std::string("libEGL.so.1 cannot be loaded: ") + dlerror();
  using QueryString = const char* (*)(void*, int);
  auto query = reinterpret_cast<QueryString>(dlsym(lib, "eglQueryString"));
  if (!query) return "libEGL.so.1 has no eglQueryString";
  const int kEglExtensions = 0x3055;
  const char* ext = query(nullptr /* EGL_NO_DISPLAY */, kEglExtensions);
  const std::string list = ext ? ext : "";
  // libEGL stays loaded: unloading GLVND's vendor libraries is not worth the risk.
  if (contains(list, "EGL_MESA_platform_surfaceless") || contains(list, "EGL_EXT_platform_device")) return {};
  return "EGL offers neither EGL_MESA_platform_surfaceless nor EGL_EXT_platform_device (client extensions: '" + list +
         "')";
}

// Empty when a window run can be made under Xvfb (xvfb-run, Xvfb and xauth in PATH), else what is missing.
std::string xvfbMissing() {
  if (!findInPath("xvfb-run")) return "xvfb-run not found in PATH (install the xvfb package)";
  if (!findInPath("Xvfb")) return "Xvfb not found in PATH (install the xvfb package)";
  if (!findInPath("xauth")) return "xauth not found in PATH (xvfb-run needs it)";
  return {};
}

// RunOptions::prefix for a run on a fresh Xvfb screen (after xvfbMissing() said yes).
std::string xvfbRunPrefix(const std::string& screen = "1024x768x24") {
  return shellQuote(findInPath("xvfb-run")->string()) + " -a -s " + shellQuote("-screen 0 " + screen);
}

// ---- images -------------------------------------------------------------------

struct Png {
  int width = 0, height = 0;
  size_t distinctColours = 0;
  bool allEqual = true;
};

std::optional<Png> loadPng(const fs::path& file, std::string& why) {
  int w = 0, h = 0, channels = 0;
  unsigned char* data = stbi_load(file.c_str(), &w, &h, &channels, 4);
  if (!data) {
    why = std::string("stb_image cannot load ") + file.string() + ": " + stbi_failure_reason();
    return std::nullopt;
  }
  Png png;
  png.width = w;
  png.height = h;
  std::set<uint32_t> colours;
  const uint32_t first = data[0] | data[1] << 8 | data[2] << 16;
  for (size_t i = 0; i < static_cast<size_t>(w) * h; ++i) {
    const unsigned char* p = data + i * 4;
    const uint32_t c = p[0] | p[1] << 8 | p[2] << 16;
    colours.insert(c);
    if (c != first) png.allEqual = false;
  }
  png.distinctColours = colours.size();
  stbi_image_free(data);
  return png;
}

void expectRichImage(const fs::path& file, int width, int height) {
  ASSERT_TRUE(fs::exists(file)) << "no screenshot at " << file;
  std::string why;
  const auto png = loadPng(file, why);
  ASSERT_TRUE(png) << why;
  EXPECT_EQ(png->width, width);
  EXPECT_EQ(png->height, height);
  EXPECT_FALSE(png->allEqual) << "the screenshot is one flat colour";
  // The Julia set's palette plus the UI give hundreds of colours; a blank or
  // clear-colour-only frame gives one or a handful.
  EXPECT_GT(png->distinctColours, 100u) << "only " << png->distinctColours << " distinct colours";
}

// ---- a. window under Xvfb -----------------------------------------------------------

// The settings a run starts from, as app/main.cpp takes them; `warning` receives
// what the run says about the file (a refusal, or a part left at its defaults).
Settings startingSettings(const fs::path& file, std::string& warning) {
  const auto read = loadSettings(file);
  warning = read ? read->ignored : read.error().what();
  return read ? read->settings : Settings{};
}

TEST(App, WindowUnderXvfb) {
  KS_NEED("xvfb", xvfbMissing());
  KS_NEED("opencl", openClMissing());
  TempDir dir("ks-app-window");
  const fs::path shot = dir / "out.png";
  RunOptions opts;
  opts.display = true;
  opts.prefix = xvfbRunPrefix("1280x1024x24");
  const fs::path dump = dir / "state.json";
  const RunResult r = runApp(
      dir, {"--frames", "30", "--size", "800x600", "--screenshot", shot.string(), "--state-dump", dump.string()}, opts);
  ASSERT_EQ(r.exitCode, 0) << r.describe();
  // resources/ and fonts-dejavu-core: the window has its icon, the UI DejaVu Sans.
  const auto ui = nlohmann::json::parse(test::readFile(dump)).at("ui");
  EXPECT_NE(ui.at("font").get<std::string>().find("DejaVuSans.ttf"), std::string::npos) << ui.dump();
  EXPECT_EQ(ui.at("window_icon"), "icon-32.png, icon-64.png") << ui.dump();
  EXPECT_TRUE(fs::is_directory(fs::path(ui.at("resources_dir").get<std::string>()) / "examples")) << ui.dump();
  EXPECT_TRUE(contains(r.out, "kernelscope summary")) << r.describe();
  EXPECT_TRUE(contains(r.out, "frames:    30 in")) << r.describe();
  EXPECT_TRUE(contains(r.out, "rendering: window")) << r.describe();
  EXPECT_TRUE(contains(r.out, "screenshot: " + shot.string())) << r.describe();
  EXPECT_FALSE(contains(r.err, "no display found")) << r.describe();
  expectRichImage(shot, 800, 600);

  // A window run remembers its size and device for next time.
  std::string warning;
  const Settings saved = startingSettings(dir / "config/settings.json", warning);
  EXPECT_EQ(warning, "");
  EXPECT_TRUE(fs::exists(dir / "config/settings.json")) << r.describe();
  EXPECT_EQ(saved.windowWidth, 800);
  EXPECT_EQ(saved.windowHeight, 600);
  EXPECT_FALSE(saved.deviceName.empty());
  EXPECT_TRUE(contains(r.out, saved.deviceName)) << "saved device '" << saved.deviceName << "'\n" << r.describe();
  EXPECT_TRUE(fs::exists(dir / "config/imgui.ini")) << "ImGui keeps the panel layout there";
}

// ---- b. headless through EGL -------------------------------------------------------

TEST(App, HeadlessEgl) {
  KS_NEED("gl", eglMissing());
  KS_NEED("opencl", openClMissing());
  TempDir dir("ks-app-headless");
  const fs::path shot = dir / "out.png";
  const RunResult r =
      runApp(dir, {"--headless", "--frames", "30", "--size", "640x480", "--screenshot", shot.string()});
  ASSERT_EQ(r.exitCode, 0) << r.describe();
  EXPECT_TRUE(contains(r.out, "frames:    30 in")) << r.describe();
  EXPECT_TRUE(contains(r.out, "rendering: headless")) << r.describe();
  EXPECT_TRUE(contains(r.out, "Mesa surfaceless platform") || contains(r.out, "EGL")) << r.describe();
  // The summary names the running kernel in words, not in the records' shorthand (issue 22).
  EXPECT_TRUE(contains(r.out, "bodies, blocked kernel: ") || contains(r.out, "bodies, tiled kernel: ") ||
              contains(r.out, "bodies, naive kernel: "))
      << r.describe();
  EXPECT_FALSE(contains(r.out, " wg=")) << r.describe();
  // --headless asked for it: no "no display" notice
  EXPECT_FALSE(contains(r.err, "no display found")) << r.describe();
  expectRichImage(shot, 640, 480);
  // Headless runs leave the user's files alone.
  EXPECT_FALSE(fs::exists(dir / "config/settings.json"));
  EXPECT_FALSE(fs::exists(dir / "config/imgui.ini"));
}

// A screenshot the disk does not take (/dev/full: ENOSPC on every write) ends the
// run with exit 1 and the reason, not a summary that claims it was saved.
TEST(App, AScreenshotThatCannotBeWrittenFailsTheRun) {
  KS_NEED("gl", eglMissing());
  KS_NEED("opencl", openClMissing());
  if (access("/dev/full", W_OK) != 0) GTEST_SKIP() << "no writable /dev/full";
  TempDir dir("ks-app-fullshot");
  const RunResult r = runApp(dir, {"--headless", "--frames", "3", "--size", "320x240", "--screenshot", "/dev/full"});
  EXPECT_EQ(r.exitCode, 1) << r.describe();
  EXPECT_TRUE(contains(r.err, "cannot write screenshot '/dev/full'")) << r.describe();
  EXPECT_TRUE(contains(r.err, std::strerror(ENOSPC))) << r.describe();
  EXPECT_FALSE(contains(r.out, "screenshot: /dev/full")) << r.describe();
}

// The program binary cache lives in the private --config-dir: a second run compiles nothing.
// On PoCL the app keeps no binary cache (issue 22: reading binaries stalls the device) and says so.
TEST(App, SecondRunLoadsProgramsFromTheBinaryCache) {
  KS_NEED("gl", eglMissing());
  KS_NEED("opencl", openClMissing());
  TempDir dir("ks-app-binary-cache");
  const RunResult first = runApp(dir, {"--headless", "--frames", "2", "--size", "320x240"});
  ASSERT_EQ(first.exitCode, 0) << first.describe();
  if (contains(first.out, "Portable Computing Language")) {
    EXPECT_TRUE(contains(first.out, "0 from the binary cache (binary cache off: PoCL keeps its own cache of built programs)"))
        << first.describe();
    EXPECT_FALSE(fs::exists(dir / "config" / "program-cache") && !fs::is_empty(dir / "config" / "program-cache"))
        << "no binary was written";
    const RunResult second = runApp(dir, {"--headless", "--frames", "2", "--size", "320x240"});
    ASSERT_EQ(second.exitCode, 0) << second.describe();
    EXPECT_TRUE(contains(second.out, " 0 from the binary cache (binary cache off: PoCL")) << second.describe();
    return;
  }
  EXPECT_TRUE(contains(first.out, "from source, 0 from the binary cache")) << first.describe();
  EXPECT_TRUE(contains(first.out, (dir / "config" / "program-cache").string())) << first.describe();
  const RunResult second = runApp(dir, {"--headless", "--frames", "2", "--size", "320x240"});
  ASSERT_EQ(second.exitCode, 0) << second.describe();
  EXPECT_TRUE(contains(second.out, "programs:  0 compiled from source")) << second.describe();
  EXPECT_FALSE(contains(second.out, " 0 from the binary cache")) << second.describe();
  const RunResult off = runApp(dir, {"--headless", "--frames", "2", "--size", "320x240", "--no-program-cache"});
  ASSERT_EQ(off.exitCode, 0) << off.describe();
  EXPECT_TRUE(contains(off.out, "0 from the binary cache (binary cache off)")) << off.describe();
}

// The profiling panel's data from the real frame loop, through --state-dump.
TEST(App, ProfilerStatisticsAndKernelInfoReachTheStateDump) {
  KS_NEED("gl", eglMissing());
  KS_NEED("opencl", openClMissing());
  TempDir dir("ks-app-profiler");
  const fs::path dump = dir / "state.json";
  const RunResult r = runApp(dir, {"--headless", "--frames", "12", "--size", "320x240", "--n", "512",
                                   "--state-dump", dump.string()});
  ASSERT_EQ(r.exitCode, 0) << r.describe();
  const auto j = nlohmann::json::parse(test::readFile(dump));
  const auto& series = j.at("profiler").at("series");
  // Statistics start with the second frame: 11 frames, 11 steps.
  EXPECT_EQ(series.at("frame").at("count"), 11) << series.dump(2);
  EXPECT_EQ(series.at("nbody step").at("count"), 11) << series.dump(2);
  EXPECT_TRUE(series.at("nbody step").at("kernel").get<bool>());
  EXPECT_GT(series.at("nbody step").at("median_ms").get<double>(), 0.0);
  EXPECT_GE(series.at("nbody step").at("p95_ms").get<double>(), series.at("nbody step").at("median_ms").get<double>());
  EXPECT_GT(j.at("ceilings").at("copy_gbps").get<double>(), 0.0);
  ASSERT_EQ(j.at("kernels").size(), 1u);
  const auto& k = j.at("kernels")[0];
  EXPECT_EQ(k.at("file"), "nbody.cl");
  EXPECT_NE(k.at("options").get<std::string>().find("-DTILE="), std::string::npos) << k.dump();
  EXPECT_GT(k.at("work_group_size").get<size_t>(), 0u);
  EXPECT_GT(k.at("build_ms").get<double>(), 0.0);
}

// ---- c. no display, no --headless ---------------------------------------------------

TEST(App, FallsBackToHeadlessWithoutDisplay) {
  KS_NEED("gl", eglMissing());
  KS_NEED("opencl", openClMissing());
  TempDir dir("ks-app-fallback");
  const RunResult r = runApp(dir, {"--frames", "5"});
  ASSERT_EQ(r.exitCode, 0) << r.describe();
  EXPECT_TRUE(contains(r.err, "no display found, rendering headless")) << r.describe();
  EXPECT_TRUE(contains(r.out, "frames:    5 in")) << r.describe();
  EXPECT_TRUE(contains(r.out, "rendering: headless")) << r.describe();
}

// ---- d. no OpenCL platform ------------------------------------------------------------

RunOptions noOpenClVendors(const TempDir& dir) {
  const fs::path vendors = dir / "empty-vendors";
  fs::create_directories(vendors);
  RunOptions opts;
  opts.setEnv = {"OCL_ICD_VENDORS=" + vendors.string()};
  return opts;
}

TEST(App, NoOpenClPlatform) {
  // The surface comes up before OpenCL is asked, so EGL must work to get there.
  KS_NEED("gl", eglMissing());
  TempDir dir("ks-app-nocl");
  const RunResult r = runApp(dir, {"--headless", "--frames", "5"}, noOpenClVendors(dir));
  EXPECT_EQ(r.exitCode, 3) << r.describe();
  EXPECT_TRUE(contains(r.err, "no OpenCL platform")) << r.describe();
  EXPECT_TRUE(contains(r.err, (dir / "empty-vendors").string())) << "message should name where it looked\n"
                                                                   << r.describe();
}

TEST(App, ListDevicesWithoutOpenClPlatform) {
  TempDir dir("ks-app-nocl-list");
  const RunResult r = runApp(dir, {"--list-devices"}, noOpenClVendors(dir));
  EXPECT_EQ(r.exitCode, 3) << r.describe();
  EXPECT_TRUE(contains(r.err, "no OpenCL platform")) << r.describe();
  EXPECT_EQ(r.out, "") << r.describe();
}

TEST(App, ListDevices) {
  KS_NEED("opencl", openClMissing());
  TempDir dir("ks-app-list");
  const RunResult r = runApp(dir, {"--list-devices"});
  ASSERT_EQ(r.exitCode, 0) << r.describe();
  EXPECT_TRUE(contains(r.out, "[0] platform 0 device 0: ")) << r.describe();
  // nothing else happens: no window, no config written
  EXPECT_FALSE(fs::exists(dir / "config/settings.json"));
}

// ---- e. kernels directory missing -------------------------------------------------------

TEST(App, KernelsDirMissing) {
  KS_NEED("gl", eglMissing());
  TempDir dir("ks-app-nokernels");
  const std::string missing = "/nonexistent/kernelscope-kernels-" + dir.path().filename().string();
  const RunResult r = runApp(dir, {"--headless", "--frames", "5", "--kernels-dir", missing});
  EXPECT_EQ(r.exitCode, 6) << r.describe();
  EXPECT_TRUE(contains(r.err, missing)) << r.describe();
  EXPECT_TRUE(contains(r.err, "does not exist")) << r.describe();

  // the exact spelling from the brief
  const RunResult plain = runApp(dir, {"--headless", "--frames", "5", "--kernels-dir", "/nonexistent"});
  EXPECT_EQ(plain.exitCode, 6) << plain.describe();
  EXPECT_TRUE(contains(plain.err, "'/nonexistent'")) << plain.describe();
}

// ---- f. command line --------------------------------------------------------------------

TEST(App, HelpListsOptions) {
  TempDir dir("ks-app-help");
  const RunResult r = runApp(dir, {"--help"});
  EXPECT_EQ(r.exitCode, 0) << r.describe();
  for (const char* option : {"--headless", "--frames", "--screenshot", "--device", "--platform", "--list-devices",
                             "--kernels-dir", "--config-dir", "--size", "--angle", "--rotate", "--expand",
                             "--background", "--transparent", "--transpose", "--histogram", "--histogram-of",
                             "--save-result", "--histogram-out"})
    EXPECT_TRUE(contains(r.out, option)) << option << " missing from --help\n" << r.describe();
  EXPECT_TRUE(contains(r.out, "Exit codes")) << r.describe();
}

TEST(App, VersionPrintsVersion) {
  TempDir dir("ks-app-version");
  const RunResult r = runApp(dir, {"--version"});
  EXPECT_EQ(r.exitCode, 0) << r.describe();
  EXPECT_TRUE(contains(r.out, std::string("kernelscope ") + KERNELSCOPE_VERSION)) << r.describe();
}

TEST(App, BadOptionExits2) {
  TempDir dir("ks-app-badopt");
  const RunResult r = runApp(dir, {"--no-such-option"});
  EXPECT_EQ(r.exitCode, 2) << r.describe();
  EXPECT_TRUE(contains(r.err, "--no-such-option")) << r.describe();
  const RunResult frames = runApp(dir, {"--headless", "--frames", "0"});
  EXPECT_EQ(frames.exitCode, 2) << frames.describe();
  const RunResult notANumber = runApp(dir, {"--frames", "many"});
  EXPECT_EQ(notANumber.exitCode, 2) << notANumber.describe();
}

TEST(App, BadSizeExits2) {
  TempDir dir("ks-app-badsize");
  for (const char* size : {"10x10", "800", "800x", "x600", "63x600", "800x16385"}) {
    const RunResult r = runApp(dir, {"--headless", "--frames", "1", "--size", size});
    EXPECT_EQ(r.exitCode, 2) << "--size " << size << "\n" << r.describe();
    EXPECT_TRUE(contains(r.err, "WIDTHxHEIGHT")) << r.describe();
  }
}

// Every option given a bad value stops the run before anything starts: exit 2
// and one message naming the option and the value (CLI11's, or our checks').
TEST(App, BadOptionValuesExit2NamingOptionAndValue) {
  TempDir dir("ks-app-badvalues");
  test::writeFile(dir / "a-file", "not a directory");
  const std::string missingDir = (dir / "no-such-dir").string();
  struct Case {
    std::vector<std::string> args;
    std::string option, value;
  };
  const std::vector<Case> cases = {
      {{"--n", "-5"}, "--n", "-5"},
      {{"--n", "0"}, "--n", "0"},
      {{"--n", "99999999999999999999"}, "--n", "99999999999999999999"},
      {{"--n", "many"}, "--n", "many"},
      {{"--variant", "fastest"}, "--variant", "fastest"},
      {{"--variant", "naive,bogus"}, "--variant", "bogus"},
      {{"--wg", "0"}, "--wg", "0"},
      {{"--wg", "4097"}, "--wg", "4097"},
      {{"--wg", "-32"}, "--wg", "-32"},
      {{"--unroll", "3"}, "--unroll", "3"},
      {{"--screenshot", missingDir + "/shot.png"}, "--screenshot", missingDir},
      {{"--screenshot", dir.path().string()}, "--screenshot", "is a directory"},
      {{"--csv", (dir / "a-file/out.csv").string()}, "--csv", "is not a directory"},
      {{"--state-dump", missingDir + "/state.json"}, "--state-dump", missingDir},
      {{"--dump-program", missingDir + "/nbody.bin"}, "--dump-program", missingDir},
      {{"--size", "0x0"}, "--size", "0x0"},
      {{"--size", "big"}, "--size", "big"},
      {{"--image-size", "1x0"}, "--image-size", "1x0"},
      {{"--interop", "telepathy"}, "--interop", "telepathy"},
      {{"--scene", "mandelbrot"}, "--scene", "mandelbrot"},
      {{"--preset", "blob"}, "--preset", "blob"},
      {{"--bench", "everything"}, "--bench", "everything"},
      {{"--frames", "-1"}, "--frames", "-1"},
      {{"--frames", "0"}, "--frames", "0"},
      {{"--iterations", "0"}, "--iterations", "0"},
      {{"--spin", "fast"}, "--spin", "fast"},
      {{"--spin", "1e9"}, "--spin", "1e9"},
      {{"--angle", "nan"}, "--angle", "nan"},
      {{"--angle", "inf"}, "--angle", "inf"},
      {{"--angle", "thirty"}, "--angle", "thirty"},
      {{"--background", "300,0,0"}, "--background", "300,0,0"},
      {{"--background", "1,2"}, "--background", "1,2"},
      {{"--background", "1,2,3,4,5"}, "--background", "1,2,3,4,5"},
      {{"--histogram-of", "middle"}, "--histogram-of", "middle"},
  };
  for (const Case& c : cases) {
    std::vector<std::string> args = {"--headless"};
    args.insert(args.end(), c.args.begin(), c.args.end());
    const RunResult r = runApp(dir, args);
    std::string what;
    for (const auto& a : c.args) what += a + " ";
    EXPECT_EQ(r.exitCode, 2) << what << "\n" << r.describe();
    EXPECT_EQ(r.err.rfind(c.option + ": ", 0), 0u) << what << ": the message must start with the option\n" << r.describe();
    EXPECT_TRUE(contains(r.err, c.value)) << what << ": the message must name the value\n" << r.describe();
    EXPECT_EQ(r.out, "") << what << ": nothing ran\n" << r.describe();
  }
  EXPECT_FALSE(fs::exists(dir / "config")) << "a refused run writes no settings";
}

// ---- image batch: files through the image lab's kernels, without a window ----------------

// A PNG of pseudo-random pixels: 1 (gray), 3 (RGB) or 4 (RGBA) channels.
fs::path writeRandomPng(const fs::path& file, int width, int height, int channels, uint32_t seed) {
  std::vector<unsigned char> pixels(static_cast<size_t>(width) * height * channels);
  uint32_t x = seed * 2654435761u + 1;
  for (auto& p : pixels) {
    x ^= x << 13, x ^= x >> 17, x ^= x << 5;
    p = static_cast<unsigned char>(x >> 24);
  }
  EXPECT_TRUE(stbi_write_png(file.c_str(), width, height, channels, pixels.data(), width * channels)) << file;
  return file;
}

// A PNG's pixels as the image lab holds them: gray stays gray, the rest becomes RGBA.
std::optional<HostImage> readLabPixels(const fs::path& file, std::string& why) {
  int w = 0, h = 0, fileChannels = 0;
  if (!stbi_info(file.c_str(), &w, &h, &fileChannels)) {
    why = "stb_image cannot read " + file.string() + ": " + stbi_failure_reason();
    return std::nullopt;
  }
  const int channels = fileChannels == 1 ? 1 : 4;
  unsigned char* data = stbi_load(file.c_str(), &w, &h, &fileChannels, channels);
  if (!data) {
    why = "stb_image cannot load " + file.string() + ": " + stbi_failure_reason();
    return std::nullopt;
  }
  HostImage image(ImageLayout{w, h, channels});
  std::copy_n(data, image.data.size(), image.data.begin());
  stbi_image_free(data);
  return image;
}

// Empty when the images have the same layout and every byte is within `tolerance`; else where they differ.
std::string imageDifference(const HostImage& got, const HostImage& want, int tolerance) {
  if (!(got.layout == want.layout))
    return "layout " + describeImageLayout(got.layout) + ", expected " + describeImageLayout(want.layout);
  size_t bad = 0, first = 0;
  int worst = 0;
  for (size_t i = 0; i < got.data.size(); ++i) {
    const int d = std::abs(int(got.data[i]) - int(want.data[i]));
    if (d > tolerance && bad++ == 0) first = i;
    worst = std::max(worst, d);
  }
  if (bad == 0) return {};
  const size_t pixel = first / static_cast<size_t>(got.layout.channels);
  return std::to_string(bad) + " of " + std::to_string(got.data.size()) + " bytes differ by more than " +
         std::to_string(tolerance) + " (worst " + std::to_string(worst) + "), the first at pixel (" +
         std::to_string(pixel % got.layout.width) + ", " + std::to_string(pixel / got.layout.width) + ")";
}

// The batch's line for `file` names the rotation that ran: "<file> (...): rotate 30 deg
// [expanded ]<variant> wg=...". Empty when there is no such line.
std::string rotateVariantInLine(const std::string& out, const std::string& file) {
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind(file + " (", 0) != 0) continue;
    const size_t deg = line.find(" deg ");
    if (deg == std::string::npos) return {};
    std::istringstream words(line.substr(deg + 5));
    std::string word;
    words >> word;
    if (word == "expanded") words >> word;
    return word;
  }
  return {};
}

// Bins per channel and statistics by name, per channel, as --histogram-out wrote them.
struct HistogramFile {
  std::vector<std::string> channels;
  std::vector<std::vector<uint64_t>> bins;                    // [channel][bin]
  std::vector<std::map<std::string, double>> statistics;     // [channel] name -> value
};

std::vector<std::string> splitCsvLine(const std::string& line) {
  std::vector<std::string> fields;
  std::istringstream in(line);
  for (std::string f; std::getline(in, f, ',');) fields.push_back(f);
  return fields;
}

std::optional<HistogramFile> readHistogramFile(const fs::path& file, std::string& why) {
  if (!fs::exists(file)) {
    why = "no histogram file " + file.string();
    return std::nullopt;
  }
  const std::string text = test::readFile(file);
  HistogramFile h;
  if (file.extension() == ".json") {
    const nlohmann::json doc = nlohmann::json::parse(text, nullptr, false);
    if (!doc.is_object() || !doc["channels"].is_array()) {
      why = file.string() + " is not the JSON expected:\n" + text.substr(0, 400);
      return std::nullopt;
    }
    for (const auto& c : doc["channels"]) {
      h.channels.push_back(c.value("name", ""));
      h.bins.push_back(c.value("bins", std::vector<uint64_t>{}));
      std::map<std::string, double> stats;
      for (const char* name : {"count", "sum", "sum_squares", "min", "max", "mean", "stddev", "median"})
        stats[name] = c.value(name, -1.0);
      stats["outside_picture"] = doc.value("outside_picture", -1.0);  // of the image, not per channel
      h.statistics.push_back(stats);
    }
    return h;
  }
  std::istringstream lines(text);
  std::string line;
  std::getline(lines, line);
  const std::vector<std::string> header = splitCsvLine(line);
  if (header.size() < 2 || header[0] != "bin") {
    why = file.string() + " has no 'bin,<channels>' header:\n" + text.substr(0, 400);
    return std::nullopt;
  }
  h.channels.assign(header.begin() + 1, header.end());
  h.bins.assign(h.channels.size(), {});
  h.statistics.assign(h.channels.size(), {});
  while (std::getline(lines, line)) {
    const std::vector<std::string> fields = splitCsvLine(line);
    if (fields.size() != header.size()) {
      why = file.string() + ": a row of " + std::to_string(fields.size()) + " fields: " + line;
      return std::nullopt;
    }
    const bool isBin = !fields[0].empty() && std::isdigit(static_cast<unsigned char>(fields[0][0]));
    for (size_t c = 0; c + 1 < fields.size(); ++c) {
      if (isBin) h.bins[c].push_back(std::stoull(fields[c + 1]));
      else h.statistics[c][fields[0]] = std::stod(fields[c + 1]);
    }
  }
  return h;
}

// The histogram file against the CPU reference of the image it counted: the same
// bins, totals equal to the pixels counted, the same statistics. `covered` (one byte
// per pixel of `counted`, 1 = from the picture): only those pixels are counted, the
// rotation's fill is not (issue 22), and the file says how many were left out.
void expectHistogramMatches(const fs::path& file, const HostImage& counted, const std::vector<uint8_t>* covered = nullptr) {
  std::string why;
  const auto h = readHistogramFile(file, why);
  ASSERT_TRUE(h) << why;
  std::vector<uint8_t> all(counted.layout.pixels(), 1);
  if (!covered) covered = &all;
  const size_t countedPixels = static_cast<size_t>(std::count(covered->begin(), covered->end(), uint8_t{1}));
  ASSERT_GT(countedPixels, 0u);
  HostImage picture({static_cast<int>(countedPixels), 1, counted.layout.channels});
  const size_t channels = static_cast<size_t>(counted.layout.channels);
  for (size_t i = 0, at = 0; i < covered->size(); ++i)
    if ((*covered)[i]) std::copy_n(counted.data.data() + i * channels, channels, picture.data.data() + channels * at++);
  const ImageHistogram want = histogramReference(picture);
  const ImageStatistics wantStats = statisticsReference(picture);
  const double outside = static_cast<double>(counted.layout.pixels() - countedPixels);
  ASSERT_EQ(h->channels.size(), static_cast<size_t>(want.channelCount())) << file;
  for (int c = 0; c < want.channelCount(); ++c) {
    SCOPED_TRACE(file.string() + " channel " + h->channels[c]);
    EXPECT_EQ(h->channels[c], histogramChannelName(counted.layout.channels, c));
    ASSERT_EQ(h->bins[c].size(), static_cast<size_t>(kHistogramBins));
    uint64_t total = 0;
    for (int b = 0; b < kHistogramBins; ++b) {
      total += h->bins[c][b];
      EXPECT_EQ(h->bins[c][b], want.channel(c)[b]) << "bin " << b;
    }
    EXPECT_EQ(total, countedPixels);
    const ChannelStatistics& s = wantStats.channels[c];
    auto stat = [&](const char* name) { return h->statistics[c].count(name) ? h->statistics[c].at(name) : -1.0; };
    EXPECT_EQ(stat("outside_picture"), outside);
    EXPECT_EQ(stat("count"), double(s.count));
    EXPECT_EQ(stat("sum"), double(s.sum));
    EXPECT_EQ(stat("min"), double(s.min));
    EXPECT_EQ(stat("max"), double(s.max));
    EXPECT_EQ(stat("median"), double(s.median));
    EXPECT_NEAR(stat("mean"), s.mean, 1e-4);
    EXPECT_NEAR(stat("stddev"), s.stddev, 1e-4);
  }
}

// Awkward sizes in one folder: odd sides, a single pixel, gray, and two files of one
// size with different pixels one after the other (the second must not be rotated
// from the image variants' copy of the first: its buffer may reuse the first's handle).
struct BatchInput {
  std::string name;
  int width, height, channels;
};
const std::vector<BatchInput> kBatchInputs = {
    {"wide.png", 61, 37, 3}, {"twin.png", 61, 37, 3}, {"dot.png", 1, 1, 4}, {"gray.png", 17, 13, 1}};

std::vector<std::string> writeBatchInputs(const TempDir& dir) {
  fs::create_directories(dir / "photos");
  fs::create_directories(dir / "out");
  std::vector<std::string> files;
  uint32_t seed = 1;
  for (const BatchInput& in : kBatchInputs) {
    writeRandomPng(dir / "photos" / in.name, in.width, in.height, in.channels, seed++);
    files.push_back("photos/" + in.name);
  }
  // What a folder of photos also holds: a batch given the folder skips them.
  test::writeFile(dir / "photos/README.txt", "holiday photos\n");
  fs::create_directories(dir / "photos/originals.png");
  return files;
}

// A batch over kBatchInputs with `args`, then each saved result against the CPU
// reference of the variant the batch names (exact variants exactly, the image
// sampler's bilinear within one level), and each histogram file against the
// reference histogram of what it counted.
// `givenAsFolder`: the command names the folder instead of the files.
void expectBatchMatchesReference(const std::vector<std::string>& args, const RotateParams& params, bool transpose,
                                 bool histogramOfResult, const std::string& histogramExtension,
                                 bool givenAsFolder = false, const RunOptions& extra = {}) {
  TempDir dir("ks-app-batch");
  const std::vector<std::string> files = writeBatchInputs(dir);
  std::vector<std::string> command = args;
  for (const char* a : {"--save-result", "out/%s.png", "--histogram-out"}) command.push_back(a);
  command.push_back("out/%s" + histogramExtension);
  if (givenAsFolder) command.push_back("photos");
  else command.insert(command.end(), files.begin(), files.end());
  RunOptions options = extra;
  options.workDir = dir.path();
  const RunResult r = runApp(dir, command, options);
  ASSERT_EQ(r.exitCode, 0) << r.describe();
  EXPECT_TRUE(contains(r.out, "4 of 4 files processed")) << r.describe();
  for (size_t i = 0; i < files.size(); ++i) {
    SCOPED_TRACE(files[i]);
    const std::string stem = fs::path(files[i]).stem().string();
    const std::string variantName = rotateVariantInLine(r.out, files[i]);
    const ImageRotateVariant* variant = findImageRotateVariant(variantName);
    ASSERT_TRUE(variant) << "no line naming the rotation of " << files[i] << "\n" << r.describe();
    std::string why;
    const auto input = readLabPixels(dir / files[i], why);
    ASSERT_TRUE(input) << why;
    const auto result = readLabPixels(dir / "out" / (stem + ".png"), why);
    ASSERT_TRUE(result) << why << "\n" << r.describe();
    HostImage want = rotateReference(*input, params, variant->sampling);
    if (transpose) want = transposeReference(want);
    // The issue's bound: one level for the sampler's bilinear filtering (float on PoCL).
    EXPECT_EQ(imageDifference(*result, want, variant->exact ? 0 : 1), "") << variantName;
    if (!histogramOfResult) {
      expectHistogramMatches(dir / "out" / (stem + histogramExtension), *input);
      continue;
    }
    // The result's pixels from the picture, transposed with the result.
    HostImage covered({want.layout.width, want.layout.height, 1});
    if (transpose) covered = HostImage({want.layout.height, want.layout.width, 1});
    covered.data = rotateCoverageReference(input->layout, params, variant->sampling);
    if (transpose) covered = transposeReference(covered);
    expectHistogramMatches(dir / "out" / (stem + histogramExtension), *result, &covered.data);
  }
}

// The issue's command: the lab's default kernels, 30 degrees, cropped; JSON
// histograms of the results. EGL is made unusable: the batch needs no GL.
TEST(App, ImageBatchMatchesTheReferenceWithTheLabsDefaults) {
  KS_NEED("opencl", openClMissing());
  RotateParams params;
  params.degrees = 30.0;
  params.background = {200, 100, 50, 255};
  RunOptions noEgl;
  noEgl.setEnv = {"__EGL_VENDOR_LIBRARY_FILENAMES=/nonexistent/egl_vendor.json",
                  "__EGL_VENDOR_LIBRARY_DIRS=/nonexistent"};
  expectBatchMatchesReference({"--headless", "--angle", "30", "--background", "200,100,50"}, params, false, true,
                              ".json", false, noEgl);
  // The same environment stops the viewer: the batch really ran without EGL.
  TempDir dir("ks-app-batch-noegl");
  const RunResult viewer = runApp(dir, {"--headless", "--frames", "1"}, noEgl);
  EXPECT_EQ(viewer.exitCode, 5) << viewer.describe();
}

// The bit-exact buffer kernel, an awkward angle on an expanded transparent canvas,
// then a transpose (the default's, given by a bare --transpose before the files);
// CSV histograms of the originals.
TEST(App, ImageBatchExpandedTransposedMatchesTheReferenceExactly) {
  KS_NEED("opencl", openClMissing());
  RotateParams params;
  params.degrees = -123.4;
  params.canvas = RotateCanvas::Expand;
  params.transparent = true;
  expectBatchMatchesReference({"--angle", "-123.4", "--rotate", "bilinear", "--expand", "--transparent",
                               "--histogram-of", "original", "--transpose"},
                              params, true, false, ".csv");
}

// The nearest variant (exact) and a named transpose variant written with a space,
// on the folder rather than its files.
TEST(App, ImageBatchExactVariantsMatchTheReference) {
  KS_NEED("opencl", openClMissing());
  RotateParams params;
  params.degrees = 200.0;
  params.background = {1, 2, 3, 4};
  expectBatchMatchesReference({"--angle", "200", "--rotate", "nearest", "--background", "1,2,3,4", "--transpose",
                               "naive"},
                              params, true, true, ".json", true);
}

// A file that cannot be opened is said, with the lab's words, and the batch goes on;
// the exit code says that one failed.
TEST(App, ImageBatchReportsABadFileAndGoesOnWithTheNext) {
  KS_NEED("opencl", openClMissing());
  TempDir dir("ks-app-batch-bad");
  fs::create_directories(dir / "out");
  writeRandomPng(dir / "first.png", 9, 7, 3, 1);
  test::writeFile(dir / "empty.png", "");
  test::writeFile(dir / "notes.png", "this is text, not a picture\n");
  writeRandomPng(dir / "last.png", 8, 5, 1, 2);
  RunOptions options;
  options.workDir = dir.path();
  const RunResult r = runApp(dir,
                             {"--angle", "45", "--save-result", "out/%s.png", "first.png", "empty.png", "missing.png",
                              "notes.png", "last.png"},
                             options);
  EXPECT_EQ(r.exitCode, 1) << r.describe();
  EXPECT_TRUE(contains(r.err, "cannot open: 'empty.png' is empty (0 bytes)")) << r.describe();
  EXPECT_TRUE(contains(r.err, "cannot open: 'missing.png' does not exist")) << r.describe();
  EXPECT_TRUE(contains(r.err, "cannot open: 'notes.png'")) << r.describe();
  EXPECT_TRUE(fs::exists(dir / "out/first.png")) << r.describe();
  EXPECT_TRUE(fs::exists(dir / "out/last.png")) << "the batch stopped at the bad file\n" << r.describe();
  EXPECT_FALSE(fs::exists(dir / "out/empty.png")) << r.describe();
  EXPECT_TRUE(contains(r.out, "2 of 5 files processed")) << r.describe();
  EXPECT_TRUE(contains(r.out, "; failed: empty.png, missing.png, notes.png\n")) << r.describe();
}

// Unknown variant names are refused before anything runs, with the table's names.
TEST(App, ImageBatchRefusesUnknownVariantsListingTheValidOnes) {
  TempDir dir("ks-app-batch-variant");
  writeRandomPng(dir / "a.png", 4, 4, 3, 1);
  struct Case {
    std::vector<std::string> args;
    std::string option;
    std::vector<std::string> names;
  };
  const std::vector<Case> cases = {
      {{"--rotate", "bilinearr"}, "--rotate", variantNames(imageRotateVariants())},
      {{"--transpose=tiledd"}, "--transpose", variantNames(imageTransposeVariants())},
      {{"--transpose", "tiledd"}, "--transpose", variantNames(imageTransposeVariants())},
      {{"--histogram", "fastest"}, "--histogram", variantNames(imageHistogramVariants())},
  };
  for (const Case& c : cases) {
    std::vector<std::string> args = c.args;
    args.push_back((dir / "a.png").string());
    const RunResult r = runApp(dir, args);
    const std::string what = c.args.front() + (c.args.size() > 1 ? " " + c.args[1] : "");
    EXPECT_EQ(r.exitCode, 2) << what << "\n" << r.describe();
    EXPECT_EQ(r.err.rfind(c.option + ": ", 0), 0u) << what << "\n" << r.describe();
    EXPECT_TRUE(contains(r.err, "unknown")) << what << "\n" << r.describe();
    for (const std::string& name : c.names) EXPECT_TRUE(contains(r.err, name)) << what << ": " << name << " not listed\n" << r.describe();
    EXPECT_EQ(r.out, "") << what << ": nothing ran\n" << r.describe();
  }
}

// Output patterns that would lose results, and options of other runs, are refused
// before anything runs (exit 2, the option first).
TEST(App, ImageBatchRefusesOutputsThatWouldOverwriteEachOther) {
  TempDir dir("ks-app-batch-usage");
  fs::create_directories(dir / "out");
  fs::create_directories(dir / "a");
  fs::create_directories(dir / "b");
  fs::create_directories(dir / "no-images");
  test::writeFile(dir / "no-images/notes.txt", "not a picture\n");
  writeRandomPng(dir / "x.png", 4, 4, 3, 1);
  writeRandomPng(dir / "y.png", 4, 4, 3, 2);
  writeRandomPng(dir / "a/same.png", 4, 4, 3, 3);
  writeRandomPng(dir / "b/same.png", 4, 4, 3, 4);
  struct Case {
    std::vector<std::string> args;
    std::string option, message;
  };
  const std::vector<Case> cases = {
      {{"--save-result", "out/result.png", "x.png", "y.png"}, "--save-result", "has no %s, but 2 image files"},
      {{"--histogram-out", "out/h.csv", "x.png", "y.png"}, "--histogram-out", "has no %s, but 2 image files"},
      {{"--save-result", "out/%s.png", "a/same.png", "b/same.png"}, "--save-result", "would both write 'out/same.png'"},
      {{"--save-result", "%s.png", "x.png"}, "--save-result", "is the input file 'x.png': it would be overwritten"},
      {{"--save-result", "out/%s.jpg", "x.png"}, "--save-result", "must end in .png"},
      {{"--histogram-out", "out/%s.txt", "x.png"}, "--histogram-out", "must end in .csv or .json"},
      {{"--save-result", "nowhere/%s.png", "x.png"}, "--save-result", "directory 'nowhere' does not exist"},
      {{"--angle", "30"}, "--angle", "none is given"},
      {{"--angle", "30", "no-images"}, "images: ", "'no-images' is a directory without image files (.png"},
      {{"--save-result", "out/%s.png", "x.png", "./x.png"}, "--save-result", "are the same file"},
      {{"--angle", "30", "--screenshot", "shot.png", "x.png"}, "--screenshot", "not with the image batch"},
      {{"--angle", "30", "--bench", "image", "x.png"}, "--bench", "not with the image batch"},
      {{"--background", "1,2,3", "--transparent", "x.png"}, "--", "excludes"},
  };
  RunOptions options;
  options.workDir = dir.path();
  for (const Case& c : cases) {
    std::string what;
    for (const auto& a : c.args) what += a + " ";
    const RunResult r = runApp(dir, c.args, options);
    EXPECT_EQ(r.exitCode, 2) << what << "\n" << r.describe();
    EXPECT_EQ(r.err.rfind(c.option, 0), 0u) << what << ": the message must start with the option\n" << r.describe();
    EXPECT_TRUE(contains(r.err, c.message)) << what << "\n" << r.describe();
    EXPECT_EQ(r.out, "") << what << ": nothing ran\n" << r.describe();
  }
  EXPECT_TRUE(fs::is_empty(dir / "out")) << "a refused batch writes nothing";
}

// ---- image files on the command line ----------------------------------------------

fs::path writePng(const fs::path& file, int width, int height) {
  std::vector<unsigned char> pixels(static_cast<size_t>(width) * height * 4);
  for (size_t i = 0; i < pixels.size(); ++i) pixels[i] = static_cast<unsigned char>(i * 7 + i / 4);
  EXPECT_TRUE(stbi_write_png(file.c_str(), width, height, 4, pixels.data(), width * 4)) << file;
  return file;
}

// A headless run of the image lab with `images` on the command line; its state dump.
nlohmann::json runImageLab(const TempDir& dir, const std::vector<std::string>& images, RunResult& r) {
  const fs::path dump = dir / "state.json";
  std::vector<std::string> args = {"--headless", "--frames", "3", "--state-dump", dump.string()};
  args.insert(args.end(), images.begin(), images.end());
  RunOptions options;
  options.workDir = dir.path();  // the images are named relative to it
  r = runApp(dir, args, options);
  std::error_code ec;
  if (!fs::exists(dump, ec)) return nullptr;
  return nlohmann::json::parse(test::readFile(dump), nullptr, /*allow_exceptions=*/false);
}

bool logHas(const nlohmann::json& dump, const std::string& text) {
  if (!dump.is_object() || !dump["log"].is_array()) return false;
  for (const auto& line : dump["log"])
    if (line.is_string() && contains(line.get<std::string>(), text)) return true;
  return false;
}

// --spin: the picture turns every frame, so every frame runs the pipeline again; without it
// the lab computes once per image and then only on a change.
TEST(App, SpinningTheImageLabRecomputesEveryFrame) {
  KS_NEED("gl", eglMissing());
  KS_NEED("opencl", openClMissing());
  TempDir dir("ks-app-spin");
  writePng(dir / "a.png", 61, 37);
  const fs::path dump = dir / "state.json";
  RunOptions options;
  options.workDir = dir.path();
  auto run = [&](std::vector<std::string> extra, const char* frames) {
    std::vector<std::string> args = {"--headless", "--frames", frames, "--size", "480x320", "--state-dump",
                                     dump.string(), "a.png"};
    args.insert(args.end(), extra.begin(), extra.end());
    const RunResult r = runApp(dir, args, options);
    EXPECT_EQ(r.exitCode, 0) << r.describe();
    std::error_code ec;
    nlohmann::json j = fs::exists(dump, ec) ? nlohmann::json::parse(test::readFile(dump), nullptr, false) : nullptr;
    EXPECT_TRUE(j.is_object() && j["image"].is_object()) << r.describe();
    return std::make_pair(r, j);
  };
  const auto [stillRun, still] = run({}, "12");
  ASSERT_TRUE(still.is_object() && still["image"].is_object());
  EXPECT_TRUE(still["image"]["spin_degrees_per_second"].is_null());
  EXPECT_EQ(still["image"].value("angle", -1.0), 0.0);
  const auto stillRuns = still["image"].value("pipeline_runs", 0ull);
  EXPECT_GE(stillRuns, 1u);
  EXPECT_LE(stillRuns, 3u) << "a still picture should not be recomputed every frame";

  // On a CPU device a run goes through the image lab's worker thread and the next
  // one starts once it is shown: every other frame at least (on a GPU, every frame).
  const auto [spinRun, spun] = run({"--spin", "-45"}, "24");
  ASSERT_TRUE(spun.is_object() && spun["image"].is_object());
  EXPECT_EQ(spun["image"].value("spin_degrees_per_second", 0.0), -45.0);
  EXPECT_EQ(spun["image"].value("path", ""), "a.png");
  EXPECT_NE(spun["image"].value("angle", 0.0), 0.0) << spinRun.describe();
  // The first frames may show the test image while a.png decodes; from then on, a run every frame or two.
  EXPECT_GE(spun["image"].value("pipeline_runs", 0ull), 8u) << spinRun.describe();
  EXPECT_NE(spinRun.out.find("pipeline runs:"), std::string::npos) << spinRun.describe();
}

// The Profiler's breakdown explains the frame: its measured CPU stages (all but
// "other") add up to at least 90% of the frame time, for the N-body scene and for
// the image lab recomputing every frame; a --record run carries every stage.
TEST(App, TheFrameBreakdownAccountsForTheWholeFrame) {
  KS_NEED("gl", eglMissing());
  KS_NEED("opencl", openClMissing());
  TempDir dir("ks-app-breakdown");
  writePng(dir / "a.png", 97, 61);
  const std::vector<std::vector<std::string>> scenes = {{"--n", "2048"}, {"--spin", "30", "a.png"}};
  for (const auto& scene : scenes) {
    const fs::path dump = dir / "state.json", json = dir / "rec.json";
    std::vector<std::string> args = {"--headless", "--frames", "40", "--size", "480x320", "--record", "20",
                                     "--warmup", "10", "--json", json.string(), "--state-dump", dump.string()};
    args.insert(args.end(), scene.begin(), scene.end());
    const RunResult r = runApp(dir, args);
    ASSERT_EQ(r.exitCode, 0) << r.describe();
    EXPECT_TRUE(contains(r.out, "frame breakdown")) << r.describe();
    const auto j = nlohmann::json::parse(test::readFile(dump));
    const auto& series = j.at("profiler").at("series");
    const double frame = series.at("frame").at("mean_ms").get<double>();
    double measured = 0.0;
    for (const char* stage : {"input", "update", "interop", "wait for GPU", "UI", "render", "present"}) {
      ASSERT_TRUE(series.contains(stage)) << stage << "\n" << series.dump(2);
      measured += series.at(stage).at("mean_ms").get<double>();
    }
    EXPECT_GT(frame, 0.0);
    EXPECT_GE(measured, 0.9 * frame) << "the stages explain " << measured << " ms of a " << frame << " ms frame\n"
                                     << series.dump(2);
    EXPECT_LE(measured, 1.01 * frame) << "the stages overlap: " << measured << " ms of a " << frame << " ms frame";
    EXPECT_TRUE(series.contains("kernels (GPU)")) << series.dump(2);
    std::string error;
    const auto runs = readRunsJson(json, &error);
    ASSERT_TRUE(runs && runs->size() == 1u) << error;
    ASSERT_EQ(runs->front().m.stageMedianMs.size(), static_cast<size_t>(FrameStage::Count));
    EXPECT_EQ(runs->front().m.stageMedianMs.front().first, "input");
    EXPECT_EQ(runs->front().m.stageMedianMs.back().first, "render (GPU)");
  }
}

// `kernelscope *.jpg`: as with a drop of several files, the first opens and the UI says how many were left out.
TEST(App, SeveralImageFilesOpenTheFirstAndSaySo) {
  KS_NEED("gl", eglMissing());
  KS_NEED("opencl", openClMissing());
  TempDir dir("ks-app-several");
  writePng(dir / "a.png", 37, 23);
  writePng(dir / "b.png", 11, 7);
  writePng(dir / "c.png", 5, 3);
  RunResult r;
  const nlohmann::json dump = runImageLab(dir, {"a.png", "b.png", "c.png"}, r);
  ASSERT_EQ(r.exitCode, 0) << r.describe();
  ASSERT_TRUE(dump.is_object()) << "no readable --state-dump\n" << r.describe();
  EXPECT_EQ(dump.value("scene", ""), "image") << r.describe();
  ASSERT_TRUE(dump["image"].is_object()) << r.describe();
  EXPECT_EQ(dump["image"].value("path", ""), "a.png") << r.describe();
  EXPECT_EQ(dump["image"].value("width", 0), 37) << r.describe();
  EXPECT_EQ(dump["image"].value("height", 0), 23) << r.describe();
  EXPECT_TRUE(logHas(dump, "file 1 of 3 (Page Down / Page Up")) << r.describe();
  EXPECT_EQ(dump["image"]["file_set"], nlohmann::json({"a.png", "b.png", "c.png"})) << r.describe();
  EXPECT_EQ(dump["image"].value("file_index", 9), 0) << r.describe();
}

// A file that cannot be opened does not stop the start, whatever is wrong with
// it: the app runs with the built-in test image and says what is wrong.
TEST(App, ImageFileThatCannotBeOpenedStartsWithTheBuiltInImage) {
  KS_NEED("gl", eglMissing());
  KS_NEED("opencl", openClMissing());
  TempDir dir("ks-app-badimage");
  fs::create_directory(dir / "folder");
  test::writeFile(dir / "empty.png", "");
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"missing.png", "cannot open: 'missing.png' does not exist"},
      {"folder", "cannot open: 'folder' is a directory, not an image file"},
      {"empty.png", "cannot open: 'empty.png' is empty (0 bytes)"},
  };
  for (const auto& [file, message] : cases) {
    RunResult r;
    const nlohmann::json dump = runImageLab(dir, {file}, r);
    ASSERT_EQ(r.exitCode, 0) << file << "\n" << r.describe();
    ASSERT_TRUE(dump.is_object()) << "no readable --state-dump\n" << r.describe();
    EXPECT_EQ(dump.value("scene", ""), "image") << r.describe();
    ASSERT_TRUE(dump["image"].is_object()) << r.describe();
    EXPECT_EQ(dump["image"].value("path", "?"), "") << "the built-in test image\n" << r.describe();
    EXPECT_EQ(dump["image"].value("width", 0), 640) << r.describe();
    EXPECT_EQ(dump["image"].value("height", 0), 480) << r.describe();
    EXPECT_TRUE(logHas(dump, message)) << "expected '" << message << "' in the log\n" << r.describe();
    EXPECT_TRUE(contains(r.err, message)) << r.describe();
  }
}

// The first fit puts the pictures where no panel covers them: with the first-start
// layout, between the columns of panels and above the profiler. At 1280x800 the
// profiler covered the lower third of the picture before.
TEST(App, ImageLabFitsThePicturesClearOfThePanels) {
  KS_NEED("gl", eglMissing());
  KS_NEED("opencl", openClMissing());
  for (const char* size : {"1280x800", "1024x700"})
    for (const char* view : {"result", "side_by_side"}) {
      SCOPED_TRACE(std::string(size) + " " + view);
      TempDir dir("ks-app-fit");
      fs::create_directories(dir / "config");
      test::writeFile(dir / "config/settings.json",
                      R"({"version": 1, "window": {"width": 1280, "height": 800}, "image_lab": {"view": ")" +
                          std::string(view) + R"("}})");
      const fs::path dump = dir / "state.json";
      const RunResult r = runApp(
          dir, {"--headless", "--scene", "image", "--frames", "3", "--size", size, "--state-dump", dump.string()});
      ASSERT_EQ(r.exitCode, 0) << r.describe();
      // The summary says what the lab showed and that its kernel times are from the last pipeline run.
      EXPECT_TRUE(contains(r.out, "image lab: built-in test image 640x480 RGBA; pipeline runs: 1, the last: rotate "))
          << r.describe();
      EXPECT_TRUE(contains(r.out, "last kernel run: kernels ")) << r.describe();
      const nlohmann::json j = nlohmann::json::parse(test::readFile(dump), nullptr, false);
      ASSERT_TRUE(j.is_object() && j["image"].is_object() && j["panels"].is_object()) << r.describe();
      EXPECT_EQ(j["image"].value("view", ""), view);
      const nlohmann::json& pictures = j["image"]["pictures"];
      ASSERT_EQ(pictures.size(), std::string(view) == "result" ? 1u : 2u) << j.dump(1);
      ASSERT_TRUE(j["panels"].contains("Profiler") && j["panels"].contains("Image lab")) << j["panels"].dump();
      const float windowWidth = std::stof(size);
      for (const auto& p : pictures) {
        const std::vector<float> pic = p.get<std::vector<float>>();
        // Not shrunk to nothing: the free middle is about 48% of the window's width.
        EXPECT_GT((pic[2] - pic[0]) * pictures.size(), 0.3f * windowWidth) << p.dump();
        for (const auto& [name, rect] : j["panels"].items()) {
          const std::vector<float> w = rect.get<std::vector<float>>();
          EXPECT_FALSE(pic[0] < w[2] && pic[2] > w[0] && pic[1] < w[3] && pic[3] > w[1])
              << "picture " << p.dump() << " under the panel '" << name << "' " << rect.dump();
        }
      }
    }
}

// The layout a window run leaves in imgui.ini, at 1600x1000, in a next run at
// 1024x700: every panel inside the window, the scene's panel at its right edge.
// Before, the panels came back at their places in pixels: the image lab, the log and
// the interop panel out of view, the profiler over the status bar.
TEST(App, ALayoutFromABiggerWindowFitsASmallerOne) {
  KS_NEED("xvfb", xvfbMissing());
  KS_NEED("opencl", openClMissing());
  TempDir dir("ks-app-layout");
  RunOptions opts;
  opts.display = true;  // only window runs keep a layout
  opts.prefix = xvfbRunPrefix("1600x1000x24");
  const RunResult first = runApp(dir, {"--frames", "5", "--scene", "image", "--size", "1600x1000"}, opts);
  ASSERT_EQ(first.exitCode, 0) << first.describe();
  ASSERT_TRUE(fs::exists(dir / "config/imgui.ini")) << first.describe();
  const fs::path dump = dir / "state.json";
  const RunResult second =
      runApp(dir, {"--frames", "5", "--scene", "image", "--size", "1024x700", "--state-dump", dump.string()}, opts);
  ASSERT_EQ(second.exitCode, 0) << second.describe();
  const nlohmann::json j = nlohmann::json::parse(test::readFile(dump), nullptr, false);
  ASSERT_TRUE(j.is_object() && j["panels"].is_object()) << second.describe();
  ASSERT_TRUE(j["panels"].contains("Image lab") && j["panels"].contains("Histogram")) << j["panels"].dump();
  for (const auto& [name, rect] : j["panels"].items()) {
    const std::vector<float> r = rect.get<std::vector<float>>();
    EXPECT_TRUE(r[0] >= 0.0f && r[1] >= 0.0f && r[2] <= 1024.0f && r[3] <= 700.0f)
        << "'" << name << "' at " << rect.dump() << " is not inside the 1024x700 window";
  }
  EXPECT_EQ(j["panels"]["Image lab"][2].get<float>(), 1024.0f) << j["panels"].dump();
}

// Recent files are kept absolute and normalized: settings.json must name the
// same file when the app is started from another folder.
TEST(App, RecentImagesAreStoredAsAbsolutePaths) {
  KS_NEED("xvfb", xvfbMissing());
  KS_NEED("opencl", openClMissing());
  TempDir dir("ks-app-recent");
  fs::create_directories(dir / "photos/sub");
  writePng(dir / "photos/python.png", 9, 5);
  RunOptions opts;
  opts.display = true;  // only window runs write settings
  opts.prefix = xvfbRunPrefix();
  opts.workDir = dir / "photos";
  const RunResult r = runApp(dir, {"--frames", "3", "--size", "640x480", "./sub/../python.png"}, opts);
  ASSERT_EQ(r.exitCode, 0) << r.describe();
  std::string warning;
  const Settings saved = startingSettings(dir / "config/settings.json", warning);
  EXPECT_EQ(warning, "") << r.describe();
  ASSERT_FALSE(saved.recentImages.empty()) << test::readFile(dir / "config/settings.json") << r.describe();
  EXPECT_EQ(saved.recentImages.front(), (fs::absolute(dir.path()) / "photos/python.png").lexically_normal().string())
      << r.describe();
}

// A window run of the image lab under Xvfb (window runs read and write settings.json
// in dir/config); its state dump, or null.
nlohmann::json runImageLabInWindow(const TempDir& dir, int frames, RunResult& r) {
  RunOptions opts;
  opts.display = true;
  opts.prefix = xvfbRunPrefix();
  const fs::path dump = dir / "state.json";
  r = runApp(dir, {"--frames", std::to_string(frames), "--scene", "image", "--state-dump", dump.string()}, opts);
  std::error_code ec;
  if (!fs::exists(dump, ec)) return nullptr;
  return nlohmann::json::parse(test::readFile(dump), nullptr, /*allow_exceptions=*/false);
}

// The image lab's choices survive a restart: a window run starts with those in
// settings.json, runs them and writes them back at exit.
TEST(App, ImageLabChoicesAreKeptAcrossRuns) {
  KS_NEED("xvfb", xvfbMissing());
  KS_NEED("opencl", openClMissing());
  TempDir dir("ks-app-imagelab");
  fs::create_directories(dir / "config");
  test::writeFile(dir / "config/settings.json", R"({"version": 1, "window": {"width": 640, "height": 480},
      "image_lab": {"rotate_variant": "nearest", "rotate_work_group": [16, 8], "rotate_block": [1, 1],
                    "angle": 30, "transpose": true, "transpose_variant": "naive", "view": "original",
                    "log_scale": true}})");
  RunResult r;
  const nlohmann::json state = runImageLabInWindow(dir, 3, r);
  ASSERT_EQ(r.exitCode, 0) << r.describe();
  ASSERT_TRUE(state.is_object() && state["image"].is_object()) << r.describe();
  EXPECT_EQ(state["image"].value("running_rotate", ""), "nearest wg=16x8 ppi=1") << r.describe();
  const nlohmann::json& transpose = state["image"]["running_transpose"];  // null: no transpose
  EXPECT_TRUE(transpose.is_string() && transpose.get<std::string>().rfind("naive", 0) == 0) << state.dump(2);
  EXPECT_EQ(state["image"].value("angle", 0.0), 30.0) << r.describe();
  EXPECT_EQ(state["image"].value("view", ""), "original") << r.describe();

  std::string warning;
  const Settings saved = startingSettings(dir / "config/settings.json", warning);
  EXPECT_EQ(warning, "") << r.describe();
  EXPECT_EQ(saved.imageLab.rotateVariant, "nearest") << test::readFile(dir / "config/settings.json");
  EXPECT_EQ(saved.imageLab.rotateGroup, (std::array<int, 2>{16, 8}));
  EXPECT_EQ(saved.imageLab.angle, 30.0f);
  EXPECT_TRUE(saved.imageLab.transpose);
  EXPECT_EQ(saved.imageLab.transposeVariant, "naive");
  EXPECT_EQ(saved.imageLab.view, ImageLabChoices::View::Original);
  EXPECT_TRUE(saved.imageLab.logScale);
}

// Kernels nobody chose stay "the default": they follow the image and the device,
// a sweep's transpose winner in tuning.json runs, and settings.json does not pin
// whatever default happened to run (the panel used to write it in as a choice).
TEST(App, UnchosenImageKernelsStayDefaultsAndATunedTransposeRuns) {
  KS_NEED("xvfb", xvfbMissing());
  KS_NEED("opencl", openClMissing());
  const DeviceCatalog catalog = enumerateDevices();
  const DeviceDescriptor& device = catalog.devices.at(selectDevice(catalog.devices, {}).index.value());
  const TransposeConfig winner{"tiled_padded", 16, 2, 256, 32, 8};  // not the built-in default
  ASSERT_NE(describeTransposeConfig(winner), describeTransposeConfig(defaultTransposeConfig(4)));
  TempDir dir("ks-app-defaults");
  fs::create_directories(dir / "config");
  const nlohmann::json tuning = {
      {"format", "kernelscope-tuning"},
      {"version", 1},
      {"devices",
       {{device.platformName + " | " + device.name + " | " + device.driverVersion,
         {{"transpose",
           {{"4",
             {{"variant", winner.variant}, {"tile", winner.tile}, {"rows_per_item", winner.rowsPerItem},
              {"work_group", winner.workGroup}, {"work_group_x", winner.workGroupX},
              {"work_group_y", winner.workGroupY}, {"image", "RGBA 640x480"}, {"gbps", 1.0},
              {"time", "2026-11-25T00:00:00Z"}}}}}}}}}};
  test::writeFile(dir / "config/tuning.json", tuning.dump(2));
  test::writeFile(dir / "config/settings.json",
                  R"({"version": 1, "window": {"width": 640, "height": 480}, "image_lab": {"transpose": true}})");
  RunResult r;
  const nlohmann::json state = runImageLabInWindow(dir, 4, r);
  ASSERT_EQ(r.exitCode, 0) << r.describe();
  ASSERT_TRUE(state.is_object() && state["image"].is_object()) << r.describe();
  EXPECT_EQ(state["image"]["running_transpose"], describeTransposeConfig(winner)) << state.dump(2);

  std::string warning;
  const Settings saved = startingSettings(dir / "config/settings.json", warning);
  EXPECT_EQ(warning, "") << r.describe();
  EXPECT_TRUE(saved.imageLab.transpose);
  EXPECT_EQ(saved.imageLab.rotateVariant, "") << test::readFile(dir / "config/settings.json");
  EXPECT_EQ(saved.imageLab.transposeVariant, "") << test::readFile(dir / "config/settings.json");
  EXPECT_EQ(saved.imageLab.histogramVariant, "") << test::readFile(dir / "config/settings.json");
}

// The image batch runs the device's rotate and histogram winners from tuning.json
// when no variant is named, as it does the transpose's (issue 21, item 2).
TEST(App, ImageBatchRunsTheTunedRotationAndHistogram) {
  KS_NEED("opencl", openClMissing());
  const DeviceCatalog catalog = enumerateDevices();
  const DeviceDescriptor& device = catalog.devices.at(selectDevice(catalog.devices, {}).index.value());
  RotateConfig rotate;
  rotate.variant = "nearest";
  rotate.workGroupX = 16;
  rotate.workGroupY = 4;
  rotate.pixelsPerItem = 1;
  HistogramConfig histogram = defaultHistogramConfig(4);
  histogram.variant = "local_atomic";
  histogram.workGroup = 64;
  histogram.copies = 1;
  histogram.groupsPerComputeUnit = 1;
  ASSERT_NE(describeRotateConfig(rotate), describeRotateConfig(defaultRotateConfig(4, device)));
  ASSERT_NE(describeHistogramConfig(histogram), describeHistogramConfig(defaultHistogramConfig(4, device)));
  TempDir dir("ks-app-batch-tuned");
  fs::create_directories(dir / "config");
  TuningCache cache;
  cache.devices[tuningKey(device)].rotate[4] = TunedRotate{rotate, "64x48 RGBA", 1.0, "2026-11-26T23:00:00Z"};
  cache.devices[tuningKey(device)].histogram[4] = TunedHistogram{histogram, "64x48 RGBA", 1.0, "2026-11-26T23:00:00Z"};
  ASSERT_EQ(saveTuningCache(cache, dir / "config/tuning.json"), "");
  writeRandomPng(dir / "in.png", 64, 48, 4, 7);
  RunOptions options;
  options.workDir = dir.path();
  const RunResult r = runApp(dir, {"--angle", "30", "--histogram-out", "out-%s.json", "in.png"}, options);
  ASSERT_EQ(r.exitCode, 0) << r.describe();
  EXPECT_TRUE(contains(r.out, describeRotateConfig(rotate))) << r.describe();
  EXPECT_TRUE(contains(r.out, describeHistogramConfig(histogram))) << r.describe();
}

// ---- g. pattern.cl does not compile --------------------------------------------------------

// A kernels dir whose pattern.cl has an undeclared name in the julia kernel.
// A copy of kernels/ in which `file` no longer compiles (an undeclared identifier
// right after `anchor`).
fs::path brokenKernelsDir(const TempDir& dir, const std::string& file, const std::string& anchor) {
  const fs::path kernels = dir / "kernels";
  fs::create_directories(kernels);
  for (const auto& entry : fs::directory_iterator(KERNELSCOPE_SOURCE_KERNELS_DIR))
    fs::copy_file(entry.path(), kernels / entry.path().filename());
  std::string source = test::readFile(kernels / file);
  const size_t at = source.find(anchor);
  if (at == std::string::npos) return {};
  source.insert(at + anchor.size(), "\n  const int broken = ks_corrupted_identifier;");
  test::writeFile(kernels / file, source);
  return kernels;
}

void expectBuildFailureExit(const std::string& scene, const std::string& file, const std::string& anchor) {
  TempDir dir("ks-app-brokenkernel");
  const fs::path kernels = brokenKernelsDir(dir, file, anchor);
  ASSERT_FALSE(kernels.empty()) << file << " changed; update the anchor";
  const RunResult r =
      runApp(dir, {"--headless", "--frames", "5", "--scene", scene, "--kernels-dir", kernels.string()});
  EXPECT_EQ(r.exitCode, 7) << r.describe();
  EXPECT_TRUE(contains(r.err, "CL_BUILD_PROGRAM_FAILURE")) << r.describe();
  EXPECT_TRUE(contains(r.err, "ks_corrupted_identifier")) << "the build log is not in the message\n" << r.describe();
  EXPECT_TRUE(contains(r.err, file)) << r.describe();
  EXPECT_TRUE(contains(r.err, "cannot start on")) << r.describe();
  EXPECT_EQ(r.out, "") << "no summary for a run that never started\n" << r.describe();
}

TEST(App, BrokenNBodyKernelExits7WithTheBuildLog) {
  KS_NEED("gl", eglMissing());
  KS_NEED("opencl", openClMissing());
  expectBuildFailureExit("nbody", "nbody.cl", "const int i = firstBody + get_global_id(0);");
}

TEST(App, BrokenPatternKernelExits7WithTheBuildLog) {
  KS_NEED("gl", eglMissing());
  KS_NEED("opencl", openClMissing());
  expectBuildFailureExit("julia", "pattern.cl", "const int y = get_global_id(1);");
}

// ---- exit codes pinned before ks::Error (issue 21): the codes these runs leave with
// must not change when the error classes get one base -------------------------------

TEST(App, KernelsDirWithoutKernelsOrNotAFolderExits6) {
  KS_NEED("gl", eglMissing());
  KS_NEED("opencl", openClMissing());
  TempDir dir("ks-app-emptykernels");
  fs::create_directories(dir / "empty");
  const RunResult empty = runApp(dir, {"--headless", "--frames", "5", "--kernels-dir", (dir / "empty").string()});
  EXPECT_EQ(empty.exitCode, 6) << empty.describe();
  EXPECT_TRUE(contains(empty.err, "cannot read kernel file")) << empty.describe();
  test::writeFile(dir / "a-file", "");
  const RunResult file = runApp(dir, {"--headless", "--frames", "5", "--kernels-dir", (dir / "a-file").string()});
  EXPECT_EQ(file.exitCode, 6) << file.describe();
  EXPECT_TRUE(contains(file.err, "does not exist")) << file.describe();
}

TEST(App, ImageBatchOfOneBadFileExits1) {
  KS_NEED("opencl", openClMissing());
  TempDir dir("ks-app-batch-onebad");
  test::writeFile(dir / "notes.png", "this is text, not a picture\n");
  RunOptions options;
  options.workDir = dir.path();
  const RunResult r = runApp(dir, {"--angle", "45", "--save-result", "%s-out.png", "notes.png"}, options);
  EXPECT_EQ(r.exitCode, 1) << r.describe();
  EXPECT_TRUE(contains(r.err, "kernelscope: error: cannot open: 'notes.png'")) << r.describe();
}

TEST(App, VerifyOfAConfigurationTheDeviceRefusesExits2) {
  KS_NEED("opencl", openClMissing());
  TempDir dir("ks-app-verify-badwg");
  const RunResult r = runApp(dir, {"--verify", "--n", "10", "--wg", "48"});
  EXPECT_EQ(r.exitCode, 2) << r.describe();
  EXPECT_TRUE(contains(r.err, "kernelscope: error: ")) << r.describe();
  EXPECT_TRUE(contains(r.err, "not a multiple of 32")) << r.describe();
}

TEST(App, VerifyWithABrokenKernelExits7WithTheBuildLog) {
  KS_NEED("opencl", openClMissing());
  TempDir dir("ks-app-verify-broken");
  const fs::path kernels = brokenKernelsDir(dir, "nbody.cl", "const int i = firstBody + get_global_id(0);");
  ASSERT_FALSE(kernels.empty()) << "nbody.cl changed; update the anchor";
  const RunResult r = runApp(dir, {"--verify", "--n", "10", "--kernels-dir", kernels.string()});
  EXPECT_EQ(r.exitCode, 7) << r.describe();
  EXPECT_TRUE(contains(r.err, "build log:\n")) << r.describe();
  EXPECT_TRUE(contains(r.err, "ks_corrupted_identifier")) << r.describe();
}

// ---- h. --device matching nothing ---------------------------------------------------------

TEST(App, UnknownDeviceExits4AndListsDevices) {
  KS_NEED("gl", eglMissing());
  KS_NEED("opencl", openClMissing());
  TempDir dir("ks-app-nodevice");
  const RunResult r = runApp(dir, {"--headless", "--frames", "5", "--device", "no-such-device-xyz"});
  EXPECT_EQ(r.exitCode, 4) << r.describe();
  EXPECT_TRUE(contains(r.err, "no-such-device-xyz")) << r.describe();
  EXPECT_TRUE(contains(r.err, "available:")) << r.describe();
  EXPECT_TRUE(contains(r.err, "[0] platform 0 device 0: ")) << r.describe();
  // the same list --list-devices prints
  const RunResult list = runApp(dir, {"--list-devices"});
  ASSERT_EQ(list.exitCode, 0) << list.describe();
  EXPECT_TRUE(contains(r.err, list.out)) << "--list-devices:\n" << list.out << r.describe();
}

// ---- more: explicit device choice, damaged settings ----------------------------------

TEST(App, ExplicitPlatformAndDeviceIndex) {
  KS_NEED("gl", eglMissing());
  KS_NEED("opencl", openClMissing());
  TempDir dir("ks-app-device0");
  const RunResult r = runApp(dir, {"--headless", "--frames", "2", "--platform", "0", "--device", "0"});
  ASSERT_EQ(r.exitCode, 0) << r.describe();
  EXPECT_TRUE(contains(r.err, "(matches the request)")) << r.describe();
  EXPECT_TRUE(contains(r.out, "frames:    2 in")) << r.describe();
}

// The N-body lab's choices survive a restart: a window run writes them at exit, the
// next window run with the same --config-dir starts with them (and writes them back),
// and N-body options on the command line win over them.
TEST(App, NBodyChoicesAreKeptAcrossRuns) {
  KS_NEED("xvfb", xvfbMissing());
  KS_NEED("opencl", openClMissing());
  TempDir dir("ks-app-nbodychoices");
  RunOptions opts;
  opts.display = true;
  opts.prefix = xvfbRunPrefix();
  const fs::path file = dir / "config/settings.json";
  const fs::path dump = dir / "state.json";
  auto windowRun = [&](std::vector<std::string> args) {
    for (const char* a : {"--frames", "3", "--size", "640x480", "--state-dump"}) args.emplace_back(a);
    args.push_back(dump.string());
    return runApp(dir, args, opts);
  };
  // 1. Choices from the command line, as a user's changes.
  RunResult r = windowRun({"--n", "1000", "--preset", "shell", "--seed", "7", "--variant", "tiled", "--wg", "64",
                           "--unroll", "4", "--particle-drawing", "sprites"});
  ASSERT_EQ(r.exitCode, 0) << r.describe();
  // ... and in the panel: the steps per frame, the drawing and the check's interval.
  nlohmann::json written = nlohmann::json::parse(test::readFile(file));
  ASSERT_TRUE(written["nbody"].is_object()) << written.dump(2);
  written["nbody"]["steps_per_frame"] = 3;
  written["nbody"]["style"]["brightness"] = 0.37;
  written["nbody"]["style"]["point_size"] = 5.5;
  written["nbody"]["style"]["color_map"] = 2;
  written["nbody"]["conservation"]["every_steps"] = 20;
  test::writeFile(file, written.dump(2));

  // 2. Started again without N-body options: the same lab.
  r = windowRun({});
  ASSERT_EQ(r.exitCode, 0) << r.describe();
  nlohmann::json state = nlohmann::json::parse(test::readFile(dump), nullptr, false);
  ASSERT_TRUE(state.is_object() && state["nbody"].is_object()) << r.describe();
  EXPECT_EQ(state["nbody"].value("bodies", 0), 1000) << state.dump(2);
  EXPECT_EQ(state["nbody"].value("config", ""), "tiled wg=64 unroll=4 fp32 native_rsqrt") << state.dump(2);
  std::string warning;
  Settings saved = startingSettings(file, warning);
  EXPECT_EQ(warning, "") << r.describe();
  ASSERT_TRUE(saved.nbody.has_value()) << test::readFile(file);
  EXPECT_EQ(saved.nbody->bodies, 1000);
  EXPECT_EQ(saved.nbody->preset, NBodyPreset::SphereShell);
  EXPECT_EQ(saved.nbody->seed, 7);
  EXPECT_TRUE(saved.nbody->configFromUser);
  EXPECT_EQ(describeNBodyConfig(saved.nbody->config), "tiled wg=64 unroll=4 fp32 native_rsqrt");
  EXPECT_EQ(saved.nbody->style.drawing, ParticleDrawing::PointSprites);
  // Not the preset's: what the file said.
  EXPECT_EQ(saved.nbody->stepsPerFrame, 3) << test::readFile(file);
  EXPECT_EQ(saved.nbody->style.brightness, 0.37f) << test::readFile(file);
  EXPECT_EQ(saved.nbody->style.pointSize, 5.5f);
  EXPECT_EQ(saved.nbody->style.colorMap, 2);
  EXPECT_EQ(saved.nbody->conservation.everySteps, 20);

  // 3. The command line wins over the file; what it does not name stays as saved.
  r = windowRun({"--n", "512", "--preset", "cube", "--wg", "128"});
  ASSERT_EQ(r.exitCode, 0) << r.describe();
  state = nlohmann::json::parse(test::readFile(dump), nullptr, false);
  ASSERT_TRUE(state.is_object() && state["nbody"].is_object()) << r.describe();
  EXPECT_EQ(state["nbody"].value("bodies", 0), 512) << state.dump(2);
  EXPECT_NE(state["nbody"].value("config", "").find("wg=128"), std::string::npos) << state.dump(2);
  saved = startingSettings(file, warning);
  ASSERT_TRUE(saved.nbody.has_value()) << test::readFile(file);
  EXPECT_EQ(saved.nbody->preset, NBodyPreset::RandomCube);
  EXPECT_EQ(saved.nbody->seed, 7);
  EXPECT_EQ(saved.nbody->style.pointSize, 5.5f);
}

// A bad value in the N-body section is said in the log and costs only that value.
TEST(App, ABadNBodySettingIsReportedAndTheRunGoesOn) {
  KS_NEED("gl", eglMissing());
  KS_NEED("opencl", openClMissing());
  TempDir dir("ks-app-badnbody");
  fs::create_directories(dir / "config");
  test::writeFile(dir / "config/settings.json",
                  R"({"version": 1, "window": {"width": 640, "height": 480},
                      "nbody": {"bodies": 700, "style": {"color_map": 9}, "config": {"variant": "warp_drive"}}})");
  const fs::path dump = dir / "state.json";
  const RunResult r = runApp(dir, {"--headless", "--frames", "2", "--state-dump", dump.string()});
  ASSERT_EQ(r.exitCode, 0) << r.describe();
  EXPECT_TRUE(contains(r.err, "N-body choices: style 'color_map' 9: out of range (0 to 2); using the default"))
      << r.describe();
  EXPECT_TRUE(contains(r.err, "no variant 'warp_drive' in this kernelscope")) << r.describe();
  const nlohmann::json state = nlohmann::json::parse(test::readFile(dump), nullptr, false);
  ASSERT_TRUE(state.is_object() && state["nbody"].is_object()) << r.describe();
  EXPECT_EQ(state["nbody"].value("bodies", 0), 700) << state.dump(2);
}

TEST(App, CorruptSettingsWarnAndRunOn) {
  KS_NEED("gl", eglMissing());
  KS_NEED("opencl", openClMissing());
  TempDir dir("ks-app-badsettings");
  fs::create_directories(dir / "config");
  test::writeFile(dir / "config/settings.json", "{ this is not json");
  const RunResult r = runApp(dir, {"--headless", "--frames", "2"});
  ASSERT_EQ(r.exitCode, 0) << r.describe();
  EXPECT_TRUE(contains(r.err, "warning: ignoring settings file")) << r.describe();
  // headless: the damaged file is left as it was
  EXPECT_TRUE(contains(r.err, "headless runs leave it as it is")) << r.describe();
  EXPECT_EQ(test::readFile(dir / "config/settings.json"), "{ this is not json");
}

// A window run replaces a damaged or out-of-date settings file with a good one.
TEST(App, DamagedOrOldSettingsAreRewrittenByAWindowRun) {
  KS_NEED("xvfb", xvfbMissing());
  KS_NEED("opencl", openClMissing());
  RunOptions opts;
  opts.display = true;
  opts.prefix = xvfbRunPrefix();
  const std::vector<std::pair<std::string, std::string>> files = {
      {"{ \"version\": 1, \"window\": ", "parse error"},                    // truncated
      {R"({"window": {"width": 900, "height": 700}})", "version missing"},      // before versions
      {R"({"version": 0, "window": {"width": 900}})", "settings version 0"},    // older
      {R"({"version": 99, "vsync": false})", "settings version 99"},            // newer
      {R"([1, 2, 3])", "not a JSON object"},
  };
  for (const auto& [text, reason] : files) {
    TempDir dir("ks-app-oldsettings");
    fs::create_directories(dir / "config");
    test::writeFile(dir / "config/settings.json", text);
    const RunResult r = runApp(dir, {"--frames", "3", "--size", "640x480", "--scene", "julia"}, opts);
    ASSERT_EQ(r.exitCode, 0) << text << "\n" << r.describe();
    EXPECT_TRUE(contains(r.err, "warning: ignoring settings file")) << text << "\n" << r.describe();
    EXPECT_TRUE(contains(r.err, reason)) << text << "\n" << r.describe();
    EXPECT_TRUE(contains(r.err, "it will be rewritten at exit")) << text << "\n" << r.describe();
    std::string warning;
    const Settings saved = startingSettings(dir / "config/settings.json", warning);
    EXPECT_EQ(warning, "") << text << ": the file was not rewritten\n" << test::readFile(dir / "config/settings.json");
    EXPECT_EQ(saved.windowWidth, 640) << text;
  }
}

// ---- interop and N-body from the command line ------------------------------------

TEST(App, ForcedGlSharingFallsBackWithAReason) {
  KS_NEED("gl", eglMissing());
  KS_NEED("opencl", openClMissing());
  TempDir dir("ks-app-interop");
  const RunResult r = runApp(dir, {"--headless", "--frames", "3", "--n", "64", "--interop", "gl-sharing"});
  ASSERT_EQ(r.exitCode, 0) << r.describe();
  EXPECT_TRUE(contains(r.err, "gl-sharing is not available: ")) << r.describe();
  EXPECT_TRUE(contains(r.out, "interop:   ")) << r.describe();
  EXPECT_FALSE(contains(r.out, "interop:   gl-sharing")) << r.describe();
}

TEST(App, NBodyBenchmarkPrintsRates) {
  KS_NEED("opencl", openClMissing());
  TempDir dir("ks-app-bench");
  const RunResult r = runApp(dir, {"--bench", "nbody", "--n", "300", "--iterations", "3"});
  ASSERT_EQ(r.exitCode, 0) << r.describe();
  EXPECT_TRUE(contains(r.out, "300 bodies, total time for 3 iterations: ")) << r.describe();
  EXPECT_TRUE(contains(r.out, "billion interactions per second")) << r.describe();
  EXPECT_TRUE(contains(r.out, "single-precision GFLOP/s at 20 flops per interaction")) << r.describe();
}

// --bench nbody --devices (issue 24) over PoCL's CPU driver listed twice: the
// figures of --bench nbody, each device's, and the same final positions as one
// device (the file --positions-out writes from a plain --bench nbody); a device
// list naming a missing device is a usage error that says which.
TEST(App, NBodyBenchmarkSplitOverDevicesMatchesOneDevice) {
  KS_NEED("opencl", openClMissing());
  TempDir dir("ks-app-split");
  RunOptions twoDevices;
  twoDevices.setEnv = {"POCL_DEVICES=pthread pthread"};
  const std::vector<std::string> common = {"--bench", "nbody", "--platform", "portable", "--n", "1100",
                                           "--iterations", "3", "--variant", "blocked", "--wg", "64"};
  auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> args = common;
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
  };
  const fs::path one = dir / "one.bin", split = dir / "split.bin", json = dir / "split.json";
  const RunResult single = runApp(dir, with({"--positions-out", one.string()}), twoDevices);
  ASSERT_EQ(single.exitCode, 0) << single.describe();
  const RunResult r =
      runApp(dir, with({"--devices", "all", "--positions-out", split.string(), "--json", json.string()}), twoDevices);
  if (contains(r.err, "which has 1 device"))
    KS_NEED("opencl", "PoCL did not list two devices for POCL_DEVICES='pthread pthread': " + r.err);
  ASSERT_EQ(r.exitCode, 0) << r.describe();
  for (const char* line : {"1100 bodies, total time for 3 iterations: ", "billion interactions per second",
                           "single-precision GFLOP/s at 20 flops per interaction", "device 0 ", "device 1 ",
                           "exchange: ", "load balance: ", "parallel efficiency ",
                           "final positions: the same as one device's, bit for bit"})
    EXPECT_TRUE(contains(r.out, line)) << line << "\n" << r.describe();
  EXPECT_EQ(test::readFile(one), test::readFile(split)) << "the split's final state differs from one device's";
  std::string error;
  const auto runs = readRunsJson(json, &error);
  ASSERT_TRUE(runs) << error;
  ASSERT_EQ(runs->size(), 2u) << "one device alone, then the split";
  EXPECT_EQ(runs->at(0).m.split.devices, 1);
  EXPECT_EQ(runs->at(1).m.split.devices, 2);
  EXPECT_EQ(runs->at(1).m.split.deviceKernelMs.size(), 2u);
  EXPECT_GT(runs->at(1).m.split.parallelEfficiency, 0.0);

  const RunResult missing = runApp(dir, with({"--devices", "0,7"}), twoDevices);
  EXPECT_EQ(missing.exitCode, 2) << missing.describe();
  EXPECT_TRUE(contains(missing.err, "--devices: there is no device 7 on platform")) << missing.describe();
  const RunResult bad = runApp(dir, with({"--devices", "first"}), twoDevices);
  EXPECT_EQ(bad.exitCode, 2) << bad.describe();
  EXPECT_TRUE(contains(bad.err, "'first' is not a device list")) << bad.describe();
}

// --scaling: one row per device count (1, 2) against one device alone, each a run
// in the JSON with its device count; without --devices it is a usage error.
TEST(App, NBodyScalingPrintsSpeedUpAndEfficiencyPerDeviceCount) {
  KS_NEED("opencl", openClMissing());
  TempDir dir("ks-app-scaling");
  RunOptions twoDevices;
  twoDevices.setEnv = {"POCL_DEVICES=pthread pthread"};
  const fs::path json = dir / "scaling.json";
  const RunResult r = runApp(dir,
                             {"--bench", "nbody", "--platform", "portable", "--n", "1024", "--iterations", "2",
                              "--devices", "0,1", "--scaling", "--json", json.string()},
                             twoDevices);
  if (contains(r.err, "which has 1 device"))
    KS_NEED("opencl", "PoCL did not list two devices for POCL_DEVICES='pthread pthread': " + r.err);
  ASSERT_EQ(r.exitCode, 0) << r.describe();
  EXPECT_TRUE(contains(r.out, "strong scaling, 1024 bodies: one device alone ")) << r.describe();
  EXPECT_TRUE(std::regex_search(r.out, std::regex("\\n +1 +[0-9.]+ +[0-9.]+ +[0-9.]+x +[0-9.]+ %"))) << r.describe();
  EXPECT_TRUE(std::regex_search(r.out, std::regex("\\n +2 +[0-9.]+ +[0-9.]+ +[0-9.]+x +[0-9.]+ %"))) << r.describe();
  std::string error;
  const auto runs = readRunsJson(json, &error);
  ASSERT_TRUE(runs) << error;
  ASSERT_EQ(runs->size(), 3u) << "one device alone, then 1 and 2 devices";
  EXPECT_EQ(runs->at(1).m.split.devices, 1);
  EXPECT_EQ(runs->at(2).m.split.devices, 2);
  EXPECT_GT(runs->at(2).m.split.parallelEfficiency, 0.0);
  const RunResult alone = runApp(dir, {"--bench", "nbody", "--scaling"});
  EXPECT_EQ(alone.exitCode, 2) << alone.describe();
  EXPECT_TRUE(contains(alone.err, "--scaling: with --bench nbody --devices")) << alone.describe();
}

// The viewer with --devices (issue 24), headless over PoCL's CPU driver listed
// twice: the summary has each device's kernel time, a recording is a run on two
// devices; a device list that names a missing device, or is no list, exits 2
// with a message, before any frame.
TEST(App, HeadlessViewerSplitsTheNBodyStepOverDevices) {
  KS_NEED("opencl", openClMissing());
  KS_NEED("gl", eglMissing());
  TempDir dir("ks-app-viewer-split");
  RunOptions twoDevices;
  twoDevices.setEnv = {"POCL_DEVICES=pthread pthread"};
  const fs::path json = dir / "runs.json";
  const std::vector<std::string> common = {"--headless", "--platform", "portable", "--n", "1100", "--size", "320x240"};
  auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> args = common;
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
  };
  const RunResult r = runApp(dir, with({"--devices", "all", "--record", "3", "--warmup", "1", "--json", json.string()}),
                             twoDevices);
  if (contains(r.err, "which has 1 device"))
    KS_NEED("opencl", "PoCL did not list two devices for POCL_DEVICES='pthread pthread': " + r.err);
  ASSERT_EQ(r.exitCode, 0) << r.describe();
  for (const char* line : {"the N-body step is split over 2 devices", "split:     2 devices", "split device 0: ",
                           "split device 1: ", "kernel ", "recording: "})
    EXPECT_TRUE(contains(r.out + r.err, line)) << line << "\n" << r.describe();
  std::string error;
  const auto runs = readRunsJson(json, &error);
  ASSERT_TRUE(runs) << error;
  ASSERT_EQ(runs->size(), 1u);
  EXPECT_EQ(runs->at(0).m.split.devices, 2);
  EXPECT_EQ(runs->at(0).m.split.deviceKernelMs.size(), 2u);

  const RunResult missing = runApp(dir, with({"--devices", "0,7", "--frames", "2"}), twoDevices);
  EXPECT_EQ(missing.exitCode, 2) << missing.describe();
  EXPECT_TRUE(contains(missing.err, "--devices: there is no device 7 on platform")) << missing.describe();
  const RunResult bad = runApp(dir, with({"--devices", "0;1", "--frames", "2"}), twoDevices);
  EXPECT_EQ(bad.exitCode, 2) << bad.describe();
  EXPECT_TRUE(contains(bad.err, "'0;1' is not a device list")) << bad.describe();
}

// Every combination of the lists is a row: the ones that ran with their
// measurements, the refused ones with the reason; the JSON holds the same runs.
TEST(App, NBodySweepWritesACompleteCsvAndJson) {
  KS_NEED("opencl", openClMissing());
  TempDir dir("ks-app-sweep");
  const fs::path csv = dir / "sweep.csv", json = dir / "sweep.json";
  const RunResult r = runApp(dir, {"--sweep", "--variant", "naive,tiled", "--wg", "32,64", "--unroll", "1,4", "--n",
                                   "100", "--iterations", "2", "--csv", csv.string(), "--json", json.string()});
  ASSERT_EQ(r.exitCode, 0) << r.describe();
  std::string error;
  const auto runs = runsFromCsv(test::readFile(csv));
  ASSERT_TRUE(runs) << runs.error().what();
  ASSERT_EQ(runs->size(), 8u) << "2 variants x 2 groups x 2 unrolls";
  std::set<std::string> ran;
  int refused = 0;
  for (const RunRecord& run : *runs) {
    EXPECT_EQ(run.meta.scene, "nbody");
    EXPECT_FALSE(run.meta.device.empty());
    EXPECT_EQ(run.meta.parameter("bodies"), "100");
    if (run.ok()) {
      ran.insert(run.meta.parameter("variant") + "/" + run.meta.parameter("work_group") + "/" +
                 run.meta.parameter("unroll"));
      EXPECT_EQ(run.m.kernelMs.count, 2u) << run.name;
      EXPECT_GT(run.m.kernelMs.median, 0.0) << run.name;
      EXPECT_GT(run.m.rate, 0.0) << run.name;
      EXPECT_EQ(run.m.rateUnit, "GFLOP/s");
      EXPECT_EQ(run.meta.sourceHash.size(), 16u);
    } else {
      ++refused;
      EXPECT_EQ(run.meta.parameter("variant"), "naive") << run.status;
      EXPECT_EQ(run.meta.parameter("unroll"), "4") << run.status;
      EXPECT_TRUE(contains(run.status, "not offered by the naive variant")) << run.status;
    }
  }
  EXPECT_EQ(ran, (std::set<std::string>{"naive/32/1", "naive/64/1", "tiled/32/1", "tiled/32/4", "tiled/64/1",
                                        "tiled/64/4"}));
  EXPECT_EQ(refused, 2) << "naive has no unroll 4";
  // Every row, refused ones too, carries the device's ceilings, now cached in the config dir.
  for (const RunRecord& run : *runs) EXPECT_GT(run.meta.ceilings[static_cast<size_t>(Ceiling::Fp32Mad)], 0.0) << run.name;
  EXPECT_TRUE(fs::exists(dir / "config" / "ceilings.json"));
  EXPECT_TRUE(contains(r.out, "best: ")) << r.describe();
  const auto fromJson = readRunsJson(json, &error);
  ASSERT_TRUE(fromJson) << error;
  EXPECT_EQ(fromJson->size(), runs->size());
}

TEST(App, TransposeSweepWritesACompleteCsv) {
  KS_NEED("opencl", openClMissing());
  TempDir dir("ks-app-transpose-sweep");
  const fs::path csv = dir / "transpose.csv";
  const RunResult r = runApp(dir, {"--bench", "transpose", "--transpose-variant", "naive,tiled_padded", "--tile",
                                   "8,64", "--rows-per-item", "2", "--naive-wg", "16x16,4096x4", "--image-size", "40x24",
                                   "--channels", "1,4", "--iterations", "2", "--csv", csv.string()});
  ASSERT_EQ(r.exitCode, 0) << r.describe();
  const auto runs = runsFromCsv(test::readFile(csv));
  ASSERT_TRUE(runs) << runs.error().what();
  // per channel count: naive 16x16 (runs), naive 4096x4 (refused: 16384 work-items), tiled_padded T=8 r=2 (runs), T=64 (refused)
  ASSERT_EQ(runs->size(), 8u) << test::readFile(csv);
  int ok = 0;
  for (const RunRecord& run : *runs) {
    EXPECT_EQ(run.meta.scene, "transpose");
    if (run.ok()) {
      ++ok;
      EXPECT_GT(run.m.rate, 0.0) << run.name;
      EXPECT_EQ(run.m.rateUnit, "GB/s");
    } else {
      EXPECT_TRUE(run.meta.parameter("work_group") == "4096x4" || run.meta.parameter("tile") == "64") << run.status;
    }
  }
  EXPECT_EQ(ok, 4);
  EXPECT_TRUE(contains(r.out, "best: transpose ")) << r.describe();
}

TEST(App, RecordWritesRunsThatImportBack) {
  KS_NEED("gl", eglMissing());
  KS_NEED("opencl", openClMissing());
  TempDir dir("ks-app-record");
  const fs::path json = dir / "rec.json", csv = dir / "rec.csv";
  const RunResult r = runApp(dir, {"--headless", "--n", "128", "--record", "4", "--warmup", "2", "--json",
                                   json.string(), "--csv", csv.string()});
  ASSERT_EQ(r.exitCode, 0) << r.describe();
  EXPECT_TRUE(contains(r.out, "frames:    7 in")) << "1 + 2 warm-up + 4 recorded\n" << r.describe();
  std::string error;
  const auto runs = readRunsJson(json, &error);
  ASSERT_TRUE(runs) << error;
  ASSERT_EQ(runs->size(), 1u);
  const RunRecord& run = runs->front();
  EXPECT_EQ(run.m.frames, 4u);
  EXPECT_EQ(run.m.frameMs.count, 4u);
  EXPECT_GT(run.m.fps, 0.0);
  EXPECT_GT(run.m.kernelMs.median, 0.0);
  EXPECT_EQ(run.meta.scene, "nbody");
  EXPECT_EQ(run.meta.parameter("bodies"), "128");
  EXPECT_FALSE(run.meta.interop.empty());
  EXPECT_FALSE(run.meta.version.empty());
  // The device's measured ceilings (a headless run measures them before its first frame).
  EXPECT_GT(run.meta.ceilings[static_cast<size_t>(Ceiling::Copy)], 0.0);
  EXPECT_GT(run.meta.ceilings[static_cast<size_t>(Ceiling::Fp32Mad)], 0.0);
  const auto fromCsv = runsFromCsv(test::readFile(csv));
  ASSERT_TRUE(fromCsv) << fromCsv.error().what();
  EXPECT_EQ(fromCsv->size(), 1u);
  EXPECT_EQ(fromCsv->front().meta.ceilings, run.meta.ceilings);
}

// `--bench ceilings`: every figure with its unit and how it was measured.
TEST(App, BenchCeilingsPrintsEveryFigureWithItsMethod) {
  KS_NEED("opencl", openClMissing());
  TempDir dir("ks-app-ceilings");
  const RunResult r = runApp(dir, {"--bench", "ceilings"});
  ASSERT_EQ(r.exitCode, 0) << r.describe();
  int methods = 0;
  for (size_t at = 0; (at = r.out.find("    method: ", at)) != std::string::npos; ++at) ++methods;
  for (size_t i = 0; i < kCeilingCount; ++i) {
    const CeilingName& name = ceilingName(ceilingAt(i));
    const std::regex line(std::string("\\n") + std::regex_replace(name.label, std::regex(R"([()])"), R"(\$&)") +
                          R"( +([0-9.]+ )" + name.unit + R"(|- \(not available: no fp64))");
    EXPECT_TRUE(std::regex_search(r.out, line)) << name.label << "\n" << r.describe();
  }
  EXPECT_GE(methods, static_cast<int>(kCeilingCount) - 1) << r.describe();
  EXPECT_TRUE(contains(r.out, "vendor table peak FP32 (cross-check)")) << r.describe();

  // Kept for the device: `--bench nbody` then says which measured ceiling binds its kernel
  // (before, it could only say to measure them).
  EXPECT_TRUE(fs::exists(dir / "config/ceilings.json")) << r.describe();
  const RunResult nbody =
      runApp(dir, {"--bench", "nbody", "--n", "512", "--iterations", "3", "--json", (dir / "nbody.json").string()});
  ASSERT_EQ(nbody.exitCode, 0) << nbody.describe();
  EXPECT_TRUE(std::regex_search(nbody.out, std::regex(R"(= bound by [A-Za-z0-9_ ]+: [0-9]+ % of the measured ceiling)")))
      << nbody.describe();
  // ... and its run record says so too.
  const auto runs = nlohmann::json::parse(test::readFile(dir / "nbody.json")).at("runs");
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_TRUE(std::regex_match(runs[0].at("measurements").value("bound", ""),
                               std::regex(R"(n-body step: [A-Za-z0-9_ ]+: [0-9]+ %)")))
      << runs[0].dump();
}

// `--bench rotate` (issue 21, item 1): refused blocks listed with the reason, the
// others measured; the CSV's parameter columns are the rotate descriptor's names.
TEST(App, RotateSweepWritesACompleteCsv) {
  KS_NEED("opencl", openClMissing());
  TempDir dir("ks-app-rotate-sweep");
  const fs::path csv = dir / "rotate.csv";
  const RunResult r = runApp(dir, {"--bench", "rotate", "--rotate-variant", "nearest,bilinear", "--rotate-wg",
                                   "16x16,4096x4", "--pixels-per-item", "4,3", "--image-size", "40x24", "--channels",
                                   "1", "--iterations", "2", "--csv", csv.string()});
  ASSERT_EQ(r.exitCode, 0) << r.describe();
  EXPECT_NE(r.out.find("best: rotate "), std::string::npos) << r.out;
  const std::string text = test::readFile(csv);
  for (const char* column : {"param:variant", "param:work_group_x", "param:work_group_y", "param:pixels_per_item",
                             "param:rows_per_item"})
    EXPECT_NE(text.find(column), std::string::npos) << column;
  const auto runs = runsFromCsv(text);
  ASSERT_TRUE(runs) << runs.error().what();
  // per variant: 16x16 ppi 4 (runs), 16x16 ppi 3 (not offered), 4096x4 ppi 4 and 3 (16384 work-items)
  ASSERT_EQ(runs->size(), 8u) << text;
  int ok = 0;
  for (const RunRecord& run : *runs) {
    EXPECT_EQ(run.meta.scene, "rotate");
    if (run.ok()) {
      ++ok;
      EXPECT_GT(run.m.rate, 0.0) << run.name;
      EXPECT_EQ(run.meta.parameter("pixels_per_item"), "4");
      EXPECT_EQ(run.meta.parameter("work_group_x"), "16");
    } else {
      EXPECT_TRUE(run.meta.parameter("work_group_x") == "4096" || run.meta.parameter("pixels_per_item") == "3")
          << run.status;
      EXPECT_EQ(run.status.rfind("refused: ", 0), 0u) << run.status;
    }
  }
  EXPECT_EQ(ok, 2);
}

// `--bench histogram`: work-groups a variant does not offer refused with the reason, the others measured.
TEST(App, HistogramSweepWritesACompleteCsv) {
  KS_NEED("opencl", openClMissing());
  TempDir dir("ks-app-histogram-sweep");
  const fs::path csv = dir / "histogram.csv";
  const RunResult r = runApp(dir, {"--bench", "histogram", "--histogram-variant", "subhist_uchar", "--histogram-wg",
                                   "64,100", "--image-size", "40x24", "--channels", "1", "--iterations", "2", "--csv",
                                   csv.string()});
  ASSERT_EQ(r.exitCode, 0) << r.describe();
  const auto runs = runsFromCsv(test::readFile(csv));
  ASSERT_TRUE(runs) << runs.error().what();
  size_t ok = 0;
  for (const RunRecord& run : *runs) {
    EXPECT_EQ(run.meta.scene, "histogram");
    EXPECT_EQ(run.meta.parameter("variant"), "subhist_uchar");
    if (run.ok()) {
      ++ok;
      EXPECT_EQ(run.meta.parameter("work_group"), "64");
      EXPECT_GT(run.m.rate, 0.0) << run.name;
    } else {
      EXPECT_EQ(run.meta.parameter("work_group"), "100") << run.status;
      EXPECT_NE(run.status.find("not offered"), std::string::npos) << run.status;
    }
  }
  EXPECT_EQ(ok * 2, runs->size()) << "each pixels-per-item value once at 64 (runs) and once at 100 (refused)";
  const RunResult wrong = runApp(dir, {"--bench", "rotate", "--histogram-wg", "64"});
  EXPECT_EQ(wrong.exitCode, 2) << wrong.describe();
  EXPECT_NE((wrong.out + wrong.err).find("--histogram-wg: for --bench histogram"), std::string::npos)
      << wrong.describe();
}

TEST(App, RotateSweepOptionsAreCheckedAndListed) {
  TempDir dir("ks-app-rotate-options");
  RunResult r = runApp(dir, {"--help"});
  EXPECT_EQ(r.exitCode, 0);
  for (const char* text : {"rotate", "--rotate-variant", "--rotate-wg", "--pixels-per-item", "--rotate-rows-per-item",
                           "histogram", "--histogram-variant", "--histogram-wg"})
    EXPECT_NE(r.out.find(text), std::string::npos) << text;
  r = runApp(dir, {"--bench", "rotate", "--rotate-variant", "sideways"});
  EXPECT_EQ(r.exitCode, 2) << r.describe();
  EXPECT_NE((r.out + r.err).find("sideways"), std::string::npos) << r.describe();
  r = runApp(dir, {"--bench", "rotate", "--rotate-wg", "16by16"});
  EXPECT_EQ(r.exitCode, 2) << r.describe();
  EXPECT_NE((r.out + r.err).find("not a work-group shape WxH"), std::string::npos) << r.describe();
  r = runApp(dir, {"--bench", "transpose", "--pixels-per-item", "4"});
  EXPECT_EQ(r.exitCode, 2) << r.describe();
  EXPECT_NE((r.out + r.err).find("--pixels-per-item: for --bench rotate"), std::string::npos) << r.describe();
}

// `--sweep --op X` (issue 21, "Done when"): every operation swept and recorded from the
// command line, its variants and parameters named as in its descriptor and its runs'
// CSV columns. Each operation gets one variant and two values of one parameter, read
// from the descriptor (the second value refused where the variant does not offer it).
TEST(App, SweepOpSweepsAndRecordsEveryOperation) {
  KS_NEED("opencl", openClMissing());
  TempDir dir("ks-app-sweep-op");
  struct Case {
    const KernelOp& op;
    std::string variant, parameter;
    std::vector<std::string> fixed;  // the other parameters held to one value, to keep the sweep short
  };
  const std::vector<Case> cases = {
      {rotateOp(), "nearest", "pixels_per_item", {"--param", "work_group_x=16", "--param", "work_group_y=16"}},
      {transposeOp(), "tiled", "tile", {"--param", "rows_per_item=1"}},
      {histogramOp(), "subhist_uchar", "work_group", {"--param", "pixels_per_item=" + std::to_string(
                                                          histogramOp().variant("subhist_uchar")->parameter(
                                                              "pixels_per_item")->values.front())}},
      {nbodyOp(), "tiled", "unroll", {"--param", "work_group=32", "--param", "bodies_per_item=1", "--param", "split=1",
                                      "--n", "100"}},
  };
  for (const Case& c : cases) {
    const std::vector<int>& offered = c.op.variant(c.variant)->parameter(c.parameter)->values;
    ASSERT_GE(offered.size(), 2u) << c.op.name;
    const std::string values = std::to_string(offered[0]) + "," + std::to_string(offered[1]);
    const fs::path csv = dir / (c.op.name + ".csv"), json = dir / (c.op.name + ".json");
    std::vector<std::string> args = {"--sweep", "--op", c.op.name, "--variant", c.variant, "--param",
                                     c.parameter + "=" + values, "--iterations", "2", "--csv", csv.string(),
                                     "--json", json.string()};
    if (&c.op != &nbodyOp()) args.insert(args.end(), {"--image-size", "40x24", "--channels", "1"});
    args.insert(args.end(), c.fixed.begin(), c.fixed.end());
    const RunResult r = runApp(dir, args);
    ASSERT_EQ(r.exitCode, 0) << c.op.name << "\n" << r.describe();
    const std::string text = test::readFile(csv);
    EXPECT_NE(text.find("param:" + c.parameter), std::string::npos) << c.op.name << "\n" << text;
    const auto runs = runsFromCsv(text);
    ASSERT_TRUE(runs) << runs.error().what();
    const auto jsonRuns = nlohmann::json::parse(test::readFile(json)).at("runs");
    EXPECT_EQ(jsonRuns.size(), runs->size()) << c.op.name;
    std::set<std::string> swept;
    int ok = 0;
    for (const RunRecord& run : *runs) {
      EXPECT_EQ(run.meta.scene, c.op.name);
      EXPECT_EQ(run.meta.parameter("variant"), c.variant) << c.op.name;
      swept.insert(run.meta.parameter(c.parameter));
      if (run.ok()) {
        ++ok;
        EXPECT_GT(run.m.rate, 0.0) << run.name;
        EXPECT_TRUE(std::isfinite(run.m.rate)) << run.name;
      }
    }
    EXPECT_EQ(swept, (std::set<std::string>{std::to_string(offered[0]), std::to_string(offered[1])}))
        << c.op.name << "\n" << text;
    EXPECT_GE(ok, 1) << c.op.name << "\n" << r.describe();
  }
}

// What --sweep --op takes is checked against the descriptors before anything runs.
TEST(App, SweepOpOptionsAreCheckedFromTheDescriptors) {
  TempDir dir("ks-app-sweep-op-options");
  RunResult r = runApp(dir, {"--help"});
  EXPECT_EQ(r.exitCode, 0);
  for (const KernelOp* op : {&nbodyOp(), &rotateOp(), &transposeOp(), &histogramOp()})
    for (const KernelParameter& p : op->parameters) EXPECT_NE(r.out.find(p.name), std::string::npos) << p.name;
  struct Case {
    std::vector<std::string> args;
    std::string said;
  };
  const std::string tileValue = std::to_string(transposeOp().parameter("tile").values.back() + 1);
  const std::vector<Case> cases = {
      {{"--op", "rotate"}, "--op: picks the operation that --sweep measures"},
      {{"--sweep", "--op", "copy"}, "copy"},
      {{"--sweep", "--op", "rotate", "--bench", "transpose"}, "--op rotate: not with --bench transpose"},
      {{"--sweep", "--op", "rotate", "--variant", "tiled"}, "'tiled' is not one of the rotate variants"},
      {{"--sweep", "--variant", "nearest"}, "'nearest' is not one of the nbody variants"},
      {{"--sweep", "--op", "rotate", "--unroll", "4"}, "--unroll: an N-body option, not for --op rotate"},
      {{"--sweep", "--op", "rotate", "--param", "tile=8"}, "the rotate operation has no parameter 'tile'"},
      {{"--sweep", "--op", "transpose", "--param", "tile=" + tileValue}, tileValue + " is not a value of transpose's tile"},
      {{"--sweep", "--op", "transpose", "--param", "tile"}, "is not NAME=VALUE"},
      {{"--sweep", "--op", "transpose", "--param", "colour=1"}, "unknown parameter 'colour'"},
      {{"--sweep", "--op", "transpose", "--param", "work_group_x=16"}, "need both work_group_x and work_group_y"},
      {{"--param", "tile=8"}, "--param: for --sweep"},
  };
  for (const Case& c : cases) {
    // Kept short should a check let it through: a frame of the viewer, one run of a small image.
    std::vector<std::string> args = c.args;
    args.insert(args.end(), {"--headless", "--frames", "1", "--iterations", "1", "--image-size", "16x16"});
    r = runApp(dir, args);
    EXPECT_EQ(r.exitCode, 2) << r.describe();
    EXPECT_NE((r.out + r.err).find(c.said), std::string::npos) << c.said << "\n" << r.describe();
  }
}

// `--bench transpose` and `--bench image` say what bound each kernel (issue 23, item 3)
// once the device's ceilings are known. The cache here holds only a global-memory
// ceiling of 1 GB/s, so that is what binds every kernel, and each row's fraction
// must be its own GB/s against it; without a cache they say how to measure them.
TEST(App, TransposeAndImageBenchesSayWhatBoundEachKernel) {
  KS_NEED("opencl", openClMissing());
  const DeviceCatalog catalog = enumerateDevices();
  const DeviceDescriptor& device = catalog.devices.at(selectDevice(catalog.devices, {}).index.value());
  TempDir dir("ks-app-bench-bounds");
  const std::vector<std::string> transpose = {"--bench", "transpose", "--transpose-variant", "naive,tiled_padded",
                                              "--tile", "8", "--rows-per-item", "2", "--naive-wg", "16x16",
                                              "--image-size", "40x24", "--channels", "4", "--iterations", "2",
                                              "--json", (dir / "transpose.json").string()};
  const RunResult unknown = runApp(dir, transpose);
  ASSERT_EQ(unknown.exitCode, 0) << unknown.describe();
  EXPECT_TRUE(contains(unknown.out, "kernelscope --bench ceilings measures this device's ceilings")) << unknown.describe();
  EXPECT_FALSE(contains(unknown.out, "bound by")) << unknown.describe();

  MeasuredCeilings ceilings;
  ceilings[Ceiling::Copy].value = 1.0;
  ceilings[Ceiling::Read].value = 1.0;
  ceilings.time = "2026-11-26T00:00:00Z";
  CeilingsCache cache;
  cache.devices[device.platformName + " | " + device.name + " | " + device.driverVersion] = ceilings;
  ASSERT_EQ(saveCeilingsCache(cache, dir / "config/ceilings.json"), "");

  // "<config>   0.0123 ms   12.3 GB/s   bound by DRAM: 1230 %": the fraction is the row's rate over 1 GB/s.
  auto expectRowsBound = [](const std::string& out, const std::string& what, size_t atLeast) {
    const std::regex row(R"(([0-9.]+) GB/s[^\n]*   bound by (DRAM|DRAM read): ([0-9]+) %)");
    size_t rows = 0;
    for (auto it = std::sregex_iterator(out.begin(), out.end(), row); it != std::sregex_iterator(); ++it, ++rows) {
      const double gbps = std::stod((*it)[1]), percent = std::stod((*it)[3]);
      EXPECT_NEAR(percent, 100.0 * gbps, 0.5 + 5.0 + 0.01 * percent) << (*it)[0] << " (" << what << ")";
    }
    EXPECT_GE(rows, atLeast) << what << ":\n" << out;
  };
  const RunResult known = runApp(dir, transpose);
  ASSERT_EQ(known.exitCode, 0) << known.describe();
  expectRowsBound(known.out, "transpose", 2);
  EXPECT_TRUE(std::regex_search(known.out, std::regex(R"(\n= bound by DRAM: [0-9]+ % of the measured ceiling)")))
      << known.describe();
  std::string error;
  const auto runs = readRunsJson(dir / "transpose.json", &error);
  ASSERT_TRUE(runs) << error;
  for (const RunRecord& run : *runs) {
    if (run.ok()) {
      EXPECT_TRUE(std::regex_match(run.m.bound, std::regex(R"(transpose: DRAM: [0-9]+ %)"))) << run.m.bound;
    }
  }

  // The whole image bench builds every variant and takes minutes on PoCL: its first
  // rows (the copy, then the transposes) are what is checked, the run stopped after 20 s.
  RunOptions briefly;
  briefly.timeoutSeconds = 20;
  const RunResult image = runApp(dir, {"--bench", "image", "--image-size", "40x24", "--iterations", "2"}, briefly);
  EXPECT_TRUE(contains(image.out, "bound by: the measured ceiling each kernel's counted work reaches first"))
      << image.describe();
  expectRowsBound(image.out, "image", 2);
  EXPECT_TRUE(std::regex_search(image.out, std::regex(R"(\ntranspose [^\n]*bound by DRAM: )"))) << image.describe();
}

TEST(App, CorruptTuningCacheWarnsIsRewrittenAndTheAppStarts) {
  KS_NEED("gl", eglMissing());
  KS_NEED("opencl", openClMissing());
  TempDir dir("ks-app-badtuning");
  fs::create_directories(dir / "config");
  test::writeFile(dir / "config/tuning.json", "{\"format\": \"kernelscope-tuning\", \"version\": 0}");
  const RunResult r = runApp(dir, {"--headless", "--frames", "2", "--n", "64"});
  ASSERT_EQ(r.exitCode, 0) << r.describe();
  EXPECT_TRUE(contains(r.err, "warning: ignoring tuning cache")) << r.describe();
  EXPECT_TRUE(contains(r.err, "rewritten empty")) << r.describe();
  const std::string rewritten = test::readFile(dir / "config/tuning.json");
  EXPECT_TRUE(contains(rewritten, "\"version\": 1")) << rewritten;
  const RunResult again = runApp(dir, {"--headless", "--frames", "2", "--n", "64"});
  ASSERT_EQ(again.exitCode, 0) << again.describe();
  EXPECT_FALSE(contains(again.err, "tuning cache")) << again.describe();
}

TEST(App, NBodyVerifyPasses) {
  KS_NEED("opencl", openClMissing());
  TempDir dir("ks-app-verify");
  const RunResult r = runApp(dir, {"--verify", "--n", "99", "--variant", "tiled", "--wg", "32", "--precise-rsqrt"});
  ASSERT_EQ(r.exitCode, 0) << r.describe();
  EXPECT_TRUE(contains(r.out, "PASS")) << r.describe();
}

// A step whose output is NaN (gravity times NaN, in a copy of nbody.cl) must
// fail --verify and say where; std::max used to drop the NaN and print PASS.
TEST(App, NBodyVerifyFailsOnNaNAndSaysWhere) {
  KS_NEED("opencl", openClMissing());
  TempDir dir("ks-app-verify-nan");
  const fs::path kernels = dir / "kernels";
  fs::create_directories(kernels);
  for (const auto& entry : fs::directory_iterator(KERNELSCOPE_SOURCE_KERNELS_DIR))
    fs::copy_file(entry.path(), kernels / entry.path().filename());
  std::string source = test::readFile(kernels / "nbody.cl");
  const std::string anchor = "  acc *= gravity;";
  const size_t at = source.find(anchor);
  ASSERT_NE(at, std::string::npos) << "nbody.cl changed; update the anchor";
  source.replace(at, anchor.size(), "  acc *= gravity * (real)NAN;");
  test::writeFile(kernels / "nbody.cl", source);
  const RunResult r = runApp(dir, {"--verify", "--n", "99", "--variant", "tiled", "--wg", "32", "--precise-rsqrt",
                                   "--kernels-dir", kernels.string()});
  EXPECT_EQ(r.exitCode, 1) << r.describe();
  EXPECT_TRUE(contains(r.out, "NaN at body 0")) << r.describe();
  EXPECT_TRUE(contains(r.out, "FAIL")) << r.describe();
  EXPECT_FALSE(contains(r.out, "PASS")) << r.describe();
}

TEST(App, NBodyInvalidWorkGroupExits2WithTheReason) {
  KS_NEED("opencl", openClMissing());
  TempDir dir("ks-app-badwg");
  const RunResult r = runApp(dir, {"--bench", "nbody", "--n", "10", "--wg", "48"});
  EXPECT_EQ(r.exitCode, 2) << r.describe();
  EXPECT_TRUE(contains(r.err, "not a multiple of 32")) << r.describe();
  EXPECT_FALSE(contains(r.err, "CL_INVALID_WORK_GROUP_SIZE")) << r.describe();
}

// Accuracy beside speed (issue 23): --drift-steps S runs S steps from the preset and
// reports the relative energy drift beside the rate, in the output and the run files.
// The bound is principled: in fp64 the drift is the integrator's own (the CPU
// reference's over the same steps, in double) to far below 1e-9; fp32's rounding
// moves it off by far more.
TEST(App, NBodyBenchmarkReportsTheEnergyDriftBesideTheRate) {
  KS_NEED("opencl", openClMissing());
  TempDir dir("ks-app-drift");
  const size_t n = 96;
  const int steps = 30;
  const std::vector<std::string> common = {"--bench", "nbody", "--n", std::to_string(n), "--preset", "cube",
                                           "--drift-steps", std::to_string(steps), "--iterations", "2",
                                           "--variant", "tiled", "--wg", "64", "--unroll", "4"};
  auto run = [&](const std::vector<std::string>& extra, const std::string& file) -> std::optional<RunRecord> {
    std::vector<std::string> args = common;
    args.insert(args.end(), extra.begin(), extra.end());
    args.insert(args.end(), {"--json", (dir / file).string()});
    const RunResult r = runApp(dir, args);
    EXPECT_EQ(r.exitCode, 0) << r.describe();
    EXPECT_TRUE(contains(r.out, "billion interactions per second")) << r.describe();
    // "= energy drift +1.234e-05 relative after 30 steps (...)"
    std::smatch m;
    const std::regex line(R"(= energy drift ([-+0-9.e]+) relative after (\d+) steps)");
    EXPECT_TRUE(std::regex_search(r.out, m, line)) << r.describe();
    std::string error;
    const auto runs = readRunsJson(dir / file, &error);
    EXPECT_TRUE(runs && runs->size() == 1) << error;
    if (!runs || runs->size() != 1 || m.empty()) return std::nullopt;
    const RunRecord& got = runs->front();
    EXPECT_TRUE(got.m.hasDrift());
    EXPECT_EQ(got.m.driftSteps, static_cast<unsigned long long>(steps));
    EXPECT_EQ(std::stoi(m[2]), steps);
    EXPECT_NEAR(std::stod(m[1]), got.m.energyDrift, 1e-3 * std::abs(got.m.energyDrift)) << "printed as written";
    EXPECT_GT(got.m.rate, 0.0) << "both axes in one run";
    EXPECT_EQ(got.meta.parameter("preset"), "cube");
    return got;
  };
  const std::optional<RunRecord> fp32 = run({}, "fp32.json");
  ASSERT_TRUE(fp32);

  NBodySystem system = makeNBodyPreset(NBodyPreset::RandomCube, n, 1);  // --seed's default
  const NBodyParams params = nbodyPresetDefaults(NBodyPreset::RandomCube, n).params;
  const NBodyInvariants start = nbodyReferenceInvariants(system, params);
  for (int i = 0; i < steps; ++i) system = nbodyReferenceStep(system, params);
  const double reference = nbodyDrift(nbodyReferenceInvariants(system, params), start).energy;
  const double off32 = std::abs(fp32->m.energyDrift - reference);
  EXPECT_LT(off32, 1e-3) << "fp32 " << fp32->m.energyDrift << ", reference " << reference;

  if (const auto compute = test::makeTestCompute(); !compute || !compute->device().hasExtension("cl_khr_fp64"))
    GTEST_SKIP() << "the device lacks cl_khr_fp64";
  const std::optional<RunRecord> fp64 = run({"--fp64"}, "fp64.json");
  ASSERT_TRUE(fp64);
  const double off64 = std::abs(fp64->m.energyDrift - reference);
  EXPECT_LT(off64, 1e-9) << "fp64 " << fp64->m.energyDrift << ", reference " << reference;
  EXPECT_GT(off32, 100.0 * off64) << "fp32 " << fp32->m.energyDrift << ", fp64 " << fp64->m.energyDrift;
}

// --dt replaces the preset's time step (issue 23: the drift's dependence on it is
// measured so): the steps run at it, the drift is the CPU reference's at that dt,
// not at the preset's, and the run records it.
TEST(App, NBodyDriftIsMeasuredAtTheTimeStepGiven) {
  KS_NEED("opencl", openClMissing());
  if (const auto compute = test::makeTestCompute(); !compute || !compute->device().hasExtension("cl_khr_fp64"))
    GTEST_SKIP() << "the device lacks cl_khr_fp64";
  TempDir dir("ks-app-drift-dt");
  const size_t n = 64;
  const int steps = 20;
  const double dt = 0.02;  // 25 times the cube preset's
  const RunResult r = runApp(dir, {"--bench", "nbody", "--n", std::to_string(n), "--preset", "cube", "--fp64",
                                   "--drift-steps", std::to_string(steps), "--dt", "0.02", "--iterations", "2",
                                   "--variant", "tiled", "--wg", "32", "--unroll", "1", "--json",
                                   (dir / "dt.json").string()});
  ASSERT_EQ(r.exitCode, 0) << r.describe();
  EXPECT_TRUE(contains(r.out, ", dt 0.02,")) << r.describe();
  std::string error;
  const auto runs = readRunsJson(dir / "dt.json", &error);
  ASSERT_TRUE(runs && runs->size() == 1) << error;
  EXPECT_EQ(runs->front().meta.parameter("dt"), "0.02");

  auto referenceDrift = [&](double step) {
    NBodySystem system = makeNBodyPreset(NBodyPreset::RandomCube, n, 1);
    NBodyParams params = nbodyPresetDefaults(NBodyPreset::RandomCube, n).params;
    params.dt = step;
    const NBodyInvariants start = nbodyReferenceInvariants(system, params);
    for (int i = 0; i < steps; ++i) system = nbodyReferenceStep(system, params);
    return nbodyDrift(nbodyReferenceInvariants(system, params), start).energy;
  };
  const double atDt = referenceDrift(dt);
  const double atPresetDt = referenceDrift(nbodyPresetDefaults(NBodyPreset::RandomCube, n).params.dt);
  ASSERT_GT(std::abs(atDt - atPresetDt), 1e-7) << "the two time steps drift apart enough to tell";
  EXPECT_NEAR(runs->front().m.energyDrift, atDt, 1e-9) << "the preset's dt would give " << atPresetDt;
}

// A sweep over the precision settings with --drift-steps: one run per setting, each
// with its rate and its drift, in the CSV and the JSON alike.
TEST(App, NBodySweepOverPrecisionsRecordsDriftPerConfiguration) {
  KS_NEED("opencl", openClMissing());
  TempDir dir("ks-app-drift-sweep");
  const fs::path csv = dir / "drift.csv", json = dir / "drift.json";
  const RunResult r =
      runApp(dir, {"--sweep", "--variant", "tiled", "--wg", "32", "--unroll", "1", "--precision", "fp32,fast-math,ftz",
                   "--n", "64", "--preset", "cube", "--iterations", "2", "--drift-steps", "10", "--csv", csv.string(),
                   "--json", json.string()});
  ASSERT_EQ(r.exitCode, 0) << r.describe();
  EXPECT_TRUE(contains(r.out, "energy drift")) << r.describe();
  std::string error;
  const auto fromCsv = runsFromCsv(test::readFile(csv));
  ASSERT_TRUE(fromCsv) << fromCsv.error().what();
  const auto fromJson = readRunsJson(json, &error);
  ASSERT_TRUE(fromJson) << error;
  ASSERT_EQ(fromCsv->size(), 3u) << r.describe();
  ASSERT_EQ(fromJson->size(), 3u);
  std::set<std::string> names;
  for (size_t i = 0; i < 3; ++i) {
    const RunRecord& run = (*fromCsv)[i];
    EXPECT_TRUE(run.ok()) << run.name << ": " << run.status;
    EXPECT_GT(run.m.rate, 0.0) << run.name;
    EXPECT_EQ(run.m.driftSteps, 10u) << run.name;
    EXPECT_TRUE(std::isfinite(run.m.energyDrift) && run.m.energyDrift != 0.0) << run.name;
    EXPECT_EQ(run.m.energyDrift, (*fromJson)[i].m.energyDrift) << run.name;
    names.insert(run.name);
  }
  EXPECT_EQ(names.size(), 3u) << "three settings, three configurations";
  EXPECT_TRUE(contains((*fromCsv)[1].name, "fast-math")) << (*fromCsv)[1].name;
  EXPECT_TRUE(contains((*fromCsv)[2].name, "ftz")) << (*fromCsv)[2].name;
}

TEST(App, PrecisionListAndDriftStepsAreRefusedWhereTheyMeanNothing) {
  TempDir dir("ks-app-drift-usage");
  RunResult r = runApp(dir, {"--bench", "nbody", "--precision", "fp64"});
  EXPECT_EQ(r.exitCode, 2) << r.describe();
  EXPECT_TRUE(contains(r.err, "--precision")) << r.describe();
  r = runApp(dir, {"--bench", "transpose", "--drift-steps", "10"});
  EXPECT_EQ(r.exitCode, 2) << r.describe();
  EXPECT_TRUE(contains(r.err, "--drift-steps")) << r.describe();
  r = runApp(dir, {"--bench", "transpose", "--dt", "0.001"});
  EXPECT_EQ(r.exitCode, 2) << r.describe();
  EXPECT_TRUE(contains(r.err, "--dt")) << r.describe();
  r = runApp(dir, {"--bench", "nbody", "--dt", "0"});
  EXPECT_EQ(r.exitCode, 2) << r.describe();
  EXPECT_TRUE(contains(r.err, "--dt")) << r.describe();
}

}  // namespace
}  // namespace ks
