// The image lab's kernels (rotate, transpose, histogram + statistics) against the
// CPU references of compute/image_reference.h, over awkward sizes (1x1, one row,
// one column, odd, not multiples of tiles or of 4) in gray and RGBA, on the
// machine's OpenCL device (PoCL in CI). Transpose, histogram and nearest
// rotation must be bit-exact; the buffer bilinear rotation too (same integer
// arithmetic); the forward rotation equal to the seed's float cpu_rotate; the
// image-sampler bilinear within a level (two on GPUs, whose samplers use 8-bit
// weights).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <numbers>
#include <set>
#include <sstream>
#include <variant>

#include "compute/compute_context.h"
#include "compute/device_catalog.h"
#include "compute/image_copy.h"
#include "compute/image_histogram.h"
#include "compute/image_layout.h"
#include "compute/image_reference.h"
#include "compute/interop/rgba_conversion.h"
#include "compute/paced_launches.h"
#include "compute/image_rotate.h"
#include "compute/image_transpose.h"
#include "compute/kernel_op.h"
#include "test_devices.h"

namespace ks {
namespace {

struct Size {
  int width, height;
};
// 1x1, one column (1xN), one row (Nx1), odd, square, big odd, and a long thin one.
const std::vector<Size> kSizes = {{1, 1}, {1, 1000}, {1000, 1}, {17, 13}, {256, 256}, {1000, 777}, {4099, 3}};

std::string name(const Size& s, int channels) {
  return std::to_string(s.width) + "x" + std::to_string(s.height) + (channels == 1 ? " gray" : " RGBA");
}

// "" when equal, else where the first difference is and how many bytes differ.
std::string difference(const HostImage& got, const HostImage& want, int tolerance = 0) {
  if (!(got.layout == want.layout))
    return "layout " + describeImageLayout(got.layout) + ", expected " + describeImageLayout(want.layout);
  size_t bad = 0, first = 0;
  int worst = 0;
  for (size_t i = 0; i < got.data.size(); ++i) {
    const int d = std::abs(static_cast<int>(got.data[i]) - static_cast<int>(want.data[i]));
    if (d > tolerance) {
      if (!bad) first = i;
      ++bad;
    }
    worst = std::max(worst, d);
  }
  if (!bad) return {};
  const size_t c = static_cast<size_t>(got.layout.channels), w = static_cast<size_t>(got.layout.width);
  std::ostringstream o;
  o << bad << " bytes differ by more than " << tolerance << " (worst " << worst << "); first at pixel ("
    << (first / c) % w << ", " << (first / c) / w << ") channel " << first % c << ": got " << int(got.data[first])
    << ", expected " << int(want.data[first]);
  return o.str();
}

class ImageKernels : public test::SharedComputeTest {
 protected:
  Buffer upload(const HostImage& image) {
    Buffer b(compute_->context(), CL_MEM_READ_WRITE, image.data.size());
    compute_->queue().writeBuffer(b, 0, image.data.size(), image.data.data());
    return b;
  }
  HostImage download(const Buffer& b, const ImageLayout& layout) {
    HostImage image(layout);
    compute_->queue().readBuffer(b, 0, image.data.size(), image.data.data());
    return image;
  }
  // Output buffers start as 0xCD garbage, so a pixel never written shows up.
  Buffer garbage(const ImageLayout& layout) { return upload(HostImage(layout, 0xCD)); }

