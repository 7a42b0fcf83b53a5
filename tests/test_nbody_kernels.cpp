// Every N-body kernel variant against the double-precision CPU reference, over
// awkward sizes (1, odd, not a multiple of the work-group) and work-group sizes,
// on the machine's OpenCL device (PoCL in CI).
#include <gtest/gtest.h>

#include <cmath>
#include <memory>

#include "compute/compute_context.h"
#include "compute/device_catalog.h"
#include "compute/nbody_gpu.h"
#include "compute/nbody_tuning.h"
#include "test_devices.h"

namespace ks {
namespace {

ComputeContext* sharedCompute() {
  static std::unique_ptr<ComputeContext> compute = test::makeTestCompute();
  return compute.get();
}

class NBodyKernels : public ::testing::Test {
 protected:
  void SetUp() override {
    compute_ = sharedCompute();
    if (!compute_) GTEST_SKIP() << "no OpenCL device";
  }
  // A lumpy system (disk) so that forces are far from uniform.
  static NBodySystem system(size_t n) { return makeNBodyPreset(NBodyPreset::DiskGalaxy, n, 42); }
  static NBodyParams params(size_t n) { return nbodyPresetDefaults(NBodyPreset::DiskGalaxy, n).params; }
  void expectMatchesReference(const NBodyConfig& config, size_t n) {
    const NBodyVerification v = verifyNBodyStep(*compute_, system(n), config, params(n));
    EXPECT_TRUE(v.passed()) << describeNBodyConfig(config) << ", N=" << n << ": error " << v.maxRelativeError
                            << " > " << v.tolerance;
    EXPECT_EQ(v.sampled, std::min<size_t>(n, 4096));
  }
  ComputeContext* compute_ = nullptr;
};

NBodyConfig config(const std::string& variant, int wg, int unroll, int b, int split) {
  NBodyConfig c;
  c.variant = variant;
  c.workGroup = wg;
  c.unroll = unroll;
  c.bodiesPerItem = b;
  c.split = split;
  c.nativeRsqrt = false;  // the 1e-4 tolerance
  return c;
}

TEST_F(NBodyKernels, EveryVariantAndWorkGroupMatchesTheReference) {
  for (int wg : {32, 64, 128, 256})
    for (const NBodyConfig& c : {config("naive", wg, 1, 1, 1), config("tiled", wg, 8, 1, 1),
                                 config("blocked", wg, 4, 2, 2)}) {
      if (!nbodyConfigProblem(c, compute_->device()).empty()) continue;
      for (size_t n : {size_t{1}, size_t{7}, size_t{1000}, size_t{4099}}) expectMatchesReference(c, n);
    }
}

// Groups of 512 and 1024 (the H200's fastest sweep rows): the tiled kernels are
// compiled for their group size and may run at it even where the driver reports
// a smaller CL_KERNEL_WORK_GROUP_SIZE (NVIDIA: 256).
TEST_F(NBodyKernels, LargeWorkGroupsMatchTheReference) {
  for (int wg : {512, 1024})
    for (const NBodyConfig& c : {config("tiled", wg, 8, 1, 1), config("blocked", wg, 8, 2, 1)}) {
      if (const std::string p = nbodyConfigProblem(c, compute_->device()); !p.empty()) {
        std::cout << "[ SKIPPED  ] " << describeNBodyConfig(c) << ": " << p << "\n";
        continue;
      }
      for (size_t n : {size_t{7}, size_t{4099}}) expectMatchesReference(c, n);
    }
}

TEST_F(NBodyKernels, UnrollBlockingAndSplitCombinations) {
  for (int unroll : {1, 2, 4, 8, 16, 32})
    expectMatchesReference(config("tiled", 64, unroll, 1, 1), 1000);
  for (int b : {1, 2, 4})
    for (int split : {1, 2, 4}) expectMatchesReference(config("blocked", 64, 8, b, split), 1000);
}

TEST_F(NBodyKernels, FastMathVariantsStayWithinTheLooserTolerance) {
  NBodyConfig c = config("blocked", 64, 8, 2, 1);
  c.nativeRsqrt = true;
  c.fastRelaxedMath = true;
  c.denormsAreZero = true;
  const NBodyVerification v = verifyNBodyStep(*compute_, system(999), c, params(999));
  EXPECT_EQ(v.tolerance, 5e-4);
  EXPECT_TRUE(v.passed()) << v.maxRelativeError;
}

TEST_F(NBodyKernels, Fp64WhereTheDeviceHasIt) {
  if (!compute_->device().hasExtension("cl_khr_fp64")) GTEST_SKIP() << "the device lacks cl_khr_fp64";
  NBodyConfig c = config("blocked", 64, 4, 2, 2);
  c.fp64 = true;
  const NBodyVerification v = verifyNBodyStep(*compute_, system(1001), c, params(1001));
  EXPECT_LT(v.maxRelativeError, 1e-12) << "fp64 should be near double-precision exact";
}

TEST_F(NBodyKernels, InvalidConfigurationsAreRefusedWithAReasonNotALaunchError) {
  NBodyConfig c = config("blocked", 48, 8, 1, 1);  // not a multiple of 32
  EXPECT_THROW(NBodyKernel(*compute_, c), NBodyConfigError);
  c.workGroup = 64;
  c.unroll = 3;
  try {
    NBodyKernel kernel(*compute_, c);
    FAIL() << "unroll 3 accepted";
  } catch (const NBodyConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("unroll 3"), std::string::npos) << e.what();
  }
  c = config("tiled", 64, 8, 4, 1);  // tiled has no register blocking
  EXPECT_FALSE(nbodyConfigProblem(c, compute_->device()).empty());
  c = config("blocked", 32, 32, 1, 2);  // 32/2 = 16 bodies per slice, unroll 32 does not fit
  EXPECT_NE(nbodyConfigProblem(c, compute_->device()).find("slice"), std::string::npos);
  c = config("blocked", static_cast<int>(compute_->device().maxWorkGroupSize) + 32, 8, 1, 1);
  EXPECT_NE(nbodyConfigProblem(c, compute_->device()).find("maximum"), std::string::npos);
}

TEST_F(NBodyKernels, PaddingBodiesNeverMoveTheRealOnes) {
  // N = 7 with a 64-wide group runs 64 bodies; the 57 zero-mass ones must not
  // change anything: compare with the reference step directly.
  const NBodyConfig c = config("tiled", 64, 8, 1, 1);
  const NBodySystem start = system(7);
  const NBodyParams p = params(7);
  NBodyKernel kernel(*compute_, c);
  NBodyDeviceState state(*compute_, start, c);
  EXPECT_EQ(state.padded(), 64u);
  Buffer display(compute_->context(), CL_MEM_WRITE_ONLY, state.padded() * 16);
  kernel.enqueueStep(compute_->queue(), state.positionsIn(), state.positionsOut(), state.velocities(), display.get(),
                     state.padded(), p, nullptr);
  state.swap();
  const NBodySystem gpu = state.download(compute_->queue());
  const NBodySystem ref = nbodyReferenceStep(start, p);
  for (size_t i = 0; i < 7; ++i)
    for (int k = 0; k < 3; ++k) {
      EXPECT_NEAR(gpu.positions[i][k], ref.positions[i][k], 1e-4 * (1 + std::abs(ref.positions[i][k])));
      EXPECT_NEAR(gpu.velocities[i][k], ref.velocities[i][k], 1e-4 * (1 + std::abs(ref.velocities[i][k])));
    }
}

TEST_F(NBodyKernels, TwoBodyOrbitKeepsItsEnergyOver100Steps) {
  // Two equal masses on a circular orbit about their centre of mass.
  NBodySystem s;
  const double m = 0.5, r = 1.0, G = 1.0;
  const double v = std::sqrt(G * m / (4.0 * r));  // each at distance r from the centre, separation 2r
  s.positions = {{r, 0, 0, m}, {-r, 0, 0, m}};
  s.velocities = {{0, v, 0, 0}, {0, -v, 0, 0}};
  NBodyParams p;
  p.dt = 1e-3;
  p.softening2 = 1e-6;
  p.gravity = G;
  p.damping = 1.0;
  for (const NBodyConfig& c : {config("naive", 32, 1, 1, 1), config("blocked", 32, 8, 2, 2)}) {
    NBodyKernel kernel(*compute_, c);
    NBodyDeviceState state(*compute_, s, c);
    Buffer display(compute_->context(), CL_MEM_WRITE_ONLY, state.padded() * 16);
    const double before = nbodyTotalEnergy(s, p);
    for (int step = 0; step < 100; ++step) {
      kernel.enqueueStep(compute_->queue(), state.positionsIn(), state.positionsOut(), state.velocities(),
                         display.get(), state.padded(), p, nullptr);
      state.swap();
    }
    const NBodySystem after = state.download(compute_->queue());
    const double drift = std::abs(nbodyTotalEnergy(after, p) - before) / std::abs(before);
    EXPECT_LT(drift, 1e-4) << describeNBodyConfig(c);
    // and it did move: a quarter of a degree per step or so
    EXPECT_GT(std::abs(after.positions[0].y), 0.01) << describeNBodyConfig(c);
  }
}

TEST_F(NBodyKernels, TunedConfigurationRunsOnThisDevice) {
  for (size_t n : {size_t{1}, size_t{1000}, size_t{200000}}) {
    const NBodyConfig c = tunedNBodyConfig(compute_->device(), n);
    EXPECT_EQ(nbodyConfigProblem(c, compute_->device()), "") << describeNBodyConfig(c);
  }
  expectMatchesReference(tunedNBodyConfig(compute_->device(), 1000), 1000);
}

TEST(NBodyVariantsTable, ConfigsAreValidAndDescribed) {
  DeviceDescriptor gpu;
  gpu.name = "NVIDIA H200";
  gpu.kind = DeviceKind::Gpu;
  gpu.maxWorkGroupSize = 1024;
  gpu.maxWorkItemSizes = {1024, 1024, 64};
  gpu.localMemBytes = 48 * 1024;
  gpu.extensions = {"cl_khr_fp64"};
  const auto all = allNBodyConfigs(gpu, false);
  EXPECT_GT(all.size(), 50u);
  for (const auto& c : all) EXPECT_EQ(nbodyConfigProblem(c, gpu), "") << describeNBodyConfig(c);
  const NBodyConfig tuned = tunedNBodyConfig(gpu, 262144);
  EXPECT_EQ(tuned.bodiesPerItem, 2);
  EXPECT_TRUE(tuned.denormsAreZero);
  EXPECT_FALSE(tuned.nativeRsqrt);
  EXPECT_EQ(tunedNBodyConfig(gpu, 65536).split, 4);
  gpu.extensions.clear();
  NBodyConfig fp64 = tuned;
  fp64.fp64 = true;
  EXPECT_NE(nbodyConfigProblem(fp64, gpu).find("cl_khr_fp64"), std::string::npos);
  EXPECT_EQ(nbodyPaddedCount(1, tuned), 512u);  // 256 x B=2
  EXPECT_EQ(nbodyGlobalSize(512, tunedNBodyConfig(gpu, 1000)), 1024u);  // 512 / B=2 x S=4
  EXPECT_EQ(nbodyLocalMemoryBytes(fp64), 256u * 32u);
}

}  // namespace
}  // namespace ks
