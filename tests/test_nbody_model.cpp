// compute/nbody_model.h: the start presets, the double-precision CPU reference
// (checked against closed forms and an independent naive sum), energy, and the
// binary save/load with every kind of damaged file it must refuse.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "compute/nbody_model.h"
#include "test_support.h"

namespace ks {
namespace {
namespace fs = std::filesystem;
using test::readFile;
using test::TempDir;
using test::writeFile;

double totalMass(const NBodySystem& system) {
  double mass = 0.0;
  for (const auto& p : system.positions) mass += p.w;
  return mass;
}

glm::dvec3 momentum(const NBodySystem& system) {
  glm::dvec3 sum(0.0);
  for (size_t i = 0; i < system.size(); ++i) sum += system.positions[i].w * glm::dvec3(system.velocities[i]);
  return sum;
}

// Bodies with random positions in [-1, 1]^3, masses in [0.1, 1] (normalised to
// a total of 1) and velocities in [-0.5, 0.5]^3: independent of the presets.
NBodySystem randomSystem(size_t n, uint64_t seed) {
  std::mt19937_64 engine(seed);
  std::uniform_real_distribution<double> unit(-1.0, 1.0), mass(0.1, 1.0);
  NBodySystem system;
  double total = 0.0;
  for (size_t i = 0; i < n; ++i) {
    system.positions.emplace_back(unit(engine), unit(engine), unit(engine), mass(engine));
    system.velocities.emplace_back(0.5 * unit(engine), 0.5 * unit(engine), 0.5 * unit(engine), 0.0);
    total += system.positions.back().w;
  }
  for (auto& p : system.positions) p.w /= total;
  return system;
}

bool sameData(const NBodySystem& a, const NBodySystem& b) {
  return a.positions == b.positions && a.velocities == b.velocities;
}

// ---- presets ---------------------------------------------------------------------

TEST(NBodyModelPresets, NamesParseBackAndNothingElseDoes) {
  const std::vector<std::string> expected = {"cube", "shell", "disk", "collision"};
  std::vector<std::string> names;
  for (NBodyPreset preset : kNBodyPresets) {
    names.push_back(nbodyPresetName(preset));
    const auto parsed = parseNBodyPreset(nbodyPresetName(preset));
    ASSERT_TRUE(parsed.has_value()) << nbodyPresetName(preset);
    EXPECT_EQ(*parsed, preset);
  }
  EXPECT_EQ(names, expected);
  for (const char* wrong : {"", "Cube", "DISK", "disk ", " shell", "galaxy", "collisions", "unknown"})
    EXPECT_FALSE(parseNBodyPreset(wrong).has_value()) << "'" << wrong << "'";
}

TEST(NBodyModelPresets, SameSeedGivesSameDataAndOtherSeedsDiffer) {
  for (NBodyPreset preset : kNBodyPresets) {
    SCOPED_TRACE(nbodyPresetName(preset));
    const NBodySystem a = makeNBodyPreset(preset, 1000, 42);
    const NBodySystem b = makeNBodyPreset(preset, 1000, 42);
    const NBodySystem c = makeNBodyPreset(preset, 1000, 43);
    EXPECT_TRUE(sameData(a, b));
    ASSERT_EQ(a.size(), c.size());
    size_t differing = 0;
    for (size_t i = 0; i < a.size(); ++i) differing += a.positions[i] != c.positions[i];
    // Every body but the galaxies' central ones (which sit at fixed centres).
    EXPECT_GE(differing, a.size() - 2);
  }
}

TEST(NBodyModelPresets, CountsMassAndValuesAreRightForEverySize) {
  for (NBodyPreset preset : kNBodyPresets) {
    for (size_t n : {size_t{1}, size_t{2}, size_t{7}, size_t{1000}}) {
      SCOPED_TRACE(std::string(nbodyPresetName(preset)) + " n=" + std::to_string(n));
      const NBodySystem system = makeNBodyPreset(preset, n, 7);
      ASSERT_EQ(system.positions.size(), n);
      ASSERT_EQ(system.velocities.size(), n);
      EXPECT_NEAR(totalMass(system), 1.0, 1e-12);
      for (size_t i = 0; i < n; ++i) {
        const glm::dvec4& p = system.positions[i];
        const glm::dvec4& v = system.velocities[i];
        for (int c = 0; c < 4; ++c) {
          ASSERT_TRUE(std::isfinite(p[c])) << "body " << i;
          ASSERT_TRUE(std::isfinite(v[c])) << "body " << i;
        }
        EXPECT_GT(p.w, 0.0) << "body " << i;
        EXPECT_EQ(v.w, 0.0) << "body " << i;
        EXPECT_LT(glm::length(glm::dvec3(p)), 5.0) << "body " << i;
      }
      // Built at rest as a whole, so it stays in front of the camera.
      EXPECT_LT(glm::length(momentum(system)), 1e-12);
    }
  }
}

TEST(NBodyModelPresets, EqualMassesExceptTheGalaxiesCentralBodies) {
  for (NBodyPreset preset : {NBodyPreset::RandomCube, NBodyPreset::SphereShell}) {
    const NBodySystem system = makeNBodyPreset(preset, 1000, 3);
    for (const auto& p : system.positions) ASSERT_DOUBLE_EQ(p.w, 1.0 / 1000.0) << nbodyPresetName(preset);
  }
  const NBodySystem disk = makeNBodyPreset(NBodyPreset::DiskGalaxy, 1000, 3);
  EXPECT_EQ(std::max_element(disk.positions.begin(), disk.positions.end(),
                             [](const auto& a, const auto& b) { return a.w < b.w; }) -
                disk.positions.begin(),
            0);
  for (size_t i = 2; i < disk.size(); ++i) ASSERT_DOUBLE_EQ(disk.positions[i].w, disk.positions[1].w);
}

TEST(NBodyModelPresets, CubeAndShellHaveTheirShapes) {
  const NBodySystem cube = makeNBodyPreset(NBodyPreset::RandomCube, 2000, 5);
  glm::dvec3 low(1e9), high(-1e9);
  for (const auto& p : cube.positions) {
    low = glm::min(low, glm::dvec3(p));
    high = glm::max(high, glm::dvec3(p));
  }
  for (int c = 0; c < 3; ++c) {  // side 2, filled to the edges (centring moves it a little)
    EXPECT_NEAR(low[c], -1.0, 0.1);
    EXPECT_NEAR(high[c], 1.0, 0.1);
  }

  const NBodySystem shell = makeNBodyPreset(NBodyPreset::SphereShell, 2000, 5);
  glm::dvec3 spin(0.0);
  for (size_t i = 0; i < shell.size(); ++i) {
    const glm::dvec3 p(shell.positions[i]), v(shell.velocities[i]);
    EXPECT_NEAR(glm::length(p), 1.0, 0.06) << "body " << i;
    // Tangential: hardly any radial motion, so the shell falls in as one.
    EXPECT_LT(std::abs(glm::dot(glm::normalize(p), v)), 0.1 * glm::length(v)) << "body " << i;
    EXPECT_LT(glm::length(v), 1.0) << "body " << i;  // below the circular speed: it collapses
    spin += glm::cross(p, v) * shell.positions[i].w;
  }
  EXPECT_LT(glm::length(spin), 0.05);  // random directions: no net rotation
}

TEST(NBodyModelPresets, DiskOrbitsTurnForwardAtTheEnclosedMassSpeed) {
  const size_t n = 4000;
  const NBodySystem disk = makeNBodyPreset(NBodyPreset::DiskGalaxy, n, 11);
  const NBodyParams params = nbodyPresetDefaults(NBodyPreset::DiskGalaxy, n).params;
  ASSERT_EQ(disk.size(), n);
  // The heavy central body first, at the centre.
  EXPECT_GT(disk.positions[0].w, 100.0 * disk.positions[1].w);
  EXPECT_LT(glm::length(glm::dvec3(disk.positions[0])), 1e-12);

  // Enclosed mass by cylindrical radius, counted from the data.
  std::vector<std::pair<double, double>> radiusMass;
  for (size_t i = 1; i < n; ++i)
    radiusMass.emplace_back(glm::length(glm::dvec2(disk.positions[i])), disk.positions[i].w);
  std::sort(radiusMass.begin(), radiusMass.end());
  std::vector<double> radii, enclosed;
  double mass = disk.positions[0].w;
  for (const auto& [r, m] : radiusMass) {
    radii.push_back(r);
    enclosed.push_back(mass);
    mass += m;
  }
  auto enclosedAt = [&](double r) {
    return enclosed[std::lower_bound(radii.begin(), radii.end(), r) - radii.begin()];
  };

  std::vector<glm::dvec3> accelerations;
  nbodyReferenceAccelerations(disk, params, accelerations);
  const double eps = std::sqrt(params.softening2);
  std::vector<double> speedRatios, balanceRatios;
  for (size_t i = 1; i < n; ++i) {
    const glm::dvec3 p(disk.positions[i]), v(disk.velocities[i]);
    EXPECT_LT(std::abs(p.z), 0.05) << "body " << i;  // thin
    const double r = glm::length(glm::dvec2(p));
    const glm::dvec3 outward = glm::dvec3(p.x, p.y, 0.0) / r;
    const glm::dvec3 forward(-outward.y, outward.x, 0.0);  // counter-clockwise seen from +z
    const double tangential = glm::dot(v, forward);
    ASSERT_GT(tangential, 0.0) << "body " << i << " turns the wrong way";
    EXPECT_LT(std::abs(glm::dot(v, outward)), 0.3 * tangential) << "body " << i;  // near-circular
    if (r < 3.0 * eps) continue;
    const double keplerian = std::sqrt(params.gravity * enclosedAt(r) / r);
    speedRatios.push_back(tangential / keplerian);
    // Centripetal balance against the reference's own pull towards the centre.
    balanceRatios.push_back(tangential * tangential / (r * -glm::dot(accelerations[i], outward)));
  }
  ASSERT_GT(speedRatios.size(), n / 2);
  // Every orbit roughly at sqrt(G M(<r) / r) (a disk's pull differs from a
  // sphere's by up to ~20%; the orbits also have 10% random motion)...
  for (double ratio : speedRatios) {
    EXPECT_GT(ratio, 0.7);
    EXPECT_LT(ratio, 1.3);
  }
  // ... and on average exactly balancing the measured pull.
  std::sort(balanceRatios.begin(), balanceRatios.end());
  EXPECT_NEAR(balanceRatios[balanceRatios.size() / 2], 1.0, 0.05);
}

TEST(NBodyModelPresets, CollidingGalaxiesApproachWithDifferentTilts) {
  const size_t n = 2000;
  const NBodySystem system = makeNBodyPreset(NBodyPreset::CollidingGalaxies, n, 13);
  // Central bodies: the first body of each half.
  const size_t second = (n + 1) / 2;
  const glm::dvec3 centreA(system.positions[0]), centreB(system.positions[second]);
  const glm::dvec3 velocityA(system.velocities[0]), velocityB(system.velocities[second]);
  EXPECT_GT(system.positions[0].w, 50.0 * system.positions[1].w);
  EXPECT_GT(system.positions[second].w, 50.0 * system.positions[1].w);
  EXPECT_GT(glm::length(centreB - centreA), 2.0);
  // Approaching: the separation shrinks.
  EXPECT_LT(glm::dot(centreB - centreA, velocityB - velocityA), 0.0);

  // Each half is a disk around its centre; their spin axes are tilted apart.
  auto spinAxis = [&](size_t begin, size_t end, const glm::dvec3& centre, const glm::dvec3& velocity) {
    glm::dvec3 spin(0.0);
    for (size_t i = begin + 1; i < end; ++i) {
      const glm::dvec3 p = glm::dvec3(system.positions[i]) - centre;
      EXPECT_LT(glm::length(p), 1.0) << "body " << i;
      spin += glm::cross(p, glm::dvec3(system.velocities[i]) - velocity);
    }
    return glm::normalize(spin);
  };
  const glm::dvec3 axisA = spinAxis(0, second, centreA, velocityA);
  const glm::dvec3 axisB = spinAxis(second, n, centreB, velocityB);
  EXPECT_LT(glm::dot(axisA, axisB), std::cos(20.0 * 3.14159265 / 180.0));
}

TEST(NBodyModelPresets, DefaultsAreUsableAndSofteningShrinksWithN) {
  for (NBodyPreset preset : kNBodyPresets) {
    SCOPED_TRACE(nbodyPresetName(preset));
    double previous = std::numeric_limits<double>::infinity();
    for (size_t n : {size_t{1}, size_t{1024}, size_t{4096}, size_t{32768}, size_t{262144}, size_t{1} << 22}) {
      const NBodyPresetDefaults d = nbodyPresetDefaults(preset, n);
      EXPECT_GT(d.params.dt, 0.0);
      EXPECT_LT(d.params.dt, 0.05);
      EXPECT_GT(d.params.softening2, 0.0);
      EXPECT_LE(d.params.softening2, previous) << "n=" << n;
      EXPECT_GT(d.params.gravity, 0.0);
      EXPECT_GT(d.params.damping, 0.0);
      EXPECT_LE(d.params.damping, 1.0);
      EXPECT_GT(d.cameraDistance, 1.0);
      previous = d.params.softening2;
    }
    EXPECT_LT(nbodyPresetDefaults(preset, 262144).params.softening2,
              nbodyPresetDefaults(preset, 1024).params.softening2);
  }
}

TEST(NBodyModelPresets, ZeroBodiesIsRefused) {
  EXPECT_THROW(makeNBodyPreset(NBodyPreset::RandomCube, 0, 1), std::invalid_argument);
}

// ---- reference -------------------------------------------------------------------

TEST(NBodyModelReference, TwoBodiesMatchTheClosedForm) {
  NBodySystem system;
  system.positions = {{0.25, -1.0, 2.0, 0.3}, {1.75, -3.0, 2.5, 0.7}};
  system.velocities = {{0, 0, 0, 0}, {0, 0, 0, 0}};
  NBodyParams params;
  params.gravity = 2.0;
  params.softening2 = 0.04;
  const glm::dvec3 d(1.5, -2.0, 0.5);  // p1 - p0
  const double r2 = 1.5 * 1.5 + 2.0 * 2.0 + 0.5 * 0.5 + 0.04;
  const double cube = r2 * std::sqrt(r2);
  const glm::dvec3 expected0 = 2.0 * 0.7 * d / cube, expected1 = -2.0 * 0.3 * d / cube;

  std::vector<glm::dvec3> a;
  std::vector<double> sums;
  nbodyReferenceAccelerations(system, params, a, &sums);
  ASSERT_EQ(a.size(), 2u);
  ASSERT_EQ(sums.size(), 2u);
  for (int c = 0; c < 3; ++c) {
    EXPECT_NEAR(a[0][c], expected0[c], 1e-15);
    EXPECT_NEAR(a[1][c], expected1[c], 1e-15);
  }
  // One term each: the magnitude sum is the acceleration's length.
  EXPECT_NEAR(sums[0], glm::length(expected0), 1e-15);
  EXPECT_NEAR(sums[1], glm::length(expected1), 1e-15);
  // Newton's third law.
  EXPECT_NEAR(glm::length(0.3 * a[0] + 0.7 * a[1]), 0.0, 1e-16);
}

TEST(NBodyModelReference, OneBodyFeelsNothing) {
  NBodySystem system;
  system.positions = {{1.0, 2.0, 3.0, 1.0}};
  system.velocities = {{0.5, 0.0, 0.0, 0.0}};
  std::vector<glm::dvec3> a;
  std::vector<double> sums;
  nbodyReferenceAccelerations(system, NBodyParams{}, a, &sums);
  ASSERT_EQ(a.size(), 1u);
  EXPECT_EQ(a[0], glm::dvec3(0.0));
  EXPECT_EQ(sums[0], 0.0);
}

// Written independently of the implementation: pow instead of sqrt, the self
// term skipped instead of vanishing.
void naiveAccelerations(const NBodySystem& system, const NBodyParams& params, std::vector<glm::dvec3>& out) {
  const size_t n = system.size();
  out.assign(n, glm::dvec3(0.0));
  for (size_t i = 0; i < n; ++i) {
    double ax = 0, ay = 0, az = 0;
    for (size_t j = 0; j < n; ++j) {
      if (j == i) continue;
      const double dx = system.positions[j].x - system.positions[i].x;
      const double dy = system.positions[j].y - system.positions[i].y;
      const double dz = system.positions[j].z - system.positions[i].z;
      const double f = params.gravity * system.positions[j].w *
                       std::pow(dx * dx + dy * dy + dz * dz + params.softening2, -1.5);
      ax += f * dx;
      ay += f * dy;
      az += f * dz;
    }
    out[i] = {ax, ay, az};
  }
}

TEST(NBodyModelReference, MatchesANaiveSumOnRandomSystems) {
  // 2500 bodies: large enough for the reference to split the work over threads.
  for (size_t n : {size_t{40}, size_t{2500}}) {
    SCOPED_TRACE("n=" + std::to_string(n));
    const NBodySystem system = randomSystem(n, 1234 + n);
    NBodyParams params;
    params.gravity = 1.5;
    params.softening2 = 1e-3;
    std::vector<glm::dvec3> reference, naive;
    std::vector<double> sums;
    nbodyReferenceAccelerations(system, params, reference, &sums);
    naiveAccelerations(system, params, naive);
    ASSERT_EQ(reference.size(), n);
    for (size_t i = 0; i < n; ++i)
      ASSERT_LE(glm::length(reference[i] - naive[i]), 1e-12 * sums[i]) << "body " << i;

    // The same accelerations with and without the magnitude sums.
    std::vector<glm::dvec3> withoutSums;
    nbodyReferenceAccelerations(system, params, withoutSums);
    EXPECT_EQ(withoutSums, reference);
  }
}

TEST(NBodyModelReference, MagnitudeSumsBoundTheAccelerations) {
  const NBodySystem system = randomSystem(300, 99);
  NBodyParams params;
  params.softening2 = 1e-4;
  std::vector<glm::dvec3> a;
  std::vector<double> sums;
  nbodyReferenceAccelerations(system, params, a, &sums);
  ASSERT_EQ(sums.size(), system.size());
  double cancellation = 0.0;
  for (size_t i = 0; i < system.size(); ++i) {
    ASSERT_GT(sums[i], 0.0);
    ASSERT_GE(sums[i] * (1.0 + 1e-12), glm::length(a[i])) << "body " << i;
    cancellation = std::max(cancellation, sums[i] / glm::length(a[i]));
  }
  // Pulls from all sides cancel: the sums are not just the lengths again.
  EXPECT_GT(cancellation, 2.0);
}

TEST(NBodyModelReference, StepFollowsTheFormulaWithDamping) {
  NBodySystem system = randomSystem(5, 17);
  system.positions[2].w = 0.0;  // a massless body is carried like any other
  NBodyParams params;
  params.dt = 0.02;
  params.softening2 = 0.01;
  params.gravity = 1.3;
  params.damping = 0.9;
  std::vector<glm::dvec3> a;
  nbodyReferenceAccelerations(system, params, a);
  const NBodySystem next = nbodyReferenceStep(system, params);
  ASSERT_EQ(next.positions.size(), system.size());
  ASSERT_EQ(next.velocities.size(), system.size());
  for (size_t i = 0; i < system.size(); ++i) {
    const glm::dvec3 p(system.positions[i]), v(system.velocities[i]);
    // Kick-drift leapfrog: the new half-step velocity first, then the position with it.
    const glm::dvec3 expectedV = (v + a[i] * 0.02) * 0.9;
    const glm::dvec3 expectedP = p + expectedV * 0.02;
    EXPECT_LT(glm::length(glm::dvec3(next.positions[i]) - expectedP), 1e-15) << "body " << i;
    EXPECT_LT(glm::length(glm::dvec3(next.velocities[i]) - expectedV), 1e-15) << "body " << i;
    EXPECT_EQ(next.positions[i].w, system.positions[i].w);
    EXPECT_EQ(next.velocities[i].w, 0.0);
  }
}

TEST(NBodyModelReference, StepConservesMomentumWithoutDamping) {
  NBodySystem system = randomSystem(500, 5);
  for (auto& v : system.velocities) v += glm::dvec4(0.3, -0.2, 0.1, 0.0);  // a net drift
  NBodyParams params;
  params.dt = 0.01;
  params.softening2 = 1e-3;
  const glm::dvec3 before = momentum(system);
  double scale = 0.0;  // sum of |m v|: the size of the terms that must cancel
  for (size_t i = 0; i < system.size(); ++i)
    scale += system.positions[i].w * glm::length(glm::dvec3(system.velocities[i]));
  ASSERT_GT(glm::length(before), 0.1);
  for (int step = 0; step < 10; ++step) system = nbodyReferenceStep(system, params);
  EXPECT_LT(glm::length(momentum(system) - before), 1e-12 * glm::length(before));
  EXPECT_LT(glm::length(momentum(system) - before), 1e-12 * scale);

  // With damping the momentum does shrink: the check above can tell.
  params.damping = 0.99;
  const NBodySystem damped = nbodyReferenceStep(system, params);
  EXPECT_GT(glm::length(momentum(damped) - momentum(system)), 1e-3 * glm::length(before));
}

TEST(NBodyModelReference, EnergyMatchesTheClosedForm) {
  NBodySystem system;
  system.positions = {{0, 0, 0, 0.2}, {1, 0, 0, 0.3}, {0, 2, 0, 0.5}};
  system.velocities = {{1, 0, 0, 0}, {0, 2, 0, 0}, {0, 0, -1, 0}};
  NBodyParams params;
  params.gravity = 1.5;
  params.softening2 = 0.25;
  params.dt = 0.0;  // no half kick: the stored velocities are the synchronised ones
  const double kinetic = 0.5 * (0.2 * 1 + 0.3 * 4 + 0.5 * 1);
  const double potential = -1.5 * (0.2 * 0.3 / std::sqrt(1 + 0.25) + 0.2 * 0.5 / std::sqrt(4 + 0.25) +
                                   0.3 * 0.5 / std::sqrt(1 + 4 + 0.25));
  EXPECT_NEAR(nbodyPotentialEnergy(system, params), potential, 1e-15);
  EXPECT_NEAR(nbodyTotalEnergy(system, params), kinetic + potential, 1e-15);
}

// The stored velocities are half a step behind the positions: energy is measured at
// v + a dt/2, with the step's own accelerations.
TEST(NBodyModelReference, EnergyIsTakenAtTheSynchronisedVelocities) {
  NBodySystem system = randomSystem(6, 23);
  NBodyParams params;
  params.dt = 0.05;
  params.softening2 = 0.02;
  params.gravity = 1.2;
  std::vector<glm::dvec3> a;
  nbodyReferenceAccelerations(system, params, a);
  const std::vector<glm::dvec3> synchronised = nbodySynchronisedVelocities(system, params);
  ASSERT_EQ(synchronised.size(), system.size());
  double kinetic = 0.0;
  for (size_t i = 0; i < system.size(); ++i) {
    const glm::dvec3 want = glm::dvec3(system.velocities[i]) + 0.5 * params.dt * a[i];
    EXPECT_LT(glm::length(synchronised[i] - want), 1e-15) << "body " << i;
    kinetic += 0.5 * system.positions[i].w * glm::dot(want, want);
  }
  const double energy = nbodyTotalEnergy(system, params);
  EXPECT_NEAR(energy, kinetic + nbodyPotentialEnergy(system, params), 1e-14 * std::abs(energy));
  // The half kick is large enough here to tell: without it the energy differs.
  NBodyParams noKick = params;
  noKick.dt = 0.0;
  EXPECT_GT(std::abs(nbodyTotalEnergy(system, noKick) - energy), 1e-6 * std::abs(energy));
}

TEST(NBodyModelReference, CircularTwoBodyOrbitKeepsItsEnergy) {
  // Two bodies of 1/2 at x = -1/2 and 1/2, on the circular orbit of the softened
  // force: each feels G m / (1 + eps2)^(3/2) at radius 1/2 from the centre.
  NBodyParams params;
  params.gravity = 1.0;
  params.softening2 = 1e-4;
  params.dt = 1e-3;  // w dt = 1e-3 (w = 1 here)
  const double pull = 0.5 / std::pow(1.0 + params.softening2, 1.5);
  const double speed = std::sqrt(pull * 0.5);
  NBodySystem system;
  system.positions = {{-0.5, 0, 0, 0.5}, {0.5, 0, 0, 0.5}};
  system.velocities = {{0, -speed, 0, 0}, {0, speed, 0, 0}};
  const double before = nbodyTotalEnergy(system, params);
  for (int step = 0; step < 100; ++step) system = nbodyReferenceStep(system, params);
  const double after = nbodyTotalEnergy(system, params);
  // The leapfrog keeps it to a few parts in 1e11 here (measured 2.5e-11); the seed's
  // first-order step gained about (w dt)^2 per step, 1e-4 over these 100 steps.
  EXPECT_LT(std::abs(after - before), 1e-9 * std::abs(before));
  // It did move (a tenth of a radian) and stayed circular.
  const glm::dvec3 separation = glm::dvec3(system.positions[1]) - glm::dvec3(system.positions[0]);
  EXPECT_NEAR(std::atan2(separation.y, separation.x), 0.1, 1e-3);
  EXPECT_NEAR(glm::length(separation), 1.0, 1e-3);
}

TEST(NBodyModelReference, BadInputIsRefused) {
  NBodySystem system = randomSystem(3, 1);
  NBodyParams params;
  params.softening2 = 0.0;
  std::vector<glm::dvec3> a;
  EXPECT_THROW(nbodyReferenceAccelerations(system, params, a), std::invalid_argument);
  EXPECT_THROW(nbodyTotalEnergy(system, params), std::invalid_argument);
  params.softening2 = 0.01;
  system.velocities.pop_back();
  EXPECT_THROW(nbodyReferenceStep(system, params), std::invalid_argument);
}

// ---- save / load -------------------------------------------------------------------

TEST(NBodyModelFiles, RoundTripIsExact) {
  TempDir dir;
  const fs::path file = dir / "state.ksnbody";
  NBodySystem system = makeNBodyPreset(NBodyPreset::CollidingGalaxies, 1001, 77);
  system.positions[5].w = 0.0;  // massless bodies are allowed
  saveNBodySystem(system, file);
  const NBodySystem loaded = loadNBodySystem(file);
  EXPECT_TRUE(sameData(system, loaded));
  const std::string bytes = readFile(file);
  EXPECT_EQ(bytes.size(), 20u + 1001u * 64u);
  EXPECT_EQ(bytes.substr(0, 8), std::string("KSNBODY\0", 8));
  // Nothing but the file itself is left behind.
  EXPECT_EQ(std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator()), 1);

