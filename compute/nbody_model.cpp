#include "compute/nbody_model.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <cstring>
#include <fstream>
#include <new>
#include <numbers>
#include <random>
#include <stdexcept>
#include <system_error>
#include <thread>

namespace ks {
namespace fs = std::filesystem;

// ---- presets -------------------------------------------------------------------
//
// Units: total mass 1, G = 1, systems about 1 unit in radius, so one dynamical time
// is about 1 time unit. Every preset is built around the origin with zero total
// momentum, so it stays in front of a camera looking at the origin.

const char* nbodyPresetName(NBodyPreset preset) {
  switch (preset) {
    case NBodyPreset::RandomCube: return "cube";
    case NBodyPreset::SphereShell: return "shell";
    case NBodyPreset::DiskGalaxy: return "disk";
    case NBodyPreset::CollidingGalaxies: return "collision";
  }
  return "unknown";
}

std::optional<NBodyPreset> parseNBodyPreset(const std::string& name) {
  for (NBodyPreset preset : kNBodyPresets)
    if (name == nbodyPresetName(preset)) return preset;
  return std::nullopt;
}

namespace {

// Runs body(begin, end) over [0, count) split across up to two threads (the
// Verify button runs on laptops too), at least `minPerThread` items each; small
// jobs stay on the calling thread. Every item's result is computed the same way
// whatever the split, so results do not depend on it.
template <typename Body>
void parallelRanges(size_t count, size_t minPerThread, Body body) {
  const size_t hardware = std::max(1u, std::thread::hardware_concurrency());
  const size_t threads = std::min<size_t>({2, hardware, std::max<size_t>(1, count / minPerThread)});
  if (threads <= 1) {
    body(size_t{0}, count);
    return;
  }
  std::vector<std::jthread> workers;
  const size_t chunk = (count + threads - 1) / threads;
  for (size_t t = 1; t < threads; ++t)
    workers.emplace_back([=] { body(std::min(count, t * chunk), std::min(count, (t + 1) * chunk)); });
  body(size_t{0}, std::min(count, chunk));
}

// The softening length follows the mean spacing (n^-1/3) between 1K bodies and
// a floor, so big systems show finer structure; below the floor the dense parts
// (collapsed cores, the galaxies' centres) would need a smaller dt.
double softeningFor(double softeningAt4K, double floorFraction, size_t n) {
  const double scale = std::cbrt(4096.0 / static_cast<double>(std::max<size_t>(n, 1)));
  return softeningAt4K * std::clamp(scale, floorFraction, 1.6);
}

// Uniform numbers as a plain transform of mt19937_64's output: unlike the
// <random> distributions this gives the same presets with every standard library.
class PresetRandom {
 public:
  explicit PresetRandom(uint64_t seed) : engine_(seed) {}
  double uniform() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }  // [0, 1)
  double uniform(double low, double high) { return low + (high - low) * uniform(); }
  glm::dvec3 unitVector() {  // uniform on the sphere: z uniform in [-1, 1], angle uniform
    const double z = uniform(-1.0, 1.0);
    const double angle = uniform(0.0, 2.0 * std::numbers::pi);
    const double ring = std::sqrt(std::max(0.0, 1.0 - z * z));
    return {ring * std::cos(angle), ring * std::sin(angle), z};
  }

