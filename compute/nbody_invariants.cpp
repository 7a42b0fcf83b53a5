#include "compute/nbody_invariants.h"

#include <cmath>

#include "compute/compute_context.h"

namespace ks {
namespace {
constexpr size_t kValuesPerBody = 10;  // what kernels/nbody_invariants.cl writes per body
}  // namespace

NBodyInvariants nbodyReferenceInvariants(const NBodySystem& s, const NBodyParams& params) {
  NBodyInvariants inv;
  // The stored velocities are half a step behind the positions: measured at the
  // positions' time, as the device does.
  const std::vector<glm::dvec3> velocities = nbodySynchronisedVelocities(s, params);
  for (size_t i = 0; i < s.size(); ++i) {
    const glm::dvec3 p(s.positions[i]), v = velocities[i];
    const double m = s.positions[i].w;
    inv.kinetic += 0.5 * m * glm::dot(v, v);
    inv.momentum += m * v;
    inv.angularMomentum += glm::cross(p, m * v);
    inv.mass += m;
    inv.inertia += m * glm::dot(p, p);
  }
  inv.potential = nbodyPotentialEnergy(s, params);
  return inv;
}

double NBodyInvariants::momentumScale() const { return std::sqrt(2.0 * mass * kinetic); }
double NBodyInvariants::angularMomentumScale() const { return std::sqrt(2.0 * inertia * kinetic); }

NBodyDrift nbodyDrift(const NBodyInvariants& now, const NBodyInvariants& base) {
  auto relative = [](double change, double scale) { return scale > 0.0 ? change / scale : 0.0; };
  return {relative(now.energy() - base.energy(), std::abs(base.energy())),
          relative(glm::length(now.momentum - base.momentum), base.momentumScale()),
          relative(glm::length(now.angularMomentum - base.angularMomentum), base.angularMomentumScale())};
}

std::string nbodyInvariantsBuildOptions(const DeviceDescriptor& device, bool positionsFp64,
                                        bool doubleSumsIfAvailable) {
  std::string options;
  if (positionsFp64) options += "-DPOSITIONS_FP64 ";
  if (doubleSumsIfAvailable && device.hasExtension("cl_khr_fp64")) options += "-DSUM_FP64";
  return options;
}

NBodyInvariantsMeter::NBodyInvariantsMeter(ComputeContext& compute, bool positionsFp64, bool doubleSumsIfAvailable)
    : context_(compute.context()),
      positionsFp64_(positionsFp64),
      sumFp64_(doubleSumsIfAvailable && compute.device().hasExtension("cl_khr_fp64")) {
  build_ = compute.buildKernelFile(kNBodyInvariantsKernelFile,
                                   nbodyInvariantsBuildOptions(compute.device(), positionsFp64, doubleSumsIfAvailable));
  if (!build_->ok()) throw ProgramBuildError(build_);
  kernel_ = Kernel(build_->program.get(), "nbody_invariants");
}

NBodyInvariantsMeter::~NBodyInvariantsMeter() {
  if (!pending_) return;
  try {
    readDone_.wait();
  } catch (const std::exception&) {
    // A failed read wrote nothing more; nothing to report from a destructor.
  }
}

void NBodyInvariantsMeter::enqueue(Queue& queue, cl_mem positions, cl_mem velocities, size_t bodies,
                                   const NBodyParams& params) {
  if (pending_ || bodies == 0) return;
  const size_t outBytes = bodies * kValuesPerBody * (sumFp64_ ? sizeof(double) : sizeof(float));
  if (out_.bytes() < outBytes) out_ = Buffer(context_, CL_MEM_WRITE_ONLY, outBytes);
  bodies_ = bodies;
  kernel_.setArg(0, positions);
  kernel_.setArg(1, velocities);
  kernel_.setArg(2, static_cast<cl_int>(bodies));
  if (positionsFp64_) {
    kernel_.setArg(3, static_cast<cl_double>(params.softening2));
    kernel_.setArg(4, static_cast<cl_double>(params.gravity));
    kernel_.setArg(5, static_cast<cl_double>(params.dt));
  } else {
    kernel_.setArg(3, static_cast<cl_float>(params.softening2));
    kernel_.setArg(4, static_cast<cl_float>(params.gravity));
    kernel_.setArg(5, static_cast<cl_float>(params.dt));
  }
  kernel_.setArg(6, out_.get());
  const size_t local = 64;
  queue.enqueueKernel(kernel_, {(bodies + local - 1) / local * local}, {local}, &kernelDone_);
  void* host = nullptr;
  if (sumFp64_) {
    hostDouble_.resize(bodies * kValuesPerBody);
    host = hostDouble_.data();
  } else {
    hostFloat_.resize(bodies * kValuesPerBody);
    host = hostFloat_.data();
  }
  queue.readBuffer(out_, 0, outBytes, host, false, &readDone_);
  queue.flush();
  pending_ = true;
}

std::optional<NBodyInvariants> NBodyInvariantsMeter::poll(bool wait) {
  if (!pending_) return std::nullopt;
  if (wait) readDone_.wait();
  else if (!readDone_.complete()) return std::nullopt;
  pending_ = false;
  kernelMs_ = kernelDone_.elapsedMs();
  // Kahan sums in double: a million bodies' shares add up without losing the drift.
  double sums[kValuesPerBody] = {}, lost[kValuesPerBody] = {};
  for (size_t i = 0; i < bodies_; ++i)
    for (size_t k = 0; k < kValuesPerBody; ++k) {
      const size_t at = i * kValuesPerBody + k;
      const double value = sumFp64_ ? hostDouble_[at] : static_cast<double>(hostFloat_[at]);
      const double y = value - lost[k], t = sums[k] + y;
      lost[k] = (t - sums[k]) - y;
      sums[k] = t;
    }
  NBodyInvariants inv;
  inv.kinetic = sums[0];
  inv.potential = sums[1];
  inv.momentum = {sums[2], sums[3], sums[4]};
  inv.angularMomentum = {sums[5], sums[6], sums[7]};
  inv.mass = sums[8];
  inv.inertia = sums[9];
  return inv;
}

}  // namespace ks