  // Saving again replaces the file.
  const NBodySystem other = makeNBodyPreset(NBodyPreset::RandomCube, 3, 1);
  saveNBodySystem(other, file);
  EXPECT_TRUE(sameData(other, loadNBodySystem(file)));
}

TEST(NBodyModelFiles, SaveFailuresThrowAndLeaveNothingBehind) {
  TempDir dir;
  const NBodySystem system = makeNBodyPreset(NBodyPreset::RandomCube, 10, 1);
  EXPECT_THROW(saveNBodySystem(system, dir / "missing-dir/state.ksnbody"), NBodyFileError);
  fs::create_directory(dir / "taken");
  EXPECT_THROW(saveNBodySystem(system, dir / "taken"), NBodyFileError);
  EXPECT_EQ(std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator()), 1);  // just "taken"

  NBodySystem mismatched = system;
  mismatched.velocities.pop_back();
  EXPECT_THROW(saveNBodySystem(mismatched, dir / "a.ksnbody"), NBodyFileError);
  EXPECT_THROW(saveNBodySystem(NBodySystem{}, dir / "b.ksnbody"), NBodyFileError);

  if (geteuid() != 0) {  // root writes into read-only directories anyway
    fs::create_directory(dir / "readonly");
    fs::permissions(dir / "readonly", fs::perms::owner_read | fs::perms::owner_exec);
    EXPECT_THROW(saveNBodySystem(system, dir / "readonly/state.ksnbody"), NBodyFileError);
    fs::permissions(dir / "readonly", fs::perms::owner_all);
  }
}

