// The N-body step split over several devices of one platform (issue 24): the
// slices, the device list, and on real devices (PoCL's CPU driver listed three
// times through POCL_DEVICES, set for this test in tests/CMakeLists.txt) the
// same positions and velocities as one device after several steps, bit for bit,
// for every variant, over an uneven N and unequal and re-balanced slices.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <memory>
#include <numeric>
#include <thread>
#include <stdexcept>
#include <string>
#include <vector>

#include "compute/device_catalog.h"
#include "compute/device_group.h"
#include "compute/nbody_multi_device.h"
#include "compute/nbody_slice_balance.h"
#include "compute/nbody_split_invariants.h"
#include "test_devices.h"
#include "test_require.h"

namespace ks {
namespace {

std::vector<size_t> counts(const std::vector<NBodySlice>& slices) {
  std::vector<size_t> out;
  for (const NBodySlice& s : slices) out.push_back(s.count);
  return out;
}

void expectContiguous(const std::vector<NBodySlice>& slices, size_t padded) {
  size_t next = 0;
  for (const NBodySlice& s : slices) {
    EXPECT_EQ(s.first, next);
    EXPECT_GT(s.count, 0u);
    next += s.count;
  }
  EXPECT_EQ(next, padded);
}

TEST(NBodySlices, EqualWeightsSplitWholeGroupsAsEvenlyAsTheyCan) {
  // 4099 bodies in groups of 64: 65 groups over 3 devices.
  const auto s = nbodySlices(4160, 64, {1, 1, 1});
  EXPECT_EQ(counts(s), (std::vector<size_t>{22 * 64, 22 * 64, 21 * 64}));
  expectContiguous(s, 4160);
}

TEST(NBodySlices, SizesFollowTheWeightsAndEveryDeviceGetsAGroup) {
  const auto s = nbodySlices(100 * 32, 32, {1, 3});
  EXPECT_EQ(counts(s), (std::vector<size_t>{25 * 32, 75 * 32}));
  // A device 1000 times slower still gets one group, and a non-positive or NaN
  // weight counts as the mean of the others.
  EXPECT_EQ(counts(nbodySlices(10 * 32, 32, {1, 1000})), (std::vector<size_t>{32, 9 * 32}));
  EXPECT_EQ(counts(nbodySlices(4 * 32, 32, {2, 0, std::nan("")})), (std::vector<size_t>{2 * 32, 32, 32}));
  expectContiguous(nbodySlices(7 * 256, 256, {0.3, 0.3, 0.4}), 7 * 256);
  EXPECT_THROW(nbodySlices(2 * 256, 256, {1, 1, 1}), NBodyConfigError);
}

TEST(NBodySlices, LoadBalanceIsTheMeanOverTheSlowest) {
  EXPECT_DOUBLE_EQ(nbodyLoadBalance({10, 10}), 1.0);
  EXPECT_DOUBLE_EQ(nbodyLoadBalance({5, 10}), 0.75);
  EXPECT_DOUBLE_EQ(nbodyLoadBalance({}), 0.0);
}

// Three devices equally fast per body (64 bodies a millisecond), the first also
// busy 30 ms a step with other work (the drawing of the device that draws). By
// kernel times alone the slices stay equal and the others wait 30 ms a step for
// it; by whole shares it gets fewer bodies and all finish together.
TEST(NBodySliceBalance, TheDeviceWithOtherWorkGetsFewerBodiesSoThatAllFinishTogether) {
  const size_t group = 64, padded = 300 * group;
  const std::vector<NBodySlice> equal = nbodySlices(padded, group, {1, 1, 1});
  ASSERT_EQ(counts(equal), (std::vector<size_t>{100 * group, 100 * group, 100 * group}));
  const std::vector<NBodyDeviceCost> costs = {{100.0, 30.0}, {100.0, 0.0}, {100.0, 0.0}};
  EXPECT_NEAR(nbodyCostBalance(costs), 110.0 / 130.0, 1e-12);
  // A common time T: 64 * (T - 30) + 2 * 64 * T = 19200 bodies, T = 110 ms.
  const auto next = nbodySlices(padded, group, nbodyBalancedWeights(equal, costs));
  EXPECT_EQ(counts(next), (std::vector<size_t>{80 * group, 110 * group, 110 * group}));
  expectContiguous(next, padded);
  // The shares those slices give: 80 + 30 and 110 ms, all alike.
  std::vector<NBodyDeviceCost> after;
  for (size_t d = 0; d < 3; ++d) after.push_back({next[d].count / 64.0, d == 0 ? 30.0 : 0.0});
  EXPECT_NEAR(nbodyCostBalance(after), 1.0, 1e-12);
  // Unequal speeds too: the second device twice as fast, the first busy 20 ms.
  const std::vector<NBodySlice> now = {{0, 100 * group}, {100 * group, 100 * group}, {200 * group, 100 * group}};
  const auto uneven = nbodySlices(padded, group, nbodyBalancedWeights(now, {{100.0, 20.0}, {50.0, 0.0}, {100.0, 0.0}}));
  // 64 (T - 20) + 128 T + 64 T = 19200: T = 80 ms; 60, 160 and 80 groups.
  EXPECT_EQ(counts(uneven), (std::vector<size_t>{60 * group, 160 * group, 80 * group}));
  // Other work beyond the common time leaves the device one group; no kernel
  // time counts as the others' mean speed; NaN is no other work.
  EXPECT_EQ(counts(nbodySlices(padded, group, nbodyBalancedWeights(equal, {{100, 1e6}, {100, 0}, {100, 0}})))[0],
            group);
  EXPECT_EQ(counts(nbodySlices(padded, group, nbodyBalancedWeights(equal, {{0, 0}, {100, std::nan("")}, {100, 0}}))),
            counts(equal));
}

// Four H200s at N = 1M (second GPU round): 512 bodies a work-group, 132 SMs; GPU
// 0's kernel stretched by the drawing. By bodies alone the cut moves bodies off
// GPU 0, but its 463 groups are still 4 a SM (no faster) and 529 on GPU 1 are 5
// on one SM: 174 ms instead of 140, the frames the round measured.
TEST(NBodySliceBalance, APredictionCountsWorkGroupsPerComputeUnit) {
  const size_t group = 512;
  const std::vector<unsigned> sms(4, 132);
  auto cut = [&](std::vector<size_t> groups) {
    std::vector<NBodySlice> out;
    size_t first = 0;
    for (size_t g : groups) out.push_back({first, g * group}), first += g * group;
    return out;
  };
  const std::vector<NBodySlice> now = cut({512, 512, 512, 512});
  const std::vector<NBodyDeviceCost> costs = {{146.8, 0.0}, {139.5, 0.0}, {139.5, 0.0}, {139.5, 0.0}};
  const std::vector<NBodySlice> byBodies = nbodySlices(2048 * group, group, nbodyBalancedWeights(now, costs));
  EXPECT_LT(byBodies[0].count, now[0].count);
  EXPECT_NEAR(nbodyPredictedSlowestMs(now, cut({463, 529, 528, 528}), group, sms, costs), 139.5 * 5 / 4, 1e-9);
  EXPECT_NEAR(nbodyPredictedSlowestMs(now, now, group, sms, costs), 146.8, 1e-9);
  // Three a SM on GPU 0 is faster there, and the other work counts on top.
  EXPECT_NEAR(nbodyPredictedSlowestMs(now, cut({396, 512, 512, 628}), group, sms,
                                      {{140.0, 8.0}, {140.0, 0.0}, {140.0, 0.0}, {140.0, 0.0}}),
              140.0 * 5 / 4, 1e-9);
  // One group fewer on two compute units is no round fewer: still 10 + 30 ms.
  EXPECT_NEAR(nbodyPredictedSlowestMs(cut({2, 2}), cut({1, 3}), group, {2, 2}, {{10.0, 30.0}, {10.0, 0.0}}),
              40.0, 1e-9);
}

TEST(NBodySliceBalance, MediansPerDeviceLeaveOutFramesOfAnotherDeviceCount) {
  const auto m = nbodyMedianCosts({{{1, 9}}, {{5, 1}, {6, 2}}, {{3, 3}, {2, 4}}, {{4, 5}, {10, 6}}});
  ASSERT_EQ(m.size(), 2u);
  EXPECT_DOUBLE_EQ(m[0].kernelMs, 4.0);
  EXPECT_DOUBLE_EQ(m[0].otherMs, 3.0);
  EXPECT_DOUBLE_EQ(m[1].kernelMs, 6.0);
  EXPECT_DOUBLE_EQ(m[1].otherMs, 4.0);
}

DeviceDescriptor fakeDevice(int platform, int index, const std::string& platformName) {
  return test::fakeDevice(platform, index, platformName, "device " + std::to_string(index));
}

TEST(DeviceList, ParsesAllAndNumbersAndRefusesTheRest) {
  std::string error;
  auto all = parseDeviceList("all", &error);
  ASSERT_TRUE(all);
  EXPECT_TRUE(all->all());
  auto some = parseDeviceList("0,2", &error);
  ASSERT_TRUE(some);
  EXPECT_EQ(some->indices, (std::vector<int>{0, 2}));
  for (const char* bad : {"", "0,", ",1", "x", "1;2", "-1", "0,,1", "1.5"}) {
    error.clear();
    EXPECT_FALSE(parseDeviceList(bad, &error)) << bad;
    EXPECT_NE(error.find("device numbers separated by commas"), std::string::npos) << bad << ": " << error;
  }
}

TEST(DeviceList, AMissingOrRepeatedDeviceIsAClearError) {
  const std::vector<DeviceDescriptor> catalog = {fakeDevice(0, 0, "A"), fakeDevice(0, 1, "A"), fakeDevice(1, 0, "B")};
  EXPECT_EQ(resolveDeviceList(catalog, 0, {{1, 0}}).size(), 2u);
  EXPECT_EQ(resolveDeviceList(catalog, 0, {}).size(), 2u);  // all of platform 0
  try {
    resolveDeviceList(catalog, 0, {{0, 5}});
    FAIL() << "device 5 accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("there is no device 5 on platform 0 (A), which has 2 devices (0 to 1)"),
              std::string::npos)
        << e.what();
  }
  EXPECT_THROW(resolveDeviceList(catalog, 0, {{1, 1}}), std::runtime_error);
}

TEST(DeviceList, DevicesOfTwoPlatformsAreRefused) {
  const std::string problem = deviceGroupProblem({fakeDevice(0, 0, "A"), fakeDevice(1, 0, "B")});
  EXPECT_NE(problem.find("all devices must be of the same OpenCL platform"), std::string::npos) << problem;
  EXPECT_TRUE(deviceGroupProblem({fakeDevice(0, 0, "A"), fakeDevice(0, 1, "A")}).empty());
  EXPECT_FALSE(deviceGroupProblem({}).empty());
}

// Three devices of one platform, or why there are not.
std::vector<DeviceDescriptor> threeDevices(std::string* missing) {
  const DeviceCatalog catalog = enumerateDevices();
  for (int p = 0; p < catalog.platformCount; ++p) {
    std::vector<DeviceDescriptor> onPlatform;
    for (const DeviceDescriptor& d : catalog.devices)
      if (d.platformIndex == p && d.available) onPlatform.push_back(d);
    if (onPlatform.size() >= 3) {
      onPlatform.resize(3);
      return onPlatform;
    }
  }
  *missing = "the split needs 3 OpenCL devices of one platform (tests/CMakeLists.txt sets POCL_DEVICES for PoCL); "
             "found " + std::to_string(catalog.devices.size()) + " device(s) over " +
             std::to_string(catalog.platformCount) + " platform(s)";
  return {};
}

class NBodyMultiDeviceRun : public ::testing::Test {
 protected:
  void SetUp() override {
    KS_NEED("opencl", test::openClMissing());
    std::string missing;
    devices_ = threeDevices(&missing);
    // Under KS_REQUIRE=opencl too few devices is a failure, not a skip.
    KS_NEED("opencl", missing);
    group_ = std::make_unique<DeviceGroup>(devices_, test::testKernelsDir());
  }
  static NBodySystem system(size_t n) { return makeNBodyPreset(NBodyPreset::DiskGalaxy, n, 7); }
  static NBodyParams params(size_t n) { return nbodyPresetDefaults(NBodyPreset::DiskGalaxy, n).params; }

