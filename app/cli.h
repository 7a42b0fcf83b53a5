#pragma once
// Command-line options, parsed with CLI11.
#include <array>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <utility>
#include <string>
#include <vector>

#include "compute/device_list.h"
#include "compute/exit_code.h"
#include "compute/interop/interop_path.h"
#include "app/panel_pacing.h"

namespace ks {

// N-body choices from the command line; lists (comma-separated) are for --sweep.
struct NBodyOptions {
  size_t bodies = 16384;
  std::vector<std::string> variants;
  std::vector<int> workGroups, unrolls, bodiesPerItem, splits;
  bool fp64 = false, fastMath = false, denormsAreZero = false, preciseRsqrt = false;
  // --precision: a --sweep over these (kNBodyPrecisions), each on top of the switches above.
  std::vector<std::string> precisions;
  int driftSteps = 0;  // --drift-steps: also measure the energy drift over this many steps (0: not)
  std::optional<double> dt;  // --dt: the benchmark's time step instead of the preset's
  std::string extraOptions;  // --cl-options
  bool showBuildLog = false;
  std::optional<std::filesystem::path> dumpProgram;  // --dump-program
  bool sweep = false;
  std::optional<std::filesystem::path> csv;   // runs as CSV (--sweep, --bench transpose, --record)
  std::optional<std::filesystem::path> json;  // the same runs as JSON
  std::string preset = "disk";
  uint64_t seed = 1;
  std::string particleDrawing = "auto";  // --particle-drawing: auto, sprites or compute
  bool verify = false;
  // --devices all|0,2,...: --bench nbody with each step split over these devices of one platform.
  std::optional<DeviceListRequest> devices;
  bool scaling = false;      // --scaling: with --devices, the split over the first 1, 2, ... K devices
  bool distributed = false;  // --distributed: --bench nbody split over MPI ranks (mpi/distributed_nbody.h)
  std::optional<std::filesystem::path> positionsOut;  // --positions-out: the state after the benchmark's steps
  bool given(const std::string& option) const;  // set by the parser
  bool kernelOptionsGiven() const;               // any option that shapes the kernel
  std::vector<std::string> explicitOptions;
};

// `--bench transpose`: the transpose sweep's ranges (empty: every value of the table).
struct TransposeOptions {
  std::vector<std::string> variants;
  std::vector<int> tiles, rowsPerItem, workGroups;
  std::vector<std::pair<int, int>> naiveShapes;
  std::vector<int> channels{4};
};

// `--bench rotate`: the rotate sweep's ranges (empty: each variant's own values;
// work-group shapes of 256 work-items, compute/rotate_sweep_plan.h). The channels are --channels.
struct RotateSweepOptions {
  std::vector<std::string> variants;
  std::vector<std::pair<int, int>> workGroups;  // WxH
  std::vector<int> pixelsPerItem, rowsPerItem;
  std::map<std::string, std::vector<int>> values;  // --sweep --op rotate --param NAME=...: by parameter name
};

// `--bench histogram`: the histogram sweep's ranges (empty: each variant's own values).
struct HistogramSweepOptions {
  std::vector<std::string> variants;
  std::vector<int> workGroups;
  std::map<std::string, std::vector<int>> values;  // --sweep --op histogram --param NAME=...: by parameter name
};

// The image batch (app/image_batch.h): image files through the image lab's
// pipeline without a window. A choice left unset is the lab's default.
struct ImageBatchOptions {
  double angle = 0.0;             // --angle, degrees clockwise on screen
  std::string rotateVariant;      // --rotate; empty: the lab's default for the device and image
  bool expand = false;            // --expand: the canvas grows to hold the whole rotated picture
  std::optional<std::array<uint8_t, 4>> background;  // --background R,G,B[,A]; unset: the lab's
  bool transparent = false;       // --transparent: (0,0,0,0) outside the picture
  bool transpose = false;         // --transpose[=VARIANT]
  std::string transposeVariant;   // empty: the lab's default
  std::string histogramVariant;   // --histogram; empty: the lab's default
  std::optional<bool> histogramOfResult;      // --histogram-of result|original; unset: the lab's
  std::optional<std::string> saveResult;      // --save-result pattern (%s: the input's name)
  std::optional<std::string> histogramOut;    // --histogram-out pattern, .csv or .json
  std::vector<std::string> given;  // the batch options on the command line: any starts the batch
  bool requested() const { return !given.empty(); }
};

struct AppOptions {
  bool headless = false;
  int frames = 0;  // 0: run until the window closes (headless defaults to 300)
  std::optional<std::filesystem::path> screenshot;
  std::optional<std::string> platform;
  std::optional<std::string> device;
  std::optional<std::filesystem::path> kernelsDir;
  std::optional<std::filesystem::path> configDir;
  // Program binaries on disk (--program-cache); main fills in the default. Empty:
  // no disk cache (--no-program-cache, benchmarks and tests that do not ask).
  std::optional<std::filesystem::path> programCacheDir;
  bool noProgramCache = false;
  int width = 1280, height = 800;
  bool sizeGiven = false;
  bool listDevices = false;
  bool vsync = true;
  double panelsPerSecond = PanelPacing::kDefaultPerSecond;  // --panel-rate; 0: every frame
  std::optional<InteropPath> interop;
  // Where the image lab enqueues its runs: a worker thread (true) or the frame loop
  // (false). Unset: a worker on CPU devices (app/image_scene.cpp says why). No
  // command-line option: tests set it to run the frame loop's path on a CPU device.
  std::optional<bool> imageRunsOnWorker;
  // How long a window frame waits for the N-body steps the last frame launched before
  // it draws the positions it has and launches none (issue 22: a CPU device stepping
  // many bodies held frames for seconds); well inside the ~100 ms a frame may take.
  // Headless runs always wait. No command-line option: tests that count one launch
  // per frame set it long.
  double nbodyStepWaitMs = 30.0;
  std::string scene;  // nbody (default), julia or image (the default when an image is given)
  // Positional: the first opens in the image lab; the rest are ignored, and the lab says
  // how many. The image batch processes every one.
  std::vector<std::filesystem::path> images;
  std::optional<std::filesystem::path> stateDump;  // --state-dump: JSON of what the app showed, at exit
  std::optional<float> spin;  // --spin: the image lab's picture turns at this many degrees per second
  std::string bench;       // "interop" or "nbody": run that benchmark instead of the viewer
  NBodyOptions nbody;
  TransposeOptions transpose;
  RotateSweepOptions rotateSweep;
  HistogramSweepOptions histogramSweep;
  ImageBatchOptions imageBatch;
  int record = 0;          // --record N: record N frames of the viewer (after --warmup) as a run
  int warmup = 10;         // frames skipped before a recording starts
  int iterations = 100;    // benchmark iterations
  int imageBenchWidth = 8192, imageBenchHeight = 8192;  // --image-size for --bench image  // empty: automatic (best available)
};

// Parses argv; returns an exit code when the program should stop now (--help,
// --version, bad usage), with CLI11's message already printed.
std::optional<int> parseCommandLine(int argc, char** argv, AppOptions& options);

// Why a file the run will write cannot be written there (missing or unwritable
// directory, a directory by that name), or empty; checked before the run starts.
std::string outputFileProblem(const std::string& file);

}  // namespace ks
