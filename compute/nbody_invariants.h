#pragma once
// What the N-body integrator should conserve (energy, momentum, angular momentum),
// measured on the device every so many steps while the simulation runs, so that
// the cost of a faster setting in accuracy shows beside its speed (issue 23).
// kernels/nbody_invariants.cl computes each body's share; the host adds them up.
// The step's stored velocities are half a step behind the positions (a leapfrog),
// so every figure is taken at the synchronised velocity v_{n-1/2} + a(p_n) dt/2:
// enqueue() passes the step's dt, and the reference below does the same.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "compute/cl_objects.h"
#include "compute/program_cache.h"
#include "compute/nbody_model.h"

namespace ks {

class ComputeContext;

struct NBodyInvariants {
  double kinetic = 0.0, potential = 0.0;
  glm::dvec3 momentum{0.0}, angularMomentum{0.0};
  double mass = 0.0, inertia = 0.0;  // sums of m and of m |p|^2 (for the scales below)
  double energy() const { return kinetic + potential; }
  // Upper bounds of sum |m v| and sum |p x m v| (Cauchy-Schwarz): what momentum and
  // angular momentum drift are measured against, since their totals may be zero.
  double momentumScale() const;
  double angularMomentumScale() const;
};

// The same on the host in double precision (tests and the first baseline).
NBodyInvariants nbodyReferenceInvariants(const NBodySystem& system, const NBodyParams& params);

// Drift from a baseline: energy relative to |E0| (signed); momentum and angular
// momentum as the length of their change relative to the baseline's scales.
struct NBodyDrift {
  double energy = 0.0, momentum = 0.0, angularMomentum = 0.0;
};
NBodyDrift nbodyDrift(const NBodyInvariants& now, const NBodyInvariants& baseline);

constexpr const char* kNBodyInvariantsKernelFile = "nbody_invariants.cl";
struct DeviceDescriptor;
// The build options of the meter for `device` (see the constructor below): the
// split's start builds them ahead (app/nbody_split_start.h).
std::string nbodyInvariantsBuildOptions(const DeviceDescriptor& device, bool positionsFp64,
                                        bool doubleSumsIfAvailable = true);

// Runs the measurement without blocking: enqueue() starts one after the steps
// already enqueued (the queue is in order), poll() returns it once finished.
class NBodyInvariantsMeter {
 public:
  // `positionsFp64`: the simulation's precision. The sums are kept in double where
  // the device has cl_khr_fp64, else in float with Kahan's compensation.
  // `doubleSumsIfAvailable` false: single precision sums anyway (tests).
  NBodyInvariantsMeter(ComputeContext& compute, bool positionsFp64, bool doubleSumsIfAvailable = true);
  ~NBodyInvariantsMeter();  // waits for a read in flight: it writes into this object
  NBodyInvariantsMeter(const NBodyInvariantsMeter&) = delete;
  NBodyInvariantsMeter& operator=(const NBodyInvariantsMeter&) = delete;
  bool busy() const { return pending_; }
  bool sumsInDouble() const { return sumFp64_; }
  // Nothing is enqueued while the last measurement has not been collected.
  void enqueue(Queue& queue, cl_mem positions, cl_mem velocities, size_t bodies, const NBodyParams& params);
  // Never waits unless `wait` (tests); nothing while none is finished.
  std::optional<NBodyInvariants> poll(bool wait = false);
  double lastKernelMs() const { return kernelMs_; }

 private:
  cl_context context_;
  bool positionsFp64_, sumFp64_;
  std::shared_ptr<const ProgramBuild> build_;
  Kernel kernel_;
  Buffer out_;
  size_t bodies_ = 0;
  std::vector<double> hostDouble_;
  std::vector<float> hostFloat_;
  Event kernelDone_, readDone_;
  bool pending_ = false;
  double kernelMs_ = 0.0;
};

}  // namespace ks
