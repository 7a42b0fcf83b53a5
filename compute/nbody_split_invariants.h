#pragma once
// Energy and momenta of the N-body step split over several devices (issue 24).
// Every device holds all positions but only its own slice's velocities: before
// each measurement the other slices' velocities are copied to the first device
// of the split (one OpenCL context: a device-side copy, after the steps, which
// end with every queue finished), which then measures all bodies as one device
// does (kernels/nbody_invariants.cl). The same per-body figures and the same
// sums as one device, so the drift plot goes on while the step is split.
// (One device measures: the same kernel run at once on several PoCL devices
// with slices of different sizes tripped PoCL 3.1's kernel cache, an assertion
// in pocl_release_dlhandle_cache, about one run in twenty.)
#include <memory>
#include <optional>

#include "compute/device_group.h"
#include "compute/nbody_invariants.h"
#include "compute/nbody_multi_device.h"

namespace ks {

class NBodySplitInvariants {
 public:
  // The meter on the group's first device (builds nbody_invariants.cl there,
  // through its program cache). Throws ProgramBuildError or ClError.
  NBodySplitInvariants(DeviceGroup& group, bool positionsFp64);
  // A measurement is in flight.
  bool busy() const { return meter_->busy(); }
  bool sumsInDouble() const { return meter_->sumsInDouble(); }
  // Starts a measurement after the last step (NBodyMultiDevice::step returns with
  // every queue finished); nothing while the last one has not been collected.
  void enqueue(NBodyMultiDevice& multi, const NBodyParams& params);
  // The whole system's figures once finished; never waits unless `wait`.
  std::optional<NBodyInvariants> poll(bool wait = false) { return meter_->poll(wait); }
  double lastKernelMs() const { return meter_->lastKernelMs(); }

 private:
  cl_context context_;
  std::unique_ptr<NBodyInvariantsMeter> meter_;
  Buffer velocities_;  // every body's velocity, gathered on the first device
};

}  // namespace ks
