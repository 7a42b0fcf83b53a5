// The rotate and histogram sweeps (issue 21, item 1): their plans read from the
// descriptors, refusals with the descriptors' reasons, run records keyed by the
// parameters' names, and measured configurations whose output matches the CPU reference.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <set>

#include "compute/histogram_sweep.h"
#include "compute/image_reference.h"
#include "compute/kernel_op.h"
#include "compute/rotate_benchmark.h"
#include "compute/rotate_sweep_plan.h"
#include "lab/histogram_runs.h"
#include "lab/rotate_runs.h"
#include "test_devices.h"
#include "test_require.h"

namespace ks {
namespace {

DeviceDescriptor bigDevice() {
  DeviceDescriptor d;
  d.name = "test device";
  d.maxWorkGroupSize = 1024;
  d.maxWorkItemSizes = {1024, 1024, 64};
  d.localMemBytes = 64 * 1024;
  d.maxAllocBytes = size_t{1} << 30;
  return d;
}

TEST(RotateSweepPlan, EveryValueComesFromTheDescriptor) {
  const DeviceDescriptor device = bigDevice();
  const KernelOp& op = rotateOp();
  const SweepPlan<RotateConfig> plan = planRotateSweep({}, device, 4);
  ASSERT_FALSE(plan.valid.empty());
  std::set<std::string> variants;
  for (const RotateConfig& c : plan.valid) {
    variants.insert(c.variant);
    const KernelOpVariant* v = op.variant(c.variant);
    ASSERT_NE(v, nullptr) << c.variant;
    for (const auto& p : rotateConfigParameters()) {
      const std::vector<int>& offered = v->parameter(p.name)->values;
      EXPECT_NE(std::find(offered.begin(), offered.end(), c.*p.member), offered.end())
          << describeRotateConfig(c) << ": " << p.name;
    }
    // No shape given: the shapes of 256 work-items only.
    EXPECT_EQ(c.workGroupX * c.workGroupY, kRotateSweptWorkGroupItems) << describeRotateConfig(c);
  }
  EXPECT_EQ(variants.size(), op.variants.size()) << "every variant of the table is swept";
  // Each variant: every 256-item shape of the descriptor's widths and heights, times its blocks.
  size_t shapes = 0;
  for (int x : op.parameter("work_group_x").values)
    for (int y : op.parameter("work_group_y").values) shapes += x * y == kRotateSweptWorkGroupItems;
  const KernelOpVariant& bilinear = *op.variant("bilinear");
  const size_t blocks =
      bilinear.parameter("pixels_per_item")->values.size() * bilinear.parameter("rows_per_item")->values.size();
  const size_t bilinearCount = static_cast<size_t>(std::count_if(
      plan.valid.begin(), plan.valid.end(), [](const RotateConfig& c) { return c.variant == "bilinear"; }));
  EXPECT_EQ(bilinearCount, shapes * blocks);
}

TEST(RotateSweepPlan, ShapesFollowTheDevicesLimit) {
  DeviceDescriptor device = bigDevice();
  device.maxWorkGroupSize = 128;
  const SweepPlan<RotateConfig> plan = planRotateSweep({{"nearest"}, {}}, device, 1);
  ASSERT_FALSE(plan.valid.empty());
  for (const RotateConfig& c : plan.valid) EXPECT_EQ(c.workGroupX * c.workGroupY, 128) << describeRotateConfig(c);
  EXPECT_TRUE(plan.refused.empty());
}

TEST(RotateSweepPlan, RefusalsSayTheDescriptorsReason) {
  const DeviceDescriptor device = bigDevice();
  RotateSweepRanges ranges{{"bilinear", "no_such_variant"}, {}};
  ranges.values["work_group_x"] = {16, 128};
  ranges.values["work_group_y"] = {16};
  ranges.values["pixels_per_item"] = {4, 3};
  const SweepPlan<RotateConfig> plan = planRotateSweep(ranges, device, 4);
  ASSERT_EQ(plan.valid.size(), 1u);
  EXPECT_EQ(plan.valid[0], (RotateConfig{"bilinear", 16, 16, 4, 1}));
  // 16x16 ppi 3, 128x16 ppi 4 and 3, the unknown name
  ASSERT_EQ(plan.refused.size(), 4u);
  const KernelOp& op = rotateOp();
  bool notOffered = false, tooMany = false, unknown = false;
  for (const auto& [c, why] : plan.refused) {
    EXPECT_EQ(why, imageRotateConfigProblem(c, device, 4));
    if (c.variant == "no_such_variant") unknown = why == op.refusal("variant", {{"variant", "no_such_variant"}});
    else if (c.workGroupX == 16)
      notOffered = why == op.refusal("pixels_per_item_offered", {{"pixels", 3}, {"variant", "bilinear"}, {"offered", "1, 4"}});
    else
      tooMany |= why == op.refusal("work_group_2d_items", {{"x", 128}, {"y", 16}, {"items", 2048}, {"max", 1024}});
  }
  EXPECT_TRUE(notOffered);
  EXPECT_TRUE(tooMany) << "128x16 = 2048 work-items is above the device's 1024";
  EXPECT_TRUE(unknown);
}

TEST(RotateRuns, RecordsCarryTheParametersNames) {
  const DeviceDescriptor device = bigDevice();
  RotateMeasurement m;
  m.config = {"bilinear_image", 32, 8, 2, 4};
  m.layout = {64, 48, 4};
  m.params = rotateSweepParams();
  m.runMs = {0.5, 0.25, 1.0};
  m.gigabytesPerSecond = 12.5;
  const RunRecord r = rotateRun(device, m, 3);
  EXPECT_TRUE(r.ok()) << r.status;
  EXPECT_EQ(r.meta.scene, "rotate");
  EXPECT_EQ(r.m.rate, 12.5);
  EXPECT_EQ(r.m.rateUnit, "GB/s");
  EXPECT_DOUBLE_EQ(r.m.kernelMs.median, 0.5);
  EXPECT_EQ(r.meta.parameter("variant"), "bilinear_image");
  // Every parameter of the descriptor's rotate configuration, under its name.
  for (const auto& p : rotateConfigParameters()) {
    EXPECT_EQ(r.meta.parameter(p.name), std::to_string(m.config.*p.member)) << p.name;
    EXPECT_NO_THROW(rotateOp().parameter(p.name)) << p.name << " is a descriptor name";
  }
  EXPECT_EQ(r.meta.parameter("image"), "64x48 RGBA");
  EXPECT_EQ(r.meta.parameter("angle"), "30");
  const RunRecord refused = refusedRotateRun(device, m.config, m.layout, m.params, "why it cannot\nbuild log");
  EXPECT_FALSE(refused.ok());
  EXPECT_EQ(refused.status, "refused: why it cannot");
  EXPECT_EQ(refused.meta.parameter("rows_per_item"), "4");
}

// Every configuration a small sweep measures turns the picture as the CPU does,
// with a finite positive rate (a NaN or infinity is a failure).
TEST(RotateSweepOnDevice, MeasuredConfigurationsMatchTheReference) {
  KS_NEED("opencl", test::openClMissing());
  std::unique_ptr<ComputeContext> compute = test::makeTestCompute();
  ASSERT_TRUE(compute);
  RotateSweepRanges ranges{{}, {}};
  ranges.values["work_group_x"] = {16};
  ranges.values["work_group_y"] = {8};
  for (int channels : imageChannelCounts()) {
    const SweepPlan<RotateConfig> plan = planRotateSweep(ranges, compute->device(), channels);
    ASSERT_FALSE(plan.valid.empty());
    const ImageLayout layout{37, 23, channels};  // odd sizes: partial groups and blocks on every side
    const RotateParams params = rotateSweepParams();
    const ImageLayout outLayout = rotatedLayout(layout, params);
    const HostImage in = randomHostImage(layout, 5);
    Buffer src(compute->context(), CL_MEM_READ_ONLY, layout.bytes());
    Buffer dst(compute->context(), CL_MEM_READ_WRITE, outLayout.bytes());
    compute->queue().writeBuffer(src, 0, layout.bytes(), in.data.data());
    for (const RotateConfig& c : plan.valid) {
      const RotateMeasurement m = measureRotate(*compute, src.get(), dst.get(), layout, params, c, 2);
      const ImageRotateVariant& v = *findImageRotateVariant(c.variant);
      if (!m.problem.empty() && v.image) continue;  // a device without this image format says so at build
      ASSERT_EQ(m.problem, "") << describeRotateConfig(c);
      EXPECT_EQ(m.runMs.size(), 2u);
      EXPECT_TRUE(std::isfinite(m.gigabytesPerSecond) && m.gigabytesPerSecond > 0.0) << describeRotateConfig(c);
      HostImage got(outLayout);
      compute->queue().readBuffer(dst, 0, outLayout.bytes(), got.data.data());
      const HostImage want = rotateReference(in, params, v.sampling);
      // Bilinear blending in float may differ by a level (two on a GPU's sampler).
      const int tolerance = v.exact ? 0 : 2;
      int worst = 0;
      for (size_t i = 0; i < got.data.size(); ++i)
        worst = std::max(worst, std::abs(static_cast<int>(got.data[i]) - static_cast<int>(want.data[i])));
      EXPECT_LE(worst, tolerance) << describeRotateConfig(c) << ", " << describeImageLayout(layout);
    }
  }
}

TEST(HistogramSweepPlan, EachVariantSweepsOnlyItsOwnParameters) {
  DeviceDescriptor device = bigDevice();
  device.localMemBytes = 1 << 20;  // room for every copy count: only the work-group is refused
  const KernelOp& op = histogramOp();
  HistogramSweepRanges ranges{{"subhist_uchar", "local_atomic"}, {}};
  ranges.values["work_group"] = {64, 100};
  const SweepPlan<HistogramConfig> plan = planHistogramSweep(ranges, device, 4);
  const KernelOpVariant& subhist = *op.variant("subhist_uchar");
  const KernelOpVariant& local = *op.variant("local_atomic");
  const size_t subhistEach = subhist.parameter("pixels_per_item")->values.size();
  const size_t localEach =
      local.parameter("copies")->values.size() * local.parameter("groups_per_compute_unit")->values.size();
  EXPECT_EQ(plan.total(), 2 * (subhistEach + localEach));
  for (const auto& [c, why] : plan.refused) {
    EXPECT_EQ(c.workGroup, 100) << describeHistogramConfig(c) << ": " << why;
    EXPECT_EQ(why, imageHistogramConfigProblem(c, device, 4));
    EXPECT_NE(why.find("work-group size 100 is not offered"), std::string::npos) << why;
  }
  for (const HistogramConfig& c : plan.valid) EXPECT_EQ(c.workGroup, 64) << describeHistogramConfig(c);
  // The records: one column per parameter, under the descriptor's names.
  HistogramMeasurement m;
  m.config = plan.valid.front();
  m.layout = {40, 24, 4};
  m.runMs = {0.2, 0.1, 0.3};
  m.gigabytesPerSecond = 3.5;
  const RunRecord r = histogramRun(device, m, 3);
  EXPECT_TRUE(r.ok()) << r.status;
  EXPECT_EQ(r.meta.scene, "histogram");
  EXPECT_DOUBLE_EQ(r.m.kernelMs.median, 0.2);
  // Only the parameters the measured variant uses (issue 22: a local_atomic record showed
  // subhist_uchar's pixels_per_item); the others' cells stay empty.
  const KernelOpVariant* measured = op.variant(m.config.variant);
  ASSERT_NE(measured, nullptr);
  for (const auto& p : histogramConfigParameters()) {
    if (measured->parameter(p.name))
      EXPECT_EQ(r.meta.parameter(p.name), std::to_string(m.config.*p.member)) << p.name;
    else
      EXPECT_EQ(r.meta.parameter(p.name), "") << p.name << " is not a parameter of " << m.config.variant;
    EXPECT_NO_THROW(op.parameter(p.name)) << p.name << " is a descriptor name";
  }
}

// Every histogram configuration a small sweep measures counts as the CPU does.
TEST(HistogramSweepOnDevice, MeasuredConfigurationsMatchTheReference) {
  KS_NEED("opencl", test::openClMissing());
  std::unique_ptr<ComputeContext> compute = test::makeTestCompute();
  ASSERT_TRUE(compute);
  HistogramSweepRanges ranges{{"subhist_uchar", "local_atomic"}, {}};
  ranges.values["work_group"] = {64};
  ranges.values["copies"] = {1, 8};
  ranges.values["groups_per_compute_unit"] = {1};
  for (int channels : imageChannelCounts()) {
    const ImageLayout layout{37, 23, channels};
    const SweepPlan<HistogramConfig> plan = planHistogramSweep(ranges, compute->device(), channels);
    ASSERT_FALSE(plan.valid.empty());
    const HostImage in = randomHostImage(layout, 7);
    const ImageHistogram want = histogramReference(in);
    Buffer src(compute->context(), CL_MEM_READ_ONLY, layout.bytes());
    Buffer bins(compute->context(), CL_MEM_READ_WRITE, histogramBinCount(layout) * sizeof(cl_uint));
    compute->queue().writeBuffer(src, 0, layout.bytes(), in.data.data());
    for (const HistogramConfig& c : plan.valid) {
      const HistogramMeasurement m = measureHistogram(*compute, src.get(), bins.get(), layout, c, 2);
      ASSERT_EQ(m.problem, "") << describeHistogramConfig(c);
      EXPECT_TRUE(std::isfinite(m.gigabytesPerSecond) && m.gigabytesPerSecond > 0.0) << describeHistogramConfig(c);
      std::vector<uint32_t> got(histogramBinCount(layout));
      compute->queue().readBuffer(bins, 0, got.size() * sizeof(uint32_t), got.data());
      EXPECT_EQ(got, want.bins) << describeHistogramConfig(c) << ", " << describeImageLayout(layout);
    }
  }
}

}  // namespace
}  // namespace ks
