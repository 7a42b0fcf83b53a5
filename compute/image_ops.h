#pragma once
// The image lab's kernels on an OpenCL device: rotation, transpose, histogram +
// statistics, and a plain copy (the bandwidth reference). As for the N-body lab,
// the variants are DATA (tables below): the UI, the benchmarks, the sweeps and
// the tests iterate over them, and over the *ConfigProblem() checks to know which
// combinations a device can run, with the reason when it cannot.
//
// Pixels: ImageLayout, row-major, no row padding, 1 byte per channel; channels is
// 1 (gray) or 4 (RGBA, bytes R, G, B, A in that order). Images live in plain
// cl_mem buffers; the runners enqueue on the queue they are given and record
// their commands' profiling events in an ImageOpEvents when asked.
//
// Exactness: every mapping is computed in integer fixed point (the rotation's
// cosine and sine as Q16 integers, see rotationFixedPoint), except the forward
// rotation, which is the seed's float arithmetic operation for operation
// (rotationFloat, no fused multiply-adds); either way the buffer kernels give
// bit-exact copies of the CPU references in compute/image_reference.h.
#include <CL/cl.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "compute/cl_objects.h"
#include "compute/compute_context.h"
#include "compute/device_catalog.h"

namespace ks {

// ---- pixels ----------------------------------------------------------------------

struct ImageLayout {
  int width = 0;
  int height = 0;
  int channels = 1;  // 1 = gray, 4 = RGBA
  size_t pixels() const { return static_cast<size_t>(width) * static_cast<size_t>(height); }
  size_t bytes() const { return pixels() * static_cast<size_t>(channels); }
  bool operator==(const ImageLayout&) const = default;
};

// Empty when the layout is usable: channels 1 or 4, width and height >= 1, at most
// 2^31 - 1 pixels (the kernels index with 32-bit integers).
std::string imageLayoutProblem(const ImageLayout& layout);
std::string describeImageLayout(const ImageLayout& layout);  // "1000x777 RGBA"

// Luminance of an RGB triple, in integers so that kernel and reference agree bit
// for bit: (77 R + 150 G + 29 B + 128) >> 8. The weights are BT.601's 0.299,
// 0.587, 0.114 in 1/256 steps (they sum to 256, so white stays 255).
constexpr uint8_t imageLuminance(uint8_t r, uint8_t g, uint8_t b) {
  return static_cast<uint8_t>((77u * r + 150u * g + 29u * b + 128u) >> 8);
}

// An error for a configuration or an image the device cannot run, with the reason
// (never a raw CL_INVALID_WORK_GROUP_SIZE from a launch).
class ImageConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Profiling events of one operation (several commands for some: the histogram's
// partial + merge kernels, the forward rotation's clear + scatter + resolve, the
// image variants' buffer-to-image upload). Times come from the device's counters.
struct ImageOpCommand {
  std::string label;  // "transpose", "merge", "upload", ...
  Event event;
};
struct ImageOpEvents {
  std::vector<ImageOpCommand> commands;  // in enqueue order
  Event* add(const std::string& label);  // valid until the next add()
  // From the first command's start to the last one's end (waits for them).
  double elapsedMs() const;
  // Sum of the named command's times (0 when absent).
  double commandMs(const std::string& label) const;
  void clear() { commands.clear(); }
};

// ---- bytes moved, for GB/s ------------------------------------------------------------
enum class ImageOp { Copy, Rotate, Transpose, Histogram };
// The bytes an ideal kernel must move: copy/transpose/rotate read the input once
// and write the output once (in.bytes() + out.bytes()); the histogram reads the
// input once (the 256-bin results are negligible and not counted). `out` is
// ignored for the histogram; for the copy, out defaults to in.
size_t imageOpBytes(ImageOp op, const ImageLayout& in, const ImageLayout& out = {});
double imageGigabytesPerSecond(size_t bytes, double ms);  // bytes / ms / 1e6

// Work-group shapes offered to the 2D kernels (rotation, naive transpose).
const std::vector<int>& imageWorkGroupWidths();   // 8 .. 256
const std::vector<int>& imageWorkGroupHeights();  // 1 .. 32

// ---- rotation ------------------------------------------------------------------------

enum class RotateSampling { Forward, Nearest, Bilinear };
enum class RotateCanvas { Crop, Expand };  // output the input's size, or big enough for the rotated rectangle

struct ImageRotateVariant {
  const char* name;  // forward, nearest, bilinear, nearest_local, bilinear_local, nearest_image, bilinear_image
  const char* kernel;       // kernel function in kernels/rotate.cl (the forward variant also runs rotate_forward_resolve)
  const char* description;
  RotateSampling sampling;
  bool image;                       // reads the source through image2d_t + sampler (needs CL_DEVICE_IMAGE_SUPPORT)
  bool staged;                      // stages the group's source region in local memory first
  std::vector<int> pixelsPerItem;   // allowed PIXELS_PER_ITEM (consecutive output pixels of one row per work-item)
  bool exact = true;                // equal to the CPU reference; false: within a level (float blending)
  std::vector<int> rowsPerItem = {1};  // allowed ROWS_PER_ITEM (rows of the work-item's block of pixels)
};
const std::vector<ImageRotateVariant>& imageRotateVariants();
const ImageRotateVariant* findImageRotateVariant(const std::string& name);
// The block of pixels per work-item `variant` runs for a wanted one: the same where
// offered, else 4 pixels of a row where offered, else its first; rows likewise.
void fitRotateBlock(const ImageRotateVariant& variant, int& pixelsPerItem, int& rowsPerItem);
constexpr const char* kRotateKernelFile = "rotate.cl";

struct RotateConfig {
  // A buffer kernel every device runs; the image lab starts with defaultRotateConfig.
  std::string variant = "bilinear";
  int workGroupX = 8;
  int workGroupY = 32;
  int pixelsPerItem = 4;
  int rowsPerItem = 1;  // image variants: a block of pixelsPerItem x rowsPerItem output pixels per work-item
  bool operator==(const RotateConfig&) const = default;
};

// What to rotate by. Positive angles turn the picture clockwise on screen (y
// down), the seed's convention: dst = R(angle) (src - centre) + centre'.
struct RotateParams {
  double degrees = 0.0;
  RotateCanvas canvas = RotateCanvas::Crop;
  bool transparent = false;                  // pixels mapping outside get (0,0,0,0) (gray: 0)
  std::array<uint8_t, 4> background{0, 0, 0, 255};  // else this RGBA colour (gray: its luminance)
  bool operator==(const RotateParams&) const = default;
};

// cos and sin of the angle as Q16 integers (round(cos * 65536)); multiples of 90
// degrees are exact. Every rotation, kernel and reference, uses these numbers.
struct RotationFixedPoint {
  int32_t cosQ16 = 65536;
  int32_t sinQ16 = 0;
};
RotationFixedPoint rotationFixedPoint(double degrees);
// The forward (seed) variant's sine and cosine: floats, as the seed's host hands
// them to cpu_rotate and to its kernel. Computed once on the host (in double, then
// rounded to float) and passed to the kernel as they are, so that the device and
// the CPU reference multiply by the same numbers; multiples of 90 degrees are
// exact (the seed's quarter turn uses sin 1, cos 0), values below FLT_MIN are 0
// (a device may flush denormal arguments; no result depends on them).
struct RotationFloat {
  float cosTheta = 1.0f;
  float sinTheta = 0.0f;
};
RotationFloat rotationFloat(double degrees);
// The output layout: the input's for Crop; for Expand ceil(w|cos| + h|sin|) x
// ceil(w|sin| + h|cos|) from the Q16 values (a 90-degree turn swaps w and h).
ImageLayout rotatedLayout(const ImageLayout& in, const RotateParams& params);
// The background as stored in the output: RGBA bytes, or the gray value in [0].
std::array<uint8_t, 4> rotateBackgroundPixel(const RotateParams& params, int channels);

// Staged variants: pixels of local memory reserved for the source region of one
// output tile (TILE_W = workGroupX x pixelsPerItem by workGroupY), enough for any
// angle: the tile's rotated bounding box, bilinear margins and gray word alignment.
size_t imageRotateBoxPixels(const RotateConfig& config);
// The bytes of local memory the staged kernel declares for that region (whole 32-bit
// words); 0 for the other variants.
size_t imageRotateLocalMemoryBytes(const RotateConfig& config, int channels);
std::string imageRotateBuildOptions(const RotateConfig& config, int channels);
std::string describeRotateConfig(const RotateConfig& config);  // "bilinear wg=32x8 ppi=4", "... ppi=2x2"
// Empty when the device can run the configuration for this channel count (1 or 4);
// otherwise why not: unknown variant, work-group shape not offered or above the
// device's limits, pixels per item not offered by the variant, a staged region
// larger than local memory, an image variant on a device without image support. A descriptor without a runtime handle (id null,
// as in unit tests) counts as image-capable; the rotator checks again when built.
std::string imageRotateConfigProblem(const RotateConfig& config, const DeviceDescriptor& device, int channels);
std::vector<RotateConfig> allRotateConfigs(const DeviceDescriptor& device, int channels);
// The image lab's first rotation: bilinear through image2d_t + sampler, 32x8 items of
// 2x4 pixels, where the device takes it (the fastest on an H200 at 8192x8192, 30
// degrees: RGBA 0.72-0.73x of a copy, gray 0.35x); else the buffer kernel, 16x16 x 4;
// on a device too small for either, the first bilinear configuration that fits.
RotateConfig defaultRotateConfig(int channels, const DeviceDescriptor& device);
// The same for one image: where the image is larger than the device's 2D images
// (image2d_t variants cannot take it), the buffer kernel's default instead.
// maxImage2d: CL_DEVICE_IMAGE2D_MAX_WIDTH / HEIGHT ({0, 0}: no images).
RotateConfig defaultRotateConfig(const ImageLayout& image, const DeviceDescriptor& device,
                                 std::array<size_t, 2> maxImage2d);
// The device's largest 2D image, {width, height}; {0, 0} where it has no images.
// A descriptor without a runtime handle (unit tests) has no limit.
std::array<size_t, 2> deviceMaxImage2d(const DeviceDescriptor& device);

// ---- transpose ------------------------------------------------------------------------

enum class TransposeKind { Naive, Tiled, Block4x4, Gray16 };
// The order in which work-groups take the image's blocks (tiles).
enum class BlockOrder {
  Rows,      // group ids as the grid gives them: along block rows
  Diagonal,  // along diagonals (seed 000, NVIDIA's transpose paper)
  Columns,   // down block columns: the groups in flight write whole output rows
};
const char* blockOrderName(BlockOrder order);  // "rows", "diagonal", "columns"
struct ImageTransposeVariant {
  const char* name;  // naive, tiled, tiled_padded, tiled_diagonal, block4x4, block4x4_diagonal, ...
  const char* kernel;
  const char* description;
  TransposeKind kind;
  bool padded;                     // tile rows padded by one element (Apple's sample)
  BlockOrder order;
  std::vector<int> tiles;          // allowed tile sizes in pixels (Tiled: T x T; Block4x4, Gray16: T x T of 4x4 blocks)
  std::vector<int> rowsPerItem;    // Tiled: rows of the tile each work-item moves (work-group T x T/rows)
  std::vector<int> workGroups;     // Block4x4, Gray16: work-items per group (1D)
};
const std::vector<ImageTransposeVariant>& imageTransposeVariants();
const ImageTransposeVariant* findImageTransposeVariant(const std::string& name);
constexpr const char* kTransposeKernelFile = "transpose.cl";

struct TransposeConfig {
  std::string variant = "block4x4";
  int tile = 64;          // Tiled, Block4x4, Gray16
  int rowsPerItem = 4;    // Tiled
  int workGroup = 256;    // Block4x4, Gray16
  int workGroupX = 32;    // Naive
  int workGroupY = 8;     // Naive
  bool operator==(const TransposeConfig&) const = default;
};
// The configuration that ran fastest for this pixel size on an H200 (8192x8192,
// docs/BENCHMARKS.md, sixth session): gray block4x16_gray_columns T=128 wg=256,
// RGBA block4x4_columns T=64 wg=64. A sweep's winner in tuning.json overrides it.
TransposeConfig defaultTransposeConfig(int channels);

ImageLayout transposedLayout(const ImageLayout& in);  // height x width, same channels
std::string imageTransposeBuildOptions(const TransposeConfig& config, int channels);
std::string describeTransposeConfig(const TransposeConfig& config);  // "block4x4 T=64 wg=256"
// Bytes of local memory the configuration uses for this channel count.
size_t imageTransposeLocalMemoryBytes(const TransposeConfig& config, int channels);
// Empty when runnable; else why not (unknown variant, tile / rows / work-group not
// offered, work-group larger than the tile's 4x4 blocks or the device's limit,
// local memory overflow).
std::string imageTransposeConfigProblem(const TransposeConfig& config, const DeviceDescriptor& device, int channels);
std::vector<TransposeConfig> allTransposeConfigs(const DeviceDescriptor& device, int channels);

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

// The configuration that ran fastest for this pixel size on an H200 (8192x8192):
// local_atomic wg=256, 2 groups per CU, 32 copies gray (1.45-1.47 TB/s of random
// input, histogram + merge; CUB 1.42-1.52 in the same calls) / 8 copies RGBA (1.51 TB/s).
HistogramConfig defaultHistogramConfig(int channels);
// For a device: local_atomic_fused (one kernel, no merge) with 1024-item groups
// where the device has device-scope fences and room for it (H200, 2026-11-24:
// gray random 2.05 TB/s, constant 2.45 TB/s, RGBA 1.64 TB/s), smaller groups
// where it must; else defaultHistogramConfig(channels).
HistogramConfig defaultHistogramConfig(int channels, const DeviceDescriptor& device);
std::string imageHistogramBuildOptions(const HistogramConfig& config, int channels);
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

// ---- runners -------------------------------------------------------------------------------
// Each checks its configuration when constructed (throws ImageConfigError) and
// builds its program for a channel count on first use (prepare() builds ahead,
// e.g. before timing; ProgramBuildError on a compile failure). run() checks the
// layouts, the buffers' sizes and the channel-dependent limits (ImageConfigError)
// before enqueuing anything. Runners keep a reference to the ComputeContext and
// must not outlive it.

class ImageRotator {
 public:
  ImageRotator(ComputeContext& compute, const RotateConfig& config);
  ~ImageRotator();
  ImageRotator(const ImageRotator&) = delete;
  ImageRotator& operator=(const ImageRotator&) = delete;
  void prepare(int channels);
  // outLayout must be rotatedLayout(inLayout, params). The image variants copy
  // `in` into a CL image (command "upload") when it is a different buffer or
  // layout than last time or sourceChanged() was called, then run the kernel
  // ("rotate"); the forward variant runs "clear", "scatter" and "resolve".
  void run(Queue& queue, cl_mem in, const ImageLayout& inLayout, cl_mem out, const ImageLayout& outLayout,
           const RotateParams& params, ImageOpEvents* events = nullptr);
  const RotateConfig& config() const { return config_; }
  const ImageRotateVariant& variant() const { return *variant_; }
  const ProgramBuild& build(int channels);
  const KernelInfo& info(int channels);  // of the main kernel
  // Whether the programs for this channel count are built (build() and info() would not compile).
  bool isBuilt(int channels) const;
  // The contents of the input buffer changed: the image variants upload it again.
  void sourceChanged() { imageSource_ = nullptr; }

 private:
  struct Built;
  Built& built(int channels);
  ComputeContext& compute_;
  RotateConfig config_;
  const ImageRotateVariant* variant_;
  std::unique_ptr<Built> built_[2];  // gray, RGBA
  Buffer owner_;                     // forward: winning source index + 1 per output pixel
  MemHandle image_;                  // image variants: the source as a CL image
  ImageLayout imageLayout_;
  cl_mem imageSource_ = nullptr;     // the buffer image_ holds a copy of (null: upload again)
};

class ImageTransposer {
 public:
  ImageTransposer(ComputeContext& compute, const TransposeConfig& config);
  ~ImageTransposer();
  ImageTransposer(const ImageTransposer&) = delete;
  ImageTransposer& operator=(const ImageTransposer&) = delete;
  void prepare(int channels);
  // outLayout must be transposedLayout(inLayout). One command: "transpose".
  void run(Queue& queue, cl_mem in, const ImageLayout& inLayout, cl_mem out, const ImageLayout& outLayout,
           ImageOpEvents* events = nullptr);
  const TransposeConfig& config() const { return config_; }
  const ImageTransposeVariant& variant() const { return *variant_; }
  const ProgramBuild& build(int channels);
  const KernelInfo& info(int channels);
  bool isBuilt(int channels) const;  // as ImageRotator's

 private:
  struct Built;
  Built& built(int channels);
  ComputeContext& compute_;
  TransposeConfig config_;
  const ImageTransposeVariant* variant_;
  std::unique_ptr<Built> built_[2];
};

// Everything the histogram lab shows for one image, computed on the device.
struct ImageHistogramResult {
  ImageHistogram histogram;
  ImageStatistics statistics;
};

class ImageHistogrammer {
 public:
  ImageHistogrammer(ComputeContext& compute, const HistogramConfig& config);
  ~ImageHistogrammer();
  ImageHistogrammer(const ImageHistogrammer&) = delete;
  ImageHistogrammer& operator=(const ImageHistogrammer&) = delete;
  void prepare(int channels);
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
  // Work-groups (= partial histograms merged on the device) for an image.
  size_t groupCount(const ImageLayout& layout) const;
  const HistogramConfig& config() const { return config_; }
  const ImageHistogramVariant& variant() const { return *variant_; }
  const ProgramBuild& build(int channels);
  const KernelInfo& info(int channels);  // of the sub-histogram kernel
  bool isBuilt(int channels) const;  // as ImageRotator's

 private:
  struct Built;
  Built& built(int channels);
  ComputeContext& compute_;
  HistogramConfig config_;
  const ImageHistogramVariant* variant_;
  std::unique_ptr<Built> built_[2];
  Buffer partials_, sums_, bins_, moments_;  // sums_: local_atomic_fused's device-wide sums
};

// The bandwidth reference: a plain copy of `bytes` bytes, 16 per work-item
// (kernels/copy.cl). One command: "copy".
class ImageCopier {
 public:
  explicit ImageCopier(ComputeContext& compute, int workGroup = 256);
  void run(Queue& queue, cl_mem in, cl_mem out, size_t bytes, ImageOpEvents* events = nullptr);
  const ProgramBuild& build() const { return *build_; }

 private:
  int workGroup_;
  std::shared_ptr<const ProgramBuild> build_;
  Kernel kernel_;
};
constexpr const char* kCopyKernelFile = "copy.cl";

}  // namespace ks
