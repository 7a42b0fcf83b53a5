// The five operations' descriptors (compute/kernel_op.h), made once from their
// variant tables: the per-variant value lists are read from the tables, never
// written here. Only the subsets (deliberate picks among those values, each with
// its reason) are written here, once.
#include <algorithm>
#include <stdexcept>
#include <utility>

#include "compute/image_copy.h"
#include "compute/image_histogram.h"
#include "compute/image_layout.h"
#include "compute/image_rotate.h"
#include "compute/image_transpose.h"
#include "compute/kernel_constraints.h"
#include "compute/kernel_op.h"
#include "compute/nbody_variants.h"

namespace ks {

const VariantParameter* KernelOpVariant::parameter(std::string_view wanted) const {
  for (const VariantParameter& p : parameters)
    if (p.name == wanted) return &p;
  return nullptr;
}

const KernelParameter& KernelOp::parameter(std::string_view wanted) const {
  for (const KernelParameter& p : parameters)
    if (p.name == wanted) return p;
  throw std::out_of_range("the " + name + " operation has no parameter '" + std::string(wanted) + "'");
}

const KernelConstraint& KernelOp::constraint(std::string_view wanted) const {
  for (const KernelConstraint& c : constraints)
    if (c.id == wanted) return c;
  throw std::out_of_range("the " + name + " operation has no constraint '" + std::string(wanted) + "'");
}

const KernelOpVariant* KernelOp::variant(std::string_view wanted) const {
  for (const KernelOpVariant& v : variants)
    if (v.name == wanted) return &v;
  return nullptr;
}

const KernelOpSubset& KernelOp::subset(std::string_view wanted) const {
  for (const KernelOpSubset& s : subsets)
    if (s.name == wanted) return s;
  throw std::out_of_range("the " + name + " operation has no subset '" + std::string(wanted) + "'");
}

const std::vector<int>* KernelOpSlice::picked(std::string_view parameter) const {
  for (const auto& [name, list] : values)
    if (name == parameter) return &list;
  return nullptr;
}

std::vector<std::string> KernelOp::variantNames() const {
  std::vector<std::string> names;
  for (const KernelOpVariant& v : variants) names.push_back(v.name);
  return names;
}

const std::vector<int>& imageChannelCounts() {
  static const std::vector<int> counts = {1, 4};
  return counts;
}

const std::vector<int>& imageWorkGroupWidths() {
  static const std::vector<int> widths = {8, 16, 32, 64, 128, 256};
  return widths;
}

const std::vector<int>& imageWorkGroupHeights() {
  static const std::vector<int> heights = {1, 2, 4, 8, 16, 32};
  return heights;
}

namespace {

// The parameters' value lists: the union of what the variants offer, ascending.
KernelOp withCollectedValues(KernelOp op) {
  for (KernelParameter& p : op.parameters) {
    for (const KernelOpVariant& v : op.variants)
      if (const VariantParameter* vp = v.parameter(p.name)) p.values.insert(p.values.end(), vp->values.begin(), vp->values.end());
    std::sort(p.values.begin(), p.values.end());
    p.values.erase(std::unique(p.values.begin(), p.values.end()), p.values.end());
  }
  return op;
}

KernelOp operation(std::string name, std::string kernelFile, std::string figureOfMerit, std::string workModel,
                   std::string check, std::vector<KernelParameter> parameters) {
  return {.name = std::move(name),
          .kernelFile = std::move(kernelFile),
          .figureOfMerit = std::move(figureOfMerit),
          .workModel = std::move(workModel),
          .check = std::move(check),
          .parameters = std::move(parameters)};
}

// The parameter every image operation has.
KernelParameter channelsParameter() {
  return {"channels", "CHANNELS", "channels", "values per pixel: 1 gray, 4 RGBA", {}};
}

KernelOp makeNBodyOp() {
  KernelOp op = operation("nbody", kNBodyKernelFile, "interactions/s", "nbodyStepWork", "nbodyConfigProblem",
      {{"work_group", "TILE", "work-items", "work-items per group; the tiled variants stage a tile of that many bodies", {}},
       {"unroll", "UNROLL", "times", "the inner loop over a tile unrolled this many times", {}},
       {"bodies_per_item", "BODIES_PER_ITEM", "bodies", "bodies each work-item integrates (register blocking)", {}},
       {"split", "SPLIT", "work-items", "work-items sharing one body (for small N)", {}}});
  for (const NBodyVariant& v : nbodyVariants())
    op.variants.push_back({v.name, v.kernel, v.description,
                           {{"work_group", "TILE", nbodyWorkGroups()},
                            {"unroll", "UNROLL", v.unrolls},
                            {"bodies_per_item", "BODIES_PER_ITEM", v.bodiesPerItem},
                            {"split", "SPLIT", v.splits}}});
  op.constraints = {
      {"variant", "a variant the table offers", "unknown variant '{variant}'"},
      {"work_group_multiple", "work-group a multiple of " + std::to_string(kNBodyWorkGroupStep),
       "work-group size {items} is not a multiple of {step}"},
      workGroupItemsConstraint(),
      workGroupItemSizeConstraint(),
      kernelWorkGroupConstraint(),
      {"unroll_offered", "an unroll the variant offers", "unroll {unroll} is not offered by the {variant} variant"},
      {"unroll_divides_tile", "unroll divides the tile", "unroll {unroll} does not divide the tile of {items}"},
      {"bodies_per_item_offered", "bodies per work-item the variant offers",
       "bodies per work-item {bodies} is not offered by the {variant} variant"},
      {"split_offered", "a split the variant offers", "split {split} is not offered by the {variant} variant"},
      {"unroll_divides_slice", "unroll divides the tile slice of each split",
       "unroll {unroll} does not divide the tile slice of {items}/{split}"},
      {"fp64", "fp64 only with cl_khr_fp64", "fp64 needs cl_khr_fp64, which the device lacks"},
      localMemoryConstraint("the tile"),
  };
  op.subsets = {{"quick_sweep",
                 "what the Sweep panel starts with: a first sweep that takes seconds on a GPU (the variants with local "
                 "memory, three work-groups, a few unrolls and blockings)",
                 {{{"tiled", "blocked"},
                   {{"work_group", {64, 128, 256}}, {"unroll", {1, 4, 8}}, {"bodies_per_item", {1, 2}}, {"split", {1}}}}}}};
  return withCollectedValues(std::move(op));
}

KernelOp makeRotateOp() {
  KernelOp op = operation("rotate", kRotateKernelFile, "GB/s", "rotateWork", "imageRotateConfigProblem",
      {channelsParameter(),
       {"work_group_x", "WG_X", "work-items", "work-group width (x)", {}},
       {"work_group_y", "WG_Y", "work-items", "work-group height (y)", {}},
       {"pixels_per_item", "PIXELS_PER_ITEM", "pixels", "consecutive output pixels of a row per work-item", {}},
       {"rows_per_item", "ROWS_PER_ITEM", "rows", "rows of the work-item's block of output pixels", {}}});
  for (const ImageRotateVariant& v : imageRotateVariants()) {
    // Only the staged variants size their local region from the work-group.
    const std::string wgX = v.staged ? "WG_X" : "", wgY = v.staged ? "WG_Y" : "";
    op.variants.push_back({v.name, v.kernel, v.description,
                           {{"channels", "CHANNELS", imageChannelCounts()},
                            {"work_group_x", wgX, imageWorkGroupWidths()},
                            {"work_group_y", wgY, imageWorkGroupHeights()},
                            {"pixels_per_item", "PIXELS_PER_ITEM", v.pixelsPerItem},
                            {"rows_per_item", "ROWS_PER_ITEM", v.rowsPerItem}}});
  }
  op.constraints = {
      {"variant", "a variant the table offers", "unknown rotation variant '{variant}'"},
      channelsConstraint(),
      workGroupWidthConstraint(),
      workGroupHeightConstraint(),
      workGroup2dItemsConstraint(),
      workGroup2dSizesConstraint(),
      pixelsPerItemOfferedConstraint(),
      rowsPerItemOfferedConstraint(),
      localMemoryConstraint("the staged source region"),
      {"image_support", "image variants only on devices with image support",
       "the {variant} variant reads an image2d_t, and the device has no image support (CL_DEVICE_IMAGE_SUPPORT is false)"},
      {"image_format", "image variants only where the device reads 8-bit images of the pixel's channels",
       "the device has no read-only 2D image format {formats} / CL_UNORM_INT8 for the {variant} variant"},
      {"image_size", "image variants only for images within the device's largest 2D image",
       "a {image} image exceeds the device's largest 2D image {max_x}x{max_y} (the {variant} variant)"},
      kernelWorkGroupConstraint(),
  };
  op.subsets = {{"quick_sweep", "what the Sweep panel starts with: the buffer and image bilinear variants, their own values",
                 {{{"bilinear", "bilinear_image"}, {}}}}};
  return withCollectedValues(std::move(op));
}

KernelOp makeTransposeOp() {
  KernelOp op = operation("transpose", kTransposeKernelFile, "GB/s", "transposeWork", "imageTransposeConfigProblem",
      {channelsParameter(),
       {"tile", "TILE", "pixels", "the side of the square tile copied through local memory", {}},
       {"rows_per_item", "ROWS", "rows", "rows of the tile each work-item moves (tiled variants)", {}},
       {"work_group", "B4_WG", "work-items", "work-items per group (4x4 variants)", {}},
       {"work_group_x", "", "work-items", "work-group width (naive variant)", {}},
       {"work_group_y", "", "work-items", "work-group height (naive variant)", {}}});
  for (const ImageTransposeVariant& v : imageTransposeVariants()) {
    KernelOpVariant out{v.name, v.kernel, v.description, {}};
    const bool gray16 = v.kind == TransposeKind::Gray16;
    out.parameters.push_back({"channels", "CHANNELS", gray16 ? std::vector<int>{imageChannelCounts().front()}
                                                             : imageChannelCounts()});
    switch (v.kind) {
      case TransposeKind::Naive:
        out.parameters.push_back({"work_group_x", "", imageWorkGroupWidths()});
        out.parameters.push_back({"work_group_y", "", imageWorkGroupHeights()});
        break;
      case TransposeKind::Tiled:
        out.parameters.push_back({"tile", "TILE", v.tiles});
        out.parameters.push_back({"rows_per_item", "ROWS", v.rowsPerItem});
        break;
      case TransposeKind::Block4x4:
      case TransposeKind::Gray16:
        out.parameters.push_back({"tile", gray16 ? "G16_TILE" : "B4_TILE", v.tiles});
        out.parameters.push_back({"work_group", gray16 ? "G16_WG" : "B4_WG", v.workGroups});
        break;
    }
    op.variants.push_back(std::move(out));
  }
  op.constraints = {
      {"variant", "a variant the table offers", "unknown transpose variant '{variant}'"},
      channelsConstraint(),
      {"gray_only", "the 4x16 variants gray only",
       "the {variant} variant is for gray images (for RGBA, block4x4 already moves 16-byte vectors)"},
      workGroupWidthConstraint(),
      workGroupHeightConstraint(),
      workGroup2dItemsConstraint(),
      workGroup2dSizesConstraint(),
      {"tile_offered", "a tile the variant offers", "tile {tile} is not offered by the {variant} variant ({offered})"},
      rowsPerItemOfferedConstraint(),
      {"rows_within_tile", "rows per work-item at most the tile", "{rows} rows per work-item exceed the tile of {tile}"},
      workGroupOfferedConstraint(),
      {"work_group_within_tile", "a work-group no larger than the tile's pieces",
       "a work-group of {items} is more than the {count} {pieces} of a {tile}x{tile} tile"},
      workGroupItemsConstraint(),
      workGroupItemSizeConstraint(),
      kernelWorkGroupConstraint(),
      localMemoryConstraint("the tile"),
  };
  // The naive kernel's shapes, one slice each: pairs, not every width with every height.
  std::vector<KernelOpSlice> naiveShapes;
  for (const auto& [x, y] : std::vector<std::pair<int, int>>{{32, 8}, {16, 16}, {64, 4}, {128, 2}, {256, 1}})
    naiveShapes.push_back({{"naive"}, {{"work_group_x", {x}}, {"work_group_y", {y}}}});
  op.subsets = {{"quick_sweep",
                 "what the Sweep panel starts with: one variant of each kind (naive, tiled with and without padding, "
                 "4x4 blocks by rows and by columns), every value of each",
                 {{{"naive", "tiled", "tiled_padded", "block4x4", "block4x4_columns"}, {}}}},
                {"naive_shapes",
                 "the naive kernel's work-groups a sweep tries when none are ticked: 256 work-items from 32x8 to "
                 "256x1 (the 36 widths by heights are mostly refused or alike)",
                 std::move(naiveShapes)}};
  return withCollectedValues(std::move(op));
}

KernelOp makeHistogramOp() {
  KernelOp op = operation("histogram", kHistogramKernelFile, "GB/s", "histogramWork", "imageHistogramConfigProblem",
      {channelsParameter(),
       {"work_group", "WG", "work-items", "work-items per work-group", {}},
       {"pixels_per_item", "PIXELS_PER_ITEM", "pixels", "pixels each work-item counts (at most 255: uchar bins)", {}},
       {"copies", "COPIES", "histograms", "copies of the group's histogram in local memory (spreads conflicts)", {}},
       {"groups_per_compute_unit", "", "work-groups", "work-groups launched per compute unit", {}}});
  for (const ImageHistogramVariant& v : imageHistogramVariants()) {
    KernelOpVariant out{v.name, v.kernel, v.description,
                        {{"channels", "CHANNELS", imageChannelCounts()}, {"work_group", "WG", v.workGroups}}};
    if (!v.pixelsPerItem.empty()) out.parameters.push_back({"pixels_per_item", "PIXELS_PER_ITEM", v.pixelsPerItem});
    if (!v.copies.empty()) out.parameters.push_back({"copies", "COPIES", v.copies});
    if (!v.groupsPerComputeUnit.empty())
      out.parameters.push_back({"groups_per_compute_unit", "", v.groupsPerComputeUnit});
    op.variants.push_back(std::move(out));
  }
  op.constraints = {
      {"variant", "a variant the table offers", "unknown histogram variant '{variant}'"},
      channelsConstraint(),
      {"counted_channels", "a non-empty set of counted channels",
       "the counted channels must be a non-empty subset of R, G, B, A and luminance (mask {mask})"},
      workGroupOfferedConstraint(),
      workGroupItemsConstraint(),
      workGroupItemSizeConstraint(),
      {"uchar_bins", "at most " + std::to_string(kSubHistogramMaxPixelsPerItem) + " pixels per work-item (uchar bins)",
       "{pixels} pixels per work-item would overflow the uchar sub-histogram bins (at most {max}: an image of one "
       "value would wrap to 0)"},
      pixelsPerItemOfferedConstraint(),
      {"copies_offered", "histogram copies the variant offers",
       "{copies} histogram copies are not offered by the {variant} variant ({offered})"},
      {"groups_offered", "groups per compute unit the variant offers",
       "{groups} groups per compute unit are not offered by the {variant} variant ({offered})"},
      {"fence_version", "the fused variant only with device-scope fences",
       "local_atomic_fused needs device-scope memory fences (OpenCL 2.0 or later); the device reports '{version}'"},
      {"fence_capabilities", "the fused variant only with acquire-release fences of device scope",
       "local_atomic_fused needs acquire-release fences of device scope, which the device does not offer "
       "(CL_DEVICE_ATOMIC_FENCE_CAPABILITIES)"},
      {"statistics_work_group", std::to_string(kHistogramBins) + "-item work-groups for the statistics reduction",
       "the statistics reduction needs work-groups of {items}: {why}"},
      localMemoryConstraint("the sub-histograms", "local_memory_sub_histograms"),
      localMemoryConstraint("the histogram copies", "local_memory_copies"),
      kernelWorkGroupConstraint(),
  };
  const std::vector<std::string> localAtomic = {"local_atomic", "local_atomic_fused"};
  op.subsets = {
      {"quick_sweep",
       "what the Sweep panel starts with beside the device's default kernel: the sub-histogram one (AMD's "
       "histogram256 design), at the default's work-group and groups per compute unit, every number of copies",
       {{{"subhist_uchar"}, {}}}},
      {"bench_image",
       "what `kernelscope --bench image` times, counting every channel: each variant with the work-group sizes, "
       "copies and groups per compute unit that matter on GPUs (the whole table takes minutes)",
       {{{"subhist_uchar"}, {{"work_group", {64, 256}}, {"pixels_per_item", {64, 255}}}},
        {{"subhist_flush"}, {{"work_group", {128, 256}}, {"groups_per_compute_unit", {2, 4, 8}}}},
        {localAtomic, {{"work_group", {1024}}, {"copies", {1, 8, 32}}, {"groups_per_compute_unit", {1, 2}}}},
        {localAtomic,
         {{"work_group", {256, 512}}, {"copies", {1, 8, 32}}, {"groups_per_compute_unit", {1, 2, 4, 8}}}}}},
      {"bench_image_rgb",
       "what `kernelscope --bench image` times counting R, G, B only (CUB's RGBA anchor): local_atomic and its fused "
       "form, with up to 16 copies, which counting three channels leaves room for in local memory",
       {{localAtomic,
         {{"work_group", {256, 512, 1024}}, {"copies", {1, 8, 16}}, {"groups_per_compute_unit", {1, 2, 4, 8}}}}}},
  };
  return withCollectedValues(std::move(op));
}

KernelOp makeCopyOp() {
  // No work model: the copy is the bandwidth reference itself (bytes read + written).
  KernelOp op = operation("copy", kCopyKernelFile, "GB/s", "", "ImageCopier",
                          {{"work_group", "", "work-items", "work-items per group (16 bytes each)", {}}});
  op.variants = {{"copy", "copy_bytes", "a plain copy of the bytes, 16 per work-item: the bandwidth reference",
                  {{"work_group", "", {kCopyWorkGroup}}}}};
  op.constraints = {{"work_group_positive", "a positive work-group", "the copy's work-group size must be positive"},
                    workGroupItemsConstraint(),
                    workGroupItemSizeConstraint(),
                    kernelWorkGroupConstraint()};
  return withCollectedValues(std::move(op));
}

}  // namespace

const KernelOp& nbodyOp() {
  static const KernelOp op = makeNBodyOp();
  return op;
}
const KernelOp& rotateOp() {
  static const KernelOp op = makeRotateOp();
  return op;
}
const KernelOp& transposeOp() {
  static const KernelOp op = makeTransposeOp();
  return op;
}
const KernelOp& histogramOp() {
  static const KernelOp op = makeHistogramOp();
  return op;
}
const KernelOp& copyOp() {
  static const KernelOp op = makeCopyOp();
  return op;
}

const std::vector<const KernelOp*>& kernelOps() {
  static const std::vector<const KernelOp*> ops = {&nbodyOp(), &rotateOp(), &transposeOp(), &histogramOp(), &copyOp()};
  return ops;
}

const KernelOp* findKernelOp(std::string_view name) {
  for (const KernelOp* op : kernelOps())
    if (op->name == name) return op;
  return nullptr;
}

}  // namespace ks
