#pragma once
// The N-body kernel and state on an OpenCL device, without any display: used by
// the live simulation (which adds the GL vertex buffer), the benchmark and the
// verification against the CPU reference.
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "compute/cl_objects.h"
#include "compute/compute_context.h"
#include "compute/nbody_model.h"
#include "compute/nbody_variants.h"
#include "core/error.h"

namespace ks {

// A configuration the device cannot run, with the reason (never a raw
// CL_INVALID_WORK_GROUP_SIZE from a launch).
class NBodyConfigError : public Error {
 public:
  // A configuration asked for on the command line: exit code 2, as for a bad option.
  explicit NBodyConfigError(const std::string& message, ErrorDetails details = {})
      : Error(message, kExitUsage, std::move(details)) {}
};

class NBodyKernel {
 public:
  // Checks the configuration, builds kernels/nbody.cl with its options and checks
  // the built kernel's limits. Throws NBodyConfigError or ProgramBuildError.
  NBodyKernel(ComputeContext& compute, const NBodyConfig& config);
  // One step over `padded` bodies (nbodyPaddedCount); display receives float4
  // (xyz, speed) per body.
  void enqueueStep(Queue& queue, cl_mem posIn, cl_mem posOut, cl_mem velocities, cl_mem display, size_t padded,
                   const NBodyParams& params, Event* event);
  // The step for bodies first .. first + count - 1 only, against all `padded`
  // (the split over devices: compute/nbody_multi_device.h). first and count are
  // multiples of nbodyBodiesPerGroup; the others' outputs are left as they were.
  void enqueueSlice(Queue& queue, cl_mem posIn, cl_mem posOut, cl_mem velocities, cl_mem display, size_t padded,
                    size_t first, size_t count, const NBodyParams& params, Event* event);
  const NBodyConfig& config() const { return config_; }
  const KernelInfo& info() const { return info_; }
  const ProgramBuild& build() const { return *build_; }

 private:
  template <typename T>
  void setParams(const NBodyParams& params, size_t padded);
  NBodyConfig config_;
  std::shared_ptr<const ProgramBuild> build_;
  Kernel kernel_;
  KernelInfo info_;
};

// Positions (double-buffered) and velocities of a system on the device, in the
// precision of the configuration, padded with zero-mass bodies.
class NBodyDeviceState {
 public:
  NBodyDeviceState(ComputeContext& compute, const NBodySystem& system, const NBodyConfig& config);
  NBodySystem download(Queue& queue) const;
  size_t bodies() const { return bodies_; }
  size_t padded() const { return padded_; }
  cl_mem positionsIn() const { return positions_[current_].get(); }
  cl_mem positionsOut() const { return positions_[current_ ^ 1].get(); }
  cl_mem velocities() const { return velocities_.get(); }
  const Buffer& velocitiesBuffer() const { return velocities_; }
  void swap() { current_ ^= 1; }

 private:
  size_t bodies_, padded_;
  bool fp64_;
  Buffer positions_[2];
  Buffer velocities_;
  int current_ = 0;
};

// One step of `config` from `system` compared with the CPU reference: the step is
// run with zero velocities, dt = 1 and no damping, so the velocities it returns
// are the accelerations. Error per body = |a_gpu - a_ref| / (G sum_j |a_ij|), the
// largest is reported; `sampled` bodies (all of them up to 4096, else an even
// spread) are checked. Every body's output (and each sampled reference) must be
// finite: std::max and `<=` both let a NaN through, so a non-finite value is
// recorded on its own and fails the check whatever the error says.
struct NBodyVerification {
  double maxRelativeError = 0.0;
  size_t sampled = 0;
  double tolerance = 0.0;  // 1e-4, or 5e-4 with fast math / native_rsqrt
  std::string nonFinite;   // the first one found, e.g. "NaN at body 17 (acceleration)"; empty if none
  bool passed() const { return nonFinite.empty() && maxRelativeError <= tolerance; }
  // "PASS: max relative error ... " or "FAIL: NaN at body 17 ...", for the panel, --verify and the tests.
  std::string summary() const;
};
// The first NaN or Inf in `values` (x, y, z of each body; w too when `withW`),
// described as "NaN at body 17 (what)"; empty when all are finite.
std::string firstNonFinite(const std::vector<glm::dvec4>& values, bool withW, const char* what);
NBodyVerification verifyNBodyStep(ComputeContext& compute, const NBodySystem& system, const NBodyConfig& config,
                                  const NBodyParams& params);

}  // namespace ks
