#include "app/image_batch.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <sstream>
#include <vector>

#include "app/app_state.h"
#include "app/session.h"
#include "compute/atomic_file.h"
#include "compute/image_histogram.h"
#include "compute/image_layout.h"
#include "compute/image_rotate.h"
#include "compute/image_transpose.h"
#include "compute/parameter_values.h"
#include "compute/rotate_coverage.h"
#include "io/image_file.h"
#include "io/png_writer.h"
#include "io/settings.h"
#include "lab/tuning_cache.h"

namespace ks {
namespace {

namespace fs = std::filesystem;

constexpr uint64_t kHostBudgetBytes = uint64_t{1} << 30;  // the image lab's: one 8-bit copy on the host
// No GL texture limits the batch; stb_image's own limit (absurd sizes) and the
// device's buffers (ImageLimits::maxBytes) still do.
constexpr int kNoDimensionLimit = 1 << 24;

bool endsWithIgnoringCase(const std::string& text, const std::string& suffix) {
  if (text.size() < suffix.size()) return false;
  return std::equal(suffix.begin(), suffix.end(), text.end() - static_cast<std::ptrdiff_t>(suffix.size()),
                    [](char a, char b) { return std::tolower(static_cast<unsigned char>(a)) == b; });
}

std::string quoted(const fs::path& file) { return "'" + file.string() + "'"; }

// The same file however it is named (relative, "./", symlinks); for comparing paths.
fs::path samePathKey(const fs::path& file) {
  std::error_code ec;
  const fs::path canonical = fs::weakly_canonical(fs::absolute(file, ec), ec);
  return ec ? file.lexically_normal() : canonical;
}

// ---- what runs: the lab's choices for this image, or those asked for ------------------

// The rotation: the lab's default for this device and image; a variant asked for
// keeps the default's work-group with a block of pixels the variant offers, and
// where the device refuses that, takes the variant's first configuration it runs
// (as the lab's variant list offers only those). Throws ImageConfigError with the
// table's reason when none runs.
RotateConfig rotationFor(const std::string& variant, const ImageLayout& layout, const DeviceDescriptor& device,
                         std::array<size_t, 2> maxImage2d, const TuningCache& tuning) {
  // A sweep's winner for this device (tuning.json), else the built-in default, as in the lab.
  RotateConfig config =
      preferredRotateConfig(tuning, device, layout, maxImage2d).value_or(defaultRotateConfig(layout, device, maxImage2d));
  if (variant.empty() || variant == config.variant) return config;
  const ImageRotateVariant* v = findImageRotateVariant(variant);
  if (!v) throw ImageConfigError("unknown rotate variant '" + variant + "'");  // the command line checked the name
  if (v->image && (static_cast<size_t>(layout.width) > maxImage2d[0] ||
                   static_cast<size_t>(layout.height) > maxImage2d[1]))
    throw ImageConfigError(describeImageLayout(layout) + " is larger than this device's 2D images (" +
                           std::to_string(maxImage2d[0]) + "x" + std::to_string(maxImage2d[1]) + "): rotate variant " +
                           variant + " cannot take it; " + defaultRotateConfig(layout, device, maxImage2d).variant +
                           " can");
  config.variant = variant;
  fitRotateBlock(*v, config.pixelsPerItem, config.rowsPerItem);
  const std::string problem = imageRotateConfigProblem(config, device, layout.channels);
  if (problem.empty()) return config;
  for (const RotateConfig& c : allRotateConfigs(device, layout.channels))
    if (c.variant == variant) return c;
  throw ImageConfigError("rotate variant " + variant + " does not run on this device for " +
                         describeImageLayout(layout) + ": " + problem);
}

// The transpose: a sweep's winner for this device (tuning.json), else the built-in
// default, as in the lab; a variant asked for: its first configuration the device runs.
TransposeConfig transposeFor(const std::string& variant, int channels, const DeviceDescriptor& device,
                             const TuningCache& tuning) {
  const TransposeConfig fallback =
      preferredTransposeConfig(tuning, device, channels).value_or(defaultTransposeConfig(channels));
  if (variant.empty() || variant == fallback.variant) return fallback;
  if (const std::string problem = imageTransposeVariantProblem(variant, device, channels); !problem.empty())
    throw ImageConfigError("transpose variant " + variant + " does not run on this device for " +
                           (channels == 1 ? "gray" : "RGBA") + " images: " + problem);
  for (const TransposeConfig& c : allTransposeConfigs(device, channels))
    if (c.variant == variant) return c;
  throw ImageConfigError("transpose variant " + variant + " offers no configuration");
}

// The histogram: a sweep's winner for this device (tuning.json), else the lab's
// default for the device; a variant asked for: its first configuration the device
// runs, else the reason the lab's variant list gives.
HistogramConfig histogramFor(const std::string& variant, int channels, const DeviceDescriptor& device,
                             const TuningCache& tuning) {
  const HistogramConfig fallback =
      preferredHistogramConfig(tuning, device, channels).value_or(defaultHistogramConfig(channels, device));
  if (variant.empty() || variant == fallback.variant) return fallback;
  for (const HistogramConfig& c : allHistogramConfigs(device, channels))
    if (c.variant == variant) return c;
  std::string why = "no configuration of this variant runs on the device";
  if (const ImageHistogramVariant* v = findImageHistogramVariant(variant); v && v->fused)
    if (std::string fence = deviceScopeFenceProblem(device); !fence.empty()) why = fence;
  throw ImageConfigError("histogram variant " + variant + " does not run here: " + why);
}

// The lab's background when none is asked for (its colour picker's floats, as bytes).
std::array<uint8_t, 4> labBackground() {
  const ImageLabState lab;
  std::array<uint8_t, 4> rgba{};
  for (size_t i = 0; i < 4; ++i)
    rgba[i] = static_cast<uint8_t>(std::lround(std::clamp(lab.choices.background[i], 0.0f, 1.0f) * 255.0f));
  return rgba;
}

// A runner per configuration met so far: a batch of gray and RGBA files alternates
// between the two defaults without building anything twice (each runner builds its
// programs per channel count, on first use).
template <class Runner, class Config>
Runner& runnerFor(std::vector<std::unique_ptr<Runner>>& runners, ComputeContext& compute, const Config& config) {
  for (auto& r : runners)
    if (r->config() == config) return *r;
  runners.push_back(std::make_unique<Runner>(compute, config));
  return *runners.back();
}

// ---- histogram files ---------------------------------------------------------------

struct HistogramReport {
  fs::path input;
  ImageLayout counted;  // the image the histogram counts
  bool ofResult = true;
  std::string config;
  const ImageHistogramResult* result = nullptr;
  uint64_t outsidePicture = 0;  // the rotation's fill, left out of the bins (compute/rotate_coverage.h)
};

// "30", "-123.4", "1": a parameter as it was given.
std::string formatNumber(double value) {
  char text[64];
  std::snprintf(text, sizeof text, "%.10g", value);
  return text;
}

// Mean and standard deviation: six decimals, as exact as a reader needs.
std::string formatStatistic(double value) {
  char text[64];
  std::snprintf(text, sizeof text, "%.6f", value);
  return text;
}

// One column per channel; rows 0..255 are the bins, then the statistics by name
// (the Histogram panel's: count, min, max, mean, std dev, median, percentiles).
std::string histogramCsv(const HistogramReport& report) {
  const ImageHistogram& h = report.result->histogram;
  const ImageStatistics& s = report.result->statistics;
  const int channels = h.channelCount();
  std::ostringstream o;
  o << "bin";
  for (int c = 0; c < channels; ++c) o << ',' << histogramChannelName(h.imageChannels, c);
  o << '\n';
  for (int bin = 0; bin < kHistogramBins; ++bin) {
    o << bin;
    for (int c = 0; c < channels; ++c) o << ',' << h.channel(c)[bin];
    o << '\n';
  }
  auto row = [&](const std::string& name, auto value) {
    o << name;
    for (const ChannelStatistics& cs : s.channels) o << ',' << value(cs);
    o << '\n';
  };
  row("count", [](const ChannelStatistics& cs) { return std::to_string(cs.count); });
  row("sum", [](const ChannelStatistics& cs) { return std::to_string(cs.sum); });
  row("sum_squares", [](const ChannelStatistics& cs) { return std::to_string(cs.sumSquares); });
  row("min", [](const ChannelStatistics& cs) { return std::to_string(cs.min); });
  row("max", [](const ChannelStatistics& cs) { return std::to_string(cs.max); });
  row("mean", [](const ChannelStatistics& cs) { return formatStatistic(cs.mean); });
  row("stddev", [](const ChannelStatistics& cs) { return formatStatistic(cs.stddev); });
  row("median", [](const ChannelStatistics& cs) { return std::to_string(cs.median); });
  for (size_t i = 0; i < kImagePercentiles.size(); ++i)
    row("p" + formatNumber(kImagePercentiles[i]),
        [i](const ChannelStatistics& cs) { return std::to_string(cs.percentiles[i]); });
  // The same for every channel: pixels of the result outside the rotated picture, not counted.
  const std::string outside = std::to_string(report.outsidePicture);
  row("outside_picture", [&](const ChannelStatistics&) { return outside; });
  return o.str();
}

std::string histogramJson(const HistogramReport& report) {
  const ImageHistogram& h = report.result->histogram;
  const ImageStatistics& s = report.result->statistics;
  // In the Histogram panel's order, the bins last.
  std::vector<nlohmann::ordered_json> channels;
  for (int c = 0; c < h.channelCount(); ++c) {
    const ChannelStatistics& cs = s.channels[static_cast<size_t>(c)];
    nlohmann::ordered_json percentiles = nlohmann::ordered_json::object();
    for (size_t i = 0; i < kImagePercentiles.size(); ++i)
      percentiles[formatNumber(kImagePercentiles[i])] = cs.percentiles[i];
    channels.push_back({{"name", histogramChannelName(h.imageChannels, c)},
                        {"count", cs.count},
                        {"sum", cs.sum},
                        {"sum_squares", cs.sumSquares},
                        {"min", cs.min},
                        {"max", cs.max},
                        {"mean", cs.mean},
                        {"stddev", cs.stddev},
                        {"median", cs.median},
                        {"percentiles", percentiles},
                        {"bins", std::vector<uint32_t>(h.channel(c), h.channel(c) + kHistogramBins)}});
  }
  // A line per channel (256 bins are unreadable one per line), the rest a line per key.
  const std::pair<const char*, nlohmann::ordered_json> fields[] = {
      {"file", report.input.string()},
      {"of", report.ofResult ? "result" : "original"},
      {"image", {{"width", report.counted.width}, {"height", report.counted.height}, {"channels", report.counted.channels}}},
      {"histogram", report.config},
      // Pixels of the result outside the rotated picture (its background fill), not counted.
      {"outside_picture", report.outsidePicture}};
  std::string text = "{\n";
  for (const auto& [key, value] : fields) text += "  \"" + std::string(key) + "\": " + value.dump() + ",\n";
  text += "  \"channels\": [\n";
  for (size_t c = 0; c < channels.size(); ++c) text += "    " + channels[c].dump() + (c + 1 < channels.size() ? ",\n" : "\n");
  return text + "  ]\n}\n";
}

// ---- one file -------------------------------------------------------------------

struct Batch {
  ComputeContext& compute;
  const ImageBatchOptions& options;
  RotateParams params;
  bool histogramOfResult = true;
  ImageLimits limits{};
  std::array<size_t, 2> maxImage2d{};
  TuningCache tuning;
  std::vector<std::unique_ptr<ImageRotator>> rotators;
  std::vector<std::unique_ptr<ImageTransposer>> transposers;
  std::vector<std::unique_ptr<ImageHistogrammer>> histogrammers;
};

// Why the device cannot hold the result (an expanded canvas is up to twice the
// input), or empty; as the lab says it.
std::string resultSizeProblem(const ImageLayout& result, uint64_t maxBufferBytes) {
  if (const std::string p = imageLayoutProblem(result); !p.empty()) return "the result: " + p;
  if (result.bytes() > maxBufferBytes)
    return "the result would be " + std::to_string(result.width) + "x" + std::to_string(result.height) + " pixels, " +
           std::to_string(result.bytes() >> 20) + " MiB; this device's largest buffer is " +
           std::to_string(maxBufferBytes >> 20) + " MiB";
  return {};
}

std::string formatMs(double ms) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3f ms", ms);
  return text;
}

// Loads, runs and saves one file; returns what was done (one line). Throws what
// went wrong: ImageFileError (the file), ImageConfigError (a configuration or size
// the device refuses), ProgramBuildError, ClError, or a write error as runtime_error.
std::string processFile(Batch& batch, const fs::path& file) {
  ComputeContext& compute = batch.compute;
  Queue& queue = compute.queue();
  const DeviceDescriptor& device = compute.device();
  const ImageBatchOptions& o = batch.options;
  HostImage image = loadImageFile(file, batch.limits);
  const ImageLayout layout{image.width, image.height, image.channels};
  if (const std::string p = imageLayoutProblem(layout); !p.empty()) throw ImageConfigError(quoted(file) + ": " + p);

  // Every configuration and size is settled before anything runs on the device.
  const RotateConfig rotateConfig = rotationFor(o.rotateVariant, layout, device, batch.maxImage2d, batch.tuning);
  if (const std::string p = imageRotateConfigProblem(rotateConfig, device, layout.channels); !p.empty())
    throw ImageConfigError(describeRotateConfig(rotateConfig) + ": " + p);
  std::optional<TransposeConfig> transposeConfig;
  if (o.transpose) transposeConfig = transposeFor(o.transposeVariant, layout.channels, device, batch.tuning);
  const HistogramConfig histogramConfig = histogramFor(o.histogramVariant, layout.channels, device, batch.tuning);
  const ImageLayout rotated = rotatedLayout(layout, batch.params);
  const ImageLayout result = transposeConfig ? transposedLayout(rotated) : rotated;
  if (const std::string p = resultSizeProblem(result, device.maxAllocBytes); !p.empty()) throw ImageConfigError(p);
  const std::optional<fs::path> savePath =
      o.saveResult ? std::optional(imageBatchOutputPath(*o.saveResult, file)) : std::nullopt;
  if (savePath)
    if (const std::string p = pngSizeProblem(result.width, result.height, result.channels); !p.empty())
      throw std::runtime_error(pngWriteError(*savePath, p));

  ImageRotator& rotator = runnerFor(batch.rotators, compute, rotateConfig);
  ImageTransposer* transposer = transposeConfig ? &runnerFor(batch.transposers, compute, *transposeConfig) : nullptr;
  ImageHistogrammer& histogrammer = runnerFor(batch.histogrammers, compute, histogramConfig);
  rotator.prepare(layout.channels);  // builds (a kernel that does not compile throws here, before the run)
  if (transposer) transposer->prepare(layout.channels);
  histogrammer.prepare(layout.channels);

  Buffer original(compute.context(), CL_MEM_READ_ONLY, layout.bytes());
  queue.writeBuffer(original, 0, layout.bytes(), image.pixels.data());
  Buffer rotatedBuffer(compute.context(), CL_MEM_READ_WRITE, rotated.bytes());
  // A new buffer may get the handle of the last file's, freed: the image variants
  // must not take it for the source they copied last time.
  rotator.sourceChanged();
  ImageOpEvents rotateEvents, transposeEvents, histogramEvents;
  rotator.run(queue, original.get(), layout, rotatedBuffer.get(), rotated, batch.params, &rotateEvents);
  Buffer transposedBuffer;
  if (transposer) {
    transposedBuffer = Buffer(compute.context(), CL_MEM_READ_WRITE, result.bytes());
    transposer->run(queue, rotatedBuffer.get(), rotated, transposedBuffer.get(), result, &transposeEvents);
  }
  const Buffer& resultBuffer = transposer ? transposedBuffer : rotatedBuffer;
  const ImageLayout& counted = batch.histogramOfResult ? result : layout;
  ImageHistogramResult histogram = histogrammer.compute(
      queue, batch.histogramOfResult ? resultBuffer.get() : original.get(), counted, &histogramEvents);
  // As in the image lab: the result's pixels outside the rotated picture are left out.
  const uint64_t outsidePicture =
      batch.histogramOfResult
          ? rotateFillPixelCount(layout, batch.params, findImageRotateVariant(rotateConfig.variant)->sampling)
          : 0;
  leaveOutFillPixels(histogram, outsidePicture, rotateBackgroundPixel(batch.params, layout.channels));

  std::string line = file.string() + " (" + image.description + "): rotate " + formatNumber(batch.params.degrees) +
                     " deg " + (batch.params.canvas == RotateCanvas::Expand ? "expanded " : "") +
                     describeRotateConfig(rotateConfig) + " " + formatMs(rotateEvents.elapsedMs());
  if (transposer)
    line += ", transpose " + describeTransposeConfig(*transposeConfig) + " " + formatMs(transposeEvents.elapsedMs());
  line += ", histogram of the " + std::string(batch.histogramOfResult ? "result " : "original ") +
          describeHistogramConfig(histogramConfig) + " " + formatMs(histogramEvents.elapsedMs());
  line += "; result " + describeImageLayout(result);
  if (outsidePicture) line += " (" + describeLeftOutPixels(outsidePicture) + ")";

  if (savePath) {
    HostImage out;
    out.width = result.width;
    out.height = result.height;
    out.channels = result.channels;
    out.pixels.resize(result.bytes());
    queue.readBuffer(resultBuffer, 0, out.pixels.size(), out.pixels.data());
    if (const Result<void> saved = savePngFile(out, *savePath); !saved) throw saved.error();
    line += ", saved to " + savePath->string();
  }
  if (o.histogramOut) {
    const fs::path histogramPath = imageBatchOutputPath(*o.histogramOut, file);
    const HistogramReport report{file, counted, batch.histogramOfResult, describeHistogramConfig(histogramConfig),
                                 &histogram, outsidePicture};
    const std::string text =
        endsWithIgnoringCase(histogramPath.string(), ".csv") ? histogramCsv(report) : histogramJson(report);
    if (const std::string error = replaceFileAtomically(histogramPath, text); !error.empty())
      throw std::runtime_error(error);
    line += "; histogram written to " + histogramPath.string();
  }
  return line;
}

}  // namespace

