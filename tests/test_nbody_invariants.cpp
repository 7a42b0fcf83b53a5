// Energy, momentum and angular momentum of the N-body system (issue 23): the CPU
// reference against hand counts and over a two-body orbit, the device's
// measurement against the reference in every precision, at awkward sizes.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>

#include "compute/compute_context.h"
#include "compute/nbody_gpu.h"
#include "compute/nbody_invariants.h"
#include "test_devices.h"
#include "test_require.h"

namespace ks {
namespace {

// Two equal masses on a circular orbit about their centre of mass, separation 2r.
NBodySystem twoBodyOrbit(double m, double r, double G) {
  const double v = std::sqrt(G * m / (4.0 * r));
  NBodySystem s;
  s.positions = {{r, 0, 0, m}, {-r, 0, 0, m}};
  s.velocities = {{0, v, 0, 0}, {0, -v, 0, 0}};
  return s;
}

TEST(NBodyInvariantsReference, TwoBodiesByHand) {
  const double m = 0.5, r = 1.0, G = 2.0, eps2 = 0.01;
  NBodyParams p;
  p.gravity = G;
  p.softening2 = eps2;
  p.dt = 0.01;
  const NBodySystem s = twoBodyOrbit(m, r, G);
  const double v = s.velocities[0].y;
  const NBodyInvariants inv = nbodyReferenceInvariants(s, p);
  // The stored velocity is half a step behind: the half kick a dt/2 points at the
  // other body (a = G m 2r / (4r^2 + eps2)^(3/2)), across the orbit's velocity.
  const double pull = G * m * 2.0 * r / std::pow(4.0 * r * r + eps2, 1.5);
  const double kick = 0.5 * p.dt * pull;
  EXPECT_NEAR(inv.kinetic, m * (v * v + kick * kick), 1e-15);
  EXPECT_GT(m * kick * kick, 1e-3 * 1e-3 * m * v * v) << "the kick's share is far above the tolerance";
  EXPECT_NEAR(inv.potential, -G * m * m / std::sqrt(4.0 * r * r + eps2), 1e-15);
  EXPECT_NEAR(glm::length(inv.momentum), 0.0, 1e-15);
  EXPECT_NEAR(inv.angularMomentum.z, 2.0 * r * m * v, 1e-15);
  EXPECT_NEAR(inv.mass, 1.0, 1e-15);
  EXPECT_NEAR(inv.inertia, 2.0 * m * r * r, 1e-15);
  // Scales: sqrt(2 M K) = sum |m v| here (equal speeds), and sqrt(2 I K) = sum |p| |m v|.
  const double speed = std::sqrt(v * v + kick * kick);
  EXPECT_NEAR(inv.momentumScale(), 2.0 * m * speed, 1e-15);
  EXPECT_NEAR(inv.angularMomentumScale(), 2.0 * r * m * speed, 1e-15);
}

TEST(NBodyInvariantsReference, DriftIsRelativeToTheBaseline) {
  NBodyInvariants base;
  base.kinetic = 1.0;
  base.potential = -3.0;  // E0 = -2
  base.mass = 2.0;        // momentum scale sqrt(2 * 2 * 1) = 2
  base.inertia = 8.0;     // angular momentum scale sqrt(2 * 8 * 1) = 4
  NBodyInvariants now = base;
  now.potential = -3.002;
  now.momentum = {0.0, 0.02, 0.0};
  now.angularMomentum = {0.0, 0.0, -0.4};
  const NBodyDrift d = nbodyDrift(now, base);
  EXPECT_NEAR(d.energy, -0.001, 1e-12);
  EXPECT_NEAR(d.momentum, 0.01, 1e-12);
  EXPECT_NEAR(d.angularMomentum, 0.1, 1e-12);
  EXPECT_EQ(nbodyDrift(base, NBodyInvariants{}).momentum, 0.0) << "no scale: no drift, not a division by zero";
}

// The reference integrator (a kick-drift leapfrog, second order) over about a
// twentieth of an eccentric orbit (70 % of the circular speed: on a circular one the
// error cancels further and falls faster than dt^2): the energy error falls with dt^2
// (half the step, a quarter of the error); momentum and angular momentum are kept to
// rounding (the pair's forces are equal, opposite and along the line between them,
// and so are the half kicks that synchronise the velocities).
TEST(NBodyInvariantsReference, TheReferenceStepsEnergyErrorFallsWithTheSquareOfTheStep) {
  auto driftOver = [](double dt, int steps, NBodySystem* end) {
    NBodyParams p;
    p.dt = dt;
    p.softening2 = 1e-6;
    NBodySystem s = twoBodyOrbit(0.5, 1.0, 1.0);
    for (auto& v : s.velocities) v *= 0.7;
    const NBodyInvariants before = nbodyReferenceInvariants(s, p);
    for (int step = 0; step < steps; ++step) s = nbodyReferenceStep(s, p);
    *end = s;
    return nbodyDrift(nbodyReferenceInvariants(s, p), before);
  };
  NBodySystem end;
  const NBodyDrift coarse = driftOver(1e-2, 100, &end);
  EXPECT_GT(std::abs(end.positions[0].y), 0.2) << "it moved along its orbit";
  const NBodyDrift fine = driftOver(5e-3, 200, &end);
  EXPECT_LT(std::abs(coarse.energy), 1e-6);
  EXPECT_GT(std::abs(fine.energy), 1e-12) << "an error the ratio can be taken of, not rounding";
  EXPECT_NEAR(coarse.energy / fine.energy, 4.0, 0.4);
  EXPECT_LT(coarse.momentum, 1e-12);
  EXPECT_LT(fine.momentum, 1e-12);
  EXPECT_LT(coarse.angularMomentum, 1e-12);
  EXPECT_LT(fine.angularMomentum, 1e-12);
}

class NBodyInvariantsDevice : public ::testing::Test {
 protected:
  void SetUp() override {
    KS_NEED("opencl", test::openClMissing());
    static std::unique_ptr<ComputeContext> shared = test::makeTestCompute();
    compute_ = shared.get();
    ASSERT_NE(compute_, nullptr);
  }
  // The device's figures for `system` as the simulation stores it (float or double),
  // against the reference of exactly those stored values.
  void expectMatches(const NBodySystem& system, bool fp64Positions, bool doubleSums, double tolerance) {
    NBodyConfig config;
    config.fp64 = fp64Positions;
    NBodyDeviceState state(*compute_, system, config);
    NBodyParams p = nbodyPresetDefaults(NBodyPreset::DiskGalaxy, system.size()).params;
    NBodyInvariantsMeter meter(*compute_, fp64Positions, doubleSums);
    meter.enqueue(compute_->queue(), state.positionsIn(), state.velocities(), state.bodies(), p);
    EXPECT_TRUE(meter.busy());
    const std::optional<NBodyInvariants> got = meter.poll(true);
    ASSERT_TRUE(got);
    EXPECT_FALSE(meter.busy());
    const NBodyInvariants want = nbodyReferenceInvariants(state.download(compute_->queue()), p);
    const std::string what = "N=" + std::to_string(system.size()) + (fp64Positions ? " fp64" : " fp32") +
                             (doubleSums ? " double sums" : " float sums");
    ASSERT_TRUE(std::isfinite(got->energy())) << what;
    EXPECT_NEAR(got->kinetic, want.kinetic, tolerance * std::abs(want.energy()) + 1e-300) << what;
    EXPECT_NEAR(got->potential, want.potential, tolerance * std::abs(want.potential) + 1e-300) << what;
    const NBodyDrift d = nbodyDrift(*got, want);
    EXPECT_LT(std::abs(d.energy), tolerance) << what;
    EXPECT_LT(d.momentum, tolerance) << what;
    EXPECT_LT(d.angularMomentum, tolerance) << what;
    EXPECT_NEAR(got->mass, want.mass, tolerance * want.mass) << what;
    EXPECT_NEAR(got->inertia, want.inertia, tolerance * want.inertia) << what;
  }
  ComputeContext* compute_ = nullptr;
};

// 1 (no pairs), 7, 64 and 65 (one past the launch's work-group of 64), 1000.
TEST_F(NBodyInvariantsDevice, MatchTheReferenceInSinglePrecision) {
  for (size_t n : {1, 7, 64, 65, 1000}) {
    const NBodySystem s = makeNBodyPreset(NBodyPreset::DiskGalaxy, n, 7);
    if (compute_->device().hasExtension("cl_khr_fp64")) expectMatches(s, false, true, 1e-6);
    expectMatches(s, false, false, 1e-5);  // float sums, Kahan-compensated
  }
}

TEST_F(NBodyInvariantsDevice, MatchTheReferenceInDoublePrecision) {
  if (!compute_->device().hasExtension("cl_khr_fp64")) GTEST_SKIP() << "the device lacks cl_khr_fp64";
  for (size_t n : {1, 65, 1000}) expectMatches(makeNBodyPreset(NBodyPreset::CollidingGalaxies, n, 3), true, true, 1e-12);
}

// A single body has no potential energy; its momentum is m v.
TEST_F(NBodyInvariantsDevice, OneBodyHasOnlyKineticEnergy) {
  NBodySystem s;
  s.positions = {{1, 2, 3, 2.0}};
  s.velocities = {{0.5, 0, 0, 0}};
  NBodyConfig config;
  NBodyDeviceState state(*compute_, s, config);
  NBodyInvariantsMeter meter(*compute_, false);
  meter.enqueue(compute_->queue(), state.positionsIn(), state.velocities(), 1, NBodyParams{});
  const auto got = meter.poll(true);
  ASSERT_TRUE(got);
  EXPECT_EQ(got->potential, 0.0);
  EXPECT_FLOAT_EQ(static_cast<float>(got->kinetic), 0.25f);
  EXPECT_FLOAT_EQ(static_cast<float>(got->momentum.x), 1.0f);
}

}  // namespace
}  // namespace ks