 private:
  std::mt19937_64 engine_;
};

void addBody(NBodySystem& system, const glm::dvec3& position, const glm::dvec3& velocity, double mass) {
  system.positions.emplace_back(position, mass);
  system.velocities.emplace_back(velocity, 0.0);
}

// Moves the system into its centre-of-mass frame: the origin and zero momentum.
void centreOnMass(NBodySystem& system) {
  glm::dvec3 weightedPosition(0.0), momentum(0.0);
  double mass = 0.0;
  for (size_t i = 0; i < system.size(); ++i) {
    const double m = system.positions[i].w;
    weightedPosition += m * glm::dvec3(system.positions[i]);
    momentum += m * glm::dvec3(system.velocities[i]);
    mass += m;
  }
  const glm::dvec3 centre = weightedPosition / mass, drift = momentum / mass;
  for (size_t i = 0; i < system.size(); ++i) {
    system.positions[i] -= glm::dvec4(centre, 0.0);
    system.velocities[i] -= glm::dvec4(drift, 0.0);
  }
}

// A cube of side 2 with small random velocities: kinetic energy a fifth of the
// potential's size (virial equilibrium is a half), so it falls in to about half
// its size and settles into a round cluster. A colder start collapses so deep
// that the seed's first-order step gained a third of the energy at the bounce.
NBodySystem makeRandomCube(size_t n, PresetRandom& random) {
  NBodySystem system;
  const double mass = 1.0 / static_cast<double>(n);
  for (size_t i = 0; i < n; ++i) {
    const glm::dvec3 position(random.uniform(-1.0, 1.0), random.uniform(-1.0, 1.0), random.uniform(-1.0, 1.0));
    const glm::dvec3 velocity(random.uniform(-0.45, 0.45), random.uniform(-0.45, 0.45), random.uniform(-0.45, 0.45));
    addBody(system, position, velocity, mass);
  }
  centreOnMass(system);
  return system;
}

// A thin shell of radius 1. Each body gets a tangential velocity of half the
// circular speed in a random direction: the shell still collapses as one, but
// the bodies miss the centre by about a seventh of the radius instead of all
// meeting in one point (where the step would gain a large part of the energy),
// and bounce back out as a halo.
NBodySystem makeSphereShell(size_t n, PresetRandom& random) {
  NBodySystem system;
  const double mass = 1.0 / static_cast<double>(n);
  const double circularSpeed = 1.0;  // sqrt(G M / r) at r = 1
  for (size_t i = 0; i < n; ++i) {
    const glm::dvec3 direction = random.unitVector();
    const double radius = random.uniform(0.98, 1.02);
    // Any unit vector not parallel to the radius, made perpendicular to it.
    const glm::dvec3 other = std::abs(direction.x) < 0.9 ? glm::dvec3(1, 0, 0) : glm::dvec3(0, 1, 0);
    const glm::dvec3 tangent1 = glm::normalize(glm::cross(direction, other));
    const glm::dvec3 tangent2 = glm::cross(direction, tangent1);
    const double angle = random.uniform(0.0, 2.0 * std::numbers::pi);
    const glm::dvec3 tangent = std::cos(angle) * tangent1 + std::sin(angle) * tangent2;
    addBody(system, radius * direction, 0.5 * circularSpeed * tangent, mass);
  }
  centreOnMass(system);
  return system;
}

// Disk galaxies: half the mass in the central body. With a lighter one the
// cold disk's own gravity dominates, it breaks into clumps and throws its outer
// part far out; this way it winds into spiral arms and stays a disk.
constexpr double kCentralMassFraction = 0.5;
constexpr double kDiskDispersion = 0.1;  // random velocity, in units of the circular speed

struct DiskShape {
  glm::dvec3 centre{0.0};
  glm::dvec3 velocity{0.0};  // of the galaxy as a whole
  glm::dvec3 axisX{1, 0, 0}, axisY{0, 1, 0};
  double mass = 1.0;
  double scaleLength = 0.3;  // of the exponential surface density
  // The inner edge keeps the fastest orbits slow enough for the default dt: an
  // orbit of angular frequency w needs w dt small (the seed's first-order step
  // gained about (w dt)^2 of its energy per step; the leapfrog's error is bounded
  // and of order (w dt)^2).
  double innerRadius = 0.2;
  double outerRadius = 1.0;
};

// The disk's azimuthally averaged radial acceleration, measured on rings of test
// points in its plane from the bodies already placed (softening included). The
// usual shortcut, the enclosed mass as if it were spherical, is 15-30% off for a
// disk (too fast inside, too slow outside) and the disk then heaves and spreads.
class RotationCurve {
 public:
  RotationCurve(const NBodySystem& system, size_t firstBody, const DiskShape& shape, const NBodyParams& params)
      : innerRadius_(shape.innerRadius), outerRadius_(shape.outerRadius), inwardAcceleration_(kRings, 0.0) {
    // Half the rings on each of two threads once there are enough bodies to matter.
    const size_t ringsPerThread = system.size() - firstBody > 16384 ? kRings / 2 : kRings;
    parallelRanges(kRings, ringsPerThread, [&](size_t begin, size_t end) {
      for (size_t ring = begin; ring < end; ++ring) measureRing(system, firstBody, shape, params, ring);
    });
  }

