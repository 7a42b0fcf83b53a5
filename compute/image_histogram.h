#pragma once
// Histogram and statistics (compute/image_layout.h: what the image operations
// share): the variants table, configurations and their checks, the device-scope
// fence the fused variant needs, the merged bins and their statistics, and
// ImageHistogrammer, which runs a configuration.
#include <CL/cl.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <optional>
#include <vector>

#include "compute/cl_objects.h"
#include "compute/compute_context.h"
#include "compute/config_parameters.h"
#include "compute/device_catalog.h"
#include "compute/image_layout.h"
#include "compute/image_op_runner.h"

namespace ks {

// ---- histogram and statistics ------------------------------------------------------------

constexpr int kHistogramBins = 256;
// Histogram channels of an image: gray 1; RGBA 5 (R, G, B, A, luminance).
int histogramChannelCount(int imageChannels);
const char* histogramChannelName(int imageChannels, int index);  // "gray", "R", ..., "luminance"
// Bin count of the merged result: 256 x histogramChannelCount(layout.channels).
size_t histogramBinCount(const ImageLayout& layout);

constexpr int kAllHistogramChannels = 0x1F;  // R, G, B, A, luminance
constexpr int kRgbHistogramChannels = 0x07;
std::string describeCountedChannels(int mask);  // "R G B"

struct ImageHistogramVariant {
  const char* name;  // "subhist_uchar", "subhist_flush", "local_atomic"
  const char* kernel;
  const char* description;
  std::vector<int> workGroups;            // allowed work-group sizes
  std::vector<int> pixelsPerItem;         // subhist_uchar: pixels per work-item (<= 255: uchar bins)
  std::vector<int> copies;                // local_atomic: copies of the group's histogram (spreads conflicts)
  std::vector<int> groupsPerComputeUnit;  // subhist_flush, local_atomic: groups launched per compute unit
  // One kernel: groups add into device-wide sums with global atomics and the last
  // group hands them over (needs a device-scope fence: deviceScopeFenceProblem).
  bool fused = false;
};
const std::vector<ImageHistogramVariant>& imageHistogramVariants();
const ImageHistogramVariant* findImageHistogramVariant(const std::string& name);
constexpr const char* kHistogramKernelFile = "histogram.cl";
// The uchar sub-histogram bins of the seed's design count to 255: a work-item may
// never see more pixels than that (an image of one constant value would wrap).
constexpr int kSubHistogramMaxPixelsPerItem = 255;

struct HistogramConfig {
  std::string variant = "local_atomic";
  int workGroup = 256;
  int pixelsPerItem = 255;         // subhist_uchar
  int copies = 8;                  // local_atomic
  int groupsPerComputeUnit = 8;    // subhist_flush, local_atomic
  // RGBA: the histogram channels counted, bit c for histogramChannelName(4, c)
  // (R, G, B, A, luminance); the others come back empty. Gray ignores it.
  int countedChannels = kAllHistogramChannels;
  bool operator==(const HistogramConfig&) const = default;
};
// Its parameters by name (compute/config_parameters.h), in the order files list them.
const std::vector<ConfigParameter<HistogramConfig>>& histogramConfigParameters();

// The configuration that ran fastest for this pixel size (8192x8192, see
// docs/BENCHMARKS.md): local_atomic wg=256, 2 groups per CU, 32 copies gray /
// 8 copies RGBA.
HistogramConfig defaultHistogramConfig(int channels);
// For a device: local_atomic_fused (one kernel, no merge) with 1024-item groups
// where the device has device-scope fences and room for it (the fastest, see
// docs/BENCHMARKS.md), smaller groups where it must; else
// defaultHistogramConfig(channels).
HistogramConfig defaultHistogramConfig(int channels, const DeviceDescriptor& device);
std::string imageHistogramBuildOptions(const HistogramConfig& config, int channels);
// The programs (kernels/histogram.cl, build options) a histogrammer of `config`
// builds for this channel count: counting, merge, statistics. The caller can have
// them built off its thread first (ComputeContext::prefetchKernelFile).
std::vector<std::string> imageHistogramProgramOptions(const HistogramConfig& config, int channels,
                                                      const DeviceDescriptor& device);
// Empty when the device's kernels can order global atomics device-wide (OpenCL C
// 2.0+ atomic_work_item_fence with memory_scope_device), else why not.
std::string deviceScopeFenceProblem(const DeviceDescriptor& device);
// The -cl-std option that makes that fence available: "-cl-std=CL3.0" or "CL2.0".
std::string deviceScopeFenceLanguageOption(const DeviceDescriptor& device);
std::string describeHistogramConfig(const HistogramConfig& config);  // "local_atomic wg=256 copies=1 groups/CU=8"
size_t imageHistogramLocalMemoryBytes(const HistogramConfig& config, int channels);
// Empty when runnable; else why not (unknown variant, work-group / copies / groups
// per CU not offered, pixels per work-item above 255 (uchar bins would wrap) or not
// offered, local memory overflow, a device that cannot run the 256-wide statistics
// reduction).
std::string imageHistogramConfigProblem(const HistogramConfig& config, const DeviceDescriptor& device, int channels);
// countedChannels (RGBA): local_atomic keeps only those in local memory, so counting
// fewer channels allows more histogram copies.
std::vector<HistogramConfig> allHistogramConfigs(const DeviceDescriptor& device, int channels,
                                                 int countedChannels = kAllHistogramChannels);
// The slice of those that `kernelscope --bench image` times: the histogram
// descriptor's "bench_image" subset, or counting R, G, B only (kRgbHistogramChannels,
// CUB's RGBA anchor) its "bench_image_rgb" (compute/kernel_ops.cpp says which and why).
std::vector<HistogramConfig> benchmarkedHistogramConfigs(const DeviceDescriptor& device, int channels,
                                                         int countedChannels);

// Merged bins: channel-major, 256 per channel, in histogramChannelName order.
struct ImageHistogram {
  int imageChannels = 1;
  std::vector<uint32_t> bins;
  int channelCount() const { return histogramChannelCount(imageChannels); }
  const uint32_t* channel(int index) const { return bins.data() + static_cast<size_t>(index) * kHistogramBins; }
  uint64_t total(int index) const;
  bool operator==(const ImageHistogram&) const = default;
};

// Percentiles reported for every channel (nearest rank: the smallest value whose
// cumulative count reaches ceil(p / 100 * N), at least the first pixel).
constexpr std::array<double, 7> kImagePercentiles = {1, 5, 25, 50, 75, 95, 99};
struct ChannelStatistics {
  uint64_t count = 0;
  uint64_t sum = 0;         // of the values
  uint64_t sumSquares = 0;  // of the values squared
  int min = 0, max = 0;
  double mean = 0.0;
  double stddev = 0.0;      // population: sqrt(sum (v - mean)^2 / N)
  int median = 0;           // the 50th percentile (the lower median for even N)
  std::array<int, kImagePercentiles.size()> percentiles{};
  bool operator==(const ChannelStatistics&) const = default;
};
struct ImageStatistics {
  int imageChannels = 1;
  std::vector<ChannelStatistics> channels;  // histogramChannelName order
};

// Nearest-rank percentile of 256 bins (see kImagePercentiles); 0 for empty bins.
int histogramPercentile(const uint32_t* bins, double percent);
// Per-channel statistics as the device's kernel writes them, cl_ulongs: count, sum,
// sum of squares, min, max, then the value at each of kImagePercentiles.
constexpr int kMomentsPerChannel = 5 + static_cast<int>(kImagePercentiles.size());
// The statistics kernel's build options naming kImagePercentiles (-DPERCENTILES=...).
std::string histogramPercentileOptions();
// Mean and standard deviation from the exact integer moments; median and
// percentiles as the kernel found them.
ChannelStatistics channelStatistics(const uint64_t* moments);

// ---- launch (compute/image_op_runner.h: the one runner of the image operations) ------

struct HistogramParams {};  // the counting takes nothing besides its buffers

// Work-groups (= partial histograms merged on the device) for an image: enough for
// its pixels, at most groupsPerComputeUnit per compute unit (subhist_uchar: one per
// workGroup x pixelsPerItem pixels).
size_t histogramGroupCount(const HistogramConfig& config, const ImageLayout& layout, const DeviceDescriptor& device);
// Rows of the merge kernel's (8, rows) work-group: a power of two up to 128 that the
// compiled kernel and the device allow.
size_t histogramMergeRows(const KernelInfo& merge, const DeviceDescriptor& device);

// What the histogram gives the runner: its checks, its three kernels (counting,
// merge, statistics), the steps of a counting run and of a statistics run.
struct HistogramLaunch : ImageOpLaunchBasics<HistogramConfig, ImageHistogramVariant, HistogramParams, histogramOp,
                                             findImageHistogramVariant, imageHistogramConfigProblem> {
  static constexpr const char* kOutputName = "the bins";
  // The variant's counting kernel, histogram_merge, histogram_stats.
  static ImageOpProgram program(const Config& config, int channels, const DeviceDescriptor& device);
  static void checkRun(const Config& config, const ImageOpBuffers& io, const Params& params,
                       const DeviceDescriptor& device);
  // `out` holds histogramBinCount(inLayout) cl_uints.
  static size_t outputBytes(const ImageOpBuffers& io);
  // Sub-histograms per work-group ("histogram") into kept partials, then "merge";
  // local_atomic_fused: the one "histogram" kernel, with device-wide sums zeroed when made.
  static std::vector<ImageOpStep> steps(const Config& config, const ImageOpBuffers& io, const Params& params,
                                        const ImageOpBuild& build, const DeviceDescriptor& device);
  // "statistics": one work-group of 256 per histogram channel.
  static std::vector<ImageOpStep> statisticsSteps(cl_mem bins, int imageChannels, cl_mem moments);
};

// ---- runner: counting, statistics and their read-back ----------------------------------

// Everything the histogram lab shows for one image, computed on the device.
struct ImageHistogramResult {
  ImageHistogram histogram;
  ImageStatistics statistics;
};

// The image operations' runner with the histogram's results: the statistics run and
// the bins and moments read back without blocking.
class ImageHistogrammer : public ImageOpRunner<HistogramLaunch> {
 public:
  ImageHistogrammer(ComputeContext& compute, const HistogramConfig& config) : ImageOpRunner(compute, config) {}
  ~ImageHistogrammer() override;
  // Sub-histograms per work-group ("histogram"), then the merge kernel sums them
  // on the device ("merge") into `bins`: histogramBinCount(layout) cl_uints.
  // local_atomic_fused: the one "histogram" kernel writes `bins`.
  void run(Queue& queue, cl_mem in, const ImageLayout& layout, cl_mem bins, ImageOpEvents* events = nullptr);
  // The statistics reduction ("statistics"): one work-group of 256 per channel
  // reduces the bins to kMomentsPerChannel cl_ulongs per channel in `moments`
  // (moments, then percentiles).
  void runStatistics(Queue& queue, cl_mem bins, int imageChannels, cl_mem moments, ImageOpEvents* events = nullptr);
  // run + runStatistics into the histogrammer's own buffers, then reads back the
  // bins and moments (blocking) and derives the statistics.
  ImageHistogramResult compute(Queue& queue, cl_mem in, const ImageLayout& layout, ImageOpEvents* events = nullptr);
  // compute without waiting: the kernels and non-blocking read-backs are enqueued
  // and flushed; takeResult gives the result once the reads are done. An enqueue
  // while the previous reads are still running waits for them first.
  void enqueueCompute(Queue& queue, cl_mem in, const ImageLayout& layout, ImageOpEvents* events = nullptr);
  // The enqueued result: nullopt while its reads run (never blocks unless `wait`)
  // or when none was enqueued; each result is given once.
  std::optional<ImageHistogramResult> takeResult(bool wait = false);
  // Work-groups (= partial histograms merged on the device) for an image.
  size_t groupCount(const ImageLayout& layout) const;
  // Rows of the merge kernel's (8, rows) work-group for `channels` on this device
  // (builds the kernels): its loop sums 4 x rows partial histograms per pass, the
  // rest one row at a time, so tests size images from this and groupCount.
  size_t mergeRows(int channels);
  // Where the last compute/enqueueCompute merged the bins (histogramBinCount cl_uints).
  cl_mem binsBuffer() const { return bins_.get(); }

 private:
  Buffer bins_, moments_;
  // The read-backs of enqueueCompute, and their last command.
  std::vector<cl_uint> hostBins_;
  std::vector<cl_ulong> hostMoments_;
  int readChannels_ = 0;  // the image's channels, for the statistics
  Event readsDone_;
  bool resultPending_ = false;
};

}  // namespace ks
