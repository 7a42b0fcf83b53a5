#pragma once
// Energy and momenta of the N-body step split over several devices (issue 24).
// Each device holds all positions but only its own slice's velocities, so each
// measures the bodies of its slice (kernels/nbody_invariants.cl over that range,
// against all positions) and the slices' sums add up to the whole system's: the
// same per-body figures as one device measures, so the drift plot goes on while
// the step is split.
#include <memory>
#include <optional>
#include <vector>

#include "compute/device_group.h"
#include "compute/nbody_invariants.h"
#include "compute/nbody_multi_device.h"

namespace ks {

class NBodySplitInvariants {
 public:
  // One meter per device of `group` (builds nbody_invariants.cl on each, through
  // their program caches). Throws ProgramBuildError or ClError.
  NBodySplitInvariants(DeviceGroup& group, bool positionsFp64);
  // A measurement is in flight on some device.
  bool busy() const;
  // Whether every device keeps its sums in double (else float with compensation).
  bool sumsInDouble() const;
  // Starts a measurement after the steps enqueued so far (each device's queue is in
  // order); nothing while the last one has not been collected.
  void enqueue(NBodyMultiDevice& multi, const NBodyParams& params);
  // The whole system's figures once every device's part finished; never waits unless `wait`.
  std::optional<NBodyInvariants> poll(bool wait = false);
  // The slowest device's measurement kernel, of the last poll.
  double lastKernelMs() const { return kernelMs_; }

 private:
  std::vector<std::unique_ptr<NBodyInvariantsMeter>> meters_;
  std::vector<bool> measuring_;  // per device: a part was enqueued (a slice of padding only has none)
  bool pending_ = false;
  double kernelMs_ = 0.0;
};

// The sum of two parts' figures (each a sum over its bodies).
NBodyInvariants operator+(const NBodyInvariants& a, const NBodyInvariants& b);

}  // namespace ks