  // Speed of a circular orbit at `radius` (linear between the rings).
  double circularSpeed(double radius) const {
    const double position = std::clamp((radius - innerRadius_) / (outerRadius_ - innerRadius_), 0.0, 1.0) *
                            static_cast<double>(kRings - 1);
    const size_t below = std::min(static_cast<size_t>(position), kRings - 2);
    const double fraction = position - static_cast<double>(below);
    const double inward = (1.0 - fraction) * inwardAcceleration_[below] + fraction * inwardAcceleration_[below + 1];
    return std::sqrt(radius * inward);
  }

 private:
  static constexpr size_t kRings = 48, kPointsPerRing = 8;  // 384 test points: ~0.25 s at 256K bodies

  void measureRing(const NBodySystem& system, size_t firstBody, const DiskShape& shape, const NBodyParams& params,
                   size_t ring) {
    const double radius =
        innerRadius_ + (outerRadius_ - innerRadius_) * static_cast<double>(ring) / static_cast<double>(kRings - 1);
    double sum = 0.0;
    for (size_t k = 0; k < kPointsPerRing; ++k) {
      // Alternate rings are turned by half a step so the points do not line up.
      const double angle = 2.0 * std::numbers::pi * (static_cast<double>(k) + 0.5 * static_cast<double>(ring % 2)) /
                           static_cast<double>(kPointsPerRing);
      const glm::dvec3 outward = std::cos(angle) * shape.axisX + std::sin(angle) * shape.axisY;
      const glm::dvec3 point = shape.centre + radius * outward;
      glm::dvec3 acceleration(0.0);
      for (size_t j = firstBody; j < system.size(); ++j) {
        const glm::dvec3 d = glm::dvec3(system.positions[j]) - point;
        const double inverse = 1.0 / std::sqrt(glm::dot(d, d) + params.softening2);
        acceleration += system.positions[j].w * inverse * inverse * inverse * d;
      }
      sum -= params.gravity * glm::dot(acceleration, outward);
    }
    inwardAcceleration_[ring] = std::max(0.0, sum / static_cast<double>(kPointsPerRing));
  }