// A valid file's bytes, to be damaged one way per case.
class NBodyModelCorruptFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    NBodySystem system = makeNBodyPreset(NBodyPreset::SphereShell, kBodies, 3);
    saveNBodySystem(system, dir_ / "good.ksnbody");
    good_ = readFile(dir_ / "good.ksnbody");
    ASSERT_EQ(good_.size(), kHeader + kBodies * 64);
  }

  // Writes `bytes` to a file and expects loading it to throw NBodyFileError
  // whose message names the file.
  void expectRefused(const std::string& bytes, const std::string& why) {
    const fs::path file = dir_ / ("bad-" + std::to_string(++files_) + ".ksnbody");
    writeFile(file, bytes);
    expectRefusedFile(file, why);
  }
  void expectRefusedFile(const fs::path& file, const std::string& why) {
    try {
      loadNBodySystem(file);
      ADD_FAILURE() << why << ": loaded without an error";
    } catch (const NBodyFileError& e) {
      EXPECT_NE(std::string(e.what()).find(file.string()), std::string::npos) << why << ": " << e.what();
    } catch (const std::exception& e) {
      ADD_FAILURE() << why << ": threw something else: " << e.what();
    }
  }
  std::string withCount(uint64_t count) const {
    std::string bytes = good_;
    std::memcpy(bytes.data() + 12, &count, sizeof(count));
    return bytes;
  }
  std::string withDouble(size_t index, double value) const {  // index into the doubles after the header
    std::string bytes = good_;
    std::memcpy(bytes.data() + kHeader + 8 * index, &value, sizeof(value));
    return bytes;
  }

  static constexpr size_t kBodies = 16, kHeader = 20;
  TempDir dir_;
  std::string good_;
  int files_ = 0;
};

