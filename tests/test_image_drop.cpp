// End to end: files dropped on the kernelscope window through real XDND under
// Xvfb. A script started by xvfb-run runs the app (KERNELSCOPE_BINARY) in the
// background and xdnd_drop (XDND_DROP_BINARY, a drag source) against its
// window; the test then reads the app's --state-dump. The window's close button is
// pressed the same way, by wm_close (WM_CLOSE_BINARY). What the machine may lack
// (Xvfb, an OpenCL device) is probed without the app, as in test_app.cpp.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <nlohmann/json.hpp>
#include <stb_image_write.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "test_devices.h"
#include "test_require.h"
#include "test_support.h"

namespace ks {
namespace {
namespace fs = std::filesystem;
using test::TempDir;

const fs::path kBinary = KERNELSCOPE_BINARY;
const fs::path kDropTool = XDND_DROP_BINARY;
const fs::path kCloseTool = WM_CLOSE_BINARY;
constexpr int kDropTimeoutSeconds = 40;  // xdnd_drop's own limit, window wait included
constexpr int kRunTimeoutSeconds = 90;   // the whole script; below the ctest TIMEOUT (150 s)

// ---- running a script (as test_app.cpp runs the app) ------------------------------

std::string shellQuote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string readIfThere(const fs::path& file) {
  std::error_code ec;
  return fs::exists(file, ec) ? test::readFile(file) : "(no file)\n";
}

using RunResult = test::ShellResult;

// ---- what the machine offers ----------------------------------------------------------

using test::findInPath;

// Empty when xvfb-run can start a display, else why not.
std::string xvfbMissing() {
  if (!findInPath("xvfb-run")) return "xvfb-run not found in PATH (install the xvfb package)";
  if (!findInPath("Xvfb")) return "Xvfb not found in PATH (install the xvfb package)";
  if (!findInPath("xauth")) return "xauth not found in PATH (xvfb-run needs it)";
  return {};
}

using test::openClMissing;

// ---- a drop on the running app ---------------------------------------------------------------

struct DropRun {
  RunResult script;
  std::optional<int> appExit, dropExit;
  std::string report;  // everything, for assertion messages
  nlohmann::json dump;  // null when the app wrote none (or it does not parse)
};

std::optional<int> exitLine(const std::string& out, const std::string& label) {
  const size_t at = out.find(label + " exit: ");
  if (at == std::string::npos) return std::nullopt;
  return std::atoi(out.c_str() + at + label.size() + 7);
}

// Starts kernelscope in the image lab under Xvfb (with `startImage` open, when
// given), drops `files` on its window with xdnd_drop, and waits for the app to
// finish its frames. The start image is open before the drop: it is decoded and
// put on the device off the frame loop, and a file dropped meanwhile would take
// its place, so the drop starts only once the app has said on stderr that it
// opened it (CI once dropped first and the start image never showed).
DropRun dropOnApp(const TempDir& dir, const std::vector<fs::path>& files, const fs::path& startImage = {}) {
  const fs::path dump = dir / "state.json";
  std::string uris;
  for (const auto& f : files) uris += " " + shellQuote(f.string());  // xdnd_drop makes file:// URIs of paths
  const fs::path scratch = dir.path();
  std::ostringstream script;
  script << "cd " << shellQuote(scratch.string()) << "\n"
         << shellQuote(kBinary.string())
         << " --scene image --frames 400 --no-vsync --size 800x600 --state-dump " << shellQuote(dump.string())
         << " --config-dir " << shellQuote((dir / "config").string())
         << (startImage.empty() ? "" : " " + shellQuote(startImage.string())) << " > app.out 2> app.err &\n"
         << "app=$!\n";
  if (!startImage.empty())
    script << "i=0; while ! grep -qF " << shellQuote("kernelscope: opened " + startImage.string()) << " app.err"
           << " && kill -0 $app 2>/dev/null && [ $i -lt 300 ]; do sleep 0.1; i=$((i+1)); done\n";
  script << shellQuote(kDropTool.string()) << " kernelscope" << uris << " --timeout " << kDropTimeoutSeconds
         << " > drop.out 2> drop.err &\n"
         << "drop=$!\n"
         << "wait $app; app_exit=$?\n"
         // With the app gone, a drop still waiting for its window never completes.
         << "i=0; while kill -0 $drop 2>/dev/null && [ $i -lt 30 ]; do sleep 0.1; i=$((i+1)); done\n"
         << "kill $drop 2>/dev/null\n"
         << "wait $drop; drop_exit=$?\n"
         << "echo \"kernelscope exit: $app_exit\"\n"
         << "echo \"xdnd_drop exit: $drop_exit\"\n";
  test::writeFile(dir / "drop.sh", script.str());

  const std::string command = "env -u KERNELSCOPE_KERNELS_DIR -u XDG_CONFIG_HOME -u WAYLAND_DISPLAY " +
                              shellQuote(findInPath("xvfb-run")->string()) + " -a -s " +
                              shellQuote("-screen 0 1280x1024x24") + " sh " + shellQuote((dir / "drop.sh").string());
  DropRun run;
  run.script = test::runShell(command, scratch, kRunTimeoutSeconds);
  run.appExit = exitLine(run.script.out, "kernelscope");
  run.dropExit = exitLine(run.script.out, "xdnd_drop");
  const std::string dumpText = readIfThere(dump);
  run.dump = nlohmann::json::parse(dumpText, nullptr, /*allow_exceptions=*/false);
  if (run.dump.is_discarded()) run.dump = nullptr;

  std::ostringstream report;
  report << "command: " << command << (run.script.timedOut ? " (timed out, killed)" : "") << "\n--- drop.sh ---\n"
         << script.str() << "--- script stdout ---\n" << run.script.out << "--- script stderr ---\n"
         << run.script.err << "--- kernelscope stdout ---\n" << readIfThere(dir / "app.out")
         << "--- kernelscope stderr ---\n" << readIfThere(dir / "app.err") << "--- xdnd_drop stdout ---\n"
         << readIfThere(dir / "drop.out") << "--- xdnd_drop stderr ---\n" << readIfThere(dir / "drop.err")
         << "--- state dump ---\n" << dumpText << "\n--------------";
  run.report = report.str();
  return run;
}

fs::path writePng(const fs::path& file, int width, int height) {
  std::vector<unsigned char> pixels(static_cast<size_t>(width) * height * 4);
  for (size_t i = 0; i < pixels.size(); ++i) pixels[i] = static_cast<unsigned char>(i * 7 + i / 4);
  EXPECT_TRUE(stbi_write_png(file.c_str(), width, height, 4, pixels.data(), width * 4)) << file;
  return file;
}

bool samePath(const std::string& reported, const fs::path& expected) {
  if (reported == expected.string()) return true;
  std::error_code ec;
  return fs::equivalent(reported, expected, ec);
}

// The run worked as a run: both processes ended well and the dump is there.
void expectCleanRun(const DropRun& run) {
  ASSERT_FALSE(run.script.timedOut) << run.report;
  ASSERT_TRUE(run.appExit) << run.report;
  EXPECT_EQ(*run.appExit, 0) << run.report;
  ASSERT_TRUE(run.dropExit) << run.report;
  EXPECT_EQ(*run.dropExit, 0) << "xdnd_drop: 4 no window, 5 refused, 6 timed out, 7 window gone\n" << run.report;
  ASSERT_TRUE(run.dump.is_object()) << "no readable --state-dump\n" << run.report;
  EXPECT_EQ(run.dump.value("scene", ""), "image") << run.report;
  ASSERT_TRUE(run.dump.contains("log") && run.dump["log"].is_array()) << run.report;
}

void expectImage(const DropRun& run, const fs::path& file, int width, int height, int channels) {
  const nlohmann::json& image = run.dump["image"];
  ASSERT_TRUE(image.is_object()) << run.report;
  EXPECT_TRUE(samePath(image.value("path", ""), file)) << "expected " << file << "\n" << run.report;
  EXPECT_EQ(image.value("width", 0), width) << run.report;
  EXPECT_EQ(image.value("height", 0), height) << run.report;
  EXPECT_EQ(image.value("channels", 0), channels) << run.report;
}

#define KS_NEED_DISPLAY_AND_DEVICE() \
  KS_NEED("xvfb", xvfbMissing());            \
  KS_NEED("opencl", openClMissing())

// ---- the tests --------------------------------------------------------------------------

TEST(ImageDrop, DroppedPngOpens) {
  KS_NEED_DISPLAY_AND_DEVICE();
  TempDir dir("ks-drop-png");
  const fs::path png = writePng(dir / "dropped photo.png", 37, 23);  // a space: the URI is percent-encoded
  const DropRun run = dropOnApp(dir, {png});
  expectCleanRun(run);
  expectImage(run, png, 37, 23, 4);
}

TEST(ImageDrop, CorruptFileIsReportedAndTheAppRunsOn) {
  KS_NEED_DISPLAY_AND_DEVICE();
  TempDir dir("ks-drop-corrupt");
  std::string noise(4096, '\0');
  uint32_t seed = 12345;
  for (char& c : noise) c = static_cast<char>((seed = seed * 1664525u + 1013904223u) >> 24);
  const fs::path corrupt = dir / "corrupt.png";
  test::writeFile(corrupt, noise);
  const fs::path previous = writePng(dir / "previous.png", 37, 23);
  const DropRun run = dropOnApp(dir, {corrupt}, previous);
  expectCleanRun(run);
  // The image open before the drop is still shown: its path and size.
  expectImage(run, previous, 37, 23, 4);
  bool opened = false, reported = false;
  for (const auto& line : run.dump["log"])
    if (line.is_string()) {
      const std::string text = line.get<std::string>();
      opened = opened || text.find("opened " + previous.string()) != std::string::npos;
      reported = reported || (text.find("cannot open: '" + corrupt.string() + "'") != std::string::npos &&
                              text.find("is not an image stb_image can read") != std::string::npos);
    }
  EXPECT_TRUE(opened) << "the start image was never opened\n" << run.report;
  EXPECT_TRUE(reported) << "no log message 'cannot open: '" << corrupt.string()
                        << "' is not an image stb_image can read'\n"
                        << run.report;
}

TEST(ImageDrop, SeveralFilesOpenTheFirst) {
  KS_NEED_DISPLAY_AND_DEVICE();
  TempDir dir("ks-drop-several");
  const fs::path first = writePng(dir / "first.png", 37, 23);
  const fs::path second = writePng(dir / "second.png", 11, 7);
  const DropRun run = dropOnApp(dir, {first, second});
  expectCleanRun(run);
  expectImage(run, first, 37, 23, 4);
  bool said = false;
  for (const auto& line : run.dump["log"])
    said = said || (line.is_string() && line.get<std::string>().find("file 1 of 2") != std::string::npos);
  EXPECT_TRUE(said) << "the log should say that the first of 2 files opened\n" << run.report;
}

// The window's close button with a recorded run not exported: the app asks, as Esc
// does, instead of quitting at once (it lost the audit's runs). The run is recorded
// by --record; the close is sent once the log says it is done; the app then runs
// its frames to the end with the question open.
TEST(WindowClose, TheCloseButtonAsksBeforeLosingRecordedRuns) {
  KS_NEED_DISPLAY_AND_DEVICE();
  TempDir dir("ks-close-button");
  const fs::path dump = dir / "state.json";
  constexpr int kFrames = 600;
  std::ostringstream script;
  script << "cd " << shellQuote(dir.path().string()) << "\n"
         << shellQuote(kBinary.string()) << " --scene nbody --n 128 --record 3 --warmup 1 --frames " << kFrames
         << " --size 800x600 --state-dump " << shellQuote(dump.string()) << " --config-dir "
         << shellQuote((dir / "config").string()) << " > app.out 2> app.err &\n"
         << "app=$!\n"
         << "i=0; while ! grep -q 'recording 1' app.err && kill -0 $app 2>/dev/null && [ $i -lt 600 ]; do "
            "sleep 0.1; i=$((i+1)); done\n"
         << shellQuote(kCloseTool.string()) << " kernelscope --timeout 5 > close.out 2> close.err\n"
         << "close_exit=$?\n"
         << "wait $app; app_exit=$?\n"
         << "echo \"kernelscope exit: $app_exit\"\n"
         << "echo \"wm_close exit: $close_exit\"\n";
  test::writeFile(dir / "close.sh", script.str());
  const std::string command = "env -u KERNELSCOPE_KERNELS_DIR -u XDG_CONFIG_HOME -u WAYLAND_DISPLAY " +
                              shellQuote(findInPath("xvfb-run")->string()) + " -a -s " +
                              shellQuote("-screen 0 1280x1024x24") + " sh " + shellQuote((dir / "close.sh").string());
  const RunResult r = test::runShell(command, dir.path(), kRunTimeoutSeconds);
  const std::string report = "--- close.sh ---\n" + script.str() + "--- script stdout ---\n" + r.out +
                             "--- kernelscope stderr ---\n" + readIfThere(dir / "app.err") +
                             "--- wm_close stderr ---\n" + readIfThere(dir / "close.err") + "--- state dump ---\n" +
                             readIfThere(dump);
  ASSERT_FALSE(r.timedOut) << report;
  ASSERT_EQ(exitLine(r.out, "wm_close"), 0) << "wm_close: 4 no window (the app ended first?), 7 window gone\n" << report;
  ASSERT_EQ(exitLine(r.out, "kernelscope"), 0) << report;
  const auto state = nlohmann::json::parse(readIfThere(dump), nullptr, false);
  ASSERT_TRUE(state.is_object()) << report;
  EXPECT_EQ(state.value("frames", 0), kFrames) << "the close button ended the run with a run not exported\n" << report;
  EXPECT_EQ(state["runs"].value("not_exported", 0), 1) << report;
  EXPECT_TRUE(state["runs"].value("quit_question", false)) << "no question asked\n" << report;
}

}  // namespace
}  // namespace ks