fs::path imageBatchOutputPath(const std::string& pattern, const fs::path& input) {
  const std::string stem = input.stem().string();
  std::string out;
  for (size_t i = 0; i < pattern.size(); ++i) {
    if (pattern.compare(i, 2, "%s") == 0) {
      out += stem;
      ++i;
    } else {
      out += pattern[i];
    }
  }
  return out;
}

std::vector<fs::path> expandImageDirectories(const std::vector<fs::path>& files, std::string* problem) {
  // The extensions of what io/image_file.h decodes.
  static const char* const kImageExtensions[] = {".png", ".jpg", ".jpeg", ".bmp", ".tga", ".gif",
                                                 ".psd", ".hdr", ".pic", ".pgm", ".ppm", ".pnm"};
  std::vector<fs::path> expanded;
  for (const fs::path& file : files) {
    std::error_code ec;
    if (!fs::is_directory(file, ec)) {
      expanded.push_back(file);  // a file, or nothing: loading it says which
      continue;
    }
    std::vector<fs::path> images;
    for (fs::directory_iterator it(file, ec), end; !ec && it != end; it.increment(ec)) {
      const std::string name = it->path().filename().string();
      const bool image = std::any_of(std::begin(kImageExtensions), std::end(kImageExtensions),
                                     [&](const char* ext) { return endsWithIgnoringCase(name, ext); });
      std::error_code typeError;
      if (image && !name.starts_with(".") && it->is_regular_file(typeError)) images.push_back(it->path());
    }
    if (ec) {
      *problem = quoted(file) + ": cannot list the directory: " + ec.message();
      return {};
    }
    if (images.empty()) {
      std::string list;
      for (const char* ext : kImageExtensions) list += std::string(list.empty() ? "" : " ") + ext;
      *problem = quoted(file) + " is a directory without image files (" + list + ")";
      return {};
    }
    std::sort(images.begin(), images.end());
    expanded.insert(expanded.end(), images.begin(), images.end());
  }
  return expanded;
}

