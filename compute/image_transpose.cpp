#include "compute/image_transpose.h"

#include <sstream>

#include "compute/image_op_checks.h"
#include "compute/kernel_op.h"
#include "compute/parameter_defines.h"

namespace ks {

const std::vector<ConfigParameter<TransposeConfig>>& transposeConfigParameters() {
  static const std::vector<ConfigParameter<TransposeConfig>> parameters = {
      {"tile", &TransposeConfig::tile},
      {"rows_per_item", &TransposeConfig::rowsPerItem},
      {"work_group", &TransposeConfig::workGroup},
      {"work_group_x", &TransposeConfig::workGroupX},
      {"work_group_y", &TransposeConfig::workGroupY},
  };
  return parameters;
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
       "tiled + padded, work-groups take blocks in diagonal order (as in NVIDIA's 'Optimizing Matrix Transpose in CUDA': avoids partition camping)",
       TransposeKind::Tiled, true, BlockOrder::Diagonal, {8, 16, 32}, {1, 2, 4, 8}, {}},
      {"block4x4", "transpose_4x4",
       "4x4 pixels per work-item: rows of 4 pixels as one uchar4 / uint4, 4x4 blocks transposed in registers with "
       "shuffle2, a swizzled T x T tile in local memory (the 4x4-pixel transpose of the tutorial series 'OpenCL step by step', part 10)",
       TransposeKind::Block4x4, false, BlockOrder::Rows, {32, 64, 128}, {}, {64, 128, 256}},
      {"block4x4_diagonal", "transpose_4x4_diagonal", "block4x4 with diagonal block order (NVIDIA's transpose paper)",
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
  const KernelOp& op = transposeOp();
  o << parameterDefines(op, c.variant, {{"channels", channels}}).substr(1);
  if (!v) return o.str();
  switch (v->kind) {
    case TransposeKind::Naive: o << " -DNAIVE"; break;
    case TransposeKind::Tiled: o << " -DTILED"; break;
    case TransposeKind::Block4x4: o << " -DBLOCK4X4"; break;
    case TransposeKind::Gray16: o << " -DGRAY16"; break;
  }
  // Each kind's macros (TILE/ROWS, B4_TILE/B4_WG, G16_TILE/G16_WG) are the descriptor's;
  // a parameter the variant does not take adds nothing.
  o << parameterDefines(op, c.variant, {{"tile", c.tile}, {"rows_per_item", c.rowsPerItem}, {"work_group", c.workGroup}});
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
  // The words of each refusal are the descriptor's (compute/kernel_ops.cpp).
  const KernelOp& op = transposeOp();
  const ImageTransposeVariant* v = findImageTransposeVariant(c.variant);
  if (!v) return op.refusal("variant", {{"variant", c.variant}});
  if (std::string p = channelsProblem(channels); !p.empty()) return p;
  switch (v->kind) {
    case TransposeKind::Naive: return workGroup2dProblem(c.workGroupX, c.workGroupY, device);
    case TransposeKind::Tiled: {
      if (!contains(v->tiles, c.tile))
        return op.refusal("tile_offered", {{"tile", c.tile}, {"variant", v->name}, {"offered", listOf(v->tiles)}});
      if (!contains(v->rowsPerItem, c.rowsPerItem))
        return op.refusal("rows_per_item_offered",
                          {{"rows", c.rowsPerItem}, {"variant", v->name}, {"offered", listOf(v->rowsPerItem)}});
      if (c.rowsPerItem > c.tile) return op.refusal("rows_within_tile", {{"rows", c.rowsPerItem}, {"tile", c.tile}});
      // The kernels' reqd_work_group_size(TILE, TILE / ROWS, 1): a 2D group, so each
      // dimension has its own device limit besides the items in all.
      const size_t x = static_cast<size_t>(c.tile), y = static_cast<size_t>(c.tile / c.rowsPerItem);
      if (std::string p = workGroup2dLimitsProblem(x, y, device); !p.empty()) return p;
      break;
    }
    case TransposeKind::Gray16:
      if (channels != 1) return op.refusal("gray_only", {{"variant", v->name}});
      [[fallthrough]];
    case TransposeKind::Block4x4: {
      if (!contains(v->tiles, c.tile))
        return op.refusal("tile_offered", {{"tile", c.tile}, {"variant", v->name}, {"offered", listOf(v->tiles)}});
      if (!contains(v->workGroups, c.workGroup))
        return op.refusal("work_group_offered",
                          {{"items", c.workGroup}, {"variant", v->name}, {"offered", listOf(v->workGroups)}});
      // Each item takes at least one unit of the tile's second phase: a 4x4 block,
      // or for Gray16 a piece of 4 output rows x 16 bytes.
      const bool gray16 = v->kind == TransposeKind::Gray16;
      const int units = (c.tile / 4) * (c.tile / (gray16 ? 16 : 4));
      if (c.workGroup > units)
        return op.refusal("work_group_within_tile", {{"items", c.workGroup},
                                                     {"count", units},
                                                     {"pieces", gray16 ? "pieces (4 rows x 16 bytes)" : "4x4 blocks"},
                                                     {"tile", c.tile}});
      if (std::string p = workGroup1dProblem(static_cast<size_t>(c.workGroup), device); !p.empty()) return p;
      break;
    }
  }
  return localMemoryProblem(imageTransposeLocalMemoryBytes(c, channels), device, "the tile");
}

namespace {

// Every configuration of `v` the parameter lists offer (work-groups of at least 32
// items for the naive variant), the device's checks not applied.
template <typename Visit>
void forEachTransposeConfig(const ImageTransposeVariant& v, Visit visit) {
  TransposeConfig c;
  c.variant = v.name;
  switch (v.kind) {
    case TransposeKind::Naive:
      for (int x : imageWorkGroupWidths())
        for (int y : imageWorkGroupHeights()) {
          c.workGroupX = x;
          c.workGroupY = y;
          if (x * y >= 32) visit(c);
        }
      break;
    case TransposeKind::Tiled:
      for (int t : v.tiles)
        for (int r : v.rowsPerItem) {
          c.tile = t;
          c.rowsPerItem = r;
          visit(c);
        }
      break;
    case TransposeKind::Block4x4:
    case TransposeKind::Gray16:
      for (int t : v.tiles)
        for (int wg : v.workGroups) {
          c.tile = t;
          c.workGroup = wg;
          visit(c);
        }
      break;
  }
}

}  // namespace

std::vector<TransposeConfig> allTransposeConfigs(const DeviceDescriptor& device, int channels) {
  std::vector<TransposeConfig> out;
  for (const auto& v : imageTransposeVariants())
    forEachTransposeConfig(v, [&](const TransposeConfig& c) {
      if (imageTransposeConfigProblem(c, device, channels).empty()) out.push_back(c);
    });
  return out;
}

std::string imageTransposeVariantProblem(const std::string& variant, const DeviceDescriptor& device, int channels) {
  const ImageTransposeVariant* v = findImageTransposeVariant(variant);
  if (!v) return "unknown transpose variant '" + variant + "'";
  std::string first;
  bool runs = false;
  forEachTransposeConfig(*v, [&](const TransposeConfig& c) {
    if (runs) return;
    const std::string problem = imageTransposeConfigProblem(c, device, channels);
    if (problem.empty()) runs = true;
    else if (first.empty()) first = problem;
  });
  return runs ? std::string() : first.empty() ? "the variant offers no configuration" : first;
}

// ---- TransposeLaunch -----------------------------------------------------------------------

ImageOpProgram TransposeLaunch::program(const TransposeConfig& config, int channels, const DeviceDescriptor&) {
  const ImageTransposeVariant& v = *findImageTransposeVariant(config.variant);
  size_t items = 0;
  switch (v.kind) {
    case TransposeKind::Naive: items = static_cast<size_t>(config.workGroupX) * config.workGroupY; break;
    case TransposeKind::Tiled: items = static_cast<size_t>(config.tile) * (config.tile / config.rowsPerItem); break;
    case TransposeKind::Block4x4:
    case TransposeKind::Gray16: items = static_cast<size_t>(config.workGroup); break;
  }
  return {{{imageTransposeBuildOptions(config, channels), op().variant(v.name)->kernel, items}}, false, v.name};
}

void TransposeLaunch::checkRun(const TransposeConfig&, const ImageOpBuffers& io, const TransposeParams&,
                               const DeviceDescriptor&) {
  requireLayout(io.inLayout, "the input");
  if (!(io.outLayout == transposedLayout(io.inLayout)))
    throw ImageConfigError("the transpose of " + describeImageLayout(io.inLayout) + " is " +
                           describeImageLayout(transposedLayout(io.inLayout)) + ", not " +
                           describeImageLayout(io.outLayout));
}

std::vector<ImageOpStep> TransposeLaunch::steps(const TransposeConfig& config, const ImageOpBuffers& io,
                                                const TransposeParams&, const ImageOpBuild&, const DeviceDescriptor&) {
  const size_t w = static_cast<size_t>(io.inLayout.width), h = static_cast<size_t>(io.inLayout.height);
  ImageOpStep step{"transpose", 0, {io.in, io.out, static_cast<cl_int>(io.inLayout.width), static_cast<cl_int>(io.inLayout.height)}, {}, {}};
  switch (findImageTransposeVariant(config.variant)->kind) {
    case TransposeKind::Naive: {
      const size_t wx = static_cast<size_t>(config.workGroupX), wy = static_cast<size_t>(config.workGroupY);
      step.global = {roundUp(w, wx), roundUp(h, wy)};
      step.local = {wx, wy};
      break;
    }
    case TransposeKind::Tiled: {
      const size_t t = static_cast<size_t>(config.tile), ty = t / static_cast<size_t>(config.rowsPerItem);
      step.global = {divUp(w, t) * t, divUp(h, t) * ty};
      step.local = {t, ty};
      break;
    }
    case TransposeKind::Block4x4:
    case TransposeKind::Gray16: {
      const size_t t = static_cast<size_t>(config.tile), wg = static_cast<size_t>(config.workGroup);
      step.global = {divUp(w, t) * wg, divUp(h, t)};
      step.local = {wg, 1};
      break;
    }
  }
  return {step};
}

}  // namespace ks
