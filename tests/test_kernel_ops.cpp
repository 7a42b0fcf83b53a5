// The operations' descriptors (compute/kernel_op.h) against what reads them and
// what they describe: the variant tables they are made from, the kernel sources
// their build macros name, the build options the option builders write, the keys
// settings and runs use, and the CLI's checks (each option takes exactly the
// descriptor's values). No OpenCL device needed.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "app/cli.h"
#include "compute/config_parameters.h"
#include "compute/histogram_sweep.h"
#include "compute/image_histogram.h"
#include "compute/image_rotate.h"
#include "compute/image_transpose.h"
#include "compute/kernel_op.h"
#include "compute/nbody_variants.h"
#include "compute/parameter_values.h"
#include "compute/rotate_sweep_plan.h"
#include "compute/sweep_plan.h"
#include "lab/sweep_runs.h"

namespace ks {
namespace {

std::string kernelSource(const KernelOp& op) {
  std::ifstream in(std::string(KERNELSCOPE_SOURCE_KERNELS_DIR) + "/" + op.kernelFile);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

bool mentionsWord(const std::string& text, const std::string& word) {
  return std::regex_search(text, std::regex("\\b" + word + "\\b"));
}

TEST(KernelOps, EveryOperationIsDescribed) {
  std::vector<std::string> names;
  for (const KernelOp* op : kernelOps()) names.push_back(op->name);
  EXPECT_EQ(names, (std::vector<std::string>{"nbody", "rotate", "transpose", "histogram", "copy"}));
  for (const KernelOp* op : kernelOps()) {
    SCOPED_TRACE(op->name);
    EXPECT_EQ(findKernelOp(op->name), op);
    EXPECT_FALSE(op->figureOfMerit.empty());
    EXPECT_FALSE(op->constraints.empty());
    EXPECT_FALSE(op->variants.empty());
    for (const KernelParameter& p : op->parameters) {
      SCOPED_TRACE(p.name);
      EXPECT_FALSE(p.unit.empty());
      EXPECT_FALSE(p.meaning.empty());
      EXPECT_FALSE(p.values.empty()) << "no variant offers a value";
      EXPECT_TRUE(std::is_sorted(p.values.begin(), p.values.end()));
      EXPECT_EQ(std::adjacent_find(p.values.begin(), p.values.end()), p.values.end()) << "a value listed twice";
    }
  }
  EXPECT_EQ(findKernelOp("nothing"), nullptr);
  EXPECT_THROW(nbodyOp().parameter("nothing"), std::out_of_range);
}

// The descriptors list the tables' variants, in order, and each variant's values
// are the table's: nothing copied by hand that could drift.
TEST(KernelOps, VariantsAndValuesAreTheTables) {
  EXPECT_EQ(nbodyOp().variantNames(), variantNames(nbodyVariants()));
  EXPECT_EQ(rotateOp().variantNames(), variantNames(imageRotateVariants()));
  EXPECT_EQ(transposeOp().variantNames(), variantNames(imageTransposeVariants()));
  EXPECT_EQ(histogramOp().variantNames(), variantNames(imageHistogramVariants()));
  for (const NBodyVariant& v : nbodyVariants()) {
    const KernelOpVariant* d = nbodyOp().variant(v.name);
    ASSERT_NE(d, nullptr);
    EXPECT_EQ(d->kernel, v.kernel);
    EXPECT_EQ(d->parameter("unroll")->values, v.unrolls);
    EXPECT_EQ(d->parameter("bodies_per_item")->values, v.bodiesPerItem);
    EXPECT_EQ(d->parameter("split")->values, v.splits);
  }
  for (const ImageRotateVariant& v : imageRotateVariants()) {
    const KernelOpVariant* d = rotateOp().variant(v.name);
    ASSERT_NE(d, nullptr);
    EXPECT_EQ(d->parameter("pixels_per_item")->values, v.pixelsPerItem);
    EXPECT_EQ(d->parameter("rows_per_item")->values, v.rowsPerItem);
  }
  for (const ImageTransposeVariant& v : imageTransposeVariants()) {
    const KernelOpVariant* d = transposeOp().variant(v.name);
    ASSERT_NE(d, nullptr);
    if (!v.tiles.empty()) {
      EXPECT_EQ(d->parameter("tile")->values, v.tiles) << v.name;
    }
    if (!v.workGroups.empty()) {
      EXPECT_EQ(d->parameter("work_group")->values, v.workGroups) << v.name;
    }
  }
  for (const ImageHistogramVariant& v : imageHistogramVariants()) {
    const KernelOpVariant* d = histogramOp().variant(v.name);
    ASSERT_NE(d, nullptr);
    EXPECT_EQ(d->parameter("work_group")->values, v.workGroups) << v.name;
    if (!v.copies.empty()) {
      EXPECT_EQ(d->parameter("copies")->values, v.copies) << v.name;
    }
  }
  // Every value a parameter lists is offered by some variant, and the reverse.
  for (const KernelOp* op : kernelOps())
    for (const KernelParameter& p : op->parameters) {
      std::set<int> offered;
      for (const KernelOpVariant& v : op->variants)
        if (const VariantParameter* vp = v.parameter(p.name)) offered.insert(vp->values.begin(), vp->values.end());
      EXPECT_EQ(std::vector<int>(offered.begin(), offered.end()), p.values) << op->name << " " << p.name;
    }
  for (const KernelOp* op : kernelOps())
    for (const KernelOpVariant& v : op->variants)
      for (const VariantParameter& vp : v.parameters)
        EXPECT_NO_THROW(op->parameter(vp.name)) << op->name << "/" << v.name << " uses an undescribed " << vp.name;
}

// A subset (a quick sweep, a bench's slice) picks only among what its variants
// offer: a value the table drops, or one spelled wrong, fails here, not in a
// sweep or bench that silently runs less. A value one variant of a slice offers
// and another does not is allowed (the sweep shows the other's refusal).
TEST(KernelOps, SubsetsPickOnlyOfferedValues) {
  size_t subsets = 0;
  for (const KernelOp* op : kernelOps())
    for (const KernelOpSubset& subset : op->subsets) {
      SCOPED_TRACE(op->name + " " + subset.name);
      ++subsets;
      EXPECT_EQ(&op->subset(subset.name), &subset);
      EXPECT_FALSE(subset.reason.empty());
      EXPECT_FALSE(subset.slices.empty());
      for (const KernelOpSlice& slice : subset.slices) {
        EXPECT_FALSE(slice.variants.empty());
        for (const std::string& name : slice.variants) ASSERT_NE(op->variant(name), nullptr) << "no variant " << name;
        for (const auto& [parameter, values] : slice.values) {
          EXPECT_FALSE(values.empty()) << parameter;
          std::set<int> offered;
          for (const std::string& name : slice.variants) {
            const VariantParameter* p = op->variant(name)->parameter(parameter);
            ASSERT_NE(p, nullptr) << name << " has no " << parameter;
            offered.insert(p->values.begin(), p->values.end());
          }
          for (int v : values) EXPECT_TRUE(offered.count(v)) << "no variant of the slice offers " << parameter << " " << v;
        }
      }
    }
  EXPECT_GE(subsets, 5u);
  EXPECT_THROW(nbodyOp().subset("nothing"), std::out_of_range);
}

// The quick sweeps are the descriptors' subsets.
TEST(KernelOps, QuickSweepsReadTheDescriptors) {
  const KernelOpSlice& nbody = nbodyOp().subset("quick_sweep").slices.front();
  const NBodySweepRanges n = quickNBodySweep();
  EXPECT_EQ(n.variants, nbody.variants);
  EXPECT_EQ(n.workGroups, *nbody.picked("work_group"));
  EXPECT_EQ(n.unrolls, *nbody.picked("unroll"));
  EXPECT_EQ(n.bodiesPerItem, *nbody.picked("bodies_per_item"));
  EXPECT_EQ(n.splits, *nbody.picked("split"));
  EXPECT_EQ(quickRotateSweep().variants, rotateOp().subset("quick_sweep").slices.front().variants);
  EXPECT_EQ(quickTransposeSweep().variants, transposeOp().subset("quick_sweep").slices.front().variants);
  // The histogram's: the subset's variants and the device's default one; the naive
  // transpose's shapes, pairs from the subset's slices.
  const HistogramSweepRanges h = quickHistogramSweep();
  for (const std::string& v : histogramOp().subset("quick_sweep").slices.front().variants)
    EXPECT_NE(std::find(h.variants.begin(), h.variants.end(), v), h.variants.end()) << v;
  EXPECT_NE(std::find(h.variants.begin(), h.variants.end(), defaultHistogramConfig(4).variant), h.variants.end());
  const std::vector<KernelOpSlice>& shapes = transposeOp().subset("naive_shapes").slices;
  ASSERT_EQ(defaultNaiveTransposeShapes().size(), shapes.size());
  for (size_t i = 0; i < shapes.size(); ++i) {
    EXPECT_EQ(defaultNaiveTransposeShapes()[i].first, shapes[i].picked("work_group_x")->front());
    EXPECT_EQ(defaultNaiveTransposeShapes()[i].second, shapes[i].picked("work_group_y")->front());
  }
  EXPECT_EQ(defaultNaiveTransposeShapes().front(), (std::pair<int, int>{32, 8})) << "the shapes of before, in order";
  EXPECT_EQ(defaultNaiveTransposeShapes().back(), (std::pair<int, int>{256, 1}));
}

// `--bench image` times the histogram configurations it timed before its slice
// became the descriptor's data (the rule below is that earlier code's, kept here
// as the reference), and nothing else.
TEST(KernelOps, TheImageBenchTimesTheDescribedHistogramSlice) {
  DeviceDescriptor gpu;
  gpu.name = "NVIDIA H200";
  gpu.kind = DeviceKind::Gpu;
  gpu.computeUnits = 132;
  gpu.maxWorkGroupSize = 1024;
  gpu.maxWorkItemSizes = {1024, 1024, 64};
  gpu.localMemBytes = 48 * 1024;
  // What NVIDIA's driver 580 reports; its device-scope fences work (the fused variant runs).
  gpu.vendor = "NVIDIA Corporation";
  gpu.deviceVersion = "OpenCL 3.0 CUDA";
  gpu.atomicFenceCapabilities = 0x13;
  auto among = [](int v, std::initializer_list<int> list) { return std::find(list.begin(), list.end(), v) != list.end(); };
  auto earlierRule = [&](const HistogramConfig& c, int counted) {
    if (counted == kRgbHistogramChannels)
      return (c.variant == "local_atomic" || c.variant == "local_atomic_fused") && among(c.workGroup, {256, 512, 1024}) &&
             among(c.copies, {1, 8, 16}) && among(c.groupsPerComputeUnit, {1, 2, 4, 8});
    if (c.variant == "subhist_uchar") return among(c.workGroup, {64, 256}) && among(c.pixelsPerItem, {64, 255});
    if (c.variant == "subhist_flush") return among(c.workGroup, {128, 256}) && among(c.groupsPerComputeUnit, {2, 4, 8});
    if (c.workGroup == 1024) return among(c.copies, {1, 8, 32}) && among(c.groupsPerComputeUnit, {1, 2});
    return among(c.workGroup, {256, 512}) && among(c.copies, {1, 8, 32}) && among(c.groupsPerComputeUnit, {1, 2, 4, 8});
  };
  for (int channels : imageChannelCounts())
    for (int counted : {kAllHistogramChannels, kRgbHistogramChannels}) {
      SCOPED_TRACE(std::to_string(channels) + " channels, counted mask " + std::to_string(counted));
      std::vector<std::string> expected, timed;
      for (const HistogramConfig& c : allHistogramConfigs(gpu, channels, counted))
        if (earlierRule(c, counted)) expected.push_back(describeHistogramConfig(c));
      for (const HistogramConfig& c : benchmarkedHistogramConfigs(gpu, channels, counted))
        timed.push_back(describeHistogramConfig(c));
      EXPECT_EQ(timed, expected);
      EXPECT_FALSE(timed.empty());
    }
}

// A build macro the descriptor names is one the kernel source reads, and every
// variant's kernel function is in the source.
TEST(KernelOps, MacrosAndKernelsAreInTheSource) {
  for (const KernelOp* op : kernelOps()) {
    const std::string source = kernelSource(*op);
    ASSERT_FALSE(source.empty()) << op->kernelFile;
    for (const KernelParameter& p : op->parameters) {
      if (!p.macro.empty()) {
        EXPECT_TRUE(mentionsWord(source, p.macro)) << op->name << ": " << p.macro;
      }
    }
    for (const KernelOpVariant& v : op->variants) {
      EXPECT_TRUE(mentionsWord(source, v.kernel)) << op->name << ": " << v.kernel;
      for (const VariantParameter& vp : v.parameters) {
        if (!vp.macro.empty()) {
          EXPECT_TRUE(mentionsWord(source, vp.macro)) << op->name << "/" << v.name << ": " << vp.macro;
        }
      }
    }
  }
}

// Each variant's value of a parameter reaches the kernel as the descriptor's
// macro: -DMACRO=value, or (where the builder leaves it out) the source's own
// default for it.
template <class Config>
void expectOptionsCarryValues(const KernelOp& op, const std::vector<ConfigParameter<Config>>& parameters,
                              std::string (*options)(const Config&, int), int channels) {
  for (const KernelOpVariant& v : op.variants) {
    const std::string source = kernelSource(op);
    for (const VariantParameter& vp : v.parameters) {
      if (vp.macro.empty() || vp.name == "channels") continue;
      auto member = std::find_if(parameters.begin(), parameters.end(),
                                 [&](const ConfigParameter<Config>& p) { return p.name == vp.name; });
      ASSERT_NE(member, parameters.end()) << op.name << ": no configuration member for " << vp.name;
      for (int value : vp.values) {
        Config c;
        c.variant = v.name;
        c.*(member->member) = value;
        const std::string built = options(c, channels), wanted = "-D" + vp.macro + "=" + std::to_string(value);
        const bool passed = (" " + built + " ").find(" " + wanted + " ") != std::string::npos;
        const bool sourceDefault =
            built.find("-D" + vp.macro + "=") == std::string::npos &&
            source.find("#define " + vp.macro + " " + std::to_string(value)) != std::string::npos;
        EXPECT_TRUE(passed || sourceDefault) << op.name << "/" << v.name << ": " << wanted << " not in '" << built << "'";
      }
    }
  }
}

std::string nbodyOptions(const NBodyConfig& c, int) { return nbodyBuildOptions(c); }

TEST(KernelOps, BuildOptionsCarryTheDescribedMacros) {
  expectOptionsCarryValues<NBodyConfig>(nbodyOp(), nbodyConfigParameters(), nbodyOptions, 1);
  for (int channels : imageChannelCounts()) {
    expectOptionsCarryValues<RotateConfig>(rotateOp(), rotateConfigParameters(), imageRotateBuildOptions, channels);
    expectOptionsCarryValues<TransposeConfig>(transposeOp(), transposeConfigParameters(), imageTransposeBuildOptions,
                                              channels);
    expectOptionsCarryValues<HistogramConfig>(histogramOp(), histogramConfigParameters(), imageHistogramBuildOptions,
                                              channels);
  }
}

// A device without limits (no work-group, local memory or image limit; device-scope
// fences): only the variants' own rules refuse a value.
DeviceDescriptor unlimitedDevice() {
  DeviceDescriptor device;
  device.deviceVersion = "OpenCL 3.0 test";
  device.atomicFenceCapabilities = ~cl_device_atomic_capabilities{0};
  return device;
}

// The checks take no value the descriptor does not list: every value from 0 to
// 1024 (the largest work-group devices have) of each parameter, the others at the
// variant's first values, is refused unless the variant's list has it (so a list
// shorter than what runs shows here).
template <class Config>
void expectChecksTakeOnlyListedValues(const KernelOp& op, const std::vector<ConfigParameter<Config>>& parameters,
                                      std::string (*problem)(const Config&, const DeviceDescriptor&, int)) {
  const DeviceDescriptor device = unlimitedDevice();
  for (const KernelOpVariant& v : op.variants) {
    Config base;
    base.variant = v.name;
    int channels = 1;
    for (const VariantParameter& vp : v.parameters) {
      if (vp.name == "channels") continue;
      auto member = std::find_if(parameters.begin(), parameters.end(),
                                 [&](const ConfigParameter<Config>& p) { return p.name == vp.name; });
      ASSERT_NE(member, parameters.end()) << op.name << ": no configuration member for " << vp.name;
      base.*(member->member) = vp.values.front();
    }
    ASSERT_EQ(problem(base, device, channels), "") << op.name << "/" << v.name;
    for (const VariantParameter& vp : v.parameters) {
      if (vp.name == "channels") {
        for (int c = 0; c <= 8; ++c) {
          const bool listed = std::find(vp.values.begin(), vp.values.end(), c) != vp.values.end();
          if (!listed) {
            EXPECT_NE(problem(base, device, c), "") << op.name << "/" << v.name << " channels " << c;
          }
        }
        continue;
      }
      auto member = std::find_if(parameters.begin(), parameters.end(),
                                 [&](const ConfigParameter<Config>& p) { return p.name == vp.name; });
      for (int x = 0; x <= 1024; ++x) {
        Config c = base;
        c.*(member->member) = x;
        const bool listed = std::find(vp.values.begin(), vp.values.end(), x) != vp.values.end();
        if (!listed) {
          EXPECT_NE(problem(c, device, channels), "") << op.name << "/" << v.name << " " << vp.name << "=" << x;
        }
      }
    }
  }
}

std::string nbodyProblem(const NBodyConfig& c, const DeviceDescriptor& device, int) { return nbodyConfigProblem(c, device); }

TEST(KernelOps, ChecksTakeOnlyListedValues) {
  expectChecksTakeOnlyListedValues<NBodyConfig>(nbodyOp(), nbodyConfigParameters(), nbodyProblem);
  expectChecksTakeOnlyListedValues<RotateConfig>(rotateOp(), rotateConfigParameters(), imageRotateConfigProblem);
  expectChecksTakeOnlyListedValues<TransposeConfig>(transposeOp(), transposeConfigParameters(),
                                                    imageTransposeConfigProblem);
  expectChecksTakeOnlyListedValues<HistogramConfig>(histogramOp(), histogramConfigParameters(),
                                                    imageHistogramConfigProblem);
}

// One name per parameter: the keys settings.json / tuning.json keep (the
// configurations' parameter lists) and the N-body run records' columns are
// descriptor parameters.
TEST(KernelOps, SettingsAndRunKeysAreParameterNames) {
  auto expectDescribed = [](const KernelOp& op, const std::vector<std::string>& keys) {
    for (const std::string& key : keys) EXPECT_NO_THROW(op.parameter(key)) << op.name << ": " << key;
  };
  auto namesOf = [](const auto& parameters) {
    std::vector<std::string> names;
    for (const auto& p : parameters) names.emplace_back(p.name);
    return names;
  };
  expectDescribed(nbodyOp(), namesOf(nbodyConfigParameters()));
  expectDescribed(rotateOp(), namesOf(rotateConfigParameters()));
  expectDescribed(transposeOp(), namesOf(transposeConfigParameters()));
  expectDescribed(histogramOp(), namesOf(histogramConfigParameters()));
  std::vector<std::string> runKeys;
  for (const auto& [key, value] : nbodyParameters(NBodyConfig{}))
    if (!value.empty() && std::all_of(value.begin(), value.end(), ::isdigit) && key.find("native") == std::string::npos &&
        key != "fast_math" && key != "ftz")
      runKeys.push_back(key);
  EXPECT_EQ(runKeys, namesOf(nbodyConfigParameters()));
}

// parseCommandLine on a made-up command line: nullopt when it would go on.
std::optional<int> parse(std::vector<std::string> args) {
  args.insert(args.begin(), "kernelscope");
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  AppOptions options;
  testing::internal::CaptureStderr();
  testing::internal::CaptureStdout();
  const std::optional<int> exit = parseCommandLine(static_cast<int>(argv.size()), argv.data(), options);
  testing::internal::GetCapturedStdout();
  testing::internal::GetCapturedStderr();
  return exit;
}

// A value no variant offers: above the largest.
int notOffered(const std::vector<int>& values) { return values.back() * 2 + 1; }

// The CLI takes exactly the values the descriptors list: each one, and none past them.
TEST(KernelOps, CliOptionsTakeTheDescribedValues) {
  struct Option {
    const char* flag;
    const KernelParameter& parameter;
  };
  const std::vector<Option> options = {{"--unroll", nbodyOp().parameter("unroll")},
                                       {"--bodies-per-item", nbodyOp().parameter("bodies_per_item")},
                                       {"--split", nbodyOp().parameter("split")},
                                       {"--channels", transposeOp().parameter("channels")}};
  for (const Option& o : options) {
    for (int value : o.parameter.values)
      EXPECT_EQ(parse({o.flag, std::to_string(value)}), std::nullopt) << o.flag << " " << value;
    EXPECT_NE(parse({o.flag, std::to_string(notOffered(o.parameter.values))}), std::nullopt) << o.flag;
  }
  // The image batch's options need a file to process (parsing does not open it).
  struct Names {
    const char* flag;
    const KernelOp& op;
    const char* file;
  };
  for (const Names& n : {Names{"--variant", nbodyOp(), nullptr}, Names{"--transpose-variant", transposeOp(), nullptr},
                         Names{"--rotate", rotateOp(), "picture.png"}, Names{"--histogram", histogramOp(), "picture.png"}}) {
    auto args = [&](const std::string& name) {
      std::vector<std::string> a = {n.flag, name};
      if (n.file) a.emplace_back(n.file);
      return a;
    };
    for (const std::string& name : n.op.variantNames())
      EXPECT_EQ(parse(args(name)), std::nullopt) << n.flag << " " << name;
    EXPECT_NE(parse(args("not_a_variant")), std::nullopt) << n.flag;
  }
}

}  // namespace
}  // namespace ks