std::string imageBatchUsageProblem(const AppOptions& options) {
  const ImageBatchOptions& b = options.imageBatch;
  const std::string first = b.given.empty() ? "--angle" : b.given.front();
  const auto& images = options.images;
  if (images.empty())
    return first + ": the image batch processes image files, and none is given (kernelscope " + first +
           " ... --save-result 'out/%s.png' photos/*.jpg)";
  struct Output {
    const char* option;
    const std::optional<std::string>& pattern;
    std::vector<const char*> extensions;
  };
  const Output outputs[] = {{"--save-result", b.saveResult, {".png"}},
                            {"--histogram-out", b.histogramOut, {".csv", ".json"}}};
  std::map<fs::path, std::pair<std::string, fs::path>> written;  // output -> option, input
  std::map<fs::path, fs::path> inputs;                            // every input, by its key
  for (const auto& file : images) inputs.emplace(samePathKey(file), file);
  for (const Output& out : outputs) {
    if (!out.pattern) continue;
    const std::string& pattern = *out.pattern;
    const std::string option = out.option;
    if (std::none_of(out.extensions.begin(), out.extensions.end(),
                     [&](const char* ext) { return endsWithIgnoringCase(pattern, ext); }))
      return option + ": '" + pattern + "' must end in " +
             (out.extensions.size() == 1 ? std::string(out.extensions[0])
                                         : std::string(out.extensions[0]) + " or " + out.extensions[1]) +
             (option == "--save-result" ? " (results are saved as PNG)" : " (CSV or JSON, by the extension)");
    if (images.size() > 1 && pattern.find("%s") == std::string::npos)
      return option + ": '" + pattern + "' has no %s, but " + std::to_string(images.size()) +
             " image files are given and each needs its own output: %s stands for each file's name without "
             "extension (e.g. 'out/%s" + std::string(out.extensions[0]) + "')";
    for (const auto& file : images) {
      const fs::path path = imageBatchOutputPath(pattern, file);
      if (const std::string p = outputFileProblem(path.string()); !p.empty()) return option + ": " + p;
      const fs::path key = samePathKey(path);
      if (auto in = inputs.find(key); in != inputs.end())
        return option + ": " + quoted(path) + " is the input file " + quoted(in->second) + ": it would be overwritten";
      auto [at, added] = written.emplace(key, std::pair{option, file});
      if (!added) {
        const auto& [otherOption, otherFile] = at->second;
        if (samePathKey(otherFile) == samePathKey(file))
          return option + ": " +
                 (otherFile == file ? quoted(file) + " is given twice"
                                    : quoted(otherFile) + " and " + quoted(file) + " are the same file") +
                 "; its outputs would overwrite each other";
        return option + ": " + quoted(otherFile) + " and " + quoted(file) + " would both write " + quoted(path) +
               (otherOption == option ? " (%s is the name without directory and extension)"
                                      : " (" + otherOption + " writes it too)");
      }
    }
  }
  return {};
}