  double innerRadius_, outerRadius_;
  std::vector<double> inwardAcceleration_;
};

// One disk galaxy of `bodies` bodies, appended to `system`: the central body
// first, then bodies with an exponential surface density on near-circular orbits
// in the plane spanned by `axisX` and `axisY`, turning from axisX towards axisY
// (angular momentum along axisX x axisY). The orbits are circular under
// `params`' softening, so they match the preset's defaults.
void addDiskGalaxy(NBodySystem& system, size_t bodies, const DiskShape& shape, const NBodyParams& params,
                   PresetRandom& random) {
  if (bodies == 0) return;
  const size_t centralIndex = system.size();
  if (bodies == 1) {
    addBody(system, shape.centre, shape.velocity, shape.mass);
    return;
  }
  const double centralMass = kCentralMassFraction * shape.mass;
  const size_t diskBodies = bodies - 1;
  const double diskBodyMass = (shape.mass - centralMass) / static_cast<double>(diskBodies);
  addBody(system, shape.centre, shape.velocity, centralMass);

  // Positions first. The radius of an exponential disk, p(r) ~ r exp(-r/h), is a
  // Gamma(2, h) variable: the sum of two exponential ones. Draws outside the
  // disk's annulus are drawn again. A small thickness keeps it from being flat
  // as a sheet.
  const glm::dvec3 normal = glm::cross(shape.axisX, shape.axisY);
  for (size_t k = 0; k < diskBodies; ++k) {
    double r = 0.0;
    do {
      r = -shape.scaleLength * std::log((1.0 - random.uniform()) * (1.0 - random.uniform()));
    } while (r < shape.innerRadius || r > shape.outerRadius);
    const double angle = random.uniform(0.0, 2.0 * std::numbers::pi);
    const double height = 0.02 * shape.outerRadius * random.uniform(-1.0, 1.0);
    const glm::dvec3 outward = std::cos(angle) * shape.axisX + std::sin(angle) * shape.axisY;
    addBody(system, shape.centre + r * outward + height * normal, shape.velocity, diskBodyMass);
  }

  // Then velocities: near-circular orbits turning from axisX towards axisY, with
  // a little random motion (kDiskDispersion of the circular speed) so the disk
  // is not perfectly cold.
  const RotationCurve curve(system, centralIndex, shape, params);
  glm::dvec3 diskMomentum(0.0);
  for (size_t i = centralIndex + 1; i < system.size(); ++i) {
    const glm::dvec3 offset = glm::dvec3(system.positions[i]) - shape.centre;
    const glm::dvec3 inPlane = offset - glm::dot(offset, normal) * normal;
    const double r = glm::length(inPlane);
    const glm::dvec3 outward = inPlane / r;
    const glm::dvec3 forward = glm::cross(normal, outward);
    const double circular = curve.circularSpeed(r);
    const glm::dvec3 velocity = circular * (1.0 + kDiskDispersion * random.uniform(-1.0, 1.0)) * forward +
                                kDiskDispersion * circular * random.uniform(-1.0, 1.0) * outward +
                                0.3 * kDiskDispersion * circular * random.uniform(-1.0, 1.0) * normal;
    system.velocities[i] += glm::dvec4(velocity, 0.0);
    diskMomentum += diskBodyMass * velocity;
  }
  // The central body takes up the disk's net momentum (random phases leave
  // some), so the galaxy does not drift away; the disk's orbits stay as drawn.
  system.velocities[centralIndex] -= glm::dvec4(diskMomentum / centralMass, 0.0);
}

// A disk galaxy in the xy-plane, turning counter-clockwise seen from +z
// (angular momentum along +z). Body 0 is the central body.
NBodySystem makeDiskGalaxy(size_t n, PresetRandom& random) {
  NBodySystem system;
  addDiskGalaxy(system, n, DiskShape{}, nbodyPresetDefaults(NBodyPreset::DiskGalaxy, n).params, random);
  return system;
}

// Two disk galaxies of mass 1/2 each (bodies 0 .. ceil(n/2)-1, then the rest;
// each starts with its central body), 4 units apart on x with an impact
// parameter of 0.8 on y, approaching a little slower than the parabolic speed so
// they merge after a few passes. Their disks are tilted differently so the tidal
// tails spread in 3D. Each is 0.8 across: half the mass in a disk 0.8 times the
// size of the single galaxy gives orbits of about the same speeds, so the
// same dt suits both presets.
NBodySystem makeCollidingGalaxies(size_t n, PresetRandom& random) {
  NBodySystem system;
  const NBodyParams params = nbodyPresetDefaults(NBodyPreset::CollidingGalaxies, n).params;
  const size_t firstBodies = (n + 1) / 2, secondBodies = n / 2;
  const double galaxyMass = secondBodies == 0 ? 1.0 : 0.5;
  const double approachSpeed = 0.3;  // each; relative 0.6, parabolic ~0.7 at this distance

  DiskShape first;
  first.mass = galaxyMass;
  first.scaleLength = 0.24;
  first.innerRadius = 0.16;
  first.outerRadius = 0.8;
  DiskShape second = first;
  if (secondBodies > 0) {
    first.centre = {-2.0, -0.4, 0.0};
    first.velocity = {approachSpeed, 0.0, 0.0};
    second.centre = {2.0, 0.4, 0.0};
    second.velocity = {-approachSpeed, 0.0, 0.0};
  }
  // First tilted 30 degrees about x, second 50 degrees the other way about y.
  const double a = 30.0 * std::numbers::pi / 180.0, b = -50.0 * std::numbers::pi / 180.0;
  first.axisX = {1.0, 0.0, 0.0};
  first.axisY = {0.0, std::cos(a), std::sin(a)};
  second.axisX = {std::cos(b), 0.0, -std::sin(b)};
  second.axisY = {0.0, 1.0, 0.0};

  addDiskGalaxy(system, firstBodies, first, params, random);
  addDiskGalaxy(system, secondBodies, second, params, random);
  return system;
}

}  // namespace

