#include "compute/image_histogram.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <sstream>

#include "compute/image_op_checks.h"
#include "compute/kernel_op.h"
#include "compute/parameter_defines.h"

namespace ks {

const std::vector<ConfigParameter<HistogramConfig>>& histogramConfigParameters() {
  static const std::vector<ConfigParameter<HistogramConfig>> parameters = {
      {"work_group", &HistogramConfig::workGroup},
      {"pixels_per_item", &HistogramConfig::pixelsPerItem},
      {"copies", &HistogramConfig::copies},
      {"groups_per_compute_unit", &HistogramConfig::groupsPerComputeUnit},
  };
  return parameters;
}

// ---- histogram ---------------------------------------------------------------------------------

int histogramChannelCount(int imageChannels) { return imageChannels == 4 ? 5 : 1; }

const char* histogramChannelName(int imageChannels, int index) {
  static const char* rgba[] = {"R", "G", "B", "A", "luminance"};
  if (imageChannels != 4) return index == 0 ? "gray" : "?";
  return index >= 0 && index < 5 ? rgba[index] : "?";
}

size_t histogramBinCount(const ImageLayout& layout) {
  return static_cast<size_t>(kHistogramBins) * static_cast<size_t>(histogramChannelCount(layout.channels));
}

const std::vector<ImageHistogramVariant>& imageHistogramVariants() {
  static const std::vector<ImageHistogramVariant> table = {
      {"subhist_uchar", "histogram_subhist",
       "the design of AMD's OpenCL University Kit histogram256: a uchar sub-histogram per work-item in local "
       "memory, summed per group; at most 255 pixels per work-item so the uchar bins never wrap",
       {32, 64, 128, 256}, {16, 32, 64, 128, 255}, {}, {}},
      {"subhist_flush", "histogram_subhist_flush",
       "histogram256's uchar sub-histograms without atomics or their limits: each item's counters one bank per lane "
       "(no conflicts), summed into the group's histogram every <= 255 pixels; a fixed grid loops over the image",
       {32, 64, 128, 256}, {}, {}, {1, 2, 4, 8, 16}},
      {"local_atomic", "histogram_local_atomic",
       "one histogram per work-group in local memory, atomic increments, 16-byte loads in a grid-stride loop; "
       "several interleaved copies spread bank conflicts (32: one bank per lane, none left)",
       {64, 128, 256, 512, 1024}, {}, {1, 2, 4, 8, 16, 32}, {1, 2, 4, 8, 16, 32}},
      {"local_atomic_fused", "histogram_local_atomic",
       "local_atomic in one kernel: the groups add their histograms into device-wide sums with global atomics, "
       "and the last group to finish (a counter behind a device-scope fence) moves them to the result and zeroes "
       "them: no partial histograms, no merge kernel, no clearing",
       {64, 128, 256, 512, 1024}, {}, {1, 2, 4, 8, 16, 32}, {1, 2, 4, 8, 16, 32}, true},
  };
  return table;
}

const ImageHistogramVariant* findImageHistogramVariant(const std::string& name) {
  for (const auto& v : imageHistogramVariants())
    if (name == v.name) return &v;
  return nullptr;
}

HistogramConfig defaultHistogramConfig(int channels) {
  HistogramConfig c;
  c.variant = "local_atomic";
  c.workGroup = 256;
  // Gray: 32 copies, one bank per lane (32 KB); RGBA: 5 channels x 8 copies x 1 KB = 40 KB.
  c.copies = channels == 1 ? 32 : 8;
  c.groupsPerComputeUnit = 2;
  return c;
}

HistogramConfig defaultHistogramConfig(int channels, const DeviceDescriptor& device) {
  HistogramConfig fused = defaultHistogramConfig(channels);
  fused.variant = "local_atomic_fused";
  for (int wg : {1024, 256}) {
    fused.workGroup = wg;
    fused.groupsPerComputeUnit = wg == 1024 ? 1 : 2;
    if (imageHistogramConfigProblem(fused, device, channels).empty()) return fused;
  }
  return defaultHistogramConfig(channels);
}

static bool isSubHistogram(const ImageHistogramVariant* v) { return v && std::string(v->name) == "subhist_uchar"; }
static bool isFlushed(const ImageHistogramVariant* v) { return v && std::string(v->name) == "subhist_flush"; }

std::string describeCountedChannels(int mask) {
  std::string out;
  for (int c = 0; c < 5; ++c)
    if (mask & (1 << c)) out += std::string(out.empty() ? "" : " ") + histogramChannelName(4, c);
  return out;
}

std::string imageHistogramBuildOptions(const HistogramConfig& c, int channels) {
  const ImageHistogramVariant* v = findImageHistogramVariant(c.variant);
  std::ostringstream o;
  const KernelOp& op = histogramOp();
  o << parameterDefines(op, c.variant, {{"channels", channels}, {"work_group", c.workGroup}}).substr(1);
  if (channels == 4 && c.countedChannels != kAllHistogramChannels) o << " -DCOUNT_MASK=" << c.countedChannels;
  if (isSubHistogram(v)) o << " -DSUBHIST" << parameterDefines(op, c.variant, {{"pixels_per_item", c.pixelsPerItem}});
  else if (isFlushed(v)) o << " -DSUBHIST_FLUSH";
  else o << " -DLOCAL_ATOMIC" << parameterDefines(op, c.variant, {{"copies", c.copies}});
  if (v && v->fused) o << " -DFUSED";
  return o.str();
}

std::string deviceScopeFenceProblem(const DeviceDescriptor& device) {
  const int major = device.openclMajorVersion();
  if (major < 2) return histogramOp().refusal("fence_version", {{"version", device.deviceVersion}});
  // NVIDIA's OpenCL 3.0 lists work-group-scope fences only (0x13), yet compiles a
  // memory_scope_device fence to membar.gl, CUDA's __threadfence (checked in its
  // PTX, see docs/BENCHMARKS.md): the one exception to the capability query.
  const cl_device_atomic_capabilities needed = CL_DEVICE_ATOMIC_ORDER_ACQ_REL | CL_DEVICE_ATOMIC_SCOPE_DEVICE;
  if (major >= 3 && (device.atomicFenceCapabilities & needed) != needed && !device.isNvidia())
    return histogramOp().refusal("fence_capabilities");
  return "";
}

std::string deviceScopeFenceLanguageOption(const DeviceDescriptor& device) {
  return device.openclMajorVersion() >= 3 ? "-cl-std=CL3.0" : "-cl-std=CL2.0";
}

std::string describeHistogramConfig(const HistogramConfig& c) {
  std::ostringstream o;
  o << c.variant << " wg=" << c.workGroup;
  const ImageHistogramVariant* v = findImageHistogramVariant(c.variant);
  if (isSubHistogram(v)) o << " ppi=" << c.pixelsPerItem;
  else if (isFlushed(v)) o << " groups/CU=" << c.groupsPerComputeUnit;
  else o << " copies=" << c.copies << " groups/CU=" << c.groupsPerComputeUnit;
  if (c.countedChannels != kAllHistogramChannels) o << " counting " << describeCountedChannels(c.countedChannels);
  return o.str();
}

size_t imageHistogramLocalMemoryBytes(const HistogramConfig& c, int channels) {
  const ImageHistogramVariant* v = findImageHistogramVariant(c.variant);
  if (!v) return 0;
  const size_t bins = static_cast<size_t>(kHistogramBins) * static_cast<size_t>(histogramChannelCount(channels));
  if (isSubHistogram(v)) return bins * static_cast<size_t>(std::max(c.workGroup, 0));  // one byte per item and bin
  if (isFlushed(v)) return bins * static_cast<size_t>(std::max(c.workGroup, 0)) + bins * 4;  // + the group's uint bins
  // local_atomic keeps only the counted channels in local memory.
  const size_t counted = channels == 4 ? static_cast<size_t>(std::popcount(static_cast<unsigned>(c.countedChannels)))
                                       : 1;
  return counted * static_cast<size_t>(kHistogramBins) * static_cast<size_t>(std::max(c.copies, 0)) * 4;
}

std::string imageHistogramConfigProblem(const HistogramConfig& c, const DeviceDescriptor& device, int channels) {
  // The words of each refusal are the descriptor's (compute/kernel_ops.cpp).
  const KernelOp& op = histogramOp();
  const ImageHistogramVariant* v = findImageHistogramVariant(c.variant);
  if (!v) return op.refusal("variant", {{"variant", c.variant}});
  if (std::string p = channelsProblem(channels); !p.empty()) return p;
  if (c.countedChannels < 1 || c.countedChannels > kAllHistogramChannels)
    return op.refusal("counted_channels", {{"mask", c.countedChannels}});
  if (!contains(v->workGroups, c.workGroup))
    return op.refusal("work_group_offered",
                      {{"items", c.workGroup}, {"variant", v->name}, {"offered", listOf(v->workGroups)}});
  if (std::string p = workGroup1dProblem(static_cast<size_t>(c.workGroup), device); !p.empty()) return p;
  if (isSubHistogram(v)) {
    if (c.pixelsPerItem > kSubHistogramMaxPixelsPerItem)
      return op.refusal("uchar_bins", {{"pixels", c.pixelsPerItem}, {"max", kSubHistogramMaxPixelsPerItem}});
    if (!contains(v->pixelsPerItem, c.pixelsPerItem))
      return op.refusal("pixels_per_item_offered",
                        {{"pixels", c.pixelsPerItem}, {"variant", v->name}, {"offered", listOf(v->pixelsPerItem)}});
  } else {
    if (!isFlushed(v) && !contains(v->copies, c.copies))
      return op.refusal("copies_offered", {{"copies", c.copies}, {"variant", v->name}, {"offered", listOf(v->copies)}});
    if (!contains(v->groupsPerComputeUnit, c.groupsPerComputeUnit))
      return op.refusal("groups_offered", {{"groups", c.groupsPerComputeUnit},
                                           {"variant", v->name},
                                           {"offered", listOf(v->groupsPerComputeUnit)}});
  }
  if (v->fused)
    if (std::string p = deviceScopeFenceProblem(device); !p.empty()) return p;
  if (std::string p = workGroup1dProblem(static_cast<size_t>(kHistogramBins), device); !p.empty())
    return op.refusal("statistics_work_group", {{"items", kHistogramBins}, {"why", p}});
  return localMemoryProblem(imageHistogramLocalMemoryBytes(c, channels), device,
                            isSubHistogram(v) || isFlushed(v) ? "the sub-histograms" : "the histogram copies");
}

std::vector<HistogramConfig> allHistogramConfigs(const DeviceDescriptor& device, int channels, int countedChannels) {
  std::vector<HistogramConfig> out;
  for (const auto& v : imageHistogramVariants())
    for (int wg : v.workGroups) {
      HistogramConfig c;
      c.variant = v.name;
      c.countedChannels = channels == 4 ? countedChannels : kAllHistogramChannels;
      c.workGroup = wg;
      if (isSubHistogram(&v)) {
        for (int ppi : v.pixelsPerItem) {
          c.pixelsPerItem = ppi;
          if (imageHistogramConfigProblem(c, device, channels).empty()) out.push_back(c);
        }
      } else if (isFlushed(&v)) {
        for (int g : v.groupsPerComputeUnit) {
          c.groupsPerComputeUnit = g;
          if (imageHistogramConfigProblem(c, device, channels).empty()) out.push_back(c);
        }
      } else {
        for (int copies : v.copies)
          for (int g : v.groupsPerComputeUnit) {
            c.copies = copies;
            c.groupsPerComputeUnit = g;
            if (imageHistogramConfigProblem(c, device, channels).empty()) out.push_back(c);
          }
      }
    }
  return out;
}

std::vector<HistogramConfig> benchmarkedHistogramConfigs(const DeviceDescriptor& device, int channels,
                                                         int countedChannels) {
  const KernelOpSubset& timed =
      histogramOp().subset(countedChannels == kRgbHistogramChannels ? "bench_image_rgb" : "bench_image");
  std::vector<HistogramConfig> configs;
  for (const HistogramConfig& c : allHistogramConfigs(device, channels, countedChannels))
    if (timed.includes(c.variant, [&c](std::string_view parameter) { return configValue(histogramConfigParameters(), c, parameter); }))
      configs.push_back(c);
  return configs;
}

uint64_t ImageHistogram::total(int index) const {
  uint64_t sum = 0;
  const uint32_t* b = channel(index);
  for (int i = 0; i < kHistogramBins; ++i) sum += b[i];
  return sum;
}

int histogramPercentile(const uint32_t* bins, double percent) {
  uint64_t total = 0;
  for (int i = 0; i < kHistogramBins; ++i) total += bins[i];
  if (total == 0) return 0;
  const double p = std::clamp(percent, 0.0, 100.0);
  const uint64_t rank = std::max<uint64_t>(1, static_cast<uint64_t>(std::ceil(p * static_cast<double>(total) / 100.0)));
  uint64_t cumulative = 0;
  for (int i = 0; i < kHistogramBins; ++i) {
    cumulative += bins[i];
    if (cumulative >= rank) return i;
  }
  return kHistogramBins - 1;
}

// Whole percents: the kernel computes the rank as (p N + 99) / 100 in integers.
constexpr bool wholePercents() {
  for (double p : kImagePercentiles)
    if (p != static_cast<double>(static_cast<int>(p)) || p < 0 || p > 100) return false;
  return true;
}
static_assert(wholePercents(), "kImagePercentiles must be whole percents");

std::string histogramPercentileOptions() {
  std::ostringstream list;
  for (size_t i = 0; i < kImagePercentiles.size(); ++i) list << (i ? "," : "") << static_cast<int>(kImagePercentiles[i]);
  return " -DPERCENTILES=" + list.str() + " -DPERCENTILE_COUNT=" + std::to_string(kImagePercentiles.size());
}

ChannelStatistics channelStatistics(const uint64_t* m) {
  ChannelStatistics s;
  s.count = m[0];
  s.sum = m[1];
  s.sumSquares = m[2];
  s.min = static_cast<int>(m[3]);
  s.max = static_cast<int>(m[4]);
  if (s.count) {
    const double n = static_cast<double>(s.count);
    s.mean = static_cast<double>(s.sum) / n;
    // Var = (N sum v^2 - (sum v)^2) / N^2; the numerator in 128-bit integers is
    // exact (no cancellation), then one rounding.
    __extension__ typedef unsigned __int128 u128;
    const u128 numerator = static_cast<u128>(s.sumSquares) * s.count - static_cast<u128>(s.sum) * s.sum;
    s.stddev = std::sqrt(static_cast<double>(numerator) / (n * n));
  }
  for (size_t i = 0; i < kImagePercentiles.size(); ++i) s.percentiles[i] = static_cast<int>(m[5 + i]);
  static_assert(kImagePercentiles[3] == 50.0, "the median is one of the percentiles the kernel finds");
  s.median = s.percentiles[3];
  return s;
}

// ---- HistogramLaunch -----------------------------------------------------------------------

std::vector<std::string> imageHistogramProgramOptions(const HistogramConfig& config, int channels,
                                                      const DeviceDescriptor& device) {
  const ImageHistogramVariant* variant = findImageHistogramVariant(config.variant);
  const std::string options = imageHistogramBuildOptions(config, channels);
  const std::string counting =
      variant && variant->fused ? options + " " + deviceScopeFenceLanguageOption(device) : options;
  return {counting, options, options + histogramPercentileOptions()};
}

size_t histogramGroupCount(const HistogramConfig& config, const ImageLayout& layout, const DeviceDescriptor& device) {
  const size_t wg = static_cast<size_t>(config.workGroup);
  if (isSubHistogram(findImageHistogramVariant(config.variant)))
    return std::max<size_t>(1, divUp(layout.pixels(), wg * config.pixelsPerItem));
  const size_t perLoad = layout.channels == 1 ? 16 : 4;  // pixels per 16-byte load
  const size_t needed = std::max<size_t>(1, divUp(layout.pixels(), wg * perLoad));
  const size_t units = std::max<cl_uint>(1, device.computeUnits);
  return std::min(needed, units * static_cast<size_t>(config.groupsPerComputeUnit));
}

size_t histogramMergeRows(const KernelInfo& merge, const DeviceDescriptor& device) {
  size_t rowLimit = std::min<size_t>(128, merge.workGroupSize / 8);
  if (device.maxWorkGroupSize) rowLimit = std::min(rowLimit, device.maxWorkGroupSize / 8);
  if (device.maxWorkItemSizes.size() >= 2) rowLimit = std::min(rowLimit, device.maxWorkItemSizes[1]);
  size_t rows = 1;
  while (rows * 2 <= rowLimit) rows *= 2;
  return rows;
}

ImageOpProgram HistogramLaunch::program(const HistogramConfig& config, int channels, const DeviceDescriptor& device) {
  const std::vector<std::string> options = imageHistogramProgramOptions(config, channels, device);
  return {{{options[0], op().variant(config.variant)->kernel, static_cast<size_t>(config.workGroup)},
           {options[1], "histogram_merge", 8},
           {options[2], "histogram_stats", static_cast<size_t>(kHistogramBins)}},
          false,
          config.variant};
}

void HistogramLaunch::checkRun(const HistogramConfig&, const ImageOpBuffers& io, const HistogramParams&,
                               const DeviceDescriptor&) {
  requireLayout(io.inLayout, "the input");
}

size_t HistogramLaunch::outputBytes(const ImageOpBuffers& io) {
  return histogramBinCount(io.inLayout) * sizeof(cl_uint);
}

std::vector<ImageOpStep> HistogramLaunch::steps(const HistogramConfig& config, const ImageOpBuffers& io,
                                                const HistogramParams&, const ImageOpBuild& build,
                                                const DeviceDescriptor& device) {
  const size_t binCount = histogramBinCount(io.inLayout);
  const size_t groups = histogramGroupCount(config, io.inLayout, device);
  const size_t wg = static_cast<size_t>(config.workGroup);
  const cl_uint pixels = static_cast<cl_uint>(io.inLayout.pixels());
  if (findImageHistogramVariant(config.variant)->fused) {
    // The sums and the finished-groups counter: zeroed once when made, and zeroed
    // again by the last group of every run.
    const ScratchBuffer sums{1, (binCount + 1) * sizeof(cl_uint), true};
    return {{"histogram", 0, {io.in, pixels, sums, io.out}, {groups * wg}, {wg}}};
  }
  const ScratchBuffer partials{0, groups * binCount * sizeof(cl_uint)};
  const size_t rows = histogramMergeRows(build.kernels.at(1).info, device);
  return {{"histogram", 0, {io.in, pixels, partials}, {groups * wg}, {wg}},
          {"merge", 1, {partials, static_cast<cl_uint>(groups), static_cast<cl_uint>(binCount), io.out},
           {binCount, rows}, {8, rows}}};
}

std::vector<ImageOpStep> HistogramLaunch::statisticsSteps(cl_mem bins, int imageChannels, cl_mem moments) {
  const size_t channels = static_cast<size_t>(histogramChannelCount(imageChannels));
  return {{"statistics", 2, {bins, moments}, {channels * kHistogramBins}, {static_cast<size_t>(kHistogramBins)}}};
}

// ---- ImageHistogrammer ---------------------------------------------------------------------

ImageHistogrammer::~ImageHistogrammer() {
  // Reads in flight write into this object's vectors (in order: the last one's end is all of them).
  try {
    if (readsDone_) readsDone_.wait();
  } catch (const std::exception&) {
    // The failure was reported where the result was asked for, or never will be needed.
  }
}

size_t ImageHistogrammer::groupCount(const ImageLayout& layout) const {
  return histogramGroupCount(config_, layout, compute_.device());
}

size_t ImageHistogrammer::mergeRows(int channels) { return histogramMergeRows(built(channels).kernels.at(1).info, compute_.device()); }

void ImageHistogrammer::run(Queue& queue, cl_mem in, const ImageLayout& layout, cl_mem bins, ImageOpEvents* events) {
  ImageOpRunner::run(queue, in, layout, bins, ImageLayout{}, HistogramParams{}, events);
}

void ImageHistogrammer::runStatistics(Queue& queue, cl_mem bins, int imageChannels, cl_mem moments,
                                      ImageOpEvents* events) {
  if (std::string p = channelsProblem(imageChannels); !p.empty()) throw ImageConfigError(p);
  ImageOpBuild& b = built(imageChannels);
  const size_t channels = static_cast<size_t>(histogramChannelCount(imageChannels));
  requireBuffer(bins, channels * kHistogramBins * sizeof(cl_uint), "the bins");
  requireBuffer(moments, channels * kMomentsPerChannel * sizeof(cl_ulong), "the moments");
  execute(queue, b, ImageOpBuffers{}, HistogramLaunch::statisticsSteps(bins, imageChannels, moments), events);
}

ImageHistogramResult ImageHistogrammer::compute(Queue& queue, cl_mem in, const ImageLayout& layout,
                                                ImageOpEvents* events) {
  enqueueCompute(queue, in, layout, events);
  return *takeResult(true);
}

void ImageHistogrammer::enqueueCompute(Queue& queue, cl_mem in, const ImageLayout& layout, ImageOpEvents* events) {
  requireLayout(layout, "the input");
  // The host vectors are the reads' destination: the previous reads must be done.
  if (readsDone_) readsDone_.wait();
  readsDone_ = Event();
  resultPending_ = false;
  const size_t binCount = histogramBinCount(layout);
  const size_t channels = static_cast<size_t>(histogramChannelCount(layout.channels));
  if (bins_.bytes() < binCount * sizeof(cl_uint))
    bins_ = Buffer(compute_.context(), CL_MEM_READ_WRITE, 5 * kHistogramBins * sizeof(cl_uint));
  if (moments_.bytes() < channels * kMomentsPerChannel * sizeof(cl_ulong))
    moments_ = Buffer(compute_.context(), CL_MEM_READ_WRITE, 5 * kMomentsPerChannel * sizeof(cl_ulong));
  run(queue, in, layout, bins_.get(), events);
  runStatistics(queue, bins_.get(), layout.channels, moments_.get(), events);
  hostBins_.resize(binCount);
  hostMoments_.resize(channels * kMomentsPerChannel);
  readChannels_ = layout.channels;
  queue.readBuffer(bins_, 0, binCount * sizeof(cl_uint), hostBins_.data(), false);
  queue.readBuffer(moments_, 0, hostMoments_.size() * sizeof(cl_ulong), hostMoments_.data(), false, &readsDone_);
  queue.flush();
  resultPending_ = true;
}

std::optional<ImageHistogramResult> ImageHistogrammer::takeResult(bool wait) {
  if (!resultPending_) return std::nullopt;
  if (wait) readsDone_.wait();
  else if (!readsDone_.complete()) return std::nullopt;
  readsDone_ = Event();
  resultPending_ = false;
  ImageHistogramResult result;
  result.histogram.imageChannels = readChannels_;
  result.histogram.bins = hostBins_;
  result.statistics.imageChannels = readChannels_;
  const size_t channels = hostMoments_.size() / kMomentsPerChannel;
  for (size_t c = 0; c < channels; ++c) result.statistics.channels.push_back(channelStatistics(&hostMoments_[c * kMomentsPerChannel]));
  return result;
}

}  // namespace ks
