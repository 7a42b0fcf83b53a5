#include "compute/nbody_gpu.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "compute/kernel_constraints.h"

namespace ks {

NBodyKernel::NBodyKernel(ComputeContext& compute, const NBodyConfig& config) : config_(config) {
  if (std::string problem = nbodyConfigProblem(config, compute.device()); !problem.empty())
    throw NBodyConfigError(problem);
  build_ = compute.buildKernelFile(kNBodyKernelFile, nbodyBuildOptions(config));
  if (!build_->ok()) throw ProgramBuildError(build_);
  kernel_ = Kernel(build_->program.get(), findNBodyVariant(config.variant)->kernel);
  info_ = kernel_.info(compute.device().id);
  // The compiled kernel may allow fewer work-items than the device (registers).
  if (info_.launchableWorkGroupSize() < static_cast<size_t>(config.workGroup))
    throw NBodyConfigError(kernelWorkGroupConstraint().refusal({{"kernel", findNBodyVariant(config.variant)->kernel},
                                                                {"max", info_.launchableWorkGroupSize()},
                                                                {"items", config.workGroup}}));
  // Local memory was checked before the build from the tile the kernel declares
  // (nbodyConfigProblem); CL_KERNEL_LOCAL_MEM_SIZE can include the driver's own
  // bytes (see buildKernel in image_op_checks.cpp).
}

template <typename T>
void NBodyKernel::setParams(const NBodyParams& p, size_t padded) {
  kernel_.setArg(4, static_cast<cl_int>(padded));
  kernel_.setArg(5, static_cast<T>(p.dt));
  kernel_.setArg(6, static_cast<T>(p.softening2));
  kernel_.setArg(7, static_cast<T>(p.gravity));
  kernel_.setArg(8, static_cast<T>(p.damping));
}

void NBodyKernel::enqueueStep(Queue& queue, cl_mem posIn, cl_mem posOut, cl_mem velocities, cl_mem display,
                              size_t padded, const NBodyParams& params, Event* event) {
  enqueueSlice(queue, posIn, posOut, velocities, display, padded, 0, padded, params, event);
}

void NBodyKernel::enqueueSlice(Queue& queue, cl_mem posIn, cl_mem posOut, cl_mem velocities, cl_mem display,
                               size_t padded, size_t first, size_t count, const NBodyParams& params, Event* event) {
  const size_t group = nbodyBodiesPerGroup(config_);
  if (count == 0 || first % group != 0 || count % group != 0 || first + count > padded)
    throw NBodyConfigError("bodies " + std::to_string(first) + " to " + std::to_string(first + count) +
                           " are not whole work-groups of " + std::to_string(group) + " within the " +
                           std::to_string(padded) + " padded bodies");
  kernel_.setArg(0, posIn);
  kernel_.setArg(1, posOut);
  kernel_.setArg(2, velocities);
  kernel_.setArg(3, display);
  if (config_.fp64) setParams<cl_double>(params, padded);
  else setParams<cl_float>(params, padded);
  kernel_.setArg(9, static_cast<cl_int>(first));
  queue.enqueueKernel(kernel_, {nbodyGlobalSize(count, config_)}, {static_cast<size_t>(config_.workGroup)}, event);
}

namespace {

template <typename T>
std::vector<T> packed(const std::vector<glm::dvec4>& values, size_t padded) {
  std::vector<T> out(padded * 4, T(0));
  for (size_t i = 0; i < values.size(); ++i)
    for (int c = 0; c < 4; ++c) out[i * 4 + c] = static_cast<T>(values[i][c]);
  return out;
}

template <typename T>
std::vector<glm::dvec4> unpacked(const std::vector<T>& values, size_t count) {
  std::vector<glm::dvec4> out(count);
  for (size_t i = 0; i < count; ++i)
    out[i] = glm::dvec4(values[i * 4], values[i * 4 + 1], values[i * 4 + 2], values[i * 4 + 3]);
  return out;
}

}  // namespace

NBodyDeviceState::NBodyDeviceState(ComputeContext& compute, const NBodySystem& system, const NBodyConfig& config)
    : bodies_(system.size()), padded_(nbodyPaddedCount(system.size(), config)), fp64_(config.fp64) {
  if (bodies_ == 0) throw NBodyConfigError("the system has no bodies");
  const size_t bytes = padded_ * 4 * (fp64_ ? sizeof(double) : sizeof(float));
  if (bytes > compute.device().maxAllocBytes)
    throw NBodyConfigError(std::to_string(bodies_) + " bodies need " + std::to_string(bytes >> 20) +
                           " MiB per buffer; the device allows " +
                           std::to_string(compute.device().maxAllocBytes >> 20) + " MiB per allocation");
  for (auto& b : positions_) b = Buffer(compute.context(), CL_MEM_READ_WRITE, bytes);
  velocities_ = Buffer(compute.context(), CL_MEM_READ_WRITE, bytes);
  if (fp64_) {
    const auto p = packed<double>(system.positions, padded_), v = packed<double>(system.velocities, padded_);
    compute.queue().writeBuffer(positions_[0], 0, bytes, p.data());
    compute.queue().writeBuffer(velocities_, 0, bytes, v.data());
  } else {
    const auto p = packed<float>(system.positions, padded_), v = packed<float>(system.velocities, padded_);
    compute.queue().writeBuffer(positions_[0], 0, bytes, p.data());
    compute.queue().writeBuffer(velocities_, 0, bytes, v.data());
  }
}

NBodySystem NBodyDeviceState::download(Queue& queue) const {
  NBodySystem system;
  if (fp64_) {
    std::vector<double> p(padded_ * 4), v(padded_ * 4);
    queue.readBuffer(positions_[current_], 0, p.size() * sizeof(double), p.data());
    queue.readBuffer(velocities_, 0, v.size() * sizeof(double), v.data());
    system.positions = unpacked(p, bodies_);
    system.velocities = unpacked(v, bodies_);
  } else {
    std::vector<float> p(padded_ * 4), v(padded_ * 4);
    queue.readBuffer(positions_[current_], 0, p.size() * sizeof(float), p.data());
    queue.readBuffer(velocities_, 0, v.size() * sizeof(float), v.data());
    system.positions = unpacked(p, bodies_);
    system.velocities = unpacked(v, bodies_);
  }
  return system;
}

NBodyVerification verifyNBodyStep(ComputeContext& compute, const NBodySystem& system, const NBodyConfig& config,
                                  const NBodyParams& params) {
  NBodySystem start = system;
  for (auto& v : start.velocities) v = glm::dvec4(0.0);
  NBodyParams unit = params;
  unit.dt = 1.0;
  unit.damping = 1.0;

  NBodyKernel kernel(compute, config);
  NBodyDeviceState state(compute, start, config);
  Buffer display(compute.context(), CL_MEM_WRITE_ONLY, state.padded() * 4 * sizeof(float));
  kernel.enqueueStep(compute.queue(), state.positionsIn(), state.positionsOut(), state.velocities(), display.get(),
                     state.padded(), unit, nullptr);
  compute.queue().finish();
  state.swap();
  const NBodySystem after = state.download(compute.queue());

  NBodyVerification result;
  // Every body, not only the sample: one NaN anywhere poisons the next step.
  result.nonFinite = firstNonFinite(after.velocities, false, "acceleration");
  if (result.nonFinite.empty()) result.nonFinite = firstNonFinite(after.positions, true, "position");

  // Reference accelerations for a sample of bodies against all bodies.
  const size_t n = system.size();
  const size_t samples = std::min<size_t>(n, 4096);
  result.sampled = samples;
  const bool approximate = config.fastRelaxedMath || (config.nativeRsqrt && !config.fp64);
  result.tolerance = approximate ? 5e-4 : 1e-4;
  for (size_t s = 0; s < samples; ++s) {
    const size_t i = samples == n ? s : s * (n - 1) / (samples - 1);
    double magnitude = 0.0;
    const glm::dvec3 acc = nbodyReferenceAcceleration(start, params, i, &magnitude);
    if (result.nonFinite.empty() && !std::isfinite(magnitude + acc.x + acc.y + acc.z))
      result.nonFinite = std::string(std::isnan(magnitude + acc.x + acc.y + acc.z) ? "NaN" : "Inf") +
                         " at body " + std::to_string(i) + " (reference acceleration)";
    const glm::dvec3 gpu(after.velocities[i]);
    const double error = magnitude > 0 ? glm::length(gpu - acc) / magnitude : glm::length(gpu - acc);
    // Not std::max, which keeps the first argument when the second is NaN.
    if (!(error <= result.maxRelativeError)) result.maxRelativeError = error;
  }
  return result;
}

std::string firstNonFinite(const std::vector<glm::dvec4>& values, bool withW, const char* what) {
  for (size_t i = 0; i < values.size(); ++i)
    for (int k = 0; k < (withW ? 4 : 3); ++k)
      if (!std::isfinite(values[i][k]))
        return std::string(std::isnan(values[i][k]) ? "NaN" : "Inf") + " at body " + std::to_string(i) + " (" +
               what + ")";
  return {};
}

std::string NBodyVerification::summary() const {
  char text[256];
  if (!nonFinite.empty())
    std::snprintf(text, sizeof text, "FAIL: %s (%zu bodies checked against the reference)", nonFinite.c_str(),
                  sampled);
  else
    std::snprintf(text, sizeof text, "%s: max relative error %.3g over %zu bodies (tolerance %.0e)",
                  passed() ? "PASS" : "FAIL", maxRelativeError, sampled, tolerance);
  return text;
}

}  // namespace ks
