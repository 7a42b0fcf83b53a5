// A refused configuration's message is its constraint's reason from the operation's
// descriptor (compute/kernel_op.h), with the numbers filled in: the checks
// (*ConfigProblem) and the runners spell no refusal of their own. The checks need
// no OpenCL device: the devices are descriptors made up here, small enough to
// refuse things; one refusal only a real device gives is asked of the test device.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "compute/cl_objects.h"
#include "compute/config_parameters.h"
#include "compute/image_histogram.h"
#include "compute/image_rotate.h"
#include "compute/image_transpose.h"
#include "compute/kernel_constraints.h"
#include "compute/kernel_op.h"
#include "compute/nbody_variants.h"
#include "test_devices.h"
#include "test_require.h"

namespace ks {
namespace {

// Whether `message` is `reason` with each {placeholder} replaced by some non-empty text.
bool readsAs(const std::string& message, const std::string& reason) {
  std::vector<std::string> literals(1);
  for (size_t i = 0; i < reason.size(); ++i) {
    if (reason[i] == '{') {
      const size_t close = reason.find('}', i);
      if (close != std::string::npos) {
        literals.emplace_back();
        i = close;
        continue;
      }
    }
    literals.back() += reason[i];
  }
  // The first literal starts the message, the last ends it, the others follow in order.
  if (message.compare(0, literals.front().size(), literals.front()) != 0) return false;
  size_t at = literals.front().size();
  for (size_t k = 1; k < literals.size(); ++k) {
    const bool last = k + 1 == literals.size();
    const size_t found = last ? message.size() - std::min(message.size(), literals[k].size())
                              : message.find(literals[k], at + 1);
    if (found == std::string::npos || found < at + 1) return false;
    if (message.compare(found, literals[k].size(), literals[k]) != 0) return false;
    at = found + literals[k].size();
  }
  return literals.size() > 1 || message.size() == literals.front().size();
}

// The id of the op's constraint whose reason the message reads as; empty when none.
// Where several do ("... maximum {max}" also reads as "... maximum work-item size {max}"),
// the one with the most words of its own.
std::string constraintOf(const KernelOp& op, const std::string& message) {
  std::string id;
  size_t ownWords = 0;
  for (const KernelConstraint& c : op.constraints) {
    size_t own = 0;
    for (size_t i = 0; i < c.reason.size(); ++i) {
      const size_t close = c.reason[i] == '{' ? c.reason.find('}', i) : std::string::npos;
      if (close != std::string::npos) i = close;
      else ++own;
    }
    if (readsAs(message, c.reason) && own > ownWords) {
      id = c.id;
      ownWords = own;
    }
  }
  return id;
}

DeviceDescriptor device(size_t maxGroup, std::vector<size_t> itemSizes, uint64_t localBytes, std::string version) {
  DeviceDescriptor d;
  d.name = "made-up";
  d.vendor = "Nobody";
  d.maxWorkGroupSize = maxGroup;
  d.maxWorkItemSizes = std::move(itemSizes);
  d.localMemBytes = localBytes;
  d.deviceVersion = std::move(version);
  return d;
}

// Devices that refuse in different ways: few items, narrow dimensions, little local
// memory, old or fence-less OpenCL.
std::vector<DeviceDescriptor> refusingDevices() {
  std::vector<DeviceDescriptor> out = {device(0, {}, 0, "OpenCL 3.0 big"),
          device(64, {64, 64, 64}, 2048, "OpenCL 1.2 small"),
          device(128, {128, 128, 128}, 65536, "OpenCL 2.0 no-statistics"),
          device(1024, {16, 8, 1024}, 65536, "OpenCL 3.0 narrow"),
          device(1024, {1024, 1024, 64}, 16384, "OpenCL 3.0 little-local")};
  out.back().extensions = {"cl_khr_fp64"};
  return out;
}

// Each parameter's values to try for a variant: two it does not offer, and what it
// offers (a long list thinned to every fourth and its last: N-body's 32 work-groups).
std::vector<int> triedValues(const KernelOpVariant& v, const std::string& parameter) {
  std::vector<int> values = {3, 300};
  if (const VariantParameter* p = v.parameter(parameter)) {
    const size_t step = p->values.size() > 8 ? 4 : 1;
    for (size_t i = 0; i < p->values.size(); i += step) values.push_back(p->values[i]);
    if (!p->values.empty()) values.push_back(p->values.back());
  }
  return values;
}

// Every combination of the tried values of `parameters`, from `base`, given to `visit`.
template <class Config, class Visit>
void forEachCombination(Config base, const KernelOpVariant& v, const std::vector<ConfigParameter<Config>>& parameters,
                        size_t index, Visit&& visit) {
  if (index == parameters.size()) return visit(base);
  for (int value : triedValues(v, parameters[index].name)) {
    base.*(parameters[index].member) = value;
    forEachCombination(base, v, parameters, index + 1, visit);
  }
}

// Refuses every combination it can on every made-up device; each message must read
// as one of the operation's constraints, with every placeholder filled.
template <class Config, class Check>
std::set<std::string> checkRefusals(const KernelOp& op, const std::vector<ConfigParameter<Config>>& parameters,
                                    Check check) {
  std::set<std::string> refusals;
  std::vector<KernelOpVariant> variants = op.variants;
  variants.push_back({"no_such_variant", "", "", {}});
  for (const DeviceDescriptor& d : refusingDevices())
    for (const KernelOpVariant& v : variants) {
      Config base;
      base.variant = v.name;
      forEachCombination(base, v, parameters, 0, [&](const Config& c) {
        for (std::string& why : check(c, d))
          if (!why.empty()) refusals.insert(std::move(why));
      });
    }
  std::set<std::string> hit;
  for (const std::string& why : refusals) {
    const std::string id = constraintOf(op, why);
    EXPECT_FALSE(id.empty()) << op.name << ": \"" << why << "\" is not the reason of a constraint";
    EXPECT_EQ(why.find('{'), std::string::npos) << why;
    hit.insert(id);
  }
  return hit;
}

std::set<std::string> idsExcept(const KernelOp& op, std::set<std::string> unreachable) {
  std::set<std::string> ids;
  for (const KernelConstraint& c : op.constraints)
    if (!unreachable.count(c.id)) ids.insert(c.id);
  return ids;
}

TEST(KernelRefusals, FillingAReasonReplacesItsPlaceholders) {
  const KernelConstraint c{"x", "rule", "{a} and {b} of {a}, {missing}"};
  EXPECT_EQ(c.refusal({{"a", 1}, {"b", "two"}}), "1 and two of 1, {missing}");
  EXPECT_EQ(KernelConstraint({"x", "rule", "no placeholder"}).refusal(), "no placeholder");
  EXPECT_EQ(KernelConstraint({"x", "rule", "unclosed {a"}).refusal({{"a", 1}}), "unclosed {a");
  EXPECT_TRUE(readsAs("work-group size 96 exceeds the device's maximum 64", workGroupItemsConstraint().reason));
  EXPECT_FALSE(readsAs("work-group size 96 exceeds the maximum 64", workGroupItemsConstraint().reason));
}

// One refusal of each operation, compared with its constraint's reason filled in by hand.
TEST(KernelRefusals, ARefusedConfigurationSaysItsConstraintsReason) {
  const DeviceDescriptor small = device(64, {64, 64, 64}, 2048, "OpenCL 1.2 small");
  RotateConfig r{"bilinear", 16, 16, 4, 1};
  EXPECT_EQ(imageRotateConfigProblem(r, small, 4),
            rotateOp().refusal("work_group_2d_items", {{"x", 16}, {"y", 16}, {"items", 256}, {"max", 64}}));
  NBodyConfig n;
  n.variant = "naive";
  n.workGroup = 64;
  n.unroll = 3;
  EXPECT_EQ(nbodyConfigProblem(n, small), nbodyOp().refusal("unroll_offered", {{"unroll", 3}, {"variant", "naive"}}));
  TransposeConfig t;
  t.variant = "tiled";
  t.tile = 24;
  EXPECT_EQ(imageTransposeConfigProblem(t, small, 1),
            transposeOp().refusal("tile_offered", {{"tile", 24}, {"variant", "tiled"}, {"offered", "8, 16, 32"}}));
  HistogramConfig h;
  h.variant = "subhist_uchar";
  h.workGroup = 32;
  h.pixelsPerItem = 300;
  EXPECT_EQ(imageHistogramConfigProblem(h, small, 1),
            histogramOp().refusal("uchar_bins", {{"pixels", 300}, {"max", 255}}));
  EXPECT_EQ(imageHistogramConfigProblem(h, small, 1).rfind("300 pixels per work-item would overflow", 0), 0u);
}

TEST(KernelRefusals, EveryNBodyRefusalIsAConstraintOfItsDescriptor) {
  const std::set<std::string> hit =
      checkRefusals(nbodyOp(), nbodyConfigParameters(), [](NBodyConfig c, const DeviceDescriptor& d) {
        std::vector<std::string> out = {nbodyConfigProblem(c, d)};
        c.fp64 = true;
        out.push_back(nbodyConfigProblem(c, d));
        return out;
      });
  // Every offered unroll (at most 32) divides every work-group (a multiple of 32): the check guards values the
  // lists never hold.
  // The compiled kernel's limit is known only once it is built.
  EXPECT_EQ(hit, idsExcept(nbodyOp(), {"unroll_divides_tile", "kernel_work_group"}));
}

TEST(KernelRefusals, EveryRotateRefusalIsAConstraintOfItsDescriptor) {
  const std::set<std::string> hit =
      checkRefusals(rotateOp(), rotateConfigParameters(), [](const RotateConfig& c, const DeviceDescriptor& d) {
        return std::vector<std::string>{imageRotateConfigProblem(c, d, 1), imageRotateConfigProblem(c, d, 4),
                                        imageRotateConfigProblem(c, d, 3)};
      });
  // A made-up device has no runtime handle, so it counts as image-capable; the
  // image's formats and size and the compiled kernel's limit come up when it runs.
  EXPECT_EQ(hit, idsExcept(rotateOp(), {"image_support", "image_format", "image_size", "kernel_work_group"}));
}

TEST(KernelRefusals, EveryTransposeRefusalIsAConstraintOfItsDescriptor) {
  const std::set<std::string> hit =
      checkRefusals(transposeOp(), transposeConfigParameters(), [](const TransposeConfig& c, const DeviceDescriptor& d) {
        return std::vector<std::string>{imageTransposeConfigProblem(c, d, 1), imageTransposeConfigProblem(c, d, 4),
                                        imageTransposeConfigProblem(c, d, 3)};
      });
  // Every offered row count is at most every offered tile: the check guards values the lists never hold.
  EXPECT_EQ(hit, idsExcept(transposeOp(), {"rows_within_tile", "kernel_work_group"}));
}

TEST(KernelRefusals, EveryHistogramRefusalIsAConstraintOfItsDescriptor) {
  const std::set<std::string> hit = checkRefusals(
      histogramOp(), histogramConfigParameters(), [](HistogramConfig c, const DeviceDescriptor& d) {
        std::vector<std::string> out = {imageHistogramConfigProblem(c, d, 1), imageHistogramConfigProblem(c, d, 4),
                                        imageHistogramConfigProblem(c, d, 3)};
        c.countedChannels = 0;
        out.push_back(imageHistogramConfigProblem(c, d, 4));
        return out;
      });
  EXPECT_EQ(hit, idsExcept(histogramOp(), {"kernel_work_group"}));
}

// A refusal the device gives when the rotation runs: an image wider than the
// device's largest 2D image, through image2d_t.
TEST(KernelRefusalsOnADevice, AnImageWiderThanTheDevicesImagesSaysItsConstraintsReason) {
  KS_NEED("opencl", test::openClMissing());
  const std::unique_ptr<ComputeContext> compute = test::makeTestCompute();
  ASSERT_NE(compute, nullptr);
  const auto [maxW, maxH] = deviceMaxImage2d(compute->device());
  if (maxW == 0) GTEST_SKIP() << "the device has no image support";
  const RotateConfig c{"nearest_image", 8, 8, 1, 1};
  ASSERT_EQ(imageRotateConfigProblem(c, compute->device(), 1), "");
  const ImageLayout wide{static_cast<int>(maxW) + 1, 1, 1};
  Buffer in(compute->context(), CL_MEM_READ_WRITE, wide.bytes());
  Buffer out(compute->context(), CL_MEM_READ_WRITE, wide.bytes());
  ImageRotator rotator(*compute, c);
  std::string why;
  try {
    rotator.run(compute->queue(), in.get(), wide, out.get(), wide, RotateParams{});
  } catch (const ImageConfigError& e) {
    why = e.what();
  }
  EXPECT_EQ(why, rotateOp().refusal("image_size", {{"image", describeImageLayout(wide)},
                                                   {"max_x", maxW},
                                                   {"max_y", maxH},
                                                   {"variant", "nearest_image"}}));
  EXPECT_EQ(constraintOf(rotateOp(), why), "image_size") << why;
}

}  // namespace
}  // namespace ks