  // `steps` steps on the group's first device alone.
  NBodySystem oneDevice(const NBodyConfig& c, const NBodySystem& start, int steps) {
    ComputeContext& compute = (*group_)[0];
    NBodyKernel kernel(compute, c);
    NBodyDeviceState state(compute, start, c);
    Buffer display(compute.context(), CL_MEM_WRITE_ONLY, state.padded() * 4 * sizeof(float));
    for (int s = 0; s < steps; ++s) {
      kernel.enqueueStep(compute.queue(), state.positionsIn(), state.positionsOut(), state.velocities(), display.get(),
                         state.padded(), params(start.size()), nullptr);
      state.swap();
    }
    compute.queue().finish();
    return state.download(compute.queue());
  }

  static void expectSame(const NBodySystem& a, const NBodySystem& b, const std::string& what) {
    ASSERT_EQ(a.size(), b.size()) << what;
    size_t differ = 0, first = a.size();
    for (size_t i = 0; i < a.size(); ++i) {
      for (int c = 0; c < 4; ++c) {
        ASSERT_TRUE(std::isfinite(b.positions[i][c]) && std::isfinite(b.velocities[i][c]))
            << what << ": not finite at body " << i;
      }
      if (a.positions[i] != b.positions[i] || a.velocities[i] != b.velocities[i]) {
        ++differ;
        first = std::min(first, i);
      }
    }
    EXPECT_EQ(differ, 0u) << what << ": " << differ << " bodies differ from one device, the first is body " << first;
  }

