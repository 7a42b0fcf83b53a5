#include "compute/image_ops.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <numbers>
#include <sstream>

namespace ks {

namespace {

bool contains(const std::vector<int>& values, int value) {
  return std::find(values.begin(), values.end(), value) != values.end();
}

std::string listOf(const std::vector<int>& values) {
  std::ostringstream o;
  for (size_t i = 0; i < values.size(); ++i) o << (i ? ", " : "") << values[i];
  return o.str();
}

size_t roundUp(size_t value, size_t multiple) { return (value + multiple - 1) / multiple * multiple; }
size_t divUp(size_t value, size_t divisor) { return (value + divisor - 1) / divisor; }

std::string channelsProblem(int channels) {
  if (channels == 1 || channels == 4) return {};
  return "channels must be 1 (gray) or 4 (RGBA), not " + std::to_string(channels);
}

// A 2D work-group of x by y items against the device's limits: the items in all,
// and each dimension against CL_DEVICE_MAX_WORK_ITEM_SIZES.
std::string workGroup2dLimitsProblem(size_t x, size_t y, const DeviceDescriptor& device) {
  const size_t items = x * y;
  if (device.maxWorkGroupSize && items > device.maxWorkGroupSize)
    return "work-group " + std::to_string(x) + "x" + std::to_string(y) + " = " + std::to_string(items) +
           " work-items exceeds the device's maximum " + std::to_string(device.maxWorkGroupSize);
  if (device.maxWorkItemSizes.size() >= 2 && (x > device.maxWorkItemSizes[0] || y > device.maxWorkItemSizes[1]))
    return "work-group " + std::to_string(x) + "x" + std::to_string(y) + " exceeds the device's maximum work-item sizes " +
           std::to_string(device.maxWorkItemSizes[0]) + "x" + std::to_string(device.maxWorkItemSizes[1]);
  return {};
}

// A 2D work-group shape against the offered lists and the device's limits.
std::string workGroup2dProblem(int x, int y, const DeviceDescriptor& device) {
  if (!contains(imageWorkGroupWidths(), x))
    return "work-group width " + std::to_string(x) + " is not offered (" + listOf(imageWorkGroupWidths()) + ")";
  if (!contains(imageWorkGroupHeights(), y))
    return "work-group height " + std::to_string(y) + " is not offered (" + listOf(imageWorkGroupHeights()) + ")";
  return workGroup2dLimitsProblem(static_cast<size_t>(x), static_cast<size_t>(y), device);
}

std::string workGroup1dProblem(size_t items, const DeviceDescriptor& device) {
  if (device.maxWorkGroupSize && items > device.maxWorkGroupSize)
    return "work-group size " + std::to_string(items) + " exceeds the device's maximum " +
           std::to_string(device.maxWorkGroupSize);
  if (!device.maxWorkItemSizes.empty() && items > device.maxWorkItemSizes[0])
    return "work-group size " + std::to_string(items) + " exceeds the device's maximum work-item size " +
           std::to_string(device.maxWorkItemSizes[0]);
  return {};
}

std::string localMemoryProblem(size_t bytes, const DeviceDescriptor& device, const char* what) {
  if (device.localMemBytes && bytes > device.localMemBytes)
    return std::string(what) + " needs " + std::to_string(bytes) + " bytes of local memory; the device has " +
           std::to_string(device.localMemBytes);
  return {};
}

bool deviceImageSupport(const DeviceDescriptor& device) {
  if (!device.id) return true;  // no runtime handle (a descriptor made up in a test): assume, check when built
  return deviceInfo<cl_bool>(device.id, CL_DEVICE_IMAGE_SUPPORT) == CL_TRUE;
}

int channelIndex(int channels) { return channels == 4 ? 1 : 0; }

size_t memObjectSize(cl_mem mem) {
  size_t size = 0;
  clCheck(clGetMemObjectInfo(mem, CL_MEM_SIZE, sizeof size, &size, nullptr), "clGetMemObjectInfo");
  return size;
}

void requireBuffer(cl_mem mem, size_t bytes, const std::string& what) {
  if (!mem) throw ImageConfigError(what + " buffer is null");
  const size_t have = memObjectSize(mem);
  if (have < bytes)
    throw ImageConfigError(what + " buffer holds " + std::to_string(have) + " bytes; " + std::to_string(bytes) +
                           " are needed");
}

void requireLayout(const ImageLayout& layout, const std::string& what) {
  if (std::string problem = imageLayoutProblem(layout); !problem.empty())
    throw ImageConfigError(what + " image: " + problem);
}

Event* eventFor(ImageOpEvents* events, const char* label) { return events ? events->add(label) : nullptr; }

// A kernel built for this device, checked against the work-group it will run with.
struct KernelBuild {
  std::shared_ptr<const ProgramBuild> build;
  Kernel kernel;
  KernelInfo info;
};

KernelBuild buildKernel(ComputeContext& compute, const char* file, const std::string& options, const char* name,
                        size_t groupItems) {
  KernelBuild k;
  k.build = compute.buildKernelFile(file, options);
  if (!k.build->ok()) throw ProgramBuildError(k.build);
  k.kernel = Kernel(k.build->program.get(), name);
  k.info = k.kernel.info(compute.device().id);
  // The compiled kernel may allow fewer work-items than the device (registers).
  if (k.info.launchableWorkGroupSize() < groupItems)
    throw ImageConfigError(std::string(name) + " allows at most " + std::to_string(k.info.launchableWorkGroupSize()) +
                           " work-items per group on this device (CL_KERNEL_WORK_GROUP_SIZE); " +
                           std::to_string(groupItems) + " asked");
  // Local memory is checked before the build, from the arrays the kernel declares
  // (localMemoryProblem), not from CL_KERNEL_LOCAL_MEM_SIZE: NVIDIA reports 4 bytes
  // more than a kernel declares (49156 for 48 KB of histogram copies) and runs it
  // on a device whose CL_DEVICE_LOCAL_MEM_SIZE is 49152. A launch the driver
  // refuses still comes back as a clear OpenCL error.
  return k;
}

void enqueue(Queue& queue, const Kernel& kernel, std::vector<size_t> global, std::vector<size_t> local,
             Event* event) {
  queue.enqueueKernel(kernel, global, local, event);
}

}  // namespace

// ---- pixels ------------------------------------------------------------------------------

std::string imageLayoutProblem(const ImageLayout& layout) {
  if (std::string c = channelsProblem(layout.channels); !c.empty()) return c;
  if (layout.width < 1 || layout.height < 1)
    return "size " + std::to_string(layout.width) + "x" + std::to_string(layout.height) + " is empty";
  if (layout.pixels() > 0x7fffffffu)
    return std::to_string(layout.pixels()) + " pixels are more than the kernels' 32-bit indices allow (2^31 - 1)";
  return {};
}

std::string describeImageLayout(const ImageLayout& layout) {
  return std::to_string(layout.width) + "x" + std::to_string(layout.height) +
         (layout.channels == 1 ? " gray" : layout.channels == 4 ? " RGBA" : " ?" + std::to_string(layout.channels));
}

Event* ImageOpEvents::add(const std::string& label) {
  commands.push_back({label, Event()});
  return &commands.back().event;
}

double ImageOpEvents::elapsedMs() const {
  if (commands.empty()) return 0.0;
  cl_ulong start = 0, end = 0;
  for (const auto& c : commands) c.event.wait();
  clCheck(clGetEventProfilingInfo(commands.front().event.get(), CL_PROFILING_COMMAND_START, sizeof start, &start,
                                  nullptr),
          "clGetEventProfilingInfo");
  clCheck(clGetEventProfilingInfo(commands.back().event.get(), CL_PROFILING_COMMAND_END, sizeof end, &end, nullptr),
          "clGetEventProfilingInfo");
  return end > start ? static_cast<double>(end - start) * 1e-6 : 0.0;
}

double ImageOpEvents::commandMs(const std::string& label) const {
  double total = 0.0;
  for (const auto& c : commands)
    if (c.label == label) {
      c.event.wait();
      total += c.event.elapsedMs();
    }
  return total;
}

size_t imageOpBytes(ImageOp op, const ImageLayout& in, const ImageLayout& out) {
  switch (op) {
    case ImageOp::Copy: return in.bytes() + (out.pixels() ? out.bytes() : in.bytes());
    case ImageOp::Rotate:
    case ImageOp::Transpose: return in.bytes() + out.bytes();
    case ImageOp::Histogram: return in.bytes();
  }
  return 0;
}

double imageGigabytesPerSecond(size_t bytes, double ms) {
  return ms > 0 ? static_cast<double>(bytes) / ms / 1e6 : 0.0;
}

const std::vector<int>& imageWorkGroupWidths() {
  static const std::vector<int> widths = {8, 16, 32, 64, 128, 256};
  return widths;
}

const std::vector<int>& imageWorkGroupHeights() {
  static const std::vector<int> heights = {1, 2, 4, 8, 16, 32};
  return heights;
}

// ---- rotation ------------------------------------------------------------------------------

const std::vector<ImageRotateVariant>& imageRotateVariants() {
  static const std::vector<ImageRotateVariant> table = {
      {"forward", "rotate_forward_scatter",
       "the seed's forward mapping: each source pixel written to its rotated spot, holes keep the background "
       "(the seed's float arithmetic, bit for bit; collisions resolved like the CPU loop: the last source pixel "
       "wins, by atomic_max)",
       RotateSampling::Forward, false, false, {1}},
      {"nearest", "rotate_nearest", "inverse mapping: each output pixel fetches the source pixel under its centre",
       RotateSampling::Nearest, false, false, {1, 4}},
      {"bilinear", "rotate_bilinear",
       "inverse mapping with bilinear sampling of the 4 nearest source pixels (12-bit fixed-point weights)",
       RotateSampling::Bilinear, false, false, {1, 4}},
      {"nearest_local", "rotate_nearest_local",
       "nearest from local memory: the group first copies the source region of its output tile (coalesced, "
       "background outside the image), then samples without bounds tests",
       RotateSampling::Nearest, false, true, {1, 4}},
      {"bilinear_local", "rotate_bilinear_local", "bilinear from the group's source region staged in local memory",
       RotateSampling::Bilinear, false, true, {1, 4}},
      {"nearest_image", "rotate_nearest_image",
       "nearest through image2d_t + sampler (the source copied into a CL image; pixel chosen in integers)",
       RotateSampling::Nearest, true, false, {1, 2, 4}, true, {1, 2, 4}},
      {"bilinear_image", "rotate_bilinear_image",
       "bilinear by the sampler's filtering (CLK_FILTER_LINEAR, the texture unit) from a CL image; GPUs weight "
       "the taps in 1/256 steps",
       RotateSampling::Bilinear, true, false, {1, 2, 4}, false, {1, 2, 4}},
  };
  return table;
}

const ImageRotateVariant* findImageRotateVariant(const std::string& name) {
  for (const auto& v : imageRotateVariants())
    if (name == v.name) return &v;
  return nullptr;
}

void fitRotateBlock(const ImageRotateVariant& variant, int& pixelsPerItem, int& rowsPerItem) {
  if (!contains(variant.pixelsPerItem, pixelsPerItem))
    pixelsPerItem = contains(variant.pixelsPerItem, 4) ? 4 : variant.pixelsPerItem.front();
  if (!contains(variant.rowsPerItem, rowsPerItem)) rowsPerItem = variant.rowsPerItem.front();
}

RotationFixedPoint rotationFixedPoint(double degrees) {
  double d = std::fmod(degrees, 360.0);
  if (d < 0) d += 360.0;
  RotationFixedPoint r;
  if (d == 0.0) return {65536, 0};
  if (d == 90.0) return {0, 65536};
  if (d == 180.0) return {-65536, 0};
  if (d == 270.0) return {0, -65536};
  const double rad = d * std::numbers::pi / 180.0;
  r.cosQ16 = static_cast<int32_t>(std::lround(std::cos(rad) * 65536.0));
  r.sinQ16 = static_cast<int32_t>(std::lround(std::sin(rad) * 65536.0));
  return r;
}

RotationFloat rotationFloat(double degrees) {
  double d = std::fmod(degrees, 360.0);
  if (d < 0) d += 360.0;
  if (d == 0.0) return {1.0f, 0.0f};
  if (d == 90.0) return {0.0f, 1.0f};
  if (d == 180.0) return {-1.0f, 0.0f};
  if (d == 270.0) return {0.0f, -1.0f};
  const double rad = d * std::numbers::pi / 180.0;
  auto toFloat = [](double v) {
    const float f = static_cast<float>(v);
    return std::fabs(f) < std::numeric_limits<float>::min() ? 0.0f : f;
  };
  return {toFloat(std::cos(rad)), toFloat(std::sin(rad))};
}

ImageLayout rotatedLayout(const ImageLayout& in, const RotateParams& params) {
  if (params.canvas == RotateCanvas::Crop) return in;
  const RotationFixedPoint r = rotationFixedPoint(params.degrees);
  const int64_t c = std::abs(static_cast<int64_t>(r.cosQ16)), s = std::abs(static_cast<int64_t>(r.sinQ16));
  const int64_t w = in.width, h = in.height;
  ImageLayout out = in;
  out.width = static_cast<int>(std::max<int64_t>(1, (w * c + h * s + 65535) >> 16));
  out.height = static_cast<int>(std::max<int64_t>(1, (w * s + h * c + 65535) >> 16));
  return out;
}

std::array<uint8_t, 4> rotateBackgroundPixel(const RotateParams& params, int channels) {
  if (params.transparent) return {0, 0, 0, 0};
  if (channels == 1) return {imageLuminance(params.background[0], params.background[1], params.background[2]), 0, 0, 0};
  return params.background;
}

size_t imageRotateBoxPixels(const RotateConfig& c) {
  // Source span of a tile of A+1 x B+1 pixels: |cos| A + |sin| B by |sin| A + |cos| B,
  // whose product is at most (A + B)^2 / 2 (at 45 degrees); plus 3 columns and rows
  // for floor rounding and the bilinear taps, 6 more columns for gray word alignment.
  const double span = std::max(0, c.workGroupX * c.pixelsPerItem - 1) + std::max(0, c.workGroupY - 1);
  return static_cast<size_t>(std::ceil(span * span / 2.0 * 1.001 + 14.0 * span * 1.001 + 40.0));
}

size_t imageRotateLocalMemoryBytes(const RotateConfig& c, int channels) {
  const ImageRotateVariant* v = findImageRotateVariant(c.variant);
  if (!v || !v->staged) return 0;
  // As kernels/rotate.cl declares it: an array of 32-bit words (the gray path stores
  // 4 pixels at a time), so gray's one byte per pixel rounds up to whole words.
  return roundUp(imageRotateBoxPixels(c) * (channels == 4 ? 4 : 1), 4);
}

std::string imageRotateBuildOptions(const RotateConfig& config, int channels) {
  const ImageRotateVariant* v = findImageRotateVariant(config.variant);
  std::ostringstream o;
  o << "-DCHANNELS=" << channels << " -DPIXELS_PER_ITEM=" << config.pixelsPerItem;
  if (v && v->image) o << " -DUSE_IMAGES";
  if (config.rowsPerItem != 1) o << " -DROWS_PER_ITEM=" << config.rowsPerItem;
  if (v && v->staged)
    o << " -DSTAGED -DWG_X=" << config.workGroupX << " -DWG_Y=" << config.workGroupY
      << " -DBOX_AREA=" << imageRotateBoxPixels(config);
  return o.str();
}

std::string describeRotateConfig(const RotateConfig& c) {
  std::ostringstream o;
  o << c.variant << " wg=" << c.workGroupX << "x" << c.workGroupY << " ppi=" << c.pixelsPerItem;
  if (c.rowsPerItem != 1) o << "x" << c.rowsPerItem;
  return o.str();
}

std::string imageRotateConfigProblem(const RotateConfig& c, const DeviceDescriptor& device, int channels) {
  const ImageRotateVariant* v = findImageRotateVariant(c.variant);
  if (!v) return "unknown rotation variant '" + c.variant + "'";
  if (std::string p = channelsProblem(channels); !p.empty()) return p;
  if (std::string p = workGroup2dProblem(c.workGroupX, c.workGroupY, device); !p.empty()) return p;
  if (!contains(v->pixelsPerItem, c.pixelsPerItem))
    return std::to_string(c.pixelsPerItem) + " pixels per work-item are not offered by the " + v->name +
           " variant (" + listOf(v->pixelsPerItem) + ")";
  if (!contains(v->rowsPerItem, c.rowsPerItem))
    return std::to_string(c.rowsPerItem) + " rows per work-item are not offered by the " + v->name + " variant (" +
           listOf(v->rowsPerItem) + ")";
  if (v->staged)
    if (std::string p = localMemoryProblem(imageRotateLocalMemoryBytes(c, channels), device, "the staged source region");
        !p.empty())
      return p;
  if (v->image && !deviceImageSupport(device))
    return std::string("the ") + v->name +
           " variant reads an image2d_t, and the device has no image support (CL_DEVICE_IMAGE_SUPPORT is false)";
  return {};
}

std::vector<RotateConfig> allRotateConfigs(const DeviceDescriptor& device, int channels) {
  std::vector<RotateConfig> out;
  for (const auto& v : imageRotateVariants())
    for (int x : imageWorkGroupWidths())
      for (int y : imageWorkGroupHeights())
        for (int ppi : v.pixelsPerItem)
          for (int rows : v.rowsPerItem) {
            RotateConfig c{v.name, x, y, ppi, rows};
            if (x * y >= 32 && imageRotateConfigProblem(c, device, channels).empty()) out.push_back(c);
          }
  return out;
}

// ---- transpose -------------------------------------------------------------------------------

const std::vector<ImageTransposeVariant>& imageTransposeVariants() {
  static const std::vector<ImageTransposeVariant> table = {
      {"naive", "transpose_naive", "one pixel per work-item: coalesced reads, writes a whole column apart",
       TransposeKind::Naive, false, BlockOrder::Rows, {}, {}, {}},
      {"tiled", "transpose_tiled",
       "T x T tile through local memory: coalesced reads and writes; the column reads of the tile conflict on banks",
       TransposeKind::Tiled, false, BlockOrder::Rows, {8, 16, 32}, {1, 2, 4, 8}, {}},
      {"tiled_padded", "transpose_tiled_padded",
       "tiled with each tile row padded by one element (Apple's sample): no bank conflicts", TransposeKind::Tiled, true,
       BlockOrder::Rows, {8, 16, 32}, {1, 2, 4, 8}, {}},
      {"tiled_diagonal", "transpose_tiled_diagonal",
       "tiled + padded, work-groups take blocks in diagonal order (seed 000: avoids partition camping)",
       TransposeKind::Tiled, true, BlockOrder::Diagonal, {8, 16, 32}, {1, 2, 4, 8}, {}},
      {"block4x4", "transpose_4x4",
       "4x4 pixels per work-item: rows of 4 pixels as one uchar4 / uint4, 4x4 blocks transposed in registers with "
       "shuffle2, a swizzled T x T tile in local memory (seeds 000, 002)",
       TransposeKind::Block4x4, false, BlockOrder::Rows, {32, 64, 128}, {}, {64, 128, 256}},
      {"block4x4_diagonal", "transpose_4x4_diagonal", "block4x4 with diagonal block order (seed 000)",
       TransposeKind::Block4x4, false, BlockOrder::Diagonal, {32, 64, 128}, {}, {64, 128, 256}},
      {"block4x4_columns", "transpose_4x4_columns",
       "block4x4 with the blocks taken column by column: the groups in flight write whole output rows while "
       "still reading each input row a few blocks wide",
       TransposeKind::Block4x4, false, BlockOrder::Columns, {32, 64, 128}, {}, {64, 128, 256}},
      {"block4x16_gray", "transpose_gray16",
       "gray only: 16-byte row loads and stores (block4x4 moves gray rows 4 bytes at a time), 4x4 byte blocks "
       "transposed in registers, rows of the local tile padded by a word",
       TransposeKind::Gray16, true, BlockOrder::Rows, {64, 128}, {}, {64, 128, 256}},
      {"block4x16_gray_columns", "transpose_gray16_columns",
       "block4x16_gray with the blocks taken column by column: the groups in flight write whole output rows",
       TransposeKind::Gray16, true, BlockOrder::Columns, {64, 128}, {}, {64, 128, 256}},
  };
  return table;
}

const char* blockOrderName(BlockOrder order) {
  switch (order) {
    case BlockOrder::Rows: return "rows";
    case BlockOrder::Diagonal: return "diagonal";
    case BlockOrder::Columns: return "columns";
  }
  return "?";
}

const ImageTransposeVariant* findImageTransposeVariant(const std::string& name) {
  for (const auto& v : imageTransposeVariants())
    if (name == v.name) return &v;
  return nullptr;
}

namespace {
const RotateConfig kImageRotateDefault{"bilinear_image", 32, 8, 2, 4}, kBufferRotateDefault{"bilinear", 16, 16, 4, 1};

// The first of `preferred` that runs, else any configuration of those variants that fits (a small device).
RotateConfig firstRunnableRotate(std::initializer_list<RotateConfig> preferred, const DeviceDescriptor& device,
                                 int channels) {
  for (const RotateConfig& c : preferred)
    if (imageRotateConfigProblem(c, device, channels).empty()) return c;
  for (const RotateConfig& c : allRotateConfigs(device, channels))
    for (const RotateConfig& p : preferred)
      if (c.variant == p.variant) return c;
  return kBufferRotateDefault;
}
}  // namespace

RotateConfig defaultRotateConfig(int channels, const DeviceDescriptor& device) {
  return firstRunnableRotate({kImageRotateDefault, kBufferRotateDefault}, device, channels);
}

RotateConfig defaultRotateConfig(const ImageLayout& image, const DeviceDescriptor& device,
                                 std::array<size_t, 2> maxImage2d) {
  const RotateConfig c = defaultRotateConfig(image.channels, device);
  const ImageRotateVariant* v = findImageRotateVariant(c.variant);
  const bool fits = static_cast<size_t>(image.width) <= maxImage2d[0] && static_cast<size_t>(image.height) <= maxImage2d[1];
  if (!v || !v->image || fits) return c;
  return firstRunnableRotate({kBufferRotateDefault}, device, image.channels);
}

std::array<size_t, 2> deviceMaxImage2d(const DeviceDescriptor& device) {
  if (!device.id) return {SIZE_MAX, SIZE_MAX};
  if (!deviceInfo<cl_bool>(device.id, CL_DEVICE_IMAGE_SUPPORT)) return {0, 0};
  return {deviceInfo<size_t>(device.id, CL_DEVICE_IMAGE2D_MAX_WIDTH),
          deviceInfo<size_t>(device.id, CL_DEVICE_IMAGE2D_MAX_HEIGHT)};
}

TransposeConfig defaultTransposeConfig(int channels) {
  TransposeConfig c;
  c.variant = channels == 1 ? "block4x16_gray_columns" : "block4x4_columns";
  c.tile = channels == 1 ? 128 : 64;
  c.workGroup = channels == 1 ? 256 : 64;
  return c;
}

ImageLayout transposedLayout(const ImageLayout& in) { return {in.height, in.width, in.channels}; }

std::string imageTransposeBuildOptions(const TransposeConfig& c, int channels) {
  const ImageTransposeVariant* v = findImageTransposeVariant(c.variant);
  std::ostringstream o;
  o << "-DCHANNELS=" << channels;
  if (!v) return o.str();
  switch (v->kind) {
    case TransposeKind::Naive: o << " -DNAIVE"; break;
    case TransposeKind::Tiled: o << " -DTILED -DTILE=" << c.tile << " -DROWS=" << c.rowsPerItem; break;
    case TransposeKind::Block4x4: o << " -DBLOCK4X4 -DB4_TILE=" << c.tile << " -DB4_WG=" << c.workGroup; break;
    case TransposeKind::Gray16: o << " -DGRAY16 -DG16_TILE=" << c.tile << " -DG16_WG=" << c.workGroup; break;
  }
  return o.str();
}

std::string describeTransposeConfig(const TransposeConfig& c) {
  std::ostringstream o;
  o << c.variant;
  const ImageTransposeVariant* v = findImageTransposeVariant(c.variant);
  if (!v) return o.str();
  switch (v->kind) {
    case TransposeKind::Naive: o << " wg=" << c.workGroupX << "x" << c.workGroupY; break;
    case TransposeKind::Tiled: o << " T=" << c.tile << " rows=" << c.rowsPerItem; break;
    case TransposeKind::Block4x4:
    case TransposeKind::Gray16: o << " T=" << c.tile << " wg=" << c.workGroup; break;
  }
  return o.str();
}

size_t imageTransposeLocalMemoryBytes(const TransposeConfig& c, int channels) {
  const ImageTransposeVariant* v = findImageTransposeVariant(c.variant);
  if (!v || c.tile <= 0) return 0;
  const size_t t = static_cast<size_t>(c.tile), bpp = channels == 4 ? 4 : 1;
  switch (v->kind) {
    case TransposeKind::Naive: return 0;
    case TransposeKind::Tiled: return t * (t + (v->padded ? 1 : 0)) * bpp;
    case TransposeKind::Block4x4: return t * t * bpp;
    case TransposeKind::Gray16: return t * (t / 4 + 1) * 4;
  }
  return 0;
}

std::string imageTransposeConfigProblem(const TransposeConfig& c, const DeviceDescriptor& device, int channels) {
  const ImageTransposeVariant* v = findImageTransposeVariant(c.variant);
  if (!v) return "unknown transpose variant '" + c.variant + "'";
  if (std::string p = channelsProblem(channels); !p.empty()) return p;
  switch (v->kind) {
    case TransposeKind::Naive: return workGroup2dProblem(c.workGroupX, c.workGroupY, device);
    case TransposeKind::Tiled: {
      if (!contains(v->tiles, c.tile))
        return "tile " + std::to_string(c.tile) + " is not offered by the " + v->name + " variant (" + listOf(v->tiles) +
               ")";
      if (!contains(v->rowsPerItem, c.rowsPerItem))
        return std::to_string(c.rowsPerItem) + " rows per work-item are not offered by the " + v->name + " variant (" +
               listOf(v->rowsPerItem) + ")";
      if (c.rowsPerItem > c.tile)
        return std::to_string(c.rowsPerItem) + " rows per work-item exceed the tile of " + std::to_string(c.tile);
      // The kernels' reqd_work_group_size(TILE, TILE / ROWS, 1): a 2D group, so each
      // dimension has its own device limit besides the items in all.
      const size_t x = static_cast<size_t>(c.tile), y = static_cast<size_t>(c.tile / c.rowsPerItem);
      if (std::string p = workGroup2dLimitsProblem(x, y, device); !p.empty()) return p;
      break;
    }
    case TransposeKind::Gray16:
      if (channels != 1)
        return std::string("the ") + v->name + " variant is for gray images (for RGBA, block4x4 already moves 16-byte "
               "vectors)";
      [[fallthrough]];
    case TransposeKind::Block4x4: {
      if (!contains(v->tiles, c.tile))
        return "tile " + std::to_string(c.tile) + " is not offered by the " + v->name + " variant (" + listOf(v->tiles) +
               ")";
      if (!contains(v->workGroups, c.workGroup))
        return "work-group size " + std::to_string(c.workGroup) + " is not offered by the " + v->name + " variant (" +
               listOf(v->workGroups) + ")";
      // Each item takes at least one unit of the tile's second phase: a 4x4 block,
      // or for Gray16 a piece of 4 output rows x 16 bytes.
      const bool gray16 = v->kind == TransposeKind::Gray16;
      const int units = (c.tile / 4) * (c.tile / (gray16 ? 16 : 4));
      if (c.workGroup > units)
        return "a work-group of " + std::to_string(c.workGroup) + " is more than the " + std::to_string(units) +
               (gray16 ? " pieces (4 rows x 16 bytes)" : " 4x4 blocks") + " of a " + std::to_string(c.tile) + "x" +
               std::to_string(c.tile) + " tile";
      if (std::string p = workGroup1dProblem(static_cast<size_t>(c.workGroup), device); !p.empty()) return p;
      break;
    }
  }
  return localMemoryProblem(imageTransposeLocalMemoryBytes(c, channels), device, "the tile");
}

std::vector<TransposeConfig> allTransposeConfigs(const DeviceDescriptor& device, int channels) {
  std::vector<TransposeConfig> out;
  for (const auto& v : imageTransposeVariants()) {
    TransposeConfig c;
    c.variant = v.name;
    switch (v.kind) {
      case TransposeKind::Naive:
        for (int x : imageWorkGroupWidths())
          for (int y : imageWorkGroupHeights()) {
            c.workGroupX = x;
            c.workGroupY = y;
            if (x * y >= 32 && imageTransposeConfigProblem(c, device, channels).empty()) out.push_back(c);
          }
        break;
      case TransposeKind::Tiled:
        for (int t : v.tiles)
          for (int r : v.rowsPerItem) {
            c.tile = t;
            c.rowsPerItem = r;
            if (imageTransposeConfigProblem(c, device, channels).empty()) out.push_back(c);
          }
        break;
      case TransposeKind::Block4x4:
      case TransposeKind::Gray16:
        for (int t : v.tiles)
          for (int wg : v.workGroups) {
            c.tile = t;
            c.workGroup = wg;
            if (imageTransposeConfigProblem(c, device, channels).empty()) out.push_back(c);
          }
        break;
    }
  }
  return out;
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
       "the seed's design: a uchar sub-histogram per work-item in local memory, summed per group; at most 255 pixels "
       "per work-item so the uchar bins never wrap",
       {32, 64, 128, 256}, {16, 32, 64, 128, 255}, {}, {}},
      {"subhist_flush", "histogram_subhist_flush",
       "the seed's uchar sub-histograms without atomics or their limits: each item's counters one bank per lane "
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
  o << "-DCHANNELS=" << channels << " -DWG=" << c.workGroup;
  if (channels == 4 && c.countedChannels != kAllHistogramChannels) o << " -DCOUNT_MASK=" << c.countedChannels;
  if (isSubHistogram(v)) o << " -DSUBHIST -DPIXELS_PER_ITEM=" << c.pixelsPerItem;
  else if (isFlushed(v)) o << " -DSUBHIST_FLUSH";
  else o << " -DLOCAL_ATOMIC -DCOPIES=" << c.copies;
  if (v && v->fused) o << " -DFUSED";
  return o.str();
}

std::string deviceScopeFenceProblem(const DeviceDescriptor& device) {
  const int major = device.openclMajorVersion();
  if (major < 2)
    return "local_atomic_fused needs device-scope memory fences (OpenCL 2.0 or later); the device reports '" +
           device.deviceVersion + "'";
  // NVIDIA's OpenCL 3.0 lists work-group-scope fences only (0x13), yet compiles a
  // memory_scope_device fence to membar.gl, CUDA's __threadfence (checked in its
  // PTX on an H200, driver 580.159.04): the one exception to the capability query.
  const cl_device_atomic_capabilities needed = CL_DEVICE_ATOMIC_ORDER_ACQ_REL | CL_DEVICE_ATOMIC_SCOPE_DEVICE;
  if (major >= 3 && (device.atomicFenceCapabilities & needed) != needed && !device.isNvidia())
    return "local_atomic_fused needs acquire-release fences of device scope, which the device does not offer "
           "(CL_DEVICE_ATOMIC_FENCE_CAPABILITIES)";
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
  const ImageHistogramVariant* v = findImageHistogramVariant(c.variant);
  if (!v) return "unknown histogram variant '" + c.variant + "'";
  if (std::string p = channelsProblem(channels); !p.empty()) return p;
  if (c.countedChannels < 1 || c.countedChannels > kAllHistogramChannels)
    return "the counted channels must be a non-empty subset of R, G, B, A and luminance (mask " +
           std::to_string(c.countedChannels) + ")";
  if (!contains(v->workGroups, c.workGroup))
    return "work-group size " + std::to_string(c.workGroup) + " is not offered by the " + v->name + " variant (" +
           listOf(v->workGroups) + ")";
  if (std::string p = workGroup1dProblem(static_cast<size_t>(c.workGroup), device); !p.empty()) return p;
  if (isSubHistogram(v)) {
    if (c.pixelsPerItem > kSubHistogramMaxPixelsPerItem)
      return std::to_string(c.pixelsPerItem) +
             " pixels per work-item would overflow the uchar sub-histogram bins (at most 255: an image of one value "
             "would wrap to 0)";
    if (!contains(v->pixelsPerItem, c.pixelsPerItem))
      return std::to_string(c.pixelsPerItem) + " pixels per work-item are not offered by the " + v->name +
             " variant (" + listOf(v->pixelsPerItem) + ")";
  } else {
    if (!isFlushed(v) && !contains(v->copies, c.copies))
      return std::to_string(c.copies) + " histogram copies are not offered by the " + v->name + " variant (" +
             listOf(v->copies) + ")";
    if (!contains(v->groupsPerComputeUnit, c.groupsPerComputeUnit))
      return std::to_string(c.groupsPerComputeUnit) + " groups per compute unit are not offered by the " + v->name +
             " variant (" + listOf(v->groupsPerComputeUnit) + ")";
  }
  if (v->fused)
    if (std::string p = deviceScopeFenceProblem(device); !p.empty()) return p;
  if (std::string p = workGroup1dProblem(static_cast<size_t>(kHistogramBins), device); !p.empty())
    return "the statistics reduction needs work-groups of " + std::to_string(kHistogramBins) + ": " + p;
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

// ---- runners: shared pieces ---------------------------------------------------------------------

// ---- rotation ----

struct ImageRotator::Built {
  KernelBuild main;
  KernelBuild resolve;  // forward only
  cl_image_format format{};
};

ImageRotator::ImageRotator(ComputeContext& compute, const RotateConfig& config)
    : compute_(compute), config_(config), variant_(findImageRotateVariant(config.variant)) {
  if (std::string problem = imageRotateConfigProblem(config, compute.device(), 1); !problem.empty())
    throw ImageConfigError(problem);
}

ImageRotator::~ImageRotator() = default;

void ImageRotator::prepare(int channels) { built(channels); }

const ProgramBuild& ImageRotator::build(int channels) { return *built(channels).main.build; }
const KernelInfo& ImageRotator::info(int channels) { return built(channels).main.info; }
bool ImageRotator::isBuilt(int channels) const { return built_[channelIndex(channels)] != nullptr; }

ImageRotator::Built& ImageRotator::built(int channels) {
  if (std::string problem = imageRotateConfigProblem(config_, compute_.device(), channels); !problem.empty())
    throw ImageConfigError(problem);
  auto& slot = built_[channelIndex(channels)];
  if (slot) return *slot;
  auto b = std::make_unique<Built>();
  const std::string options = imageRotateBuildOptions(config_, channels);
  const size_t items = static_cast<size_t>(config_.workGroupX) * static_cast<size_t>(config_.workGroupY);
  b->main = buildKernel(compute_, kRotateKernelFile, options, variant_->kernel, items);
  if (variant_->sampling == RotateSampling::Forward)
    b->resolve = buildKernel(compute_, kRotateKernelFile, options, "rotate_forward_resolve", items);
  if (variant_->image) {
    // CL_R for gray (CL_LUMINANCE where CL_R is missing: both read back in .x), CL_RGBA for RGBA.
    cl_uint count = 0;
    clCheck(clGetSupportedImageFormats(compute_.context(), CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, 0, nullptr, &count),
            "clGetSupportedImageFormats");
    std::vector<cl_image_format> formats(count);
    clCheck(clGetSupportedImageFormats(compute_.context(), CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, count,
                                       formats.data(), nullptr),
            "clGetSupportedImageFormats");
    auto supported = [&](cl_channel_order order) {
      return std::any_of(formats.begin(), formats.end(), [&](const cl_image_format& f) {
        return f.image_channel_order == order && f.image_channel_data_type == CL_UNORM_INT8;
      });
    };
    const std::vector<cl_channel_order> wanted =
        channels == 1 ? std::vector<cl_channel_order>{CL_R, CL_LUMINANCE} : std::vector<cl_channel_order>{CL_RGBA};
    bool found = false;
    for (cl_channel_order order : wanted)
      if (supported(order)) {
        b->format = {order, CL_UNORM_INT8};
        found = true;
        break;
      }
    if (!found)
      throw ImageConfigError(std::string("the device has no read-only 2D image format ") +
                             (channels == 1 ? "CL_R or CL_LUMINANCE" : "CL_RGBA") + " / CL_UNORM_INT8 for the " +
                             variant_->name + " variant");
  }
  slot = std::move(b);
  return *slot;
}

void ImageRotator::run(Queue& queue, cl_mem in, const ImageLayout& inLayout, cl_mem out, const ImageLayout& outLayout,
                       const RotateParams& params, ImageOpEvents* events) {
  requireLayout(inLayout, "the input");
  const ImageLayout expected = rotatedLayout(inLayout, params);
  if (!(outLayout == expected))
    throw ImageConfigError("the rotated output of " + describeImageLayout(inLayout) + " is " +
                           describeImageLayout(expected) + ", not " + describeImageLayout(outLayout));
  requireLayout(outLayout, "the output");
  Built& b = built(inLayout.channels);
  requireBuffer(in, inLayout.bytes(), "the input");
  requireBuffer(out, outLayout.bytes(), "the output");

  const RotationFixedPoint r = rotationFixedPoint(params.degrees);
  const std::array<uint8_t, 4> bg = rotateBackgroundPixel(params, inLayout.channels);
  const cl_int inW = inLayout.width, inH = inLayout.height, outW = outLayout.width, outH = outLayout.height;
  const size_t wx = static_cast<size_t>(config_.workGroupX), wy = static_cast<size_t>(config_.workGroupY);
  auto setBackground = [&](Kernel& k, cl_uint index) {
    if (inLayout.channels == 1) k.setArg(index, static_cast<cl_uchar>(bg[0]));
    else k.setArg(index, cl_uchar4{{bg[0], bg[1], bg[2], bg[3]}});
  };

  if (variant_->sampling == RotateSampling::Forward) {
    const size_t ownerBytes = outLayout.pixels() * sizeof(cl_uint);
    if (owner_.bytes() < ownerBytes) owner_ = Buffer(compute_.context(), CL_MEM_READ_WRITE, ownerBytes);
    const cl_uint zero = 0;
    Event* clear = eventFor(events, "clear");
    clCheck(clEnqueueFillBuffer(queue.get(), owner_.get(), &zero, sizeof zero, 0, ownerBytes, 0, nullptr,
                                clear ? clear->out() : nullptr),
            "clEnqueueFillBuffer");
    Kernel& scatter = b.main.kernel;
    scatter.setArg(0, owner_.get());
    scatter.setArg(1, inW);
    scatter.setArg(2, inH);
    scatter.setArg(3, outW);
    scatter.setArg(4, outH);
    // The seed's float sine and cosine, computed here once, as the CPU reference gets them.
    const RotationFloat f = rotationFloat(params.degrees);
    scatter.setArg(5, static_cast<cl_float>(f.cosTheta));
    scatter.setArg(6, static_cast<cl_float>(f.sinTheta));
    enqueue(queue, scatter, {roundUp(inW, wx), roundUp(inH, wy)}, {wx, wy}, eventFor(events, "scatter"));
    Kernel& resolve = b.resolve.kernel;
    resolve.setArg(0, in);
    resolve.setArg(1, out);
    resolve.setArg(2, owner_.get());
    resolve.setArg(3, outW);
    resolve.setArg(4, outH);
    setBackground(resolve, 5);
    enqueue(queue, resolve, {roundUp(outW, wx), roundUp(outH, wy)}, {wx, wy}, eventFor(events, "resolve"));
    return;
  }

  Kernel& k = b.main.kernel;
  if (variant_->image) {
    const auto [maxW, maxH] = deviceMaxImage2d(compute_.device());
    if (static_cast<size_t>(inW) > maxW || static_cast<size_t>(inH) > maxH)
      throw ImageConfigError("a " + describeImageLayout(inLayout) + " image exceeds the device's largest 2D image " +
                             std::to_string(maxW) + "x" + std::to_string(maxH) + " (the " + variant_->name +
                             " variant)");
    if (!image_ || !(imageLayout_ == inLayout)) {
      imageSource_ = nullptr;
      cl_image_desc desc{};
      desc.image_type = CL_MEM_OBJECT_IMAGE2D;
      desc.image_width = static_cast<size_t>(inW);
      desc.image_height = static_cast<size_t>(inH);
      cl_int status = CL_SUCCESS;
      cl_mem image = clCreateImage(compute_.context(), CL_MEM_READ_ONLY, &b.format, &desc, nullptr, &status);
      clCheck(status, "clCreateImage");
      image_ = MemHandle(image);
      imageLayout_ = inLayout;
    }
    if (imageSource_ != in) {
      const size_t origin[3] = {0, 0, 0};
      const size_t region[3] = {static_cast<size_t>(inW), static_cast<size_t>(inH), 1};
      Event* upload = eventFor(events, "upload");
      clCheck(clEnqueueCopyBufferToImage(queue.get(), in, image_.get(), 0, origin, region, 0, nullptr,
                                         upload ? upload->out() : nullptr),
              "clEnqueueCopyBufferToImage");
      imageSource_ = in;
    }
    k.setArg(0, image_.get());
  } else {
    k.setArg(0, in);
  }
  k.setArg(1, out);
  k.setArg(2, inW);
  k.setArg(3, inH);
  k.setArg(4, outW);
  k.setArg(5, outH);
  k.setArg(6, static_cast<cl_int>(r.cosQ16));
  k.setArg(7, static_cast<cl_int>(r.sinQ16));
  setBackground(k, 8);
  const size_t ppi = static_cast<size_t>(config_.pixelsPerItem), rows = static_cast<size_t>(config_.rowsPerItem);
  enqueue(queue, k, {roundUp(divUp(outW, ppi), wx), roundUp(divUp(outH, rows), wy)}, {wx, wy},
          eventFor(events, "rotate"));
}

// ---- transpose ----

struct ImageTransposer::Built {
  KernelBuild kernel;
};

ImageTransposer::ImageTransposer(ComputeContext& compute, const TransposeConfig& config)
    : compute_(compute), config_(config), variant_(findImageTransposeVariant(config.variant)) {
  if (std::string problem = imageTransposeConfigProblem(config, compute.device(), 1); !problem.empty())
    throw ImageConfigError(problem);
}

ImageTransposer::~ImageTransposer() = default;

void ImageTransposer::prepare(int channels) { built(channels); }

const ProgramBuild& ImageTransposer::build(int channels) { return *built(channels).kernel.build; }
const KernelInfo& ImageTransposer::info(int channels) { return built(channels).kernel.info; }
bool ImageTransposer::isBuilt(int channels) const { return built_[channelIndex(channels)] != nullptr; }

ImageTransposer::Built& ImageTransposer::built(int channels) {
  if (std::string problem = imageTransposeConfigProblem(config_, compute_.device(), channels); !problem.empty())
    throw ImageConfigError(problem);
  auto& slot = built_[channelIndex(channels)];
  if (slot) return *slot;
  size_t items = 0;
  switch (variant_->kind) {
    case TransposeKind::Naive: items = static_cast<size_t>(config_.workGroupX) * config_.workGroupY; break;
    case TransposeKind::Tiled: items = static_cast<size_t>(config_.tile) * (config_.tile / config_.rowsPerItem); break;
    case TransposeKind::Block4x4:
    case TransposeKind::Gray16: items = static_cast<size_t>(config_.workGroup); break;
  }
  auto b = std::make_unique<Built>();
  b->kernel = buildKernel(compute_, kTransposeKernelFile, imageTransposeBuildOptions(config_, channels),
                          variant_->kernel, items);
  slot = std::move(b);
  return *slot;
}

void ImageTransposer::run(Queue& queue, cl_mem in, const ImageLayout& inLayout, cl_mem out,
                          const ImageLayout& outLayout, ImageOpEvents* events) {
  requireLayout(inLayout, "the input");
  if (!(outLayout == transposedLayout(inLayout)))
    throw ImageConfigError("the transpose of " + describeImageLayout(inLayout) + " is " +
                           describeImageLayout(transposedLayout(inLayout)) + ", not " +
                           describeImageLayout(outLayout));
  Built& b = built(inLayout.channels);
  requireBuffer(in, inLayout.bytes(), "the input");
  requireBuffer(out, outLayout.bytes(), "the output");
  Kernel& k = b.kernel.kernel;
  k.setArg(0, in);
  k.setArg(1, out);
  k.setArg(2, static_cast<cl_int>(inLayout.width));
  k.setArg(3, static_cast<cl_int>(inLayout.height));
  const size_t w = static_cast<size_t>(inLayout.width), h = static_cast<size_t>(inLayout.height);
  Event* event = eventFor(events, "transpose");
  switch (variant_->kind) {
    case TransposeKind::Naive: {
      const size_t wx = static_cast<size_t>(config_.workGroupX), wy = static_cast<size_t>(config_.workGroupY);
      enqueue(queue, k, {roundUp(w, wx), roundUp(h, wy)}, {wx, wy}, event);
      break;
    }
    case TransposeKind::Tiled: {
      const size_t t = static_cast<size_t>(config_.tile), ty = t / static_cast<size_t>(config_.rowsPerItem);
      enqueue(queue, k, {divUp(w, t) * t, divUp(h, t) * ty}, {t, ty}, event);
      break;
    }
    case TransposeKind::Block4x4:
    case TransposeKind::Gray16: {
      const size_t t = static_cast<size_t>(config_.tile), wg = static_cast<size_t>(config_.workGroup);
      enqueue(queue, k, {divUp(w, t) * wg, divUp(h, t)}, {wg, 1}, event);
      break;
    }
  }
}

// ---- histogram ----

struct ImageHistogrammer::Built {
  KernelBuild histogram, merge, stats;
  size_t mergeRows = 1;
};

ImageHistogrammer::ImageHistogrammer(ComputeContext& compute, const HistogramConfig& config)
    : compute_(compute), config_(config), variant_(findImageHistogramVariant(config.variant)) {
  if (std::string problem = imageHistogramConfigProblem(config, compute.device(), 1); !problem.empty())
    throw ImageConfigError(problem);
}

ImageHistogrammer::~ImageHistogrammer() = default;

void ImageHistogrammer::prepare(int channels) { built(channels); }

const ProgramBuild& ImageHistogrammer::build(int channels) { return *built(channels).histogram.build; }
const KernelInfo& ImageHistogrammer::info(int channels) { return built(channels).histogram.info; }
bool ImageHistogrammer::isBuilt(int channels) const { return built_[channelIndex(channels)] != nullptr; }

ImageHistogrammer::Built& ImageHistogrammer::built(int channels) {
  if (std::string problem = imageHistogramConfigProblem(config_, compute_.device(), channels); !problem.empty())
    throw ImageConfigError(problem);
  auto& slot = built_[channelIndex(channels)];
  if (slot) return *slot;
  auto b = std::make_unique<Built>();
  const std::string options = imageHistogramBuildOptions(config_, channels);
  const std::string histogramOptions =
      variant_->fused ? options + " " + deviceScopeFenceLanguageOption(compute_.device()) : options;
  b->histogram = buildKernel(compute_, kHistogramKernelFile, histogramOptions, variant_->kernel,
                             static_cast<size_t>(config_.workGroup));
  b->merge = buildKernel(compute_, kHistogramKernelFile, options, "histogram_merge", 8);
  // Rows of the merge's (8, rows) work-group: a power of two up to 128 that the
  // kernel and the device allow.
  size_t rowLimit = std::min<size_t>(128, b->merge.info.workGroupSize / 8);
  if (compute_.device().maxWorkGroupSize) rowLimit = std::min(rowLimit, compute_.device().maxWorkGroupSize / 8);
  if (compute_.device().maxWorkItemSizes.size() >= 2)
    rowLimit = std::min(rowLimit, compute_.device().maxWorkItemSizes[1]);
  b->mergeRows = 1;
  while (b->mergeRows * 2 <= rowLimit) b->mergeRows *= 2;
  b->stats = buildKernel(compute_, kHistogramKernelFile, options + histogramPercentileOptions(), "histogram_stats",
                         kHistogramBins);
  slot = std::move(b);
  return *slot;
}

size_t ImageHistogrammer::groupCount(const ImageLayout& layout) const {
  const size_t wg = static_cast<size_t>(config_.workGroup);
  if (isSubHistogram(variant_)) return std::max<size_t>(1, divUp(layout.pixels(), wg * config_.pixelsPerItem));
  const size_t perLoad = layout.channels == 1 ? 16 : 4;  // pixels per 16-byte load
  const size_t needed = std::max<size_t>(1, divUp(layout.pixels(), wg * perLoad));
  const size_t units = std::max<cl_uint>(1, compute_.device().computeUnits);
  return std::min(needed, units * static_cast<size_t>(config_.groupsPerComputeUnit));
}

void ImageHistogrammer::run(Queue& queue, cl_mem in, const ImageLayout& layout, cl_mem bins, ImageOpEvents* events) {
  requireLayout(layout, "the input");
  Built& b = built(layout.channels);
  const size_t binCount = histogramBinCount(layout);
  requireBuffer(in, layout.bytes(), "the input");
  requireBuffer(bins, binCount * sizeof(cl_uint), "the bins");
  const size_t groups = groupCount(layout);
  const size_t wg = static_cast<size_t>(config_.workGroup);
  Kernel& h = b.histogram.kernel;
  h.setArg(0, in);
  h.setArg(1, static_cast<cl_uint>(layout.pixels()));
  if (variant_->fused) {
    // The sums and the finished-groups counter: zeroed once here, and zeroed again
    // by the last group of every run.
    const size_t sumsBytes = (binCount + 1) * sizeof(cl_uint);
    if (sums_.bytes() < sumsBytes) {
      sums_ = Buffer(compute_.context(), CL_MEM_READ_WRITE, sumsBytes);
      const cl_uint zero = 0;
      clCheck(clEnqueueFillBuffer(queue.get(), sums_.get(), &zero, sizeof zero, 0, sumsBytes, 0, nullptr, nullptr),
              "clEnqueueFillBuffer");
    }
    h.setArg(2, sums_.get());
    h.setArg(3, bins);
    enqueue(queue, h, {groups * wg}, {wg}, eventFor(events, "histogram"));
    return;
  }
  const size_t partialBytes = groups * binCount * sizeof(cl_uint);
  if (partials_.bytes() < partialBytes) partials_ = Buffer(compute_.context(), CL_MEM_READ_WRITE, partialBytes);
  h.setArg(2, partials_.get());
  enqueue(queue, h, {groups * wg}, {wg}, eventFor(events, "histogram"));

  Kernel& m = b.merge.kernel;
  m.setArg(0, partials_.get());
  m.setArg(1, static_cast<cl_uint>(groups));
  m.setArg(2, static_cast<cl_uint>(binCount));
  m.setArg(3, bins);
  enqueue(queue, m, {binCount, b.mergeRows}, {8, b.mergeRows}, eventFor(events, "merge"));
}

void ImageHistogrammer::runStatistics(Queue& queue, cl_mem bins, int imageChannels, cl_mem moments,
                                      ImageOpEvents* events) {
  if (std::string p = channelsProblem(imageChannels); !p.empty()) throw ImageConfigError(p);
  Built& b = built(imageChannels);
  const size_t channels = static_cast<size_t>(histogramChannelCount(imageChannels));
  requireBuffer(bins, channels * kHistogramBins * sizeof(cl_uint), "the bins");
  requireBuffer(moments, channels * kMomentsPerChannel * sizeof(cl_ulong), "the moments");
  Kernel& s = b.stats.kernel;
  s.setArg(0, bins);
  s.setArg(1, moments);
  enqueue(queue, s, {channels * kHistogramBins}, {static_cast<size_t>(kHistogramBins)}, eventFor(events, "statistics"));
}

ImageHistogramResult ImageHistogrammer::compute(Queue& queue, cl_mem in, const ImageLayout& layout,
                                                ImageOpEvents* events) {
  requireLayout(layout, "the input");
  const size_t binCount = histogramBinCount(layout);
  const size_t channels = static_cast<size_t>(histogramChannelCount(layout.channels));
  if (bins_.bytes() < binCount * sizeof(cl_uint))
    bins_ = Buffer(compute_.context(), CL_MEM_READ_WRITE, 5 * kHistogramBins * sizeof(cl_uint));
  if (moments_.bytes() < channels * kMomentsPerChannel * sizeof(cl_ulong))
    moments_ = Buffer(compute_.context(), CL_MEM_READ_WRITE, 5 * kMomentsPerChannel * sizeof(cl_ulong));
  run(queue, in, layout, bins_.get(), events);
  runStatistics(queue, bins_.get(), layout.channels, moments_.get(), events);

  ImageHistogramResult result;
  result.histogram.imageChannels = layout.channels;
  result.histogram.bins.resize(binCount);
  std::vector<cl_ulong> moments(channels * kMomentsPerChannel);
  queue.readBuffer(bins_, 0, binCount * sizeof(cl_uint), result.histogram.bins.data());
  queue.readBuffer(moments_, 0, moments.size() * sizeof(cl_ulong), moments.data());
  result.statistics.imageChannels = layout.channels;
  for (size_t c = 0; c < channels; ++c) {
    uint64_t m[kMomentsPerChannel];
    for (int i = 0; i < kMomentsPerChannel; ++i) m[i] = moments[c * kMomentsPerChannel + i];
    result.statistics.channels.push_back(channelStatistics(m));
  }
  return result;
}

// ---- copy ----

ImageCopier::ImageCopier(ComputeContext& compute, int workGroup) : workGroup_(workGroup) {
  if (std::string p = workGroup1dProblem(static_cast<size_t>(std::max(workGroup, 1)), compute.device());
      workGroup < 1 || !p.empty())
    throw ImageConfigError(workGroup < 1 ? "the copy's work-group size must be positive" : p);
  KernelBuild k = buildKernel(compute, kCopyKernelFile, "", "copy_bytes", static_cast<size_t>(workGroup));
  build_ = k.build;
  kernel_ = k.kernel;
}

void ImageCopier::run(Queue& queue, cl_mem in, cl_mem out, size_t bytes, ImageOpEvents* events) {
  if (bytes == 0) return;
  requireBuffer(in, bytes, "the input");
  requireBuffer(out, bytes, "the output");
  kernel_.setArg(0, in);
  kernel_.setArg(1, out);
  kernel_.setArg(2, static_cast<cl_ulong>(bytes));
  const size_t wg = static_cast<size_t>(workGroup_);
  enqueue(queue, kernel_, {roundUp(divUp(bytes, 16), wg)}, {wg}, eventFor(events, "copy"));
}

}  // namespace ks