TEST_F(NBodyModelCorruptFiles, TheUndamagedFileLoads) {
  const fs::path file = dir_ / "copy.ksnbody";
  writeFile(file, good_);
  EXPECT_EQ(loadNBodySystem(file).size(), kBodies);
}

TEST_F(NBodyModelCorruptFiles, MissingUnreadableOrNotAFile) {
  expectRefusedFile(dir_ / "does-not-exist.ksnbody", "missing file");
  fs::create_directory(dir_ / "a-directory");
  expectRefusedFile(dir_ / "a-directory", "directory");
  if (geteuid() != 0) {  // root reads it anyway
    const fs::path file = dir_ / "unreadable.ksnbody";
    writeFile(file, good_);
    fs::permissions(file, fs::perms::none);
    expectRefusedFile(file, "unreadable file");
    fs::permissions(file, fs::perms::owner_all);
  }
}

TEST_F(NBodyModelCorruptFiles, ShortFiles) {
  expectRefused("", "empty file");
  expectRefused(good_.substr(0, 10), "half a header");
  expectRefused(good_.substr(0, kHeader), "header only");
  expectRefused(good_.substr(0, good_.size() - 1), "one byte short");
  expectRefused(good_.substr(0, good_.size() - 64), "one body short");
}

TEST_F(NBodyModelCorruptFiles, WrongHeader) {
  std::string magic = good_;
  magic[0] = 'X';
  expectRefused(magic, "wrong magic");
  std::string version = good_;
  const uint32_t two = 2;
  std::memcpy(version.data() + 8, &two, sizeof(two));
  expectRefused(version, "wrong version");
}

