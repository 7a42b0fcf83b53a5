#pragma once
// Transpose (compute/image_layout.h: what the image operations share): the
// variants table, configurations and their checks, and ImageTransposer, which
// runs a configuration.
#include <CL/cl.h>

#include <cstddef>
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
// Its parameters by name (compute/config_parameters.h), in the order files list them.
const std::vector<ConfigParameter<TransposeConfig>>& transposeConfigParameters();
// The configuration that ran fastest for this pixel size (8192x8192, see
// docs/BENCHMARKS.md): gray block4x16_gray_columns T=128 wg=256, RGBA
// block4x4_columns T=64 wg=64. A sweep's winner in tuning.json overrides it.
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
// Why no configuration of `variant` runs on the device for this pixel size (the
// first configuration's reason: "for gray images", a local-memory limit...), or
// empty when one does.
std::string imageTransposeVariantProblem(const std::string& variant, const DeviceDescriptor& device, int channels);

// ---- launch (compute/image_op_runner.h: the one runner of the image operations) ------

struct TransposeParams {};  // a transpose takes nothing besides its buffers

// What the transpose gives the runner: its checks, its kernel, the step of a run.
struct TransposeLaunch : ImageOpLaunchBasics<TransposeConfig, ImageTransposeVariant, TransposeParams, transposeOp,
                                             findImageTransposeVariant, imageTransposeConfigProblem> {
  static ImageOpProgram program(const Config& config, int channels, const DeviceDescriptor& device);
  // outLayout must be transposedLayout(inLayout).
  static void checkRun(const Config& config, const ImageOpBuffers& io, const Params& params,
                       const DeviceDescriptor& device);
  // One command: "transpose", its grid shaped by the variant's kind.
  static std::vector<ImageOpStep> steps(const Config& config, const ImageOpBuffers& io, const Params& params,
                                        const ImageOpBuild& build, const DeviceDescriptor& device);
};

// Runs a transpose: run(queue, in, inLayout, out, transposedLayout(inLayout), events).
using ImageTransposer = ImageOpRunner<TransposeLaunch>;

}  // namespace ks