int runImageBatch(DeviceCatalog catalog, const AppOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  StartDevice chosen = chooseStartDevice(std::move(catalog), options, Settings{}, GlContextHandles{});
  const DeviceDescriptor& device = chosen.devices[chosen.index];
  // Kernels built once are kept on disk as the viewer keeps them (benchmarks do not:
  // they measure builds too).
  std::optional<fs::path> programCacheDir;
  if (!options.noProgramCache) programCacheDir = options.programCacheDir ? options.programCacheDir
                                                                       : defaultProgramCacheDir(options.configDir);
  ComputeContext compute(device, locateKernelsDir(options), GlContextHandles{}, programCacheDir);
  compute.setExtraBuildOptions(options.nbody.extraOptions);  // --cl-options

  const ImageBatchOptions& o = options.imageBatch;
  const ImageLabState lab;  // the lab's defaults for what is not asked for
  Batch batch{compute, o};
  batch.params.degrees = o.angle;
  batch.params.canvas = o.expand ? RotateCanvas::Expand : RotateCanvas::Crop;
  batch.params.transparent = o.transparent || (!o.background && lab.choices.transparentBackground);
  batch.params.background = o.background.value_or(labBackground());
  batch.histogramOfResult = o.histogramOfResult.value_or(lab.choices.histogramOfResult);
  // As the lab limits what it opens, without OpenGL's part: the input and the result
  // (up to twice its size, expanded) must fit the device's buffers.
  batch.limits = {kNoDimensionLimit, std::min<uint64_t>(device.maxAllocBytes / 2, kHostBudgetBytes)};
  batch.maxImage2d = deviceMaxImage2d(device);
  std::string tuningWarning;
  batch.tuning = loadTuningCache(options.configDir.value_or(defaultConfigDir()) / "tuning.json", &tuningWarning);
  if (!tuningWarning.empty()) std::fprintf(stderr, "kernelscope: warning: %s\n", tuningWarning.c_str());

  std::printf("kernelscope image batch on %s: %zu file%s\n", device.displayName().c_str(), options.images.size(),
              options.images.size() == 1 ? "" : "s");
  std::fflush(stdout);
  std::vector<std::string> failed;
  for (const fs::path& file : options.images) {
    std::string error;
    try {
      std::printf("%s\n", processFile(batch, file).c_str());
      std::fflush(stdout);
    } catch (const ImageFileError& e) {
      error = std::string("cannot open: ") + e.what();  // the lab's words; the message names the file
    } catch (const ProgramBuildError& e) {
      // No file gets through a kernel that does not compile: the batch ends here, exit code 7.
      ErrorReport report = reportError(e);
      report.message = file.string() + ": " + report.message;
      return printError(report);
    } catch (const std::exception& e) {  // ImageConfigError, ClError, a write error
      const std::string what = e.what();
      error = what.find(file.string()) != std::string::npos ? what : file.string() + ": " + what;
    }
    if (!error.empty()) {
      std::fprintf(stderr, "kernelscope: error: %s\n", error.c_str());
      failed.push_back(file.string());
    }
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const size_t done = options.images.size() - failed.size();
  std::printf("%zu of %zu file%s processed in %.2f s", done, options.images.size(),
              options.images.size() == 1 ? "" : "s", seconds);
  if (!failed.empty()) std::printf("; failed: %s", joinValues(failed).c_str());
  std::printf("\n");
  return failed.empty() ? kExitOk : kExitFailure;
}

}  // namespace ks