NBodyPresetDefaults nbodyPresetDefaults(NBodyPreset preset, size_t n) {
  // These dt were chosen under the seed's first-order step, whose energy crept up
  // in proportion to dt (about 10% over 4000 steps for the cube and the shell,
  // 3-5% over 2000 steps for the galaxies). The kick-drift leapfrog that replaced
  // it (issue 23) is second order: its energy error is a smooth function of the
  // state times dt^2, not a drift that grows step by step.
  // The cube: at dt 0.0025 its fp64 energy moved by -5.0e-6 over 1000 steps (4096
  // bodies). Measured with the fp64 CPU reference (256 to 1024 bodies alike), the
  // error is tiny while the cube falls in (1e-7 at t = 1.25) and dips when the whole
  // cube passes through its dense centre (t = 1.9 to 2.3: -1.2e-5 at the old dt),
  // recovering in part after the bounce; halving dt quarters it at every time. No
  // close pairs dominate (each body is 1/n of the mass), nor the start or the
  // measurement. Its dt is therefore 0.0008 with 3 steps a frame: the cube moves
  // 0.0024 a frame, as it did, and its energy error is about a tenth: under 1e-6
  // after 1000 steps and after the 2.4 time units that 1000 frames show (dipping to
  // about -1.3e-6 at the bounce).
  NBodyPresetDefaults defaults;
  auto set = [&](double softeningAt4K, double floorFraction, double dt, double cameraDistance, int stepsPerFrame = 1) {
    const double eps = softeningFor(softeningAt4K, floorFraction, n);
    defaults.params.softening2 = eps * eps;
    defaults.params.dt = dt;
    defaults.stepsPerFrame = stepsPerFrame;
    defaults.params.gravity = 1.0;
    defaults.params.damping = 1.0;
    defaults.cameraDistance = cameraDistance;
  };
  switch (preset) {
    // Camera distances frame the start (and the collapsed presets' later
    // rebound) in the middle half of a 45-degree view: the app's panels cover
    // the sides of the window.
    case NBodyPreset::RandomCube: set(0.05, 0.5, 0.0008, 6.0, 3); break;
    case NBodyPreset::SphereShell: set(0.05, 0.5, 0.0025, 5.0); break;
    case NBodyPreset::DiskGalaxy: set(0.04, 0.75, 0.001, 4.0); break;
    case NBodyPreset::CollidingGalaxies: set(0.04, 0.75, 0.001, 11.0); break;
  }
  return defaults;
}

NBodySystem makeNBodyPreset(NBodyPreset preset, size_t n, uint64_t seed) {
  if (n == 0) throw std::invalid_argument("an N-body preset needs at least one body");
  PresetRandom random(seed);
  switch (preset) {
    case NBodyPreset::RandomCube: return makeRandomCube(n, random);
    case NBodyPreset::SphereShell: return makeSphereShell(n, random);
    case NBodyPreset::DiskGalaxy: return makeDiskGalaxy(n, random);
    case NBodyPreset::CollidingGalaxies: return makeCollidingGalaxies(n, random);
  }
  throw std::invalid_argument("unknown N-body preset");
}

// ---- reference -------------------------------------------------------------------