TEST_F(NBodyModelCorruptFiles, CountsThatDoNotMatchTheSize) {
  expectRefused(withCount(0), "count 0");
  std::string empty = withCount(0);
  expectRefused(empty.substr(0, kHeader), "count 0 and no data");
  expectRefused(withCount(kBodies + 1), "count one too many");
  expectRefused(withCount(kBodies - 1), "count one too few");
  expectRefused(good_ + std::string(64, '\0'), "a body more than the count");
  // Must fail on the size check, not by trying to allocate 64 * 10^18 bytes.
  expectRefused(withCount(1000000000000000000ull), "a huge count");
  expectRefused(withCount(std::numeric_limits<uint64_t>::max()), "the largest count");
  // count * 64 wraps around to the real payload size.
  expectRefused(withCount(kBodies + (uint64_t{1} << 58)), "a count that overflows to the right size");
}

TEST_F(NBodyModelCorruptFiles, BadValues) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  expectRefused(withDouble(0, nan), "NaN position");
  expectRefused(withDouble(4 * 7 + 2, -inf), "infinite position");
  expectRefused(withDouble(4 * 5 + 3, nan), "NaN mass");
  expectRefused(withDouble(4 * kBodies + 4 * 3 + 1, inf), "infinite velocity");
  expectRefused(withDouble(4 * kBodies + 4 * (kBodies - 1) + 3, nan), "NaN velocity w");
  expectRefused(withDouble(4 * 9 + 3, -1e-3), "negative mass");
  expectRefused(withDouble(4 * (kBodies - 1) + 3, -0.5), "negative mass of the last body");
}

}  // namespace
}  // namespace ks
