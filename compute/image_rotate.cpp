#include "compute/image_rotate.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <numbers>
#include <sstream>

#include "compute/image_op_checks.h"
#include "compute/kernel_op.h"
#include "compute/parameter_defines.h"

namespace ks {

const std::vector<ConfigParameter<RotateConfig>>& rotateConfigParameters() {
  static const std::vector<ConfigParameter<RotateConfig>> parameters = {
      {"work_group_x", &RotateConfig::workGroupX},
      {"work_group_y", &RotateConfig::workGroupY},
      {"pixels_per_item", &RotateConfig::pixelsPerItem},
      {"rows_per_item", &RotateConfig::rowsPerItem},
  };
  return parameters;
}

namespace {

bool deviceImageSupport(const DeviceDescriptor& device) {
  if (!device.id) return true;  // no runtime handle (a descriptor made up in a test): assume, check when built
  return deviceInfo<cl_bool>(device.id, CL_DEVICE_IMAGE_SUPPORT) == CL_TRUE;
}

}  // namespace

// ---- rotation ------------------------------------------------------------------------------

const std::vector<ImageRotateVariant>& imageRotateVariants() {
  static const std::vector<ImageRotateVariant> table = {
      {"forward", "rotate_forward_scatter",
       "the forward mapping of AMD's OpenCL University Kit image_rotate: each source pixel written to its rotated "
       "spot, holes keep the background (its float arithmetic, bit for bit; collisions resolved like the CPU loop: the last source pixel "
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
  const KernelOp& op = rotateOp();
  // The macros are the descriptor's; the order and what is left out are the options' of
  // before (the program cache is keyed by this text): rows per item only when not 1.
  o << parameterDefines(op, config.variant, {{"channels", channels}, {"pixels_per_item", config.pixelsPerItem}})
           .substr(1);
  if (v && v->image) o << " -DUSE_IMAGES";
  if (config.rowsPerItem != 1) o << parameterDefines(op, config.variant, {{"rows_per_item", config.rowsPerItem}});
  if (v && v->staged)
    o << " -DSTAGED"
      << parameterDefines(op, config.variant, {{"work_group_x", config.workGroupX}, {"work_group_y", config.workGroupY}})
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
  // The words of each refusal are the descriptor's (compute/kernel_ops.cpp).
  const KernelOp& op = rotateOp();
  const ImageRotateVariant* v = findImageRotateVariant(c.variant);
  if (!v) return op.refusal("variant", {{"variant", c.variant}});
  if (std::string p = channelsProblem(channels); !p.empty()) return p;
  if (std::string p = workGroup2dProblem(c.workGroupX, c.workGroupY, device); !p.empty()) return p;
  if (!contains(v->pixelsPerItem, c.pixelsPerItem))
    return op.refusal("pixels_per_item_offered",
                      {{"pixels", c.pixelsPerItem}, {"variant", v->name}, {"offered", listOf(v->pixelsPerItem)}});
  if (!contains(v->rowsPerItem, c.rowsPerItem))
    return op.refusal("rows_per_item_offered",
                      {{"rows", c.rowsPerItem}, {"variant", v->name}, {"offered", listOf(v->rowsPerItem)}});
  if (v->staged)
    if (std::string p = localMemoryProblem(imageRotateLocalMemoryBytes(c, channels), device, "the staged source region");
        !p.empty())
      return p;
  if (v->image && !deviceImageSupport(device)) return op.refusal("image_support", {{"variant", v->name}});
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

// ---- RotateLaunch --------------------------------------------------------------------------

ImageOpProgram RotateLaunch::program(const RotateConfig& config, int channels, const DeviceDescriptor&) {
  const ImageRotateVariant& v = *findImageRotateVariant(config.variant);
  const std::string options = imageRotateBuildOptions(config, channels);
  const size_t items = static_cast<size_t>(config.workGroupX) * static_cast<size_t>(config.workGroupY);
  ImageOpProgram p{{{options, op().variant(v.name)->kernel, items}}, v.image, v.name};
  if (v.sampling == RotateSampling::Forward) p.kernels.push_back({options, "rotate_forward_resolve", items});
  return p;
}

void RotateLaunch::checkRun(const RotateConfig& config, const ImageOpBuffers& io, const RotateParams& params,
                            const DeviceDescriptor& device) {
  requireLayout(io.inLayout, "the input");
  const ImageLayout expected = rotatedLayout(io.inLayout, params);
  if (!(io.outLayout == expected))
    throw ImageConfigError("the rotated output of " + describeImageLayout(io.inLayout) + " is " +
                           describeImageLayout(expected) + ", not " + describeImageLayout(io.outLayout));
  requireLayout(io.outLayout, "the output");
  const ImageRotateVariant& v = *findImageRotateVariant(config.variant);
  if (!v.image) return;
  const auto [maxW, maxH] = deviceMaxImage2d(device);
  if (static_cast<size_t>(io.inLayout.width) > maxW || static_cast<size_t>(io.inLayout.height) > maxH)
    throw ImageConfigError(op().refusal(
        "image_size",
        {{"image", describeImageLayout(io.inLayout)}, {"max_x", maxW}, {"max_y", maxH}, {"variant", v.name}}));
}

std::vector<ImageOpStep> RotateLaunch::steps(const RotateConfig& config, const ImageOpBuffers& io,
                                             const RotateParams& params, const ImageOpBuild&, const DeviceDescriptor&) {
  const ImageRotateVariant& v = *findImageRotateVariant(config.variant);
  const std::array<uint8_t, 4> bg = rotateBackgroundPixel(params, io.inLayout.channels);
  const ImageKernelArg background =
      io.inLayout.channels == 1 ? ImageKernelArg(static_cast<cl_uchar>(bg[0])) : ImageKernelArg(cl_uchar4{{bg[0], bg[1], bg[2], bg[3]}});
  const cl_int inW = io.inLayout.width, inH = io.inLayout.height, outW = io.outLayout.width, outH = io.outLayout.height;
  const size_t wx = static_cast<size_t>(config.workGroupX), wy = static_cast<size_t>(config.workGroupY);

  if (v.sampling == RotateSampling::Forward) {
    // Each output pixel's winning source index + 1, zeroed first.
    const ScratchBuffer owner{0, io.outLayout.pixels() * sizeof(cl_uint)};
    // The seed's float sine and cosine, computed here once, as the CPU reference gets them.
    const RotationFloat f = rotationFloat(params.degrees);
    return {{"clear", ImageOpStep::kZeroFill, {owner}, {}, {}},
            {"scatter", 0, {owner, inW, inH, outW, outH, static_cast<cl_float>(f.cosTheta), static_cast<cl_float>(f.sinTheta)},
             {roundUp(inW, wx), roundUp(inH, wy)}, {wx, wy}},
            {"resolve", 1, {io.in, io.out, owner, outW, outH, background}, {roundUp(outW, wx), roundUp(outH, wy)}, {wx, wy}}};
  }
  const RotationFixedPoint r = rotationFixedPoint(params.degrees);
  const ImageKernelArg source = v.image ? ImageKernelArg(SourceImage{}) : ImageKernelArg(io.in);
  const size_t ppi = static_cast<size_t>(config.pixelsPerItem), rows = static_cast<size_t>(config.rowsPerItem);
  return {{"rotate", 0,
           {source, io.out, inW, inH, outW, outH, static_cast<cl_int>(r.cosQ16), static_cast<cl_int>(r.sinQ16), background},
           {roundUp(divUp(outW, ppi), wx), roundUp(divUp(outH, rows), wy)}, {wx, wy}}};
}

}  // namespace ks