namespace {

void checkParams(const NBodyParams& params) {
  // eps2 > 0 is what makes the j == i term vanish (0 / eps^3) instead of 0 / 0.
  if (!(params.softening2 > 0.0) || !std::isfinite(params.softening2))
    throw std::invalid_argument("N-body softening2 must be positive and finite");
}

void checkVelocities(const NBodySystem& system) {
  if (system.velocities.size() != system.positions.size())
    throw std::invalid_argument("N-body system has " + std::to_string(system.positions.size()) + " positions but " +
                                std::to_string(system.velocities.size()) + " velocities");
}

constexpr size_t kBodiesPerThread = 1024;

// The acceleration on body i (with G), and optionally the sum of its
// contributions' magnitudes: the one formula every reference path uses.
template <bool kMagnitudes>
glm::dvec3 accelerationOf(const std::vector<glm::dvec4>& positions, double eps2, double gravity, size_t i,
                          double* magnitudeSum) {
  const glm::dvec3 pi(positions[i]);
  glm::dvec3 sum(0.0);
  double magnitude = 0.0;
  for (const glm::dvec4& pj : positions) {
    const glm::dvec3 d = glm::dvec3(pj) - pi;
    const double distance2 = glm::dot(d, d);
    const double inverse = 1.0 / std::sqrt(distance2 + eps2);
    const double weight = pj.w * inverse * inverse * inverse;
    sum += weight * d;
    if constexpr (kMagnitudes) magnitude += std::abs(weight) * std::sqrt(distance2);
  }
  if constexpr (kMagnitudes) *magnitudeSum = gravity * magnitude;
  return gravity * sum;
}

template <bool kMagnitudes>
void accelerationsInRange(const std::vector<glm::dvec4>& positions, double eps2, double gravity, size_t begin,
                          size_t end, glm::dvec3* accelerations, double* magnitudeSums) {
  for (size_t i = begin; i < end; ++i)
    accelerations[i] = accelerationOf<kMagnitudes>(positions, eps2, gravity, i,
                                                   kMagnitudes ? magnitudeSums + i : nullptr);
}

}  // namespace

void nbodyReferenceAccelerations(const NBodySystem& system, const NBodyParams& params,
                                 std::vector<glm::dvec3>& accelerations, std::vector<double>* magnitudeSums) {
  checkParams(params);
  const size_t n = system.size();
  accelerations.assign(n, glm::dvec3(0.0));
  if (magnitudeSums) magnitudeSums->assign(n, 0.0);
  glm::dvec3* a = accelerations.data();
  double* sums = magnitudeSums ? magnitudeSums->data() : nullptr;
  parallelRanges(n, kBodiesPerThread, [&](size_t begin, size_t end) {
    if (sums)
      accelerationsInRange<true>(system.positions, params.softening2, params.gravity, begin, end, a, sums);
    else
      accelerationsInRange<false>(system.positions, params.softening2, params.gravity, begin, end, a, nullptr);
  });
}

glm::dvec3 nbodyReferenceAcceleration(const NBodySystem& system, const NBodyParams& params, size_t body,
                                      double* magnitudeSum) {
  checkParams(params);
  if (magnitudeSum) return accelerationOf<true>(system.positions, params.softening2, params.gravity, body, magnitudeSum);
  return accelerationOf<false>(system.positions, params.softening2, params.gravity, body, nullptr);
}

NBodySystem nbodyReferenceStep(const NBodySystem& system, const NBodyParams& params) {
  checkVelocities(system);
  std::vector<glm::dvec3> accelerations;
  nbodyReferenceAccelerations(system, params, accelerations);
  NBodySystem next;
  next.positions.resize(system.size());
  next.velocities.resize(system.size());
  const double dt = params.dt;
  for (size_t i = 0; i < system.size(); ++i) {
    // Kick, then drift with the new half-step velocity.
    const glm::dvec3 p(system.positions[i]), v(system.velocities[i]), a = accelerations[i];
    const glm::dvec3 halfStep = (v + a * dt) * params.damping;
    next.positions[i] = glm::dvec4(p + halfStep * dt, system.positions[i].w);
    next.velocities[i] = glm::dvec4(halfStep, 0.0);
  }
  return next;
}

