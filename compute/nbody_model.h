#pragma once
// The N-body system as plain host data, in double precision: start presets, the
// CPU reference step the kernels are checked against, energy, and save/load.
// No OpenCL, no GL.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "core/error.h"
#include "core/result.h"

namespace ks {

struct NBodySystem {
  std::vector<glm::dvec4> positions;   // xyz, w = mass (>= 0)
  std::vector<glm::dvec4> velocities;  // xyz, w unused (0)
  size_t size() const { return positions.size(); }
};

// Physical parameters of one step, the kick-drift leapfrog with damping:
//   a_i = G * sum_j m_j * d_ij / (|d_ij|^2 + eps2)^(3/2),  d_ij = p_j - p_i
//   v_{n+1/2} = (v_{n-1/2} + a(p_n)*dt) * damping,   p_{n+1} = p_n + v_{n+1/2}*dt
// The velocities stored beside the positions are half a step behind them (a preset's
// velocities are taken as the half step before the first). The leapfrog is second
// order and symplectic: its energy error stays bounded and falls with dt^2, where the
// seed's p' = p + v dt + a dt^2/2, v' = v + a dt drifted in proportion to dt (issue 23).
struct NBodyParams {
  double dt = 0.01;
  double softening2 = 0.01;  // eps^2 > 0
  double gravity = 1.0;      // G
  double damping = 1.0;      // 1: none
  bool operator==(const NBodyParams&) const = default;
};

enum class NBodyPreset { RandomCube, SphereShell, DiskGalaxy, CollidingGalaxies };
constexpr NBodyPreset kNBodyPresets[] = {NBodyPreset::RandomCube, NBodyPreset::SphereShell, NBodyPreset::DiskGalaxy,
                                         NBodyPreset::CollidingGalaxies};
const char* nbodyPresetName(NBodyPreset preset);  // "cube", "shell", "disk", "collision"
std::optional<NBodyPreset> parseNBodyPreset(const std::string& name);

// Parameters and a camera distance under which a preset looks right and stays
// stable for thousands of steps (scaled with n where that matters), and the steps
// the viewer takes per frame: a preset whose dt is cut for accuracy takes more, so
// that it still moves on screen at the pace it was designed for.
struct NBodyPresetDefaults {
  NBodyParams params;
  double cameraDistance = 10.0;
  int stepsPerFrame = 1;
};
NBodyPresetDefaults nbodyPresetDefaults(NBodyPreset preset, size_t n);

// n >= 1 bodies, deterministic for a given seed. Total mass is 1 in every preset
// (so G and dt defaults carry over between sizes).
NBodySystem makeNBodyPreset(NBodyPreset preset, size_t n, uint64_t seed);

// CPU reference in double precision. `accelerations` includes G. `magnitudeSums`
// (optional) receives, per body, G * sum_j |m_j d_ij / (|d_ij|^2+eps2)^(3/2)|:
// the scale against which an accumulated acceleration's error is judged.
void nbodyReferenceAccelerations(const NBodySystem& system, const NBodyParams& params,
                                 std::vector<glm::dvec3>& accelerations, std::vector<double>* magnitudeSums = nullptr);
// The same for one body (for checking a sample of a large system).
glm::dvec3 nbodyReferenceAcceleration(const NBodySystem& system, const NBodyParams& params, size_t body,
                                      double* magnitudeSum = nullptr);
NBodySystem nbodyReferenceStep(const NBodySystem& system, const NBodyParams& params);

// The velocities at the positions' time: v_n = v_{n-1/2} + a(p_n) * dt/2 (the stored
// velocities are half a step behind). What energy and momenta are measured with.
std::vector<glm::dvec3> nbodySynchronisedVelocities(const NBodySystem& system, const NBodyParams& params);
// -G m_i m_j / sqrt(|d|^2 + eps2) over pairs i<j: the potential of the softened forces.
double nbodyPotentialEnergy(const NBodySystem& system, const NBodyParams& params);
// Kinetic energy at the synchronised velocities + potential energy.
double nbodyTotalEnergy(const NBodySystem& system, const NBodyParams& params);

class NBodyFileError : public Error {
 public:
  explicit NBodyFileError(const std::string& message, std::filesystem::path file = {})
      : Error(message, kExitFailure, ErrorDetails{{}, {}, std::move(file)}) {}
};
// A small binary format with a magic, a version, the count and the doubles.
// Loading checks everything (magic, version, count against the file size,
// finite values, masses >= 0) and throws NBodyFileError with a clear message.
void saveNBodySystem(const NBodySystem& system, const std::filesystem::path& file);
NBodySystem loadNBodySystem(const std::filesystem::path& file);
// The same, without throwing: the system, or the NBodyFileError's message and file.
Result<NBodySystem> readNBodySystem(const std::filesystem::path& file);

}  // namespace ks
