#pragma once
// Rotation (compute/image_layout.h: what the image operations share): the variants
// table, configurations and their checks, the fixed-point and float sine and
// cosine, the output layout, and ImageRotator, which runs a configuration.
#include <CL/cl.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "compute/cl_objects.h"
#include "compute/compute_context.h"
#include "compute/config_parameters.h"
#include "compute/device_catalog.h"
#include "compute/image_layout.h"
#include "compute/image_op_runner.h"

namespace ks {

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
// Its parameters by name (compute/config_parameters.h), in the order files list them.
const std::vector<ConfigParameter<RotateConfig>>& rotateConfigParameters();

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
// 2x4 pixels, where the device takes it (the fastest at 8192x8192, 30 degrees: see
// docs/BENCHMARKS.md); else the buffer kernel, 16x16 x 4;
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

// ---- launch (compute/image_op_runner.h: the one runner of the image operations) ------

// What rotation gives the runner: its checks, its kernels, the steps of a run.
struct RotateLaunch : ImageOpLaunchBasics<RotateConfig, ImageRotateVariant, RotateParams, rotateOp,
                                          findImageRotateVariant, imageRotateConfigProblem> {
  // The variant's kernel (the forward variant's scatter, then rotate_forward_resolve);
  // the image variants read the input through a CL image.
  static ImageOpProgram program(const Config& config, int channels, const DeviceDescriptor& device);
  // outLayout must be rotatedLayout(inLayout, params); an image variant's input no
  // larger than the device's 2D images.
  static void checkRun(const Config& config, const ImageOpBuffers& io, const Params& params,
                       const DeviceDescriptor& device);
  // The image variants copy the input into a CL image ("upload") when it changed,
  // then run the kernel ("rotate"); the forward variant runs "clear", "scatter" and "resolve".
  static std::vector<ImageOpStep> steps(const Config& config, const ImageOpBuffers& io, const Params& params,
                                        const ImageOpBuild& build, const DeviceDescriptor& device);
};

// Runs a rotation: run(queue, in, inLayout, out, outLayout, params, events);
// sourceChanged() when the input buffer's contents changed (the image variants copy it again).
using ImageRotator = ImageOpRunner<RotateLaunch>;

}  // namespace ks