std::vector<glm::dvec3> nbodySynchronisedVelocities(const NBodySystem& system, const NBodyParams& params) {
  checkVelocities(system);
  std::vector<glm::dvec3> velocities;
  nbodyReferenceAccelerations(system, params, velocities);
  for (size_t i = 0; i < system.size(); ++i)
    velocities[i] = glm::dvec3(system.velocities[i]) + velocities[i] * (0.5 * params.dt);
  return velocities;
}

double nbodyPotentialEnergy(const NBodySystem& system, const NBodyParams& params) {
  checkParams(params);
  const size_t n = system.size();
  // Per-body partial sums over j > i, added up in order afterwards: the same
  // result however the bodies are split across threads.
  std::vector<double> potentials(n, 0.0);
  parallelRanges(n, kBodiesPerThread, [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) {
      const glm::dvec3 pi(system.positions[i]);
      double sum = 0.0;
      for (size_t j = i + 1; j < n; ++j) {
        const glm::dvec3 d = glm::dvec3(system.positions[j]) - pi;
        sum += system.positions[j].w / std::sqrt(glm::dot(d, d) + params.softening2);
      }
      potentials[i] = -params.gravity * system.positions[i].w * sum;
    }
  });
  double potential = 0.0;
  for (double p : potentials) potential += p;
  return potential;
}

double nbodyTotalEnergy(const NBodySystem& system, const NBodyParams& params) {
  checkParams(params);
  const std::vector<glm::dvec3> velocities = nbodySynchronisedVelocities(system, params);
  double kinetic = 0.0;
  for (size_t i = 0; i < system.size(); ++i)
    kinetic += 0.5 * system.positions[i].w * glm::dot(velocities[i], velocities[i]);
  return kinetic + nbodyPotentialEnergy(system, params);
}

// ---- save / load -------------------------------------------------------------------
//
// File layout (host byte order; kernelscope only builds for little-endian hosts):
//   8 bytes   magic "KSNBODY\0"
//   uint32    version (1)
//   uint64    count (>= 1)
//   count * 4 doubles: positions (x, y, z, mass)
//   count * 4 doubles: velocities (x, y, z, w)
// The header is packed (20 bytes), so the doubles are not aligned in the file;
// stream reads copy them straight into the vectors, so that does not matter.

namespace {

static_assert(std::endian::native == std::endian::little, "the N-body file format is little-endian");
static_assert(sizeof(glm::dvec4) == 4 * sizeof(double), "dvec4 is read and written as 4 doubles");

constexpr char kMagic[8] = {'K', 'S', 'N', 'B', 'O', 'D', 'Y', '\0'};
constexpr uint32_t kVersion = 1;
constexpr uint64_t kHeaderBytes = sizeof(kMagic) + sizeof(uint32_t) + sizeof(uint64_t);
constexpr uint64_t kBytesPerBody = 8 * sizeof(double);

[[noreturn]] void fail(const fs::path& file, const std::string& what) {
  throw NBodyFileError("N-body file '" + file.string() + "': " + what, file);
}

fs::path temporaryPathFor(const fs::path& file) {
  // Beside the target, so the rename stays within one file system; the pid and
  // a counter keep concurrent saves from sharing a temporary.
  static std::atomic<unsigned> counter{0};
  fs::path temporary = file;
  temporary += ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(counter++);
  return temporary;
}

}  // namespace

