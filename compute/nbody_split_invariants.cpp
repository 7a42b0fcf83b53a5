#include "compute/nbody_split_invariants.h"

#include "compute/cl_error.h"

namespace ks {

NBodySplitInvariants::NBodySplitInvariants(DeviceGroup& group, bool positionsFp64)
    : context_(group.context()), meter_(std::make_unique<NBodyInvariantsMeter>(group[0], positionsFp64)) {}

void NBodySplitInvariants::enqueue(NBodyMultiDevice& multi, const NBodyParams& params) {
  if (meter_->busy() || multi.devices() == 0) return;
  const size_t bytesPerBody = 4 * (multi.config().fp64 ? sizeof(double) : sizeof(float));
  const size_t bytes = multi.padded() * bytesPerBody;
  if (velocities_.bytes() != bytes) velocities_ = Buffer(context_, CL_MEM_READ_WRITE, bytes);
  Queue& first = multi.queue(0);
  // Each slice's velocities from the device that integrates it; the in-order
  // queue runs the meter after the copies.
  for (size_t d = 0; d < multi.devices(); ++d) {
    const NBodySlice& slice = multi.slices()[d];
    Event copied;
    clCheck(clEnqueueCopyBuffer(first.get(), multi.velocities(d), velocities_.get(), slice.first * bytesPerBody,
                                slice.first * bytesPerBody, slice.count * bytesPerBody, 0, nullptr, copied.out()),
            "clEnqueueCopyBuffer (velocities to measure)");
    // The viewer launches the next step right after (compute/nbody_multi_device.h):
    // the device's kernel must not change these velocities before they are copied.
    if (d > 0) {
      const cl_event wait = copied.get();
      clCheck(clEnqueueBarrierWithWaitList(multi.queue(d).get(), 1, &wait, nullptr),
              "clEnqueueBarrierWithWaitList (velocities to measure)");
    }
  }
  first.flush();
  meter_->enqueue(first, multi.positions(0), velocities_.get(), multi.bodies(), params);
}

}  // namespace ks
