// The build option strings of every operation stay the same, character for
// character, while the option builders move onto the descriptors' macros (issue 21,
// item 1): the program binary cache, the kernel info the Profiler shows and the
// `--dump-program` files are keyed by these strings. The builders as they were
// before that change are written out here once, as the reference, and compared with
// the real ones over every value each variant offers (both pixel sizes, the other
// switches). No OpenCL device needed.
#include <gtest/gtest.h>

#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "compute/config_parameters.h"
#include "compute/image_histogram.h"
#include "compute/image_rotate.h"
#include "compute/image_transpose.h"
#include "compute/kernel_op.h"
#include "compute/nbody_variants.h"

namespace ks {
namespace {

// ---- the builders as they were (reference) ---------------------------------------------------

std::string rotateOptionsBefore(const RotateConfig& config, int channels) {
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

std::string transposeOptionsBefore(const TransposeConfig& c, int channels) {
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

std::string histogramOptionsBefore(const HistogramConfig& c, int channels) {
  const std::string name = c.variant;
  const ImageHistogramVariant* v = findImageHistogramVariant(name);
  std::ostringstream o;
  o << "-DCHANNELS=" << channels << " -DWG=" << c.workGroup;
  if (channels == 4 && c.countedChannels != kAllHistogramChannels) o << " -DCOUNT_MASK=" << c.countedChannels;
  if (v && name == "subhist_uchar") o << " -DSUBHIST -DPIXELS_PER_ITEM=" << c.pixelsPerItem;
  else if (v && name == "subhist_flush") o << " -DSUBHIST_FLUSH";
  else o << " -DLOCAL_ATOMIC -DCOPIES=" << c.copies;
  if (v && v->fused) o << " -DFUSED";
  return o.str();
}

std::string nbodyOptionsBefore(const NBodyConfig& c) {
  std::ostringstream o;
  o << "-DTILE=" << c.workGroup << " -DUNROLL=" << c.unroll << " -DBODIES_PER_ITEM=" << c.bodiesPerItem
    << " -DSPLIT=" << c.split;
  if (c.fp64) o << " -DUSE_FP64";
  if (c.nativeRsqrt && !c.fp64) o << " -DUSE_NATIVE_RSQRT";
  if (c.fastRelaxedMath) o << " -cl-fast-relaxed-math";
  if (c.denormsAreZero) o << " -cl-denorms-are-zero";
  if (!c.extraOptions.empty()) o << ' ' << c.extraOptions;
  return o.str();
}

// ---- every configuration of the descriptor's values --------------------------------------------

// Calls `visit` with each combination of the variant's values (channels left out:
// the builders take it apart), set in a copy of `base`. Returns how many.
template <class Config>
size_t forEachConfiguration(const KernelOpVariant& v, const std::vector<ConfigParameter<Config>>& members,
                            Config base, const std::function<void(const Config&)>& visit, size_t index = 0) {
  if (index == v.parameters.size()) {
    visit(base);
    return 1;
  }
  const VariantParameter& vp = v.parameters[index];
  const ConfigParameter<Config>* member = nullptr;
  for (const ConfigParameter<Config>& m : members)
    if (vp.name == m.name) member = &m;
  if (!member) return forEachConfiguration(v, members, base, visit, index + 1);  // channels
  size_t count = 0;
  for (int value : vp.values) {
    base.*(member->member) = value;
    count += forEachConfiguration(v, members, base, visit, index + 1);
  }
  return count;
}

TEST(BuildOptionStrings, RotateStayAsTheyWere) {
  size_t count = 0;
  for (const KernelOpVariant& v : rotateOp().variants) {
    RotateConfig base;
    base.variant = v.name;
    for (int channels : imageChannelCounts())
      count += forEachConfiguration<RotateConfig>(v, rotateConfigParameters(), base, [&](const RotateConfig& c) {
        EXPECT_EQ(imageRotateBuildOptions(c, channels), rotateOptionsBefore(c, channels)) << describeRotateConfig(c);
      });
  }
  EXPECT_GT(count, rotateOp().variants.size() * 2);
}

TEST(BuildOptionStrings, TransposeStayAsTheyWere) {
  size_t count = 0;
  for (const KernelOpVariant& v : transposeOp().variants) {
    TransposeConfig base;
    base.variant = v.name;
    for (int channels : imageChannelCounts())
      count += forEachConfiguration<TransposeConfig>(v, transposeConfigParameters(), base, [&](const TransposeConfig& c) {
        EXPECT_EQ(imageTransposeBuildOptions(c, channels), transposeOptionsBefore(c, channels))
            << describeTransposeConfig(c);
      });
  }
  EXPECT_GT(count, transposeOp().variants.size() * 2);
}

TEST(BuildOptionStrings, HistogramStayAsTheyWere) {
  size_t count = 0;
  for (const KernelOpVariant& v : histogramOp().variants) {
    for (int mask : {kAllHistogramChannels, 0x1, 0x15}) {
      HistogramConfig base;
      base.variant = v.name;
      base.countedChannels = mask;
      for (int channels : imageChannelCounts())
        count += forEachConfiguration<HistogramConfig>(v, histogramConfigParameters(), base,
                                                       [&](const HistogramConfig& c) {
                                                         EXPECT_EQ(imageHistogramBuildOptions(c, channels),
                                                                   histogramOptionsBefore(c, channels))
                                                             << describeHistogramConfig(c);
                                                       });
    }
  }
  EXPECT_GT(count, histogramOp().variants.size() * 6);
}

TEST(BuildOptionStrings, NBodyStayAsTheyWere) {
  size_t count = 0;
  for (const KernelOpVariant& v : nbodyOp().variants) {
    for (int switches = 0; switches < 16; ++switches) {
      NBodyConfig base;
      base.variant = v.name;
      base.fp64 = switches & 1;
      base.nativeRsqrt = switches & 2;
      base.fastRelaxedMath = switches & 4;
      base.denormsAreZero = switches & 8;
      base.extraOptions = switches == 5 ? "-cl-nv-maxrregcount=64" : "";
      count += forEachConfiguration<NBodyConfig>(v, nbodyConfigParameters(), base, [&](const NBodyConfig& c) {
        EXPECT_EQ(nbodyBuildOptions(c), nbodyOptionsBefore(c)) << describeNBodyConfig(c);
      });
    }
  }
  EXPECT_GT(count, nbodyOp().variants.size() * 16);
}

// A variant name the tables do not know still gets the options it got before
// (the builders are called before the checks in some paths).
TEST(BuildOptionStrings, UnknownVariantsStayAsTheyWere) {
  RotateConfig r;
  r.variant = "sideways";
  r.rowsPerItem = 2;
  EXPECT_EQ(imageRotateBuildOptions(r, 4), rotateOptionsBefore(r, 4));
  TransposeConfig t;
  t.variant = "sideways";
  EXPECT_EQ(imageTransposeBuildOptions(t, 1), transposeOptionsBefore(t, 1));
  HistogramConfig h;
  h.variant = "sideways";
  EXPECT_EQ(imageHistogramBuildOptions(h, 4), histogramOptionsBefore(h, 4));
}

}  // namespace
}  // namespace ks
