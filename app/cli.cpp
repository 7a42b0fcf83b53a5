#include "app/cli.h"

#include <CLI/CLI.hpp>

#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <iostream>

#include "app/cli_image_sweeps.h"
#include "app/cli_sweep_op.h"
#include "app/image_batch.h"
#include "compute/image_histogram.h"
#include "compute/image_rotate.h"
#include "compute/image_transpose.h"
#include "compute/kernel_op.h"
#include "compute/nbody_model.h"
#include "compute/nbody_precision.h"
#include "compute/nbody_variants.h"
#include "compute/parameter_values.h"
#include "render/particle_renderer.h"

namespace ks {

namespace {

// No OpenCL device offers larger work-groups (CL_DEVICE_MAX_WORK_GROUP_SIZE is
// 1024 on GPUs, 4096 on PoCL); the device's own limit is checked when it is known.
constexpr int kMaxWorkGroupOption = 4096;

// "WIDTHxHEIGHT" -> width, height; false when the text is not of that form.
bool parseSize(const std::string& text, int& width, int& height) {
  char x = 0;
  return std::sscanf(text.c_str(), "%d%c%d", &width, &x, &height) == 3 && (x == 'x' || x == 'X');
}

// A CLI11 check for WIDTHxHEIGHT with both sides in [lo, hi].
std::function<std::string(const std::string&)> sizeValidator(int lo, int hi) {
  return [lo, hi](const std::string& text) -> std::string {
    int w = 0, h = 0;
    if (parseSize(text, w, h) && w >= lo && h >= lo && w <= hi && h <= hi) return {};
    return "'" + text + "' is not WIDTHxHEIGHT between " + std::to_string(lo) + "x" + std::to_string(lo) + " and " +
           std::to_string(hi) + "x" + std::to_string(hi);
  };
}

// The value of a bare `--transpose` (CLI11 gives a string flag without a value "true").
constexpr const char* kTransposeFlagAlone = "true";

// A CLI11 check for --angle: a finite number (strtod takes "nan" and "inf").
std::string checkFiniteNumber(const std::string& text) {
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (end == text.c_str() || *end != '\0' || !std::isfinite(value)) return "'" + text + "' is not a finite number";
  return {};
}

// "R,G,B" or "R,G,B,A", each 0 to 255 (A: 255 when left out); false when not of that form.
bool parseColour(const std::string& text, std::array<uint8_t, 4>& rgba) {
  std::vector<std::string> parts{""};
  for (char c : text) {
    if (c == ',') parts.emplace_back();
    else parts.back().push_back(c);
  }
  if (parts.size() < 3 || parts.size() > 4) return false;
  std::array<uint8_t, 4> values{0, 0, 0, 255};
  for (size_t i = 0; i < parts.size(); ++i) {
    char* end = nullptr;
    const long v = std::strtol(parts[i].c_str(), &end, 10);
    if (parts[i].empty() || *end != '\0' || v < 0 || v > 255) return false;
    values[i] = static_cast<uint8_t>(v);
  }
  rgba = values;
  return true;
}

std::string checkColour(const std::string& text) {
  std::array<uint8_t, 4> rgba{};
  return parseColour(text, rgba) ? std::string() : "'" + text + "' is not R,G,B or R,G,B,A with values 0 to 255";
}

// A CLI11 check for a variant name: the table's names, listed when the name is not
// one of them ("unknown rotate variant 'x'", as the tables' checks say it).
std::function<std::string(const std::string&)> variantCheck(const std::string& what,
                                                           std::vector<std::string> names,
                                                           const char* alsoAccepted = nullptr) {
  return [what, names = std::move(names), alsoAccepted](const std::string& text) -> std::string {
    if (std::find(names.begin(), names.end(), text) != names.end()) return {};
    if (alsoAccepted && text == alsoAccepted) return {};
    return "unknown " + what + " variant '" + text + "'; the variants: " + joinValues(names);
  };
}

// `--transpose VARIANT` with a space: CLI11 would take VARIANT for an image file
// (the flag takes no value but `--transpose=VARIANT`), so a following word that
// names a variant is joined to it here. A following word that is neither a variant
// nor a file, and does not look like a file name, is a mistyped variant: said here,
// rather than later as a missing image. Joins in place; returns the message, or
// empty.
std::string joinTransposeVariant(std::vector<std::string>& args) {
  namespace fs = std::filesystem;
  const std::vector<std::string> names = transposeOp().variantNames();
  for (size_t i = 1; i + 1 < args.size(); ++i) {
    if (args[i] == "--") break;  // file names from here on
    if (args[i] != "--transpose") continue;
    const std::string& next = args[i + 1];
    if (std::find(names.begin(), names.end(), next) != names.end()) {
      args[i] += "=" + next;
      args.erase(args.begin() + static_cast<std::ptrdiff_t>(i) + 1);
      continue;
    }
    std::error_code ec;
    const bool looksLikeFile = next.find_first_of("./") != std::string::npos || fs::exists(next, ec);
    if (!next.empty() && next[0] != '-' && !looksLikeFile)
      return "--transpose: unknown transpose variant '" + next + "' (and no file of that name); the variants: " +
             joinValues(names);
  }
  return {};
}

}  // namespace

// A CLI11 check for a file the run will write at the end (--screenshot, --csv,
// --state-dump, --dump-program): refused up front, so a typo does not cost the
// whole run. Whether the file can really be created is only known on writing.
std::string outputFileProblem(const std::string& text) {
  namespace fs = std::filesystem;
  const fs::path file = text;
  const fs::path dir = file.has_parent_path() ? file.parent_path() : fs::path(".");
  const std::string quoted = "'" + text + "'";
  std::error_code ec;
  if (text.empty()) return "an output file name is needed";
  if (fs::is_directory(file, ec)) return "cannot write " + quoted + ": it is a directory";
  if (!fs::exists(dir, ec)) return "cannot write " + quoted + ": directory '" + dir.string() + "' does not exist";
  if (!fs::is_directory(dir, ec)) return "cannot write " + quoted + ": '" + dir.string() + "' is not a directory";
  if (fs::exists(file, ec) ? access(file.c_str(), W_OK) != 0 : access(dir.c_str(), W_OK | X_OK) != 0)
    return "cannot write " + quoted + ": " + std::strerror(errno);
  return {};
}

bool NBodyOptions::given(const std::string& option) const {
  return std::find(explicitOptions.begin(), explicitOptions.end(), option) != explicitOptions.end();
}

bool NBodyOptions::kernelOptionsGiven() const {
  for (const char* name : {"--variant", "--wg", "--unroll", "--bodies-per-item", "--split", "--fp64", "--fast-math",
                           "--ftz", "--precise-rsqrt", "--cl-options"})
    if (given(name)) return true;
  return false;
}

std::optional<int> parseCommandLine(int argc, char** argv, AppOptions& options) {
  CLI::App app{"kernelscope " KERNELSCOPE_VERSION
               " - watch OpenCL kernels at work, live, and tune them.\n"
               "Without a display (or with --headless) it renders offscreen through EGL."};
  app.set_version_flag("--version", "kernelscope " KERNELSCOPE_VERSION);
  app.add_flag("--headless", options.headless, "Render offscreen through EGL instead of opening a window");
  app.add_option("--frames", options.frames, "Stop after this many frames (headless default: 300)")
      ->check(CLI::Range(1, 100000000));
  app.add_option("--screenshot", options.screenshot, "Save the last frame, UI included, as a PNG file")
      ->check(outputFileProblem);
  app.add_option("--platform", options.platform, "OpenCL platform: index or name substring");
  app.add_option("--device", options.device,
                 "OpenCL device: index (within --platform if given, else as --list-devices numbers them) or name "
                 "substring");
  app.add_flag("--list-devices", options.listDevices, "Print the OpenCL devices and exit");
  app.add_option("--kernels-dir", options.kernelsDir, "Directory with the .cl kernel files");
  app.add_option("--config-dir", options.configDir,
                 "Where settings and imgui.ini live (default: $XDG_CONFIG_HOME/kernelscope). A window run saves the "
                 "N-body lab's choices there (bodies, preset, seed, kernel, drawing) and every run starts with "
                 "them; N-body options given on the command line win over them");
  app.add_option("--program-cache", options.programCacheDir,
                 "Where compiled program binaries are kept between runs (default: <config-dir>/program-cache "
                 "when --config-dir is given, else $XDG_CACHE_HOME/kernelscope/programs)");
  app.add_flag("--no-program-cache", options.noProgramCache, "Compile every kernel from source; keep no binaries");
  std::string size;
  app.add_option("--size", size, "Window or offscreen size, WIDTHxHEIGHT (default 1280x800)")
      ->check(sizeValidator(64, 16384));
  std::string interop = "auto";
  app.add_option("--interop", interop,
                 "How kernel output reaches GL: auto (best available), gl-sharing, external or host")
      ->check(CLI::IsMember({"auto", "gl-sharing", "external", "host"}));
  app.add_option("--scene", options.scene,
                 "Scene to start with: nbody (default), image (default when an image file is given) or julia")
      ->check(CLI::IsMember({"nbody", "image", "julia"}));
  // Not checked here: a file that cannot be opened is said in the image lab, which
  // starts with its built-in test image, as for a damaged file or a drop.
  app.add_option("images", options.images,
                 "Image file to open in the image lab (PNG, JPEG, BMP, TGA, GIF, PSD, HDR, PNM). Of several "
                 "(kernelscope *.jpg) the first opens and the lab says how many were ignored; one that cannot be "
                 "opened is reported there and the built-in test image is shown. With an image batch option "
                 "(below) every file is processed, and a directory stands for the image files in it");
  app.add_option("--spin", options.spin,
                 "Image lab: turn the picture by this many degrees per second, so that every frame runs the "
                 "kernels again (the Profiler and the summary show what a change costs)")
      ->check(CLI::Range(-3600.0f, 3600.0f));
  app.add_option("--state-dump", options.stateDump,
                 "At exit, write what the app showed (scene, image, log) as JSON to this file")
      ->check(outputFileProblem);
  app.add_option("--bench", options.bench,
                 "Run a benchmark instead of the viewer: nbody, image, interop, transpose, rotate or histogram (a "
                 "sweep of that operation's variants on an --image-size image, default 8192x8192; the same as "
                 "--sweep --op OPERATION) or ceilings (the device's measured memory, "
                 "arithmetic, local memory and atomic rates)")
      ->check(CLI::IsMember({"nbody", "image", "interop", "transpose", "rotate", "histogram", "ceilings"}));
  std::string imageSize;
  app.add_option("--image-size", imageSize, "Image size for --bench image, WIDTHxHEIGHT (default 8192x8192)")
      ->check(sizeValidator(1, 65536));
  NBodyOptions& nb = options.nbody;
  auto* group = app.add_option_group("N-body", "N-body simulation, benchmark and sweep options");
  group->add_option("--n", nb.bodies, "Number of bodies (>= 1)")->check(CLI::Range(size_t{1}, size_t{1} << 26));
  group->add_option("--variant", nb.variants,
                    "Kernel variant(s): " + joinValues(nbodyOp().variantNames()) +
                        " (lists for --sweep; with --op, that operation's variants)")
      ->delimiter(',')
      ->check(anyOperationVariant());
  group->add_option("--wg", nb.workGroups, "Work-group (tile) size(s), multiples of 32")
      ->delimiter(',')
      ->check(CLI::Range(1, kMaxWorkGroupOption));
  const std::vector<int>& unrolls = nbodyOp().parameter("unroll").values;
  const std::vector<int>& bodiesPerItem = nbodyOp().parameter("bodies_per_item").values;
  const std::vector<int>& splits = nbodyOp().parameter("split").values;
  group->add_option("--unroll", nb.unrolls, "Unroll factor(s): " + joinValues(unrolls))
      ->delimiter(',')
      ->check(CLI::IsMember(unrolls));
  group->add_option("--bodies-per-item", nb.bodiesPerItem,
                    "Bodies per work-item (register blocking): " + joinValues(bodiesPerItem))
      ->delimiter(',')
      ->check(CLI::IsMember(bodiesPerItem));
  group->add_option("--split", nb.splits, "Work-items per body (blocked variant, for small N): " + joinValues(splits))
      ->delimiter(',')
      ->check(CLI::IsMember(splits));
  group->add_flag("--fp64", nb.fp64, "Double precision (needs cl_khr_fp64)");
  group->add_flag("--fast-math", nb.fastMath, "Build with -cl-fast-relaxed-math");
  group->add_flag("--ftz", nb.denormsAreZero, "Build with -cl-denorms-are-zero (flush denormals)");
  group->add_flag("--precise-rsqrt", nb.preciseRsqrt, "rsqrt() instead of native_rsqrt() in fp32");
  group->add_option("--precision", nb.precisions,
                    "With --sweep: the precision settings to sweep (list): " + joinValues(nbodyPrecisionNames()) +
                        " (fp32 with native_rsqrt; the others change one thing from it)")
      ->delimiter(',')
      ->check(CLI::IsMember(nbodyPrecisionNames()));
  group->add_option("--drift-steps", nb.driftSteps,
                    "Also run this many steps from the preset and report how far the total energy (and momentum, "
                    "angular momentum) drifted, relative to the start: the accuracy beside the speed (--bench nbody, "
                    "--sweep; written into --csv/--json)")
      ->check(CLI::Range(1, 10000000));
  group->add_option("--dt", nb.dt,
                    "Time step of the N-body benchmark's steps (--bench nbody, --sweep; default: the preset's), "
                    "to see how the energy drift of --drift-steps falls with it")
      ->check(CLI::PositiveNumber);
  group->add_option("--cl-options", nb.extraOptions, "Extra OpenCL build options for the N-body kernel (and every kernel of --bench image and of the image batch)");
  group->add_flag("--build-log", nb.showBuildLog, "Print the N-body kernel's build log (benchmark)");
  group->add_option("--dump-program", nb.dumpProgram,
                    "Write the built N-body program's device binary (PTX on NVIDIA) to this file (benchmark)")
      ->check(outputFileProblem);
  std::string devices;
  group->add_option("--devices", devices,
                    "--bench nbody or the viewer's N-body scene with each step split over several OpenCL devices of one "
                    "platform: 'all' or device numbers within the platform, e.g. 0,1 (--list-devices shows them; "
                    "--platform picks the platform; in the viewer --device picks the one that draws)")
      ->check([](const std::string& text) {
        std::string error;
        return parseDeviceList(text, &error) ? std::string() : error;
      });
  group->add_flag("--scaling", nb.scaling,
                  "With --bench nbody --devices (or --distributed): run the split over the first 1, 2, ... K devices "
                  "of the list (or MPI ranks) and print the speed-up and parallel efficiency of each against one "
                  "device (strong scaling)");
  group->add_flag("--distributed", nb.distributed,
                  "--bench nbody split over MPI ranks, one device each: start it with mpirun -np K kernelscope "
                  "--headless --bench nbody --distributed");
  group->add_option("--positions-out", nb.positionsOut,
                    "--bench nbody: write the bodies' positions and velocities after all its steps to this file "
                    "(to compare one device, several devices and MPI ranks)")
      ->check(outputFileProblem);
  group->add_flag("--sweep", nb.sweep,
                  "Benchmark every combination of the given lists (all values when omitted; refused combinations "
                  "listed with the reason); --csv/--json write the runs. --op picks the operation (default nbody)");
  auto* runs = app.add_option_group("Runs", "Recording and sweep output (the app's Runs panel reads the JSON)");
  runs->add_option("--csv", nb.csv,
                   "Write the runs of --sweep (any --op), --bench nbody/transpose/rotate/histogram or --record as CSV "
                   "to this file")
      ->check(outputFileProblem);
  runs->add_option("--json", nb.json, "Write the same runs as JSON (full metadata; the Runs panel imports it)")
      ->check(outputFileProblem);
  runs->add_option("--record", options.record,
                   "Viewer: record this many frames after --warmup frames as a run, then exit and write "
                   "--csv/--json")
      ->check(CLI::Range(1, 10000000));
  runs->add_option("--warmup", options.warmup, "Frames skipped before --record starts (default 10)")
      ->check(CLI::Range(0, 100000));
  TransposeOptions& tr = options.transpose;
  auto* trGroup = app.add_option_group("Transpose sweep", "Ranges for --bench transpose (default: every value)");
  const KernelOp& transposes = transposeOp();
  trGroup->add_option("--transpose-variant", tr.variants, joinValues(transposes.variantNames()) + " (list)")
      ->delimiter(',')
      ->check(CLI::IsMember(transposes.variantNames()));
  addSweptParameterOption(*trGroup, "--tile", tr.tiles, "Tile sizes", transposes, "tile",
                          OfferedValues::EachVariantSome, 4096);
  addSweptParameterOption(*trGroup, "--rows-per-item", tr.rowsPerItem, "Rows per work-item of the tiled variants",
                          transposes, "rows_per_item", OfferedValues::All, 4096);
  addSweptParameterOption(*trGroup, "--tile-wg", tr.workGroups, "Work-group sizes of the 4x4 variants", transposes,
                          "work_group", OfferedValues::All, 1 << 20);
  std::vector<std::string> naiveShapes;
  trGroup->add_option("--naive-wg", naiveShapes, "Work-group shapes WxH of the naive variant (list)")
      ->delimiter(',')
      ->check(sizeValidator(1, 4096));
  trGroup->add_option("--channels", tr.channels, "Image channels to sweep (--bench transpose, rotate, histogram): 1 (gray), 4 (RGBA) (list, default 4)")
      ->delimiter(',')
      ->check(CLI::IsMember(transposes.parameter("channels").values));
  std::vector<std::string> rotateShapes;
  addRotateSweepOptions(app, options.rotateSweep, rotateShapes);
  addHistogramSweepOptions(app, options.histogramSweep);
  std::string sweptOp;
  std::vector<std::string> sweptParams;
  addSweepOpOptions(app, sweptOp, sweptParams);
  ImageBatchOptions& batch = options.imageBatch;
  auto* batchGroup = app.add_option_group(
      "Image batch",
      "Any of these with image files runs the image lab's pipeline on each file, on the OpenCL device and "
      "without a window (no display or GL needed): load, rotate, transpose if asked, histogram; then save. "
      "What is not given is what the lab runs: its default kernels for the device and image, its background, the "
      "histogram of the result. One line per file; a file that fails is reported and the next one processed "
      "(exit 1 when any failed). In PATTERN, %s stands for each file's name without extension: "
      "kernelscope --angle 30 --save-result 'out/%s.png' --histogram-out 'out/%s.csv' photos/*.jpg");
  batchGroup->add_option("--angle", batch.angle, "Rotate by this many degrees, clockwise (default 0)")
      ->type_name("DEG")
      ->check(checkFiniteNumber);
  const std::vector<std::string> rotateNames = rotateOp().variantNames();
  batchGroup->add_option("--rotate", batch.rotateVariant,
                         "Rotation variant: " + joinValues(rotateNames) + " (default: the lab's for the device and "
                         "image)")
      ->type_name("VARIANT")
      ->check(variantCheck("rotate", rotateNames));
  batchGroup->add_flag("--expand", batch.expand, "Expand the canvas to hold the whole rotated picture (default: crop "
                                                 "to the input's size)");
  std::string background;
  auto* backgroundOption =
      batchGroup->add_option("--background", background,
                             "Colour where the rotated picture leaves the canvas, R,G,B or R,G,B,A, 0 to 255 (gray "
                             "images: its luminance; default: the lab's dark gray)")
          ->type_name("R,G,B[,A]")
          ->check(checkColour);
  batchGroup->add_flag("--transparent", batch.transparent, "Leave (0,0,0,0) where the picture leaves the canvas")
      ->excludes(backgroundOption);
  const std::vector<std::string> transposeNames = transposes.variantNames();
  std::string transpose;
  batchGroup->add_flag("--transpose", transpose,
                       "Transpose the rotated picture; --transpose VARIANT or --transpose=VARIANT picks the kernel: " +
                           joinValues(transposeNames) + " (default: the lab's)")
      ->check(variantCheck("transpose", transposeNames, kTransposeFlagAlone));
  const std::vector<std::string> histogramNames = histogramOp().variantNames();
  batchGroup->add_option("--histogram", batch.histogramVariant,
                         "Histogram variant: " + joinValues(histogramNames) + " (default: the lab's for the device)")
      ->type_name("VARIANT")
      ->check(variantCheck("histogram", histogramNames));
  std::string histogramOf;
  batchGroup->add_option("--histogram-of", histogramOf,
                         "Count the histogram of the result (default, as the lab) or of the original")
      ->check(CLI::IsMember({"result", "original"}));
  batchGroup->add_option("--save-result", batch.saveResult, "Save each result as PNG to PATTERN (.png)")
      ->type_name("PATTERN");
  batchGroup->add_option("--histogram-out", batch.histogramOut,
                         "Write each histogram to PATTERN: .csv (a row per bin 0..255, then count, sum, sum_squares, "
                         "min, max, mean, stddev, median and percentiles; a column per channel) or .json (the same per channel)")
      ->type_name("PATTERN");
  std::vector<std::string> presets;
  for (NBodyPreset p : kNBodyPresets) presets.emplace_back(nbodyPresetName(p));
  group->add_option("--preset", nb.preset, "Start preset: " + joinValues(presets))->check(CLI::IsMember(presets));
  group->add_option("--seed", nb.seed, "Random seed of the start preset");
  const auto particleDrawingNames = [] {
    std::vector<std::string> names;
    for (ParticleDrawing d : kParticleDrawings) names.emplace_back(particleDrawingName(d));
    return names;
  };
  group->add_option("--particle-drawing", nb.particleDrawing,
                    "How the viewer draws the particles: auto (both ways timed on the GPU for a few frames, then the "
                    "faster), sprites (GL's point sprites) or compute (GL 4.3 compute shaders, the same picture; "
                    "faster where few of the GPU's cores run GL's point drawing, as on NVIDIA's H100 and H200)")
      ->check(CLI::IsMember(particleDrawingNames()));
  group->add_flag("--verify", nb.verify,
                  "Compare one step of the chosen variant with the CPU reference, print the error and exit");
  app.add_option("--iterations", options.iterations, "Benchmark iterations (after an untimed warm-up)")
      ->check(CLI::Range(1, 1000000));
  bool noVsync = false;
  app.add_flag("--no-vsync", noVsync, "Do not wait for the display's refresh");
  app.add_option("--panel-rate", options.panelsPerSecond,
                 "Build the panels at most this many times a second (default " +
                     std::to_string(static_cast<int>(PanelPacing::kDefaultPerSecond)) +
                     "; 0: every frame). The kernels run and the picture is drawn every frame; frames in between "
                     "show the panels as last built")
      ->check(CLI::Range(0.0, 100000.0));
  app.footer(
      "Exit codes: 0 ok, 1 other failure, 2 bad usage, 3 no OpenCL platform, 4 no usable OpenCL device,\n"
      "5 OpenGL/EGL context creation failed, 6 kernels directory missing, 7 a kernel failed to build.");
  // CLI11 reads the arguments after the program's name; `--transpose VARIANT` is joined first.
  std::vector<std::string> args(argv, argv + argc);
  auto usageError = [](const std::string& message) {
    std::fprintf(stderr, "%s\nRun with --help for more information.\n", message.c_str());
    return static_cast<int>(kExitUsage);
  };
  if (const std::string problem = joinTransposeVariant(args); !problem.empty()) return usageError(problem);
  std::vector<const char*> joined;
  for (const auto& a : args) joined.push_back(a.c_str());
  try {
    app.parse(static_cast<int>(joined.size()), joined.data());
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? kExitOk : kExitUsage;
  }
  if (!size.empty()) {
    parseSize(size, options.width, options.height);
    options.sizeGiven = true;
  }
  options.vsync = !noVsync;
  if (!imageSize.empty()) parseSize(imageSize, options.imageBenchWidth, options.imageBenchHeight);
  for (const char* name : {"--variant", "--wg", "--unroll", "--bodies-per-item", "--split", "--n", "--fp64",
                           "--fast-math", "--ftz", "--precise-rsqrt", "--cl-options", "--preset", "--seed",
                           "--particle-drawing"})
    if (app.count(name) > 0) options.nbody.explicitOptions.push_back(name);
  if (const std::string problem = finishSweepOpOptions(app, sweptOp, sweptParams, options); !problem.empty())
    return usageError(problem);
  for (const auto& shape : naiveShapes) {
    int w = 0, h = 0;
    parseSize(shape, w, h);
    tr.naiveShapes.emplace_back(w, h);
  }
  if (const std::string problem = finishRotateSweepOptions(app, options, options.rotateSweep, rotateShapes);
      !problem.empty())
    return usageError(problem);
  for (const char* name : {"--angle", "--rotate", "--expand", "--background", "--transparent", "--transpose",
                           "--histogram", "--histogram-of", "--save-result", "--histogram-out"})
    if (app.count(name) > 0) batch.given.push_back(name);
  if (batch.requested()) {
    if (!background.empty()) {
      std::array<uint8_t, 4> rgba{};
      parseColour(background, rgba);
      batch.background = rgba;
    }
    batch.transpose = app.count("--transpose") > 0;
    batch.transposeVariant = transpose == kTransposeFlagAlone ? std::string() : transpose;
    if (!histogramOf.empty()) batch.histogramOfResult = histogramOf == "result";
    // Options of the other runs would be ignored without a word: refused instead.
    for (const char* name : {"--frames", "--screenshot", "--state-dump", "--spin", "--scene", "--record", "--bench",
                             "--sweep", "--verify", "--list-devices"})
      if (app.count(name) > 0)
        return usageError(std::string(name) + ": not with the image batch (" + batch.given.front() +
                          "), which processes image files without the viewer or a benchmark");
    std::string problem;
    options.images = expandImageDirectories(options.images, &problem);
    if (!problem.empty()) return usageError("images: " + problem);
    if (problem = imageBatchUsageProblem(options); !problem.empty()) return usageError(problem);
  }
  if (options.nbody.sweep && options.bench.empty()) options.bench = "nbody";
  if (!options.nbody.precisions.empty() && !options.nbody.sweep)
    return usageError("--precision: a list for --sweep; for one configuration use --fp64, --fast-math, --ftz or "
                      "--precise-rsqrt");
  if (options.nbody.driftSteps > 0 && options.bench != "nbody")
    return usageError("--drift-steps: for --bench nbody or --sweep");
  if (options.nbody.dt && options.bench != "nbody") return usageError("--dt: for --bench nbody or --sweep");
  if (!devices.empty()) options.nbody.devices = parseDeviceList(devices, nullptr);
  NBodyOptions& split = options.nbody;
  for (const auto& [given, name] : {std::pair{split.devices.has_value(), "--devices"},
                                    std::pair{split.distributed, "--distributed"},
                                    std::pair{split.positionsOut.has_value(), "--positions-out"}}) {
    if (!given) continue;
    // --devices also splits the viewer's N-body step (no --bench).
    const bool viewer = options.bench.empty() && !split.sweep && std::string(name) == "--devices";
    if (viewer) continue;
    if (options.bench != "nbody" || split.sweep)
      return usageError(std::string(name) + ": for --bench nbody (one configuration, not --sweep)" +
                        (std::string(name) == "--devices" ? " or the viewer" : ""));
    if (split.driftSteps > 0 && std::string(name) != "--positions-out")
      return usageError(std::string(name) + ": not with --drift-steps, which is measured on one device");
  }
  if (split.scaling && !split.devices && !split.distributed)
    return usageError("--scaling: with --bench nbody --devices (the devices to scale over) or --distributed (the MPI "
                      "ranks)");
  if (split.scaling && split.positionsOut)
    return usageError("--positions-out: not with --scaling, which runs the split once per device count");
  if (split.devices && split.distributed)
    return usageError("--devices and --distributed: choose one (MPI ranks take one device each, by local rank)");
  if ((split.devices || split.distributed) && options.device && !options.bench.empty())
    return usageError(std::string(split.devices ? "--devices" : "--distributed") +
                      ": not with --device (" +
                      (split.devices ? "--devices names the devices" : "each rank takes the device of its local rank") +
                      "; --platform picks the platform)");
  // --record ends the run when the recording is done, unless --frames says otherwise
  // (+1: the first frame runs before the recorder sees the request).
  if (options.record > 0 && app.count("--frames") == 0) options.frames = 1 + options.warmup + options.record;
  if (options.scene.empty()) options.scene = options.images.empty() ? "nbody" : "image";
  options.interop = parseInteropPath(interop);  // "auto" parses to none
  if (options.headless && options.frames == 0) options.frames = 300;
  return std::nullopt;
}

}  // namespace ks