void saveNBodySystem(const NBodySystem& system, const fs::path& file) {
  const uint64_t count = system.positions.size();
  if (system.velocities.size() != count)
    fail(file, "cannot save " + std::to_string(count) + " positions with " +
                   std::to_string(system.velocities.size()) + " velocities");
  if (count == 0) fail(file, "cannot save an empty system");

  const fs::path temporary = temporaryPathFor(file);
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) fail(file, "cannot create '" + temporary.string() + "' for writing");
    out.write(kMagic, sizeof(kMagic));
    out.write(reinterpret_cast<const char*>(&kVersion), sizeof(kVersion));
    out.write(reinterpret_cast<const char*>(&count), sizeof(count));
    out.write(reinterpret_cast<const char*>(system.positions.data()),
              static_cast<std::streamsize>(count * sizeof(glm::dvec4)));
    out.write(reinterpret_cast<const char*>(system.velocities.data()),
              static_cast<std::streamsize>(count * sizeof(glm::dvec4)));
    out.close();
    if (!out) {
      std::error_code ignored;
      fs::remove(temporary, ignored);
      fail(file, "writing '" + temporary.string() + "' failed");
    }
  }
  std::error_code ec;
  fs::rename(temporary, file, ec);
  if (ec) {
    std::error_code ignored;
    fs::remove(temporary, ignored);
    fail(file, "cannot replace it: " + ec.message());
  }
}

NBodySystem loadNBodySystem(const fs::path& file) {
  std::error_code ec;
  const fs::file_status status = fs::status(file, ec);
  if (status.type() == fs::file_type::not_found) fail(file, "does not exist");
  if (ec) fail(file, "cannot access it: " + ec.message());
  if (fs::is_directory(status)) fail(file, "is a directory");
  const uintmax_t size = fs::file_size(file, ec);
  if (ec) fail(file, "cannot read its size: " + ec.message());
  std::ifstream in(file, std::ios::binary);
  if (!in) fail(file, "cannot open it for reading");

  if (size < kHeaderBytes) fail(file, "too short for the header (" + std::to_string(size) + " bytes)");
  char magic[sizeof(kMagic)];
  uint32_t version = 0;
  uint64_t count = 0;
  in.read(magic, sizeof(magic));
  in.read(reinterpret_cast<char*>(&version), sizeof(version));
  in.read(reinterpret_cast<char*>(&count), sizeof(count));
  if (!in) fail(file, "cannot read the header");
  if (std::memcmp(magic, kMagic, sizeof(kMagic)) != 0) fail(file, "not a kernelscope N-body file (wrong magic)");
  if (version != kVersion)
    fail(file, "version " + std::to_string(version) + " (this build reads version " + std::to_string(kVersion) + ")");
  if (count == 0) fail(file, "holds no bodies");
  // Checked against the size before anything is allocated: a corrupt count
  // must not become a huge allocation (and count * 64 must not overflow).
  const uint64_t payload = size - kHeaderBytes;
  if (payload % kBytesPerBody != 0 || payload / kBytesPerBody != count)
    fail(file, "header says " + std::to_string(count) + " bodies, but the file's " + std::to_string(size) +
                   " bytes do not match that");

  NBodySystem system;
  system.positions.resize(count);
  system.velocities.resize(count);
  in.read(reinterpret_cast<char*>(system.positions.data()), static_cast<std::streamsize>(count * sizeof(glm::dvec4)));
  in.read(reinterpret_cast<char*>(system.velocities.data()), static_cast<std::streamsize>(count * sizeof(glm::dvec4)));
  if (!in) fail(file, "cannot read the bodies (file shrank while reading?)");

  for (uint64_t i = 0; i < count; ++i) {
    const glm::dvec4& p = system.positions[i];
    const glm::dvec4& v = system.velocities[i];
    for (int c = 0; c < 4; ++c)
      if (!std::isfinite(p[c]) || !std::isfinite(v[c]))
        fail(file, "body " + std::to_string(i) + " has a non-finite value");
    if (p.w < 0.0) fail(file, "body " + std::to_string(i) + " has a negative mass");
  }
  return system;
}

Result<NBodySystem> readNBodySystem(const fs::path& file) {
  try {
    return loadNBodySystem(file);
  } catch (const NBodyFileError& e) {
    return Error(e);
  } catch (const std::bad_alloc&) {
    return Error("N-body file '" + file.string() + "': does not fit in this computer's memory", kExitFailure,
                 ErrorDetails{{}, {}, file});
  }
}

}  // namespace ks