  HostImage transpose(ImageTransposer& t, const HostImage& in) {
    const Buffer src = upload(in);
    const ImageLayout outLayout = transposedLayout(in.layout);
    Buffer dst = garbage(outLayout);
    t.run(compute_->queue(), src.get(), in.layout, dst.get(), outLayout);
    return download(dst, outLayout);
  }
  HostImage rotate(ImageRotator& r, const HostImage& in, const RotateParams& params) {
    const Buffer src = upload(in);
    const ImageLayout outLayout = rotatedLayout(in.layout, params);
    Buffer dst = garbage(outLayout);
    r.sourceChanged();  // a new buffer may reuse the handle of the last one
    r.run(compute_->queue(), src.get(), in.layout, dst.get(), outLayout, params);
    return download(dst, outLayout);
  }
  ImageHistogramResult histogram(ImageHistogrammer& h, const HostImage& in) {
    const Buffer src = upload(in);
    return h.compute(compute_->queue(), src.get(), in.layout);
  }
  bool runnable(const TransposeConfig& c, int channels) {
    return imageTransposeConfigProblem(c, compute_->device(), channels).empty();
  }
  bool runnable(const RotateConfig& c, int channels) {
    return imageRotateConfigProblem(c, compute_->device(), channels).empty();
  }
  bool runnable(const HistogramConfig& c, int channels) {
    return imageHistogramConfigProblem(c, compute_->device(), channels).empty();
  }
};

// A runner built for `channels`, or null (and a note) when the compiled kernel
// allows fewer work-items per group than the configuration asks for on this
// device (CL_KERNEL_WORK_GROUP_SIZE: registers), which the runner reports as an
// ImageConfigError with the reason, as it must.
template <typename Runner, typename Config>
std::unique_ptr<Runner> builtOrNull(ComputeContext& compute, const Config& config, int channels,
                                    const std::string& what) {
  auto runner = std::make_unique<Runner>(compute, config);
  try {
    runner->prepare(channels);
  } catch (const ImageConfigError& e) {
    if (std::string(e.what()).find("CL_KERNEL_WORK_GROUP_SIZE") == std::string::npos) throw;
    std::cout << "not run on this device: " << what << ": " << e.what() << "\n";
    return nullptr;
  }
  return runner;
}

// ---- transpose ----------------------------------------------------------------------------

TransposeConfig transposeConfig(const std::string& variant) {
  TransposeConfig c;
  c.variant = variant;
  const TransposeKind kind = findImageTransposeVariant(variant)->kind;
  c.tile = kind == TransposeKind::Block4x4 ? 64 : kind == TransposeKind::Gray16 ? 128 : 32;
  c.rowsPerItem = 4;
  c.workGroup = 256;
  c.workGroupX = 16;
  c.workGroupY = 8;
  return c;
}

// Rows per work-item for the tiled variants' tile sizes in the test below, in
// order of preference: the values the tiled variants offer, started at a different place for each
// variant and tile, so that between them every value runs on every size; the next
// one where the device refuses a configuration (work-group size limits).
std::vector<int> tiledRowsPreference(int variantIndex, int tileIndex, int tile) {
  const std::vector<int>& rows = transposeOp().parameter("rows_per_item").values;
  std::vector<int> out;
  for (size_t k = 0; k < rows.size(); ++k) {
    const int r = rows[(static_cast<size_t>(variantIndex + tileIndex) + k) % rows.size()];
    if (r <= tile) out.push_back(r);
  }
  return out;
}

// Sizes from the transpose kernels' own structure: each dimension divisible by
// every tile size offered and by the vector widths (4 pixels for the 4x4 blocks,
// 16 bytes for the gray 16-byte vectors), by the smaller of them only, or by
// none, each against a partner divisible by all or by none; so every variant
// meets whole tiles with either dimension aligned or not (the gray 16-byte
// variant's vector path needs both widths aligned: exactly one is the case its
// whole-tile test must refuse).
std::vector<Size> transposeStructureSizes() {
  std::set<int> divisors = {4, 16};
  for (const auto& v : imageTransposeVariants()) divisors.insert(v.tiles.begin(), v.tiles.end());
  const int largest = *divisors.rbegin();
  const int all = 2 * largest;  // two whole tiles of every size
  const int none = all + 1;
  std::vector<int> dims = {all, none};
  // all + d is divisible by d and the divisors below it, not by those above.
  for (int d : divisors)
    if (d < largest) dims.push_back(all + d);
  std::vector<Size> sizes;
  for (int a : dims)
    for (int b : {all, none}) {
      sizes.push_back({a, b});
      if (a != b) sizes.push_back({b, a});
    }
  std::sort(sizes.begin(), sizes.end(), [](Size p, Size q) { return std::pair(p.width, p.height) < std::pair(q.width, q.height); });
  sizes.erase(std::unique(sizes.begin(), sizes.end(), [](Size p, Size q) { return p.width == q.width && p.height == q.height; }),
              sizes.end());
  return sizes;
}

TEST(TransposeSizes, CoverEveryDivisibilityOfEveryTile) {
  const std::vector<Size> sizes = transposeStructureSizes();
  std::set<int> divisors = {4, 16};
  for (const auto& v : imageTransposeVariants()) divisors.insert(v.tiles.begin(), v.tiles.end());
  for (int d : divisors) {
    bool widthOnly = false, heightOnly = false, both = false, neither = false;
    for (const Size& s : sizes) {
      const bool w = s.width % d == 0, h = s.height % d == 0;
      widthOnly |= w && !h, heightOnly |= h && !w, both |= w && h, neither |= !w && !h;
      EXPECT_GE(std::min(s.width, s.height), 2 * *divisors.rbegin()) << "whole tiles of every size in both directions";
    }
    EXPECT_TRUE(widthOnly && heightOnly && both && neither) << "divisor " << d;
  }
}

TEST_F(ImageKernels, EveryTransposeVariantIsBitExactOnEverySize) {
  // Every variant on every size, gray and RGBA; the tiled variants at each tile
  // size (8, 16, 32: the edge handling and the local-memory indexing depend on
  // it). Each configuration is built once and runs over all the sizes.
  for (int channels : imageChannelCounts()) {
    std::vector<std::pair<TransposeConfig, std::unique_ptr<ImageTransposer>>> runners;
    int tiledIndex = 0;
    for (const auto& v : imageTransposeVariants()) {
      if (v.kind == TransposeKind::Gray16 && channels == 4) {  // refused with its reason, tested below
        EXPECT_FALSE(runnable(transposeConfig(v.name), 4));
        continue;
      }
      if (v.kind != TransposeKind::Tiled) {
        const TransposeConfig c = transposeConfig(v.name);
        runners.emplace_back(c, std::make_unique<ImageTransposer>(*compute_, c));
        continue;
      }
      const std::vector<int>& tiles = transposeOp().variant(v.name)->parameter("tile")->values;
      for (size_t ti = 0; ti < tiles.size(); ++ti) {
        TransposeConfig c = transposeConfig(v.name);
        c.tile = tiles[ti];
        std::unique_ptr<ImageTransposer> t;
        for (int rows : tiledRowsPreference(tiledIndex, static_cast<int>(ti), c.tile)) {
          c.rowsPerItem = rows;
          if (!runnable(c, channels)) continue;
          if ((t = builtOrNull<ImageTransposer>(*compute_, c, channels, describeTransposeConfig(c)))) break;
        }
        // Every device takes some rows per item for a tile (T=32 with 8 rows is 128
        // work-items): none taken means the refusals are wrong.
        if (!t) {
          ADD_FAILURE() << v.name << " T=" << tiles[ti] << ": no rows per work-item accepted, "
                        << (channels == 1 ? "gray" : "RGBA");
          continue;
        }
        runners.emplace_back(c, std::move(t));
      }
      ++tiledIndex;
    }
    std::vector<Size> sizes = kSizes;
    for (const Size& s : transposeStructureSizes()) sizes.push_back(s);
    for (const Size& s : sizes) {
      const HostImage in = randomHostImage({s.width, s.height, channels}, 7);
      const HostImage want = transposeReference(in);
      for (auto& [c, t] : runners)
        EXPECT_EQ(difference(transpose(*t, in), want), "") << describeTransposeConfig(c) << ", " << name(s, channels);
    }
  }
}

TEST_F(ImageKernels, GrayTransposeWith16ByteVectorsOnFullAndEdgeTiles) {
  // Sizes that are multiples of 16 take the vector path on whole tiles and the
  // byte path on the tiles across the edge; odd sizes take the byte path.
  for (const TransposeConfig& c : allTransposeConfigs(compute_->device(), 1)) {
    if (findImageTransposeVariant(c.variant)->kind != TransposeKind::Gray16) continue;
    ImageTransposer t(*compute_, c);
    std::vector<Size> sizes = {Size{256, 256}, Size{384, 272}, Size{1024, 48}, Size{48, 1040}, Size{17, 13},
                               Size{1, 1},     Size{4099, 3}};
    for (const Size& s : transposeStructureSizes()) sizes.push_back(s);
    for (const Size& s : sizes) {
      const HostImage in = randomHostImage({s.width, s.height, 1}, 17);
      EXPECT_EQ(difference(transpose(t, in), transposeReference(in)), "") << describeTransposeConfig(c) << ", "
                                                                          << name(s, 1);
    }
  }
  TransposeConfig rgba = transposeConfig("block4x16_gray");
  EXPECT_NE(imageTransposeConfigProblem(rgba, compute_->device(), 4).find("for gray images"), std::string::npos);
  rgba.tile = 64;  // 64 pieces: a group of 256 is too many
  EXPECT_NE(imageTransposeConfigProblem(rgba, compute_->device(), 1).find("pieces"), std::string::npos);
  // The reason the image lab shows for the whole variant, disabled in its combo: the
  // real one, not "no configuration runs on the device".
  for (const char* variant : {"block4x16_gray", "block4x16_gray_columns"}) {
    EXPECT_NE(imageTransposeVariantProblem(variant, compute_->device(), 4).find("for gray images"), std::string::npos)
        << variant;
    EXPECT_EQ(imageTransposeVariantProblem(variant, compute_->device(), 1), "") << variant;
  }
  EXPECT_EQ(imageTransposeVariantProblem("block4x4", compute_->device(), 4), "");
  EXPECT_NE(imageTransposeVariantProblem("no_such_variant", compute_->device(), 4), "");
}

TEST_F(ImageKernels, TransposeTileSizesAndWorkGroups) {
  struct Case {
    TransposeConfig config;
    int channels;
  };
  std::vector<Case> cases;
  TransposeConfig c = transposeConfig("tiled_padded");
  c.tile = 8, c.rowsPerItem = 8;  // 8x1 work-groups
  cases.push_back({c, 1});
  c.tile = 16, c.rowsPerItem = 2;
  cases.push_back({c, 4});
  c = transposeConfig("tiled");
  c.tile = 32, c.rowsPerItem = 1;  // 32x32 work-groups
  cases.push_back({c, 4});
  c = transposeConfig("block4x4_diagonal");
  c.tile = 32, c.workGroup = 64;
  cases.push_back({c, 4});
  c.tile = 128, c.workGroup = 256;
  cases.push_back({c, 1});
  c = transposeConfig("naive");
  c.workGroupX = 64, c.workGroupY = 1;
  cases.push_back({c, 1});
  for (const Case& k : cases) {
    // Each case fits any device these tests run on (PoCL, an H200): a refusal is a bug, not a skip.
    if (const std::string why = imageTransposeConfigProblem(k.config, compute_->device(), k.channels); !why.empty()) {
      ADD_FAILURE() << describeTransposeConfig(k.config) << " refused: " << why;
      continue;
    }
    auto t = builtOrNull<ImageTransposer>(*compute_, k.config, k.channels, describeTransposeConfig(k.config));
    if (!t) continue;
    for (const Size& s : {Size{17, 13}, Size{130, 67}, Size{256, 256}, Size{4099, 3}}) {
      const HostImage in = randomHostImage({s.width, s.height, k.channels}, 11);
      EXPECT_EQ(difference(transpose(*t, in), transposeReference(in)), "")
          << describeTransposeConfig(k.config) << ", " << name(s, k.channels);
    }
  }
}

TEST_F(ImageKernels, BlockOrdersVisitEveryBlockOnce) {
  // Grids with more block rows than columns and the other way round, uneven edges:
  // a block order that skipped a block or took one twice leaves wrong pixels.
  for (const auto& v : imageTransposeVariants()) {
    if (v.order == BlockOrder::Rows) continue;
    for (int channels : imageChannelCounts()) {
      TransposeConfig c = transposeConfig(v.name);
      if (v.kind == TransposeKind::Block4x4) c.tile = 32, c.workGroup = 64;  // more blocks per image
      if (v.kind == TransposeKind::Gray16) c.tile = 64, c.workGroup = 64;
      if (v.kind == TransposeKind::Gray16 && channels == 4) continue;  // gray only
      ASSERT_TRUE(runnable(c, channels)) << describeTransposeConfig(c);
      ImageTransposer t(*compute_, c);
      for (const Size& s : {Size{100, 333}, Size{333, 100}, Size{65, 65}, Size{1, 200}, Size{200, 1}}) {
        const HostImage in = randomHostImage({s.width, s.height, channels}, 23);
        EXPECT_EQ(difference(transpose(t, in), transposeReference(in)), "")
            << describeTransposeConfig(c) << " (" << blockOrderName(v.order) << " order), " << name(s, channels);
      }
    }
  }
}

TEST_F(ImageKernels, DefaultTransposeConfigurationsRunHere) {
  for (int channels : imageChannelCounts()) {
    const TransposeConfig c = defaultTransposeConfig(channels);
    ASSERT_EQ(imageTransposeConfigProblem(c, compute_->device(), channels), "") << describeTransposeConfig(c);
    ImageTransposer t(*compute_, c);
    const HostImage in = randomHostImage({300, 129, channels}, 5);
    EXPECT_EQ(difference(transpose(t, in), transposeReference(in)), "") << describeTransposeConfig(c);
  }
}

// ---- rotation --------------------------------------------------------------------------------

std::vector<RotateParams> rotateCases() {
  RotateParams a;  // a colour, cropped
  a.degrees = 30.0;
  a.background = {10, 200, 30, 255};
  RotateParams b;  // a quarter turn, expanded (w and h swap), transparent
  b.degrees = 90.0;
  b.canvas = RotateCanvas::Expand;
  b.transparent = true;
  RotateParams c;  // an awkward angle, expanded, a translucent colour
  c.degrees = -123.4;
  c.canvas = RotateCanvas::Expand;
  c.background = {255, 0, 128, 77};
  return {a, b, c};
}

std::string describe(const RotateParams& p) {
  std::ostringstream o;
  o << p.degrees << " deg " << (p.canvas == RotateCanvas::Crop ? "crop" : "expand")
    << (p.transparent ? " transparent" : "");
  return o.str();
}

// Bilinear through the image sampler: PoCL filters in float (within a level of
// the 12-bit reference); GPU samplers use 8-bit fixed-point weights (CUDA's
// texture unit: 1/256 steps), which can move a high-contrast edge by two levels.
int imageBilinearTolerance(const DeviceDescriptor& device) { return device.kind == DeviceKind::Gpu ? 2 : 1; }

TEST_F(ImageKernels, EveryRotationVariantMatchesItsReferenceOnEverySize) {
  for (const auto& v : imageRotateVariants()) {
    RotateConfig c;
    c.variant = v.name;
    c.workGroupX = 16;
    c.workGroupY = 8;
    c.pixelsPerItem = v.pixelsPerItem.back();  // 4 where offered
    if (v.image && !runnable(c, 1)) {
      std::cout << "not run on this device: " << v.name << ": " << imageRotateConfigProblem(c, compute_->device(), 1) << "\n";
      continue;
    }
    ImageRotator r(*compute_, c);
    const int tolerance = v.exact ? 0 : v.image ? imageBilinearTolerance(compute_->device()) : 1;
    // Every variant on every size, the quarter turn onto an expanded (w <-> h) canvas included.
    for (int channels : imageChannelCounts())
      for (const Size& s : kSizes) {
        const HostImage in = randomHostImage({s.width, s.height, channels}, 3);
        for (const RotateParams& p : rotateCases()) {
          const HostImage want = rotateReference(in, p, v.sampling);
          EXPECT_EQ(difference(rotate(r, in, p), want, tolerance), "")
              << describeRotateConfig(c) << ", " << name(s, channels) << ", " << describe(p);
        }
      }
  }
}

TEST_F(ImageKernels, RotationWithOnePixelPerWorkItemAndOtherWorkGroups) {
  for (const char* variant :
       {"nearest", "bilinear", "nearest_local", "bilinear_local", "nearest_image", "bilinear_image"}) {
    RotateConfig c;
    c.variant = variant;
    c.workGroupX = 8;
    c.workGroupY = 32;
    c.pixelsPerItem = 1;
    if (!runnable(c, 1)) {
      std::cout << "not run on this device: " << variant << ": " << imageRotateConfigProblem(c, compute_->device(), 1) << "\n";
      continue;
    }
    ImageRotator r(*compute_, c);
    const ImageRotateVariant& v = r.variant();
    const int tolerance = v.exact ? 0 : v.image ? imageBilinearTolerance(compute_->device()) : 1;
    for (int channels : imageChannelCounts()) {
      const HostImage in = randomHostImage({257, 31, channels}, 9);
      for (const RotateParams& p : rotateCases())
        EXPECT_EQ(difference(rotate(r, in, p), rotateReference(in, p, v.sampling), tolerance), "")
            << describeRotateConfig(c) << ", " << describe(p);
    }
  }
}

// Notes printed as "not run on this device: ..." are configurations a device
// refuses with a reason (its limits) inside a test that runs others; they are
// deliberately not printed like GoogleTest's "[  SKIPPED ]": ctest counts such
// a test as passed. A test with nothing left to run GTEST_SKIPs instead.

// The image variants' blocks of pixels per work-item (2 or 4 along a row, 2 or 4
// rows): every awkward size, so that partial blocks at the right and bottom edges
// (odd widths and heights, 1-pixel images) are tested against the reference.
TEST_F(ImageKernels, ImageRotationBlocksOfPixelsPerWorkItemMatchTheReference) {
  std::string refused;
  int ran = 0;
  for (const char* variant : {"nearest_image", "bilinear_image"})
    for (const auto& [ppi, rows] : {std::pair{2, 2}, std::pair{4, 4}, std::pair{2, 1}, std::pair{1, 4}, std::pair{4, 2}}) {
      RotateConfig c{variant, 16, 8, ppi, rows};
      if (!runnable(c, 1)) {
        refused = imageRotateConfigProblem(c, compute_->device(), 1);
        std::cout << "not run on this device: " << variant << ": " << refused << "\n";
        break;
      }
      ++ran;
      ImageRotator r(*compute_, c);
      const ImageRotateVariant& v = r.variant();
      const int tolerance = v.exact ? 0 : imageBilinearTolerance(compute_->device());
      for (int channels : imageChannelCounts())
        for (const Size& s : kSizes) {
          const HostImage in = randomHostImage({s.width, s.height, channels}, 13);
          for (const RotateParams& p : rotateCases()) {
            EXPECT_EQ(difference(rotate(r, in, p), rotateReference(in, p, v.sampling), tolerance), "")
                << describeRotateConfig(c) << ", " << name(s, channels) << ", " << describe(p);
          }
        }
    }
  if (!ran) GTEST_SKIP() << refused;
}

TEST_F(ImageKernels, ImageVariantsKeepTheirSourceImageUntilTheSourceChanges) {
  // The image variants copy the source into a CL image once and reuse it: a
  // second run of the same buffer uploads nothing; after sourceChanged() the
  // new contents are used.
  RotateConfig c{"nearest_image", 16, 8, 4};
  if (!runnable(c, 4)) GTEST_SKIP() << imageRotateConfigProblem(c, compute_->device(), 4);
  ImageRotator r(*compute_, c);
  HostImage in = randomHostImage({67, 45, 4}, 21);
  const RotateParams p = rotateCases().front();
  Buffer src = upload(in);
  Buffer dst = garbage(in.layout);
  ImageOpEvents first, second, third;
  r.run(compute_->queue(), src.get(), in.layout, dst.get(), in.layout, p, &first);
  r.run(compute_->queue(), src.get(), in.layout, dst.get(), in.layout, p, &second);
  auto names = [](const ImageOpEvents& e) {
    std::string all;
    for (const ImageOpCommand& command : e.commands) all += command.label + " ";
    return all;
  };
  EXPECT_EQ(names(first), "upload rotate ");
  EXPECT_EQ(names(second), "rotate ");
  in = randomHostImage({67, 45, 4}, 22);
  compute_->queue().writeBuffer(src, 0, in.layout.bytes(), in.data.data());
  r.sourceChanged();
  r.run(compute_->queue(), src.get(), in.layout, dst.get(), in.layout, p, &third);
  EXPECT_EQ(names(third), "upload rotate ");
  EXPECT_EQ(difference(download(dst, in.layout), rotateReference(in, p, RotateSampling::Nearest)), "");
}

// The local memory the config check counts for a staged rotation against what the
// built kernel reports: the gray kernel declares its region as 32-bit words
// (BOX_AREA bytes rounded up to a multiple of 4). PoCL reports exactly the declared
// arrays; other drivers may add their own bytes (NVIDIA: 4), so only PoCL is held
// to equality.
TEST_F(ImageKernels, StagedRotationLocalMemoryIsWhatTheKernelDeclares) {
  const DeviceDescriptor& device = compute_->device();
  const bool exact = device.platformName.find("Portable Computing Language") != std::string::npos;
  int compared = 0;
  // Regions of 393, 3474, 4179 and 1096 pixels: 1, 2, 3 and 0 past a multiple of 4.
  for (const RotateConfig& c : {RotateConfig{"nearest_local", 16, 2, 1}, RotateConfig{"bilinear_local", 16, 8, 4},
                                RotateConfig{"bilinear_local", 16, 16, 4}, RotateConfig{"nearest_local", 32, 4, 1}})
    for (int channels : imageChannelCounts()) {
      if (!runnable(c, channels)) continue;
      ImageRotator r(*compute_, c);
      const uint64_t reported = r.info(channels).localMemBytes;
      const size_t counted = imageRotateLocalMemoryBytes(c, channels);
      const std::string what = describeRotateConfig(c) + (channels == 1 ? " gray" : " RGBA") + ", box of " +
                               std::to_string(imageRotateBoxPixels(c)) + " pixels";
      if (exact)
        EXPECT_EQ(counted, reported) << what;
      else
        std::cout << "[ NOTE     ] " << what << ": counted " << counted << " bytes, the driver reports " << reported
                  << "\n";
      ++compared;
    }
  EXPECT_GT(compared, 0) << "no staged configuration runs on this device";
}

TEST(ImageRotationStaging, TheLocalRegionHoldsEveryTilesSourceBoxAtAnyAngle) {
  // kernels/rotate.cl's source_box, on the host: the bounding box of the tile
  // corners' source points (bilinear: minus half a pixel, one more column and
  // row), gray widened to whole words. Its area must fit imageRotateBoxPixels.
  auto floorShift = [](int64_t v, int k) { return v >= 0 ? v >> k : ~((~v) >> k); };
  for (const RotateConfig& c : {RotateConfig{"bilinear_local", 8, 32, 4}, RotateConfig{"bilinear_local", 16, 16, 4},
                                RotateConfig{"nearest_local", 64, 4, 1}, RotateConfig{"bilinear_local", 256, 1, 4}}) {
    const int tileW = c.workGroupX * c.pixelsPerItem, tileH = c.workGroupY;
    const size_t limit = imageRotateBoxPixels(c);
    size_t worst = 0;
    for (int tenths = 0; tenths < 3600; tenths += 3) {
      const RotationFixedPoint r = rotationFixedPoint(tenths / 10.0);
      const ImageLayout in{1000, 777, 1}, out{1000, 777, 1};
      for (int tx0 : {0, 320, 960})
        for (int ty0 : {0, 64, 768}) {
          int64_t minX = INT64_MAX, maxX = INT64_MIN, minY = INT64_MAX, maxY = INT64_MIN;
          for (int k = 0; k < 4; ++k) {
            const int64_t px = 2 * int64_t(tx0 + (k & 1) * (tileW - 1)) + 1 - out.width;
            const int64_t py = 2 * int64_t(ty0 + (k >> 1) * (tileH - 1)) + 1 - out.height;
            const int64_t qx = r.cosQ16 * px + r.sinQ16 * py + (int64_t(in.width) << 16) - 65536;
            const int64_t qy = -int64_t(r.sinQ16) * px + r.cosQ16 * py + (int64_t(in.height) << 16) - 65536;
            minX = std::min(minX, floorShift(qx, 17)), maxX = std::max(maxX, floorShift(qx, 17));
            minY = std::min(minY, floorShift(qy, 17)), maxY = std::max(maxY, floorShift(qy, 17));
          }
          const int64_t w = maxX - minX + 2 + 6, h = maxY - minY + 2;  // bilinear taps, gray alignment
          worst = std::max<size_t>(worst, static_cast<size_t>(w * h));
        }
    }
    EXPECT_LE(worst, limit) << describeRotateConfig(c);
    EXPECT_GT(worst * 2, limit) << describeRotateConfig(c) << ": the bound wastes local memory";
  }
}

// The seed's cpu_rotate (seed 004, the rotation tutorial), transcribed with its
// own types and expression: int centres, (j - xc) * cosTheta etc. promoted to
// float by the usual conversions, the result converted to int by the assignment
// (truncation), a row-major loop in which a later pixel overwrites an earlier one.
// Generalised only as far as the lab needs: `channels` bytes per pixel, and an
// output canvas of outW x outH whose centre is (outW/2, outH/2) (the seed's crop:
// outW = w, outH = h). This file is built with -ffp-contract=off, as the seed
// compiles on x86-64 without FMA. Returns how many source pixels landed on a spot
// an earlier one had taken, so that a test can tell the winner rule was exercised.
size_t seedCpuRotate(const unsigned char* inbuf, unsigned char* outbuf, int w, int h, int outW, int outH, int channels,
                     float sinTheta, float cosTheta) {
  int i, j;
  int xc = w / 2;
  int yc = h / 2;
  int outXc = outW / 2;
  int outYc = outH / 2;
  std::vector<bool> taken(static_cast<size_t>(outW) * outH);
  size_t overwritten = 0;
  for (i = 0; i < h; i++) {
    for (j = 0; j < w; j++) {
      int xpos = (j - xc) * cosTheta - (i - yc) * sinTheta + outXc;
      int ypos = (j - xc) * sinTheta + (i - yc) * cosTheta + outYc;
      if (xpos >= 0 && ypos >= 0 && xpos < outW && ypos < outH) {
        const size_t spot = static_cast<size_t>(ypos) * outW + xpos;
        overwritten += taken[spot];
        taken[spot] = true;
        std::copy_n(inbuf + (static_cast<size_t>(i) * w + j) * channels, channels, outbuf + spot * channels);
      }
    }
  }
  return overwritten;
}

// The seed's function on a canvas of the lab's background (the seed leaves holes
// as whatever the output buffer held; the lab fills them with the background).
HostImage seedRotation(const HostImage& in, const RotateParams& p, size_t* overwritten = nullptr) {
  const ImageLayout outLayout = rotatedLayout(in.layout, p);
  HostImage out(outLayout);
  const std::array<uint8_t, 4> bg = rotateBackgroundPixel(p, in.layout.channels);
  for (size_t px = 0; px < outLayout.pixels(); ++px)
    std::copy_n(bg.data(), in.layout.channels, out.data.data() + px * in.layout.channels);
  const RotationFloat f = rotationFloat(p.degrees);
  const size_t n = seedCpuRotate(in.data.data(), out.data.data(), in.layout.width, in.layout.height, outLayout.width,
                                 outLayout.height, in.layout.channels, f.sinTheta, f.cosTheta);
  if (overwritten) *overwritten += n;
  return out;
}

TEST_F(ImageKernels, ForwardMappingEqualsTheSeedsCpuFunction) {
  // Exact equality, holes and collisions included: the CPU reference and the
  // device's forward variant against the transcription above, over angles that
  // are exact (90, 180), common (30, 45) and awkward (200, -123.4), cropped and
  // expanded, on sizes with odd halves, one row, one column and one pixel.
  RotateConfig c;
  c.variant = "forward";
  c.pixelsPerItem = 1;
  ImageRotator r(*compute_, c);
  size_t overwritten = 0;
  for (int channels : imageChannelCounts())
    for (const Size& s : {Size{1, 1}, Size{1, 1000}, Size{1000, 1}, Size{17, 13}, Size{256, 200}, Size{1000, 777},
                          Size{4099, 3}}) {
      const HostImage in = randomHostImage({s.width, s.height, channels}, 1);
      for (double degrees : {200.0, -123.4, 30.0, 45.0, 90.0, 180.0})
        for (RotateCanvas canvas : {RotateCanvas::Crop, RotateCanvas::Expand}) {
          RotateParams p;
          p.degrees = degrees;
          p.canvas = canvas;
          p.background = {10, 200, 30, 255};
          p.transparent = canvas == RotateCanvas::Expand;
          const HostImage seed = seedRotation(in, p, &overwritten);
          EXPECT_EQ(difference(rotateForwardReference(in, p), seed), "")
              << "CPU reference, " << name(s, channels) << ", " << describe(p);
          EXPECT_EQ(difference(rotate(r, in, p), seed), "")
              << describeRotateConfig(c) << ", " << name(s, channels) << ", " << describe(p);
        }
    }
  // Several source pixels landed on one spot (more than once): the last-wins rule
  // (atomic_max on the device) was compared, not only the spots.
  EXPECT_GT(overwritten, 1000u);
  // A 45-degree forward rotation leaves holes (that is what the teaching variant shows).
  const HostImage white(ImageLayout{64, 64, 1}, 255);
  RotateParams p;
  p.degrees = 45.0;
  p.transparent = true;
  const HostImage rotated = rotateForwardReference(white, p);
  size_t holes = 0;
  for (int y = 24; y < 40; ++y)
    for (int x = 24; x < 40; ++x) holes += rotated.pixel(x, y)[0] == 0;
  EXPECT_GT(holes, 0u) << "no holes in the middle of a forward-mapped 45-degree turn";
}

TEST(ImageForwardRotation, TheCasesAboveWouldCatchAFusedMultiplyAdd) {
  // The exactness test has teeth only if contraction changes some spot in its
  // cases: on 1000x777 at 200 degrees, xpos with fma(dx, cos, -(dy sin)) (one
  // rounding fewer, what a contracting compiler emits) must differ somewhere from
  // the seed's separately rounded steps. Also the float sine and cosine: exact at
  // quarter turns (the seed's 90 degrees is sin 1, cos 0), else the double ones rounded.
  const RotationFloat f = rotationFloat(200.0);
  const int w = 1000, h = 777, xc = w / 2, yc = h / 2;
  size_t moved = 0;
  for (int i = 0; i < h; ++i)
    for (int j = 0; j < w; ++j) {
      const float dx = static_cast<float>(j - xc), dy = static_cast<float>(i - yc);
      const float product = dy * f.sinTheta;
      const int separate = static_cast<int>(dx * f.cosTheta - product + static_cast<float>(xc));
      const int fused = static_cast<int>(std::fma(dx, f.cosTheta, -product) + static_cast<float>(xc));
      moved += separate != fused;
    }
  EXPECT_GT(moved, 0u);
  EXPECT_EQ(rotationFloat(90.0).cosTheta, 0.0f);
  EXPECT_EQ(rotationFloat(90.0).sinTheta, 1.0f);
  EXPECT_EQ(rotationFloat(-90.0).sinTheta, -1.0f);
  EXPECT_EQ(rotationFloat(540.0).cosTheta, -1.0f);
  EXPECT_EQ(rotationFloat(540.0).sinTheta, 0.0f);
  EXPECT_EQ(rotationFloat(30.0).sinTheta, static_cast<float>(std::sin(std::numbers::pi / 6.0)));
  EXPECT_EQ(rotationFloat(-123.4).cosTheta, static_cast<float>(std::cos((360.0 - 123.4) * std::numbers::pi / 180.0)));
}

TEST_F(ImageKernels, RotationGeometry) {
  // Quarter turns are exact and clockwise on screen: out(x, y) = in(y, H - 1 - x).
  const HostImage in = randomHostImage({5, 3, 4}, 2);
  RotateParams p;
  p.degrees = 90.0;
  p.canvas = RotateCanvas::Expand;
  for (RotateSampling s : {RotateSampling::Nearest, RotateSampling::Bilinear, RotateSampling::Forward}) {
    const HostImage out = rotateReference(in, p, s);
    ASSERT_EQ(out.layout, (ImageLayout{3, 5, 4}));
    for (int y = 0; y < 5; ++y)
      for (int x = 0; x < 3; ++x)
        for (int k = 0; k < 4; ++k)
          ASSERT_EQ(out.pixel(x, y)[k], in.pixel(y, 2 - x)[k]) << "(" << x << ", " << y << ") sampling " << int(s);
  }
  // 0 degrees is the identity for every sampling.
  p.degrees = 0.0;
  p.canvas = RotateCanvas::Crop;
  for (RotateSampling s : {RotateSampling::Nearest, RotateSampling::Bilinear, RotateSampling::Forward})
    EXPECT_EQ(rotateReference(in, p, s), in);
  // A constant image on a background of the same colour stays constant.
  HostImage flat(ImageLayout{40, 30, 4});
  for (size_t i = 0; i < flat.data.size(); i += 4) flat.data[i] = 9, flat.data[i + 1] = 99, flat.data[i + 2] = 199, flat.data[i + 3] = 255;
  p.degrees = 33.3;
  p.background = {9, 99, 199, 255};
  EXPECT_EQ(rotateBilinearReference(flat, p), flat);
  // Expanded canvases hold the rotated rectangle.
  p.canvas = RotateCanvas::Expand;
  p.degrees = 45.0;
  EXPECT_EQ(rotatedLayout({100, 100, 1}, p), (ImageLayout{142, 142, 1}));
  p.degrees = -90.0;
  EXPECT_EQ(rotatedLayout({1000, 777, 4}, p), (ImageLayout{777, 1000, 4}));
  p.degrees = 180.0;
  EXPECT_EQ(rotatedLayout({17, 13, 1}, p), (ImageLayout{17, 13, 1}));
  EXPECT_EQ(rotateBackgroundPixel(p, 1)[0], imageLuminance(9, 99, 199));
  p.transparent = true;
  EXPECT_EQ(rotateBackgroundPixel(p, 4), (std::array<uint8_t, 4>{0, 0, 0, 0}));
}

// ---- histogram and statistics -------------------------------------------------------------------

// Configurations that fit the device: the seed's sub-histograms need 256 bytes
// per work-item and histogram channel, so RGBA (5 channels) takes small groups.
std::vector<HistogramConfig> histogramConfigs(int channels) {
  HistogramConfig sub;
  sub.variant = "subhist_uchar";
  sub.workGroup = channels == 1 ? 128 : 32;
  sub.pixelsPerItem = 255;
  HistogramConfig atomic;
  atomic.variant = "local_atomic";
  atomic.workGroup = 256;
  atomic.copies = 1;
  atomic.groupsPerComputeUnit = 8;
  HistogramConfig copies = atomic;
  copies.workGroup = 64;
  copies.copies = 4;
  copies.groupsPerComputeUnit = 2;
  HistogramConfig flushed;
  flushed.variant = "subhist_flush";
  flushed.workGroup = channels == 1 ? 128 : 32;
  flushed.groupsPerComputeUnit = 2;
  HistogramConfig fused = atomic;  // runs again and again on the same result buffer: must zero it each time
  fused.variant = "local_atomic_fused";
  fused.copies = channels == 1 ? 32 : 2;
  fused.groupsPerComputeUnit = 2;
  std::vector<HistogramConfig> configs = {sub, flushed, atomic, copies, fused, defaultHistogramConfig(channels)};
  if (ComputeContext* compute = test::sharedTestCompute())
    configs.push_back(defaultHistogramConfig(channels, compute->device()));
  for (const auto& v : imageHistogramVariants())  // a new variant must be added here
    EXPECT_TRUE(std::any_of(configs.begin(), configs.end(), [&](const HistogramConfig& c) { return c.variant == v.name; }))
        << v.name;
  return configs;
}

// Whether the device takes a configuration of histogramConfigs. Every one listed
// there fits any device these tests run on (PoCL included), so a refusal fails
// the test, with the reason; the one exception is the fused variant on a device
// without device-scope fences, a refusal TheFusedHistogramNeedsDeviceScopeFences
// tests, which is printed.
bool histogramRunsHere(const HistogramConfig& c, const DeviceDescriptor& device, int channels) {
  const std::string why = imageHistogramConfigProblem(c, device, channels);
  if (why.empty()) return true;
  const ImageHistogramVariant* v = findImageHistogramVariant(c.variant);
  if (v && v->fused && why == deviceScopeFenceProblem(device)) {
    std::cout << "not run on this device: " << describeHistogramConfig(c) << ": " << why << "\n";
    return false;
  }
  ADD_FAILURE() << describeHistogramConfig(c) << ", " << (channels == 1 ? "gray" : "RGBA") << ", refused: " << why;
  return false;
}

void expectHistogramMatches(const ImageHistogramResult& got, const HostImage& in, const std::string& what) {
  const ImageHistogram want = histogramReference(in);
  EXPECT_EQ(got.histogram.bins, want.bins) << what;
  for (int ch = 0; ch < want.channelCount(); ++ch)
    EXPECT_EQ(got.histogram.total(ch), in.layout.pixels()) << what << ", channel " << histogramChannelName(in.layout.channels, ch);
  const ImageStatistics ref = statisticsReference(in);
  ASSERT_EQ(got.statistics.channels.size(), ref.channels.size()) << what;
  for (size_t ch = 0; ch < ref.channels.size(); ++ch) {
    const ChannelStatistics& g = got.statistics.channels[ch];
    const ChannelStatistics& r = ref.channels[ch];
    const std::string where = what + ", channel " + histogramChannelName(in.layout.channels, static_cast<int>(ch));
    EXPECT_EQ(g.count, r.count) << where;
    EXPECT_EQ(g.sum, r.sum) << where;
    EXPECT_EQ(g.sumSquares, r.sumSquares) << where;
    EXPECT_EQ(g.min, r.min) << where;
    EXPECT_EQ(g.max, r.max) << where;
    // EXPECT_NEAR fails on NaN too, but says only "diff is nan"; name it.
    EXPECT_TRUE(std::isfinite(g.mean) && std::isfinite(g.stddev))
        << where << ": mean " << g.mean << ", standard deviation " << g.stddev << " (NaN or Inf)";
    EXPECT_TRUE(std::isfinite(r.mean) && std::isfinite(r.stddev))
        << where << ": the reference's mean " << r.mean << ", standard deviation " << r.stddev << " (NaN or Inf)";
    EXPECT_NEAR(g.mean, r.mean, 1e-9 * (1 + r.mean)) << where;
    EXPECT_NEAR(g.stddev, r.stddev, 1e-7 * (1 + r.stddev)) << where;
    EXPECT_EQ(g.median, r.median) << where;
    EXPECT_EQ(g.percentiles, r.percentiles) << where;
  }
}

TEST_F(ImageKernels, EveryHistogramVariantCountsExactlyOnEverySize) {
  for (int channels : imageChannelCounts())
    for (const HistogramConfig& c : histogramConfigs(channels)) {
      if (!histogramRunsHere(c, compute_->device(), channels)) continue;
      ImageHistogrammer h(*compute_, c);
      for (const Size& s : kSizes) {
        const HostImage in = randomHostImage({s.width, s.height, channels}, 13);
        expectHistogramMatches(histogram(h, in), in, describeHistogramConfig(c) + ", " + name(s, channels));
      }
    }
}

// The merge kernel sums the partial histograms 4 x rows at a time, then one row
// at a time; rows (a power of two up to 128) depend on the device. Group counts
// from the device's rows reach every path: fewer groups than rows (idle rows),
// only the tail loop, exactly one 4-way pass, the 4-way pass then the tail, and
// several passes. 16 pixels per item in 32-item groups keep the images small
// (a group is 512 pixels), so every count costs well under a megabyte.
TEST_F(ImageKernels, TheHistogramMergeReachesEveryLoopOnThisDevice) {
  HistogramConfig c;
  c.variant = "subhist_uchar";
  c.workGroup = 32;
  c.pixelsPerItem = 16;
  const size_t perGroup = 32 * 16;
  for (int channels : imageChannelCounts()) {
    ImageHistogrammer h(*compute_, c);
    const size_t rows = h.mergeRows(channels);
    ASSERT_GE(rows, 1u);
    std::vector<size_t> counts = {1, 3 * rows + 1, 4 * rows, 4 * rows + 1, 8 * rows + 5};
    if (rows > 1) counts.insert(counts.begin() + 1, rows - 1);
    for (size_t groups : counts) {
      // The last group takes 5 pixels fewer than a full one (a partial group).
      const int width = static_cast<int>(groups * perGroup - (groups > 1 ? 5 : 0));
      const ImageLayout layout{width, 1, channels};
      ASSERT_EQ(h.groupCount(layout), groups) << "the image size does not give the groups wanted";
      const HostImage in = randomHostImage(layout, static_cast<uint32_t>(groups));
      expectHistogramMatches(histogram(h, in), in,
                             describeHistogramConfig(c) + ", " + std::to_string(groups) + " groups, merge rows " +
                                 std::to_string(rows) + ", " + (channels == 1 ? "gray" : "RGBA"));
    }
  }
}

TEST_F(ImageKernels, CountingSomeChannelsLeavesTheOthersEmpty) {
  const HostImage in = randomHostImage({301, 77, 4}, 19);
  const ImageHistogram want = histogramReference(in);
  for (HistogramConfig c : histogramConfigs(4)) {
    if (!histogramRunsHere(c, compute_->device(), 4)) continue;
    for (int mask : {kRgbHistogramChannels, 0x10, 0x09}) {  // R G B; luminance; R and A
      c.countedChannels = mask;
      ImageHistogrammer h(*compute_, c);
      const ImageHistogramResult got = histogram(h, in);
      for (int ch = 0; ch < 5; ++ch) {
        const std::vector<uint32_t> gotBins(got.histogram.channel(ch), got.histogram.channel(ch) + kHistogramBins);
        const std::vector<uint32_t> wantBins(want.channel(ch), want.channel(ch) + kHistogramBins);
        if (mask & (1 << ch)) {
          EXPECT_EQ(gotBins, wantBins) << describeHistogramConfig(c) << ", channel " << ch;
          EXPECT_EQ(got.statistics.channels[ch].count, in.layout.pixels());
        } else {
          EXPECT_EQ(gotBins, std::vector<uint32_t>(kHistogramBins, 0)) << describeHistogramConfig(c) << ", channel " << ch;
          EXPECT_EQ(got.statistics.channels[ch].count, 0u);
        }
      }
    }
  }
  HistogramConfig none;
  none.countedChannels = 0;
  EXPECT_NE(imageHistogramConfigProblem(none, compute_->device(), 4).find("non-empty"), std::string::npos);
  EXPECT_EQ(describeCountedChannels(kRgbHistogramChannels), "R G B");
}

// local_atomic keeps only the counted channels in local memory: R, G, B in 16
// copies (48 KB) fit where all five channels would not; the counts stay exact on
// sizes that are no multiple of a load or a group.
TEST_F(ImageKernels, FewerCountedChannelsLeaveRoomForMoreHistogramCopies) {
  HistogramConfig c;
  c.variant = "local_atomic";
  c.workGroup = 1024;
  c.copies = 16;
  c.groupsPerComputeUnit = 2;
  c.countedChannels = kRgbHistogramChannels;
  EXPECT_EQ(imageHistogramLocalMemoryBytes(c, 4), 3u * 256u * 16u * 4u);
  const DeviceDescriptor& device = compute_->device();
  // Nothing else in this test runs without it: a skip (with the device's reason), not a pass.
  if (!runnable(c, 4)) GTEST_SKIP() << "R, G, B in 16 copies: " << imageHistogramConfigProblem(c, device, 4);
  for (const Size& s : kSizes) {
    const HostImage in = randomHostImage({s.width, s.height, 4}, 23);
    const ImageHistogram want = histogramReference(in);
    for (int mask : {kRgbHistogramChannels, 0x1A}) {  // R G B; G, A and luminance
      c.countedChannels = mask;
      ImageHistogrammer h(*compute_, c);
      const ImageHistogramResult got = histogram(h, in);
      for (int ch = 0; ch < 5; ++ch) {
        const std::vector<uint32_t> gotBins(got.histogram.channel(ch), got.histogram.channel(ch) + kHistogramBins);
        const std::vector<uint32_t> wantBins = (mask & (1 << ch))
                                                   ? std::vector<uint32_t>(want.channel(ch), want.channel(ch) + kHistogramBins)
                                                   : std::vector<uint32_t>(kHistogramBins, 0);
        EXPECT_EQ(gotBins, wantBins) << describeHistogramConfig(c) << ", " << name(s, 4) << ", channel " << ch;
      }
    }
  }
}

TEST_F(ImageKernels, UcharSubHistogramsDoNotOverflowOnAConstantImage) {
  // 1000x777 pixels of one value: the seed's design (256 pixels per work-item
  // counted in uchar bins) would wrap every bin to 0. At most 255 pixels per
  // work-item, any number of work-groups, must count all 777000.
  for (int channels : imageChannelCounts()) {
    HistogramConfig c;
    c.variant = "subhist_uchar";
    c.workGroup = 32;
    c.pixelsPerItem = kSubHistogramMaxPixelsPerItem;
    ImageHistogrammer h(*compute_, c);
    EXPECT_GT(h.groupCount({1000, 777, channels}), 1u);
    const HostImage in(ImageLayout{1000, 777, channels}, 200);
    const ImageHistogramResult got = histogram(h, in);
    for (int ch = 0; ch < histogramChannelCount(channels); ++ch) {
      const uint8_t value = ch == 4 ? imageLuminance(200, 200, 200) : 200;
      EXPECT_EQ(got.histogram.channel(ch)[value], 777000u) << "channel " << histogramChannelName(channels, ch);
      EXPECT_EQ(got.histogram.total(ch), 777000u);
    }
    expectHistogramMatches(got, in, "constant " + std::to_string(channels));
  }
  // The flushed counters (each item counts thousands of pixels, 240 at a time)
  // and local atomics (every work-item hits one bin: the worst case).
  for (int channels : imageChannelCounts()) {
    HistogramConfig flushed;
    flushed.variant = "subhist_flush";
    flushed.workGroup = 32;
    flushed.groupsPerComputeUnit = 1;
    ImageHistogrammer h(*compute_, flushed);
    const HostImage in(ImageLayout{1000, 777, channels}, 255);
    expectHistogramMatches(histogram(h, in), in, "constant, flushed counters " + std::to_string(channels));
  }
  HistogramConfig atomic;
  atomic.variant = "local_atomic";
  atomic.copies = 8;
  ImageHistogrammer h(*compute_, atomic);
  const HostImage in(ImageLayout{1000, 777, 1}, 77);
  expectHistogramMatches(histogram(h, in), in, "constant gray, local atomics");
}

TEST_F(ImageKernels, TheFusedHistogramLeavesItsSumsZeroForTheNextRun) {
  // One histogrammer, run after run, over images of other sizes, channel counts
  // and content (constant: every group adds into one bin): each result must be
  // exact, so the last group must have handed over and zeroed the sums and the
  // finished-groups counter every time, with many groups finishing together.
  HistogramConfig c;
  c.variant = "local_atomic_fused";
  c.workGroup = 64;
  c.copies = 2;
  c.groupsPerComputeUnit = 4;
  if (const std::string why = imageHistogramConfigProblem(c, compute_->device(), 1); !why.empty())
    GTEST_SKIP() << why;
  ImageHistogrammer h(*compute_, c);
  const std::vector<HostImage> images = {
      randomHostImage({1000, 777, 1}, 3), HostImage(ImageLayout{1000, 777, 1}, 9), randomHostImage({17, 13, 4}, 4),
      randomHostImage({1, 1, 1}, 5),      HostImage(ImageLayout{301, 77, 4}, 250), randomHostImage({4099, 3, 1}, 6)};
  for (int round = 0; round < 2; ++round)
    for (const HostImage& in : images) {
      EXPECT_GT(h.groupCount(in.layout), 0u);
      expectHistogramMatches(histogram(h, in), in,
                             "round " + std::to_string(round) + ", " + describeImageLayout(in.layout));
    }
  ImageOpEvents events;
  const HostImage in = randomHostImage({256, 256, 1}, 7);
  const Buffer src = upload(in);
  Buffer bins(compute_->context(), CL_MEM_READ_WRITE, kHistogramBins * sizeof(cl_uint));
  h.run(compute_->queue(), src.get(), in.layout, bins.get(), &events);
  compute_->queue().finish();
  ASSERT_EQ(events.commands.size(), 1u) << "one kernel: no clearing, no merge";
  EXPECT_EQ(events.commands.front().label, "histogram");
}

// ---- the picture the image lab draws (display.cl to_rgba) ------------------------------------

// The copy into the interop layer's pixel buffer: RGBA as it is, gray g as
// (g, g, g, 255) (opaque: GL blends the picture over the background). Every
// pixel written, none past the end; sizes not a multiple of the work-group, and
// pixel counts of every remainder by four (the kernel moves four pixels a
// work-item and the last one takes the rest one by one).
TEST_F(ImageKernels, ToRgbaWritesThePictureGlDraws) {
  auto build = compute_->buildKernelFile("display.cl");
  ASSERT_TRUE(build->ok()) << build->error << "\n" << build->log;
  Kernel toRgba(build->program.get(), "to_rgba");
  const size_t local = 64;
  std::vector<Size> sizes = kSizes;
  for (const Size& s : std::vector<Size>{{2, 1}, {1, 3}, {5, 3}, {4099, 2}, {333, 7}}) sizes.push_back(s);
  for (int channels : imageChannelCounts())
    for (const Size& s : sizes) {
      const HostImage in = randomHostImage({s.width, s.height, channels}, 29);
      const size_t pixels = in.layout.pixels();
      const Buffer src = upload(in);
      // Four texels of garbage after the picture: none may be written.
      const ImageLayout padded{static_cast<int>(pixels) + 4, 1, 4};
      Buffer out = garbage(padded);
      toRgba.setArg(0, src.get());
      toRgba.setArg(1, static_cast<cl_int>(channels));
      toRgba.setArg(2, out.get());
      toRgba.setArg(3, static_cast<cl_int>(pixels));
      const size_t items = toRgbaWorkItems(pixels);
      compute_->queue().enqueueKernel(toRgba, {(items + local - 1) / local * local}, {local});
      const HostImage got = download(out, padded);
      HostImage want(padded, 0xCD);
      for (size_t i = 0; i < pixels; ++i)
        for (int c = 0; c < 4; ++c)
          want.data[i * 4 + c] = channels == 4 ? in.data[i * 4 + c] : c == 3 ? 255 : in.data[i];
      EXPECT_EQ(difference(got, want), "") << name(s, channels);
    }
}

// The blocking measurements (the CLI's sweeps) give PacedLaunches a budget without
// a limit (1e12 ms): after the first launch, every launch left goes in one batch,
// and counting how many would fit must not overflow an int (UBSan caught 5e13).
TEST_F(ImageKernels, PacedLaunchesWithoutABudgetLimitSendTheRestInOneBatch) {
  auto build = compute_->buildKernelFile("display.cl");
  ASSERT_TRUE(build->ok()) << build->error << "\n" << build->log;
  Kernel toRgba(build->program.get(), "to_rgba");
  const HostImage in = randomHostImage({64, 4, 4}, 3);
  const Buffer src = upload(in);
  Buffer out = garbage(ImageLayout{64, 4, 4});
  toRgba.setArg(0, src.get());
  toRgba.setArg(1, static_cast<cl_int>(4));
  toRgba.setArg(2, out.get());
  toRgba.setArg(3, static_cast<cl_int>(in.layout.pixels()));
  Queue& queue = compute_->queue();
  PacedLaunches launches(queue, [&](Event* e) { queue.enqueueKernel(toRgba, {64}, {64}, e); }, 2, 5, 1e12);
  EXPECT_FALSE(launches.poll());
  EXPECT_EQ(launches.lastBatchSize(), 1) << "one launch first, to time one";
  queue.finish();
  ASSERT_FALSE(launches.poll());
  ASSERT_GT(launches.longestLaunchMs(), 0.0);
  EXPECT_EQ(launches.lastBatchSize(), 6) << "the one warm-up and five timed launches left, at once";
  queue.finish();
  EXPECT_TRUE(launches.poll());
  EXPECT_EQ(launches.timedMs().size(), 5u);
}

TEST_F(ImageKernels, StatisticsOfKnownImages) {
  HistogramConfig c;  // local_atomic defaults
  ImageHistogrammer h(*compute_, c);
  // A gray ramp 0..255 repeated: mean 127.5, min 0, max 255, median 127.
  HostImage ramp(ImageLayout{256, 4, 1});
  for (size_t i = 0; i < ramp.data.size(); ++i) ramp.data[i] = static_cast<uint8_t>(i % 256);
  const ImageHistogramResult r = histogram(h, ramp);
  ASSERT_EQ(r.statistics.channels.size(), 1u);
  const ChannelStatistics& s = r.statistics.channels[0];
  EXPECT_EQ(s.min, 0);
  EXPECT_EQ(s.max, 255);
  EXPECT_DOUBLE_EQ(s.mean, 127.5);
  EXPECT_NEAR(s.stddev, std::sqrt((256.0 * 256.0 - 1.0) / 12.0), 1e-12);
  EXPECT_EQ(s.median, 127);
  EXPECT_EQ(s.percentiles[0], 2);   // 1%: rank ceil(10.24) = 11 of 1024 -> value 2
  EXPECT_EQ(s.percentiles[6], 253);  // 99%: rank ceil(1013.76) = 1014 -> value 253
  expectHistogramMatches(r, ramp, "ramp");
  // RGBA with a luminance: pure red, green, blue and white quarters.
  HostImage quads(ImageLayout{2, 2, 4});
  const uint8_t colours[4][4] = {{255, 0, 0, 255}, {0, 255, 0, 255}, {0, 0, 255, 0}, {255, 255, 255, 128}};
  for (int i = 0; i < 4; ++i) std::copy_n(colours[i], 4, quads.data.data() + i * 4);
  const ImageHistogramResult q = histogram(h, quads);
  expectHistogramMatches(q, quads, "quads");
  EXPECT_EQ(q.histogram.channel(4)[77], 1u);   // red
  EXPECT_EQ(q.histogram.channel(4)[149], 1u);  // green
  EXPECT_EQ(q.histogram.channel(4)[29], 1u);   // blue
  EXPECT_EQ(q.histogram.channel(4)[255], 1u);  // white
}

TEST_F(ImageKernels, DeviceBuffersCanBeUsedDirectly) {
  // run() into caller-owned buffers, runStatistics() from them, and the events.
  HistogramConfig c;
  ImageHistogrammer h(*compute_, c);
  const HostImage in = randomHostImage({333, 77, 4}, 21);
  const Buffer src = upload(in);
  Buffer bins(compute_->context(), CL_MEM_READ_WRITE, histogramBinCount(in.layout) * 4);
  Buffer moments(compute_->context(), CL_MEM_READ_WRITE, 5 * kMomentsPerChannel * 8);
  ImageOpEvents events;
  h.run(compute_->queue(), src.get(), in.layout, bins.get(), &events);
  h.runStatistics(compute_->queue(), bins.get(), 4, moments.get(), &events);
  ASSERT_EQ(events.commands.size(), 3u);
  EXPECT_EQ(events.commands[0].label, "histogram");
  EXPECT_EQ(events.commands[1].label, "merge");
  EXPECT_EQ(events.commands[2].label, "statistics");
  EXPECT_GE(events.elapsedMs(), events.commandMs("merge"));
  std::vector<uint32_t> got(histogramBinCount(in.layout));
  compute_->queue().readBuffer(bins, 0, got.size() * 4, got.data());
  EXPECT_EQ(got, histogramReference(in).bins);
  std::vector<cl_ulong> m(5 * kMomentsPerChannel);
  compute_->queue().readBuffer(moments, 0, m.size() * 8, m.data());
  const ImageStatistics ref = statisticsReference(in);
  for (int ch = 0; ch < 5; ++ch) {
    const cl_ulong* got = m.data() + ch * kMomentsPerChannel;
    EXPECT_EQ(got[0], ref.channels[ch].count);
    EXPECT_EQ(got[1], ref.channels[ch].sum);
    EXPECT_EQ(got[3], static_cast<cl_ulong>(ref.channels[ch].min));
    EXPECT_EQ(got[4], static_cast<cl_ulong>(ref.channels[ch].max));
    for (size_t i = 0; i < kImagePercentiles.size(); ++i)  // the kernel's scan, against sorted pixels
      EXPECT_EQ(got[5 + i], static_cast<cl_ulong>(ref.channels[ch].percentiles[i]))
          << "channel " << ch << ", p" << kImagePercentiles[i];
  }
}

TEST_F(ImageKernels, CopyKernelCopiesAnyByteCount) {
  ImageCopier copier(*compute_);
  for (size_t bytes : {size_t{1}, size_t{15}, size_t{16}, size_t{4099 * 3 + 5}}) {
    const HostImage in = randomHostImage({static_cast<int>(bytes), 1, 1}, 4);
    const Buffer src = upload(in);
    Buffer dst = garbage(in.layout);
    ImageOpEvents events;
    copier.run(compute_->queue(), src.get(), dst.get(), bytes, &events);
    EXPECT_EQ(download(dst, in.layout), in) << bytes << " bytes";
    EXPECT_EQ(events.commands.size(), 1u);
  }
}

// ---- refusals with a reason ------------------------------------------------------------------------

template <typename Runner, typename Config>
std::string refusal(ComputeContext& compute, const Config& config) {
  try {
    Runner runner(compute, config);
    return {};
  } catch (const ImageConfigError& e) {
    return e.what();
  }
}

TEST_F(ImageKernels, InvalidConfigurationsAreRefusedWithAReasonNotALaunchError) {
  TransposeConfig t = transposeConfig("tiled_padded");
  t.tile = 24;
  EXPECT_NE(refusal<ImageTransposer>(*compute_, t).find("tile 24 is not offered"), std::string::npos);
  t.tile = 32;
  t.rowsPerItem = 3;
  EXPECT_NE(refusal<ImageTransposer>(*compute_, t).find("3 rows"), std::string::npos);
  t = transposeConfig("block4x4");
  t.tile = 32;
  t.workGroup = 256;  // 64 blocks of 4x4 in a 32x32 tile
  EXPECT_NE(refusal<ImageTransposer>(*compute_, t).find("64 4x4 blocks"), std::string::npos);
  t = transposeConfig("naive");
  t.workGroupX = 256, t.workGroupY = 32;  // 8192 work-items: above every device's limit here
  EXPECT_NE(refusal<ImageTransposer>(*compute_, t).find("exceeds the device's maximum"), std::string::npos);
  t.variant = "zigzag";
  EXPECT_NE(refusal<ImageTransposer>(*compute_, t).find("unknown"), std::string::npos);

  RotateConfig r;
  r.variant = "forward";
  r.pixelsPerItem = 4;
  EXPECT_NE(refusal<ImageRotator>(*compute_, r).find("not offered"), std::string::npos);
  r.variant = "bilinear";
  r.workGroupX = 12;
  EXPECT_NE(refusal<ImageRotator>(*compute_, r).find("width 12"), std::string::npos);

  HistogramConfig h;
  h.variant = "subhist_uchar";
  h.workGroup = 32;
  h.pixelsPerItem = 256;
  EXPECT_NE(refusal<ImageHistogrammer>(*compute_, h).find("overflow"), std::string::npos);
  h.pixelsPerItem = 255;
  h.workGroup = 100;
  EXPECT_NE(refusal<ImageHistogrammer>(*compute_, h).find("work-group size 100"), std::string::npos);
  h.variant = "local_atomic";
  h.workGroup = 256;
  h.copies = 3;
  EXPECT_NE(refusal<ImageHistogrammer>(*compute_, h).find("3 histogram copies"), std::string::npos);
}

// The uchar sub-histogram kernels read a bin row in a rotated order masked with
// the row's length - 1, which visits every word only when WG is a power of two
// (every work-group the config check offers is). A build for any other WG
// (options written by hand) stops with the reason instead of counting wrong.
TEST_F(ImageKernels, SubHistogramKernelsRefuseToBuildForAWorkGroupNotAPowerOfTwo) {
  for (const char* variant : {"-DSUBHIST -DPIXELS_PER_ITEM=255", "-DSUBHIST_FLUSH"}) {
    const std::string options = std::string("-DCHANNELS=1 -DWG=96 ") + variant;
    const auto build = compute_->buildKernelFile(kHistogramKernelFile, options);
    EXPECT_FALSE(build->ok()) << options;
    EXPECT_NE(build->log.find("power of two"), std::string::npos) << options << "\n" << build->log;
  }
  for (const auto& v : imageHistogramVariants())
    for (int wg : v.workGroups) EXPECT_EQ(wg & (wg - 1), 0) << v.name << " offers a work-group of " << wg;
}

TEST_F(ImageKernels, BadLayoutsAndBuffersAreRefusedBeforeAnyLaunch) {
  ImageTransposer t(*compute_, transposeConfig("naive"));
  const HostImage in = randomHostImage({10, 6, 4}, 1);
  const Buffer src = upload(in);
  Buffer small(compute_->context(), CL_MEM_READ_WRITE, 16);
  auto reason = [](auto&& call) -> std::string {
    try {
      call();
      return {};
    } catch (const ImageConfigError& e) {
      return e.what();
    }
  };
  // wrong output layout, too small an output buffer, 3 channels, empty image
  EXPECT_NE(reason([&] { t.run(compute_->queue(), src.get(), in.layout, small.get(), in.layout); }).find("transpose of"),
            std::string::npos);
  EXPECT_NE(reason([&] { t.run(compute_->queue(), src.get(), in.layout, small.get(), transposedLayout(in.layout)); })
                .find("bytes"),
            std::string::npos);
  EXPECT_NE(reason([&] { t.run(compute_->queue(), src.get(), {10, 6, 3}, small.get(), {6, 10, 3}); }).find("channels"),
            std::string::npos);
  EXPECT_NE(reason([&] { t.run(compute_->queue(), src.get(), {0, 6, 1}, small.get(), {6, 0, 1}); }).find("empty"),
            std::string::npos);
  RotateParams p;
  p.degrees = 45.0;
  p.canvas = RotateCanvas::Expand;
  ImageRotator r(*compute_, RotateConfig{});
  EXPECT_NE(reason([&] { r.run(compute_->queue(), src.get(), in.layout, small.get(), in.layout, p); }).find("rotated output"),
            std::string::npos);
  // RGBA sub-histograms of 128 work-items x 5 channels x 256 bytes do not fit 48 KB.
  HistogramConfig h;
  h.variant = "subhist_uchar";
  h.workGroup = 128;
  DeviceDescriptor gpu;
  gpu.maxWorkGroupSize = 1024;
  gpu.localMemBytes = 48 * 1024;
  EXPECT_NE(imageHistogramConfigProblem(h, gpu, 4).find("local memory"), std::string::npos);
  EXPECT_EQ(imageHistogramConfigProblem(h, gpu, 1), "");
}

// ---- the one runner (compute/image_op_runner.h) ---------------------------------------------------

// The first configuration of `variant` among `all` whose kernels build for this
// channel count (a compiled kernel may allow fewer work-items than one asks for).
template <class Runner, class Config>
std::unique_ptr<Runner> firstBuilt(ComputeContext& compute, const std::vector<Config>& all, const std::string& variant,
                                   int channels) {
  for (const Config& c : all) {
    if (c.variant != variant) continue;
    try {
      auto runner = std::make_unique<Runner>(compute, c);
      runner->prepare(channels);
      return runner;
    } catch (const ImageConfigError& e) {
      if (std::string(e.what()).find("CL_KERNEL_WORK_GROUP_SIZE") == std::string::npos) throw;
    }
  }
  return nullptr;
}

// The commands a first run records, read from the operation's launch description:
// its steps' labels in order, an "upload" before a step that reads the source image.
template <class Launch>
std::vector<std::string> describedCommands(const typename Launch::Config& c, const ImageOpBuffers& io,
                                           const typename Launch::Params& params, const DeviceDescriptor& device) {
  ImageOpBuild labelsOnly;
  labelsOnly.kernels.resize(3);  // the steps read the built kernels' limits, not their labels
  std::vector<std::string> labels;
  for (const ImageOpStep& step : Launch::steps(c, io, params, labelsOnly, device)) {
    for (const ImageKernelArg& arg : step.args)
      if (std::holds_alternative<SourceImage>(arg)) labels.push_back("upload");
    labels.push_back(step.label);
  }
  return labels;
}

std::vector<std::string> recordedCommands(const ImageOpEvents& events) {
  std::vector<std::string> labels;
  for (const ImageOpCommand& c : events.commands) labels.push_back(c.label);
  return labels;
}

// Every variant of each image operation's descriptor runs through the one runner on
// an awkward size (odd, no whole tile), in gray and RGBA: what it writes is its CPU
// reference's, and the commands it records are the steps its launch description gives.
TEST_F(ImageKernels, EveryDescriptorVariantRunsThroughTheOneRunnerAndMatchesItsReference) {
  const DeviceDescriptor& device = compute_->device();
  int ran = 0;
  auto note = [](const std::string& op, const std::string& variant, int channels) {
    std::cout << "not run on this device: " << op << " " << variant << (channels == 1 ? " gray" : " RGBA") << "\n";
  };
  for (int channels : imageChannelCounts()) {
    const HostImage in = randomHostImage({37, 23, channels}, 21);
    const Buffer src = upload(in);
    RotateParams turn;
    turn.degrees = 30.0;
    turn.canvas = RotateCanvas::Expand;
    for (const KernelOpVariant& v : rotateOp().variants) {
      auto r = firstBuilt<ImageRotator>(*compute_, allRotateConfigs(device, channels), v.name, channels);
      if (!r) {
        note("rotate", v.name, channels);
        continue;
      }
      const ImageLayout outLayout = rotatedLayout(in.layout, turn);
      Buffer dst = garbage(outLayout);
      ImageOpEvents events;
      r->run(compute_->queue(), src.get(), in.layout, dst.get(), outLayout, turn, &events);
      const std::string what = describeRotateConfig(r->config()) + (channels == 1 ? " gray" : " RGBA");
      const int tolerance = r->variant().exact ? 0 : r->variant().image ? imageBilinearTolerance(device) : 1;
      EXPECT_EQ(difference(download(dst, outLayout), rotateReference(in, turn, r->variant().sampling), tolerance), "") << what;
      EXPECT_EQ(recordedCommands(events),
                describedCommands<RotateLaunch>(r->config(), {src.get(), in.layout, dst.get(), outLayout}, turn, device))
          << what;
      ++ran;
    }
    for (const KernelOpVariant& v : transposeOp().variants) {
      auto t = firstBuilt<ImageTransposer>(*compute_, allTransposeConfigs(device, channels), v.name, channels);
      if (!t) {
        note("transpose", v.name, channels);
        continue;
      }
      const ImageLayout outLayout = transposedLayout(in.layout);
      Buffer dst = garbage(outLayout);
      ImageOpEvents events;
      t->run(compute_->queue(), src.get(), in.layout, dst.get(), outLayout, &events);
      const std::string what = describeTransposeConfig(t->config()) + (channels == 1 ? " gray" : " RGBA");
      EXPECT_EQ(difference(download(dst, outLayout), transposeReference(in)), "") << what;
      EXPECT_EQ(recordedCommands(events),
                describedCommands<TransposeLaunch>(t->config(), {src.get(), in.layout, dst.get(), outLayout}, {}, device))
          << what;
      ++ran;
    }
    for (const KernelOpVariant& v : histogramOp().variants) {
      auto h = firstBuilt<ImageHistogrammer>(*compute_, allHistogramConfigs(device, channels), v.name, channels);
      if (!h) {
        note("histogram", v.name, channels);
        continue;
      }
      ImageOpEvents events;
      const std::string what = describeHistogramConfig(h->config()) + (channels == 1 ? " gray" : " RGBA");
      expectHistogramMatches(h->compute(compute_->queue(), src.get(), in.layout, &events), in, what);
      std::vector<std::string> described =
          describedCommands<HistogramLaunch>(h->config(), {src.get(), in.layout, h->binsBuffer(), {}}, {}, device);
      for (const ImageOpStep& step : HistogramLaunch::statisticsSteps(h->binsBuffer(), channels, nullptr))
        described.push_back(step.label);
      EXPECT_EQ(recordedCommands(events), described) << what;
      ++ran;
    }
  }
  // Every operation has variants every device runs (buffer rotations, the naive
  // transpose, local_atomic): a device that ran none of them did not test the runner.
  EXPECT_GE(ran, 2 * 3);
}

// ---- tables and helpers (no device) -------------------------------------------------------------------

DeviceDescriptor fakeH200() {
  DeviceDescriptor gpu;
  gpu.name = "NVIDIA H200";
  gpu.kind = DeviceKind::Gpu;
  gpu.computeUnits = 132;
  gpu.maxWorkGroupSize = 1024;
  gpu.maxWorkItemSizes = {1024, 1024, 64};
  gpu.localMemBytes = 48 * 1024;
  // What NVIDIA's driver 580 reports: OpenCL 3.0, fences of work-group scope only.
  gpu.vendor = "NVIDIA Corporation";
  gpu.deviceVersion = "OpenCL 3.0 CUDA";
  gpu.atomicFenceCapabilities = 0x13;
  return gpu;
}

TEST(ImageVariantTables, TheDefaultRotationIsTheSamplerOneWhereImagesWork) {
  DeviceDescriptor gpu = fakeH200();
  for (int channels : imageChannelCounts()) {
    const RotateConfig d = defaultRotateConfig(channels, gpu);
    EXPECT_EQ(describeRotateConfig(d), "bilinear_image wg=32x8 ppi=2x4");
    EXPECT_EQ(imageRotateConfigProblem(d, gpu, channels), "");
  }
  gpu.maxWorkGroupSize = 128;  // neither 32x8 nor 16x16 fits: a smaller bilinear configuration that does
  gpu.maxWorkItemSizes = {128, 128, 64};
  const RotateConfig small = defaultRotateConfig(1, gpu);
  EXPECT_EQ(imageRotateConfigProblem(small, gpu, 1), "") << describeRotateConfig(small);
  EXPECT_NE(small.variant.find("bilinear"), std::string::npos);
  EXPECT_LE(small.workGroupX * small.workGroupY, 128);
}

TEST(ImageVariantTables, TheFusedHistogramNeedsDeviceScopeFences) {
  HistogramConfig fused;
  fused.variant = "local_atomic_fused";
  fused.copies = 8;
  fused.groupsPerComputeUnit = 2;
  DeviceDescriptor gpu = fakeH200();
  EXPECT_EQ(imageHistogramConfigProblem(fused, gpu, 1), "") << "NVIDIA compiles the fence to membar.gl";
  EXPECT_EQ(deviceScopeFenceLanguageOption(gpu), "-cl-std=CL3.0");
  gpu.vendor = "Other";
  EXPECT_NE(imageHistogramConfigProblem(fused, gpu, 1).find("device scope"), std::string::npos);
  gpu.atomicFenceCapabilities = CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_ORDER_ACQ_REL |
                                CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP | CL_DEVICE_ATOMIC_SCOPE_DEVICE;
  EXPECT_EQ(imageHistogramConfigProblem(fused, gpu, 4), "");
  gpu.deviceVersion = "OpenCL 2.1 AMD-APP";
  gpu.atomicFenceCapabilities = 0;  // not asked before 3.0: 2.x has device-scope fences
  EXPECT_EQ(imageHistogramConfigProblem(fused, gpu, 1), "");
  EXPECT_EQ(deviceScopeFenceLanguageOption(gpu), "-cl-std=CL2.0");
  gpu.deviceVersion = "OpenCL 1.2 pocl";
  const std::string why = imageHistogramConfigProblem(fused, gpu, 1);
  EXPECT_NE(why.find("OpenCL 2.0 or later"), std::string::npos) << why;
  EXPECT_NE(why.find("OpenCL 1.2 pocl"), std::string::npos) << why;
  gpu.deviceVersion = "garbage";
  EXPECT_NE(imageHistogramConfigProblem(fused, gpu, 1), "");
  HistogramConfig plain = fused;
  plain.variant = "local_atomic";
  EXPECT_EQ(imageHistogramConfigProblem(plain, gpu, 1), "") << "the merge-kernel variant needs no fence";
  // The default: fused with 1024-item groups where it can, the portable one where it cannot.
  EXPECT_EQ(defaultHistogramConfig(1, gpu), defaultHistogramConfig(1)) << "no fences: the merge kernel";
  const DeviceDescriptor h200 = fakeH200();
  for (int channels : imageChannelCounts()) {
    const HistogramConfig best = defaultHistogramConfig(channels, h200);
    EXPECT_EQ(best.variant, "local_atomic_fused");
    EXPECT_EQ(best.workGroup, 1024);
    EXPECT_EQ(imageHistogramConfigProblem(best, h200, channels), "");
  }
  DeviceDescriptor small = fakeH200();
  small.maxWorkGroupSize = 256;
  EXPECT_EQ(defaultHistogramConfig(1, small).workGroup, 256);
  EXPECT_EQ(defaultHistogramConfig(1, small).variant, "local_atomic_fused");
}

TEST(ImageVariantTables, TheHistogramTestConfigurationsFitAGpuToo) {
  // histogramRunsHere fails a refused configuration: the list must fit the GPU
  // these tests also run on (48 KB of local memory), not PoCL alone. (The list's
  // last entry, the default for the device at hand, is chosen to fit that device.)
  const DeviceDescriptor gpu = fakeH200();
  for (int channels : imageChannelCounts()) {
    std::vector<HistogramConfig> configs = histogramConfigs(channels);
    if (test::sharedTestCompute()) configs.pop_back();
    for (const HistogramConfig& c : configs)
      EXPECT_EQ(imageHistogramConfigProblem(c, gpu, channels), "") << describeHistogramConfig(c) << ", " << channels;
  }
}

TEST(ImageVariantTables, RotationBlocksAreCheckedAndDescribed) {
  const DeviceDescriptor gpu = fakeH200();
  RotateConfig blocked{"bilinear_image", 8, 32, 2, 2};
  EXPECT_EQ(describeRotateConfig(blocked), "bilinear_image wg=8x32 ppi=2x2");
  EXPECT_NE(imageRotateBuildOptions(blocked, 4).find("-DROWS_PER_ITEM=2"), std::string::npos);
  EXPECT_EQ(imageRotateBuildOptions(RotateConfig{"bilinear_image", 8, 32, 4, 1}, 4).find("ROWS_PER_ITEM"),
            std::string::npos);  // one row: the options (and cached binaries) of before
  EXPECT_EQ(describeRotateConfig(RotateConfig{"bilinear", 16, 16, 4}), "bilinear wg=16x16 ppi=4");
  EXPECT_EQ(imageRotateConfigProblem(blocked, gpu, 4), "");
  EXPECT_EQ(imageRotateConfigProblem(RotateConfig{"bilinear", 16, 16, 4, 2}, gpu, 4),
            "2 rows per work-item are not offered by the bilinear variant (1)");
  EXPECT_EQ(imageRotateConfigProblem(RotateConfig{"bilinear_image", 16, 16, 4, 3}, gpu, 4),
            "3 rows per work-item are not offered by the bilinear_image variant (1, 2, 4)");
  const auto all = allRotateConfigs(gpu, 4);
  EXPECT_TRUE(std::find(all.begin(), all.end(), blocked) != all.end());
  // What the UI and the scene run when a variant does not offer the chosen block.
  int ppi = 2, rows = 4;
  fitRotateBlock(*findImageRotateVariant("bilinear_image"), ppi, rows);
  EXPECT_EQ(std::pair(ppi, rows), std::pair(2, 4));
  fitRotateBlock(*findImageRotateVariant("bilinear"), ppi, rows);
  EXPECT_EQ(std::pair(ppi, rows), std::pair(4, 1));
  ppi = 2;
  fitRotateBlock(*findImageRotateVariant("forward"), ppi, rows);
  EXPECT_EQ(std::pair(ppi, rows), std::pair(1, 1));
}

// A 2D work-group is held to the device's limit in each dimension, not only to
// the items in all: a device may take 1024 items per group but only 4 along y.
TEST(ImageVariantTables, TwoDimensionalWorkGroupsAreCheckedInBothDimensions) {
  DeviceDescriptor gpu = fakeH200();
  gpu.maxWorkItemSizes = {1024, 4, 1};
  TransposeConfig tiled;
  tiled.variant = "tiled";
  tiled.tile = 32;
  tiled.rowsPerItem = 4;  // reqd_work_group_size(32, 8, 1)
  EXPECT_EQ(imageTransposeConfigProblem(tiled, gpu, 1),
            "work-group 32x8 exceeds the device's maximum work-item sizes 1024x4");
  tiled.rowsPerItem = 8;  // 32 x 4
  EXPECT_EQ(imageTransposeConfigProblem(tiled, gpu, 1), "");
  for (const TransposeConfig& c : allTransposeConfigs(gpu, 4)) {
    if (findImageTransposeVariant(c.variant)->kind == TransposeKind::Tiled) {
      EXPECT_LE(c.tile / c.rowsPerItem, 4) << describeTransposeConfig(c);
    }
  }
  RotateConfig rotate{"bilinear", 16, 8, 4, 1};
  EXPECT_EQ(imageRotateConfigProblem(rotate, gpu, 4),
            "work-group 16x8 exceeds the device's maximum work-item sizes 1024x4");
  rotate.workGroupX = 64;
  rotate.workGroupY = 4;
  EXPECT_EQ(imageRotateConfigProblem(rotate, gpu, 4), "");
  // And the first dimension on its own: 32 wide on a device that takes 16.
  gpu.maxWorkItemSizes = {16, 1024, 64};
  tiled.rowsPerItem = 4;
  EXPECT_EQ(imageTransposeConfigProblem(tiled, gpu, 4),
            "work-group 32x8 exceeds the device's maximum work-item sizes 16x1024");
  // The histogram's statistics kernel runs 256 items along x.
  gpu.maxWorkItemSizes = {128, 1024, 64};
  HistogramConfig histogram;
  histogram.workGroup = 128;
  const std::string why = imageHistogramConfigProblem(histogram, gpu, 1);
  EXPECT_NE(why.find("statistics reduction needs work-groups of 256"), std::string::npos) << why;
}

TEST(ImageVariantTables, CountingFewerChannelsOffersMoreHistogramCopies) {
  const DeviceDescriptor gpu = fakeH200();
  auto has16Copies = [](const std::vector<HistogramConfig>& list) {
    return std::any_of(list.begin(), list.end(), [](const HistogramConfig& c) {
      return c.variant == "local_atomic" && c.copies == 16 && c.workGroup == 1024;
    });
  };
  EXPECT_FALSE(has16Copies(allHistogramConfigs(gpu, 4)));  // 5 channels x 16 copies = 80 KB
  const auto rgb = allHistogramConfigs(gpu, 4, kRgbHistogramChannels);
  EXPECT_TRUE(has16Copies(rgb));  // 3 x 16 = 48 KB
  for (const auto& c : rgb) {
    EXPECT_EQ(c.countedChannels, kRgbHistogramChannels);
    EXPECT_EQ(imageHistogramConfigProblem(c, gpu, 4), "") << describeHistogramConfig(c);
  }
}

TEST(ImageVariantTables, EveryListedConfigurationIsValidAndDescribed) {
  const DeviceDescriptor gpu = fakeH200();
  for (int channels : imageChannelCounts()) {
    const auto rotate = allRotateConfigs(gpu, channels);
    const auto transpose = allTransposeConfigs(gpu, channels);
    const auto histogram = allHistogramConfigs(gpu, channels);
    EXPECT_GT(rotate.size(), 50u);
    EXPECT_GT(transpose.size(), 30u);
    EXPECT_GT(histogram.size(), 20u);
    for (const auto& c : rotate) {
      EXPECT_EQ(imageRotateConfigProblem(c, gpu, channels), "") << describeRotateConfig(c);
      EXPECT_NE(imageRotateBuildOptions(c, channels).find("-DCHANNELS=" + std::to_string(channels)), std::string::npos);
    }
    for (const auto& c : transpose) EXPECT_EQ(imageTransposeConfigProblem(c, gpu, channels), "") << describeTransposeConfig(c);
    for (const auto& c : histogram) EXPECT_EQ(imageHistogramConfigProblem(c, gpu, channels), "") << describeHistogramConfig(c);
    EXPECT_EQ(imageTransposeConfigProblem(defaultTransposeConfig(channels), gpu, channels), "");
    EXPECT_EQ(imageHistogramConfigProblem(HistogramConfig{}, gpu, channels), "");
    EXPECT_EQ(imageHistogramConfigProblem(defaultHistogramConfig(channels), gpu, channels), "");
    EXPECT_EQ(imageRotateConfigProblem(RotateConfig{}, gpu, channels), "");
  }
  // Every variant of every table appears in the sweeps.
  for (const auto& v : imageTransposeVariants()) {
    bool seen = false;
    for (int channels : imageChannelCounts())
      for (const auto& c : allTransposeConfigs(gpu, channels)) seen |= c.variant == v.name;
    EXPECT_TRUE(seen) << v.name;
  }
  // Local memory: a 128x128 RGBA tile is 64 KB.
  TransposeConfig big;
  big.variant = "block4x4";
  big.tile = 128;
  big.workGroup = 256;
  EXPECT_EQ(imageTransposeLocalMemoryBytes(big, 4), 128u * 128u * 4u);
  EXPECT_NE(imageTransposeConfigProblem(big, gpu, 4).find("local memory"), std::string::npos);
  EXPECT_EQ(imageTransposeConfigProblem(big, gpu, 1), "");
  TransposeConfig padded;
  padded.variant = "tiled_padded";
  padded.tile = 32;
  EXPECT_EQ(imageTransposeLocalMemoryBytes(padded, 1), 32u * 33u);
  EXPECT_EQ(describeTransposeConfig(padded), "tiled_padded T=32 rows=4");
  EXPECT_EQ(imageTransposeBuildOptions(padded, 4), "-DCHANNELS=4 -DTILED -DTILE=32 -DROWS=4");
  HistogramConfig sub;
  sub.variant = "subhist_uchar";
  sub.workGroup = 64;
  EXPECT_EQ(imageHistogramBuildOptions(sub, 1), "-DCHANNELS=1 -DWG=64 -DSUBHIST -DPIXELS_PER_ITEM=255");
  EXPECT_NE(imageHistogramConfigProblem(sub, gpu, 3).find("channels"), std::string::npos);
}

TEST(ImageHelpers, LuminancePercentilesAndBytes) {
  EXPECT_EQ(imageLuminance(0, 0, 0), 0);
  EXPECT_EQ(imageLuminance(255, 255, 255), 255);
  EXPECT_EQ(imageLuminance(255, 0, 0), 77);
  EXPECT_EQ(imageLuminance(0, 255, 0), 149);
  EXPECT_EQ(imageLuminance(0, 0, 255), 29);
  EXPECT_EQ(imageLuminance(100, 100, 100), 100);
  uint32_t bins[256] = {};
  bins[10] = 1;
  bins[20] = 2;
  bins[30] = 1;
  EXPECT_EQ(histogramPercentile(bins, 0), 10);
  EXPECT_EQ(histogramPercentile(bins, 25), 10);
  EXPECT_EQ(histogramPercentile(bins, 50), 20);
  EXPECT_EQ(histogramPercentile(bins, 75), 20);
  EXPECT_EQ(histogramPercentile(bins, 100), 30);
  const uint64_t m[kMomentsPerChannel] = {4, 80, 1800, 10, 30, 10, 10, 10, 20, 20, 30, 30};
  const ChannelStatistics s = channelStatistics(m);
  EXPECT_DOUBLE_EQ(s.mean, 20.0);
  EXPECT_DOUBLE_EQ(s.stddev, std::sqrt(50.0));
  EXPECT_EQ(s.median, 20);
  EXPECT_EQ(s.percentiles[5], 30);
  EXPECT_EQ(histogramPercentileOptions(), " -DPERCENTILES=1,5,25,50,75,95,99 -DPERCENTILE_COUNT=7");
  const ImageLayout rgba{8192, 8192, 4};
  EXPECT_EQ(imageOpBytes(ImageOp::Copy, rgba), 2u * 8192 * 8192 * 4);
  EXPECT_EQ(imageOpBytes(ImageOp::Transpose, rgba, transposedLayout(rgba)), 2u * 8192 * 8192 * 4);
  EXPECT_EQ(imageOpBytes(ImageOp::Histogram, {8192, 8192, 1}), 8192u * 8192);
  EXPECT_DOUBLE_EQ(imageGigabytesPerSecond(2000000, 1.0), 2.0);
  EXPECT_NE(imageLayoutProblem({70000, 70000, 1}).find("32-bit"), std::string::npos);
  EXPECT_EQ(imageLayoutProblem({4099, 3, 4}), "");
}

}  // namespace
}  // namespace ks