  std::vector<DeviceDescriptor> devices_;
  std::unique_ptr<DeviceGroup> group_;
};

NBodyConfig config(const std::string& variant, int wg, int unroll, int b, int split) {
  NBodyConfig c;
  c.variant = variant;
  c.workGroup = wg;
  c.unroll = unroll;
  c.bodiesPerItem = b;
  c.split = split;
  return c;
}

TEST_F(NBodyMultiDeviceRun, EveryVariantGivesOneDevicesPositionsOverThreeSlicesOfAnUnevenN) {
  const size_t n = 4099;
  const int steps = 3;
  const NBodySystem start = system(n);
  for (const NBodyConfig& c : {config("naive", 64, 1, 1, 1), config("tiled", 64, 4, 1, 1),
                               config("blocked", 32, 2, 2, 2), config("blocked", 64, 8, 4, 1)}) {
    SCOPED_TRACE(describeNBodyConfig(c));
    const NBodySystem expected = oneDevice(c, start, steps);
    NBodyMultiDevice split(*group_, start, c);
    ASSERT_EQ(split.devices(), 3u);
    // Three slices that differ in size: the first device's ends mid-way through the bodies.
    EXPECT_GT(split.slices()[0].count, 0u);
    EXPECT_GT(split.slices()[2].count, 0u);
    for (int s = 0; s < steps; ++s) {
      const NBodyMultiStepTimes t = split.step(params(n));
      ASSERT_EQ(t.kernelMs.size(), 3u);
      for (double ms : t.kernelMs) EXPECT_GT(ms, 0.0);
      EXPECT_GE(t.stepMs, *std::max_element(t.kernelMs.begin(), t.kernelMs.end()) * 0.5);
    }
    expectSame(expected, split.download(), describeNBodyConfig(c));
  }
}

TEST_F(NBodyMultiDeviceRun, UnequalAndRebalancedSlicesKeepEveryBodysState) {
  const size_t n = 4099;
  const NBodyConfig c = config("blocked", 64, 4, 2, 1);
  const NBodySystem start = system(n);
  const NBodySystem expected = oneDevice(c, start, 4);
  NBodyMultiDevice split(*group_, start, c);
  const size_t g = nbodyBodiesPerGroup(c), padded = split.padded();
  split.step(params(n));
  // Bodies change devices between steps: their velocities must go with them.
  split.setSlices({{0, g}, {g, padded - 3 * g}, {padded - 2 * g, 2 * g}});
  split.step(params(n));
  // Per body the first two devices were as fast, the last twice as fast: 1:1:2.
  EXPECT_TRUE(split.rebalance({1.0, static_cast<double>(padded - 3 * g) / g, 1.0}));
  EXPECT_GT(split.slices()[0].count, g);
  split.step(params(n));
  EXPECT_TRUE(split.rebalance({4.0, 1.0, 1.0}));
  split.step(params(n));
  expectSame(expected, split.download(), "after re-balancing");
  EXPECT_THROW(split.setSlices({{0, g}, {g, g}}), NBodyConfigError);
}

// The balancer's input given, not timed: each device as fast per body, device 0
// with other work half its kernel time. Its slice shrinks, and the bodies that
// change devices keep their state.
TEST_F(NBodyMultiDeviceRun, OtherWorkOnTheDisplayDeviceShrinksItsSliceAndTheBodiesStayOneDevices) {
  const size_t n = 4099;
  const NBodyConfig c = config("tiled", 64, 4, 1, 1);
  const NBodySystem start = system(n);
  const NBodySystem expected = oneDevice(c, start, 3);
  NBodyMultiDevice split(*group_, start, c);
  split.step(params(n));
  std::vector<NBodyDeviceCost> costs;
  for (const NBodySlice& s : split.slices()) costs.push_back({static_cast<double>(s.count), 0.0});
  costs[0].otherMs = costs[0].kernelMs * 0.5;
  const std::vector<NBodySlice> before = split.slices();
  EXPECT_TRUE(split.rebalance(costs));
  EXPECT_LT(split.slices()[0].count, before[0].count);
  EXPECT_GT(split.slices()[1].count, before[1].count);
  // Each device's kernel at the same speed plus its other work: within a group's time of each other.
  std::vector<NBodyDeviceCost> predicted;
  for (size_t d = 0; d < 3; ++d) predicted.push_back({static_cast<double>(split.slices()[d].count), costs[d].otherMs});
  EXPECT_GT(nbodyCostBalance(predicted), nbodyCostBalance(costs));
  split.launch(params(n));  // a step in flight when the next re-size comes: it completes by the old slices
  EXPECT_TRUE(split.rebalance({{100.0, 0.0}, {50.0, 0.0}, {100.0, 0.0}}));
  EXPECT_FALSE(split.stepPending());
  split.step(params(n));
  expectSame(expected, split.download(), "after re-sizing by whole shares");
}

// The viewer's way: each step launched while the last one's values are shown.
// The display values of a completed step stay as they were while the next step
// runs to its end (two buffers), and the positions after S steps are one
// device's, whether a step completes by the next launch, by completeStep or by download.
TEST_F(NBodyMultiDeviceRun, StepsAFrameBehindKeepTheShownValuesAndOneDevicesPositions) {
  const size_t n = 4099;
  const NBodyConfig c = config("blocked", 32, 2, 2, 2);
  const NBodySystem start = system(n);
  NBodyMultiDevice split(*group_, start, c);
  split.gatherDisplayEachStep();
  EXPECT_EQ(split.displayOnHost(), nullptr) << "no step completed yet";
  split.launch(params(n));
  EXPECT_TRUE(split.stepPending());
  const NBodyMultiStepTimes first = split.completeStep();
  ASSERT_EQ(first.kernelMs.size(), 3u);
  ASSERT_EQ(first.waitMs.size(), 3u);
  for (size_t d = 0; d < 3; ++d) {
    EXPECT_GT(first.kernelMs[d], 0.0);
    EXPECT_GE(first.waitMs[d], 0.0);
    EXPECT_TRUE(std::isfinite(first.waitMs[d]));
  }
  const float* shown = split.displayOnHost();
  ASSERT_NE(shown, nullptr);
  const std::vector<float> afterOne(shown, shown + split.padded() * 4);
  const NBodySystem one = oneDevice(c, start, 1);
  for (size_t i = 0; i < n; ++i)
    for (int k = 0; k < 3; ++k)
      ASSERT_EQ(afterOne[i * 4 + k], static_cast<float>(one.positions[i][k])) << "body " << i;
  split.launch(params(n));  // step 2 runs to its end: its values must not replace step 1's on show
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (!split.pendingStepFinished() && std::chrono::steady_clock::now() < until)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  ASSERT_TRUE(split.pendingStepFinished());
  EXPECT_EQ(std::vector<float>(split.displayOnHost(), split.displayOnHost() + split.padded() * 4), afterOne);
  split.launch(params(n));  // completes step 2 first
  split.launch(params(n));
  expectSame(oneDevice(c, start, 4), split.download(), "four steps a frame behind");
  EXPECT_FALSE(split.stepPending());
  split.launch(params(n));
  split.completeStep();
  expectSame(oneDevice(c, start, 5), split.download(), "and one more completed by completeStep");
}

TEST_F(NBodyMultiDeviceRun, ASingleDeviceGroupRunsLikeOneDevice) {
  const size_t n = 1000;
  const NBodyConfig c = config("tiled", 64, 8, 1, 1);
  const NBodySystem start = system(n);
  const NBodySystem expected = oneDevice(c, start, 2);
  DeviceGroup one({devices_[0]}, test::testKernelsDir());
  NBodyMultiDevice split(one, start, c);
  split.step(params(n));
  split.step(params(n));
  expectSame(expected, split.download(), "one device through the split");
}

// Energy and momenta while split (each slice's velocities gathered on the first
// device, which holds all positions) are one device's figures for the same
// bodies. Over unequal slices of an uneven N whose last slice is partly padding.
TEST_F(NBodyMultiDeviceRun, EnergyAndMomentaOverTheSlicesAreOneDevicesFigures) {
  const size_t n = 4099;
  const NBodyConfig c = config("tiled", 64, 4, 1, 1);
  const NBodySystem start = system(n);
  NBodyMultiDevice split(*group_, start, c);
  const size_t g = nbodyBodiesPerGroup(c), padded = split.padded();
  split.setSlices({{0, 3 * g}, {3 * g, padded - 5 * g}, {padded - 2 * g, 2 * g}});
  for (int s = 0; s < 3; ++s) split.step(params(n));
  NBodySplitInvariants meters(*group_, c.fp64);
  split.step(params(n));  // a measurement after steps enqueued on every queue
  meters.enqueue(split, params(n));
  EXPECT_TRUE(meters.busy());
  const std::optional<NBodyInvariants> got = meters.poll(true);
  ASSERT_TRUE(got);
  EXPECT_FALSE(meters.busy());
  EXPECT_GT(meters.lastKernelMs(), 0.0);

  // The same bodies measured on one device.
  const NBodySystem now = split.download();
  ComputeContext& compute = (*group_)[0];
  NBodyDeviceState one(compute, now, c);
  NBodyInvariantsMeter meter(compute, c.fp64);
  meter.enqueue(compute.queue(), one.positionsIn(), one.velocities(), n, params(n));
  const std::optional<NBodyInvariants> want = meter.poll(true);
  ASSERT_TRUE(want);
  auto expectNear = [](double got, double want, const char* what) {
    ASSERT_TRUE(std::isfinite(got)) << what;
    EXPECT_NEAR(got, want, 1e-9 * std::abs(want) + 1e-300) << what;
  };
  expectNear(got->kinetic, want->kinetic, "kinetic energy");
  expectNear(got->potential, want->potential, "potential energy");
  expectNear(got->mass, want->mass, "mass");
  expectNear(got->inertia, want->inertia, "inertia");
  const double p = want->momentumScale(), l = want->angularMomentumScale();
  for (int k = 0; k < 3; ++k) {
    EXPECT_NEAR(got->momentum[k], want->momentum[k], 1e-9 * p) << "momentum " << k;
    EXPECT_NEAR(got->angularMomentum[k], want->angularMomentum[k], 1e-9 * l) << "angular momentum " << k;
  }
  // And the host's double-precision reference, as loosely as the meter's own tests.
  const NBodyInvariants reference = nbodyReferenceInvariants(now, params(n));
  EXPECT_NEAR(got->energy(), reference.energy(), 1e-4 * std::abs(reference.energy()));
}

}  // namespace
}  // namespace ks
