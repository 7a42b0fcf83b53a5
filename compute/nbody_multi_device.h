#pragma once
// One N-body step split over several devices of one platform (issue 24). The
// padded bodies are cut into contiguous slices of whole work-groups, one per
// device; each device keeps all N positions and integrates its slice with the
// same kernel and configuration as one device does (kernels/nbody.cl's
// firstBody argument), then the new positions go through pinned host memory to
// every other device. Per body the arithmetic is the single device's, so on
// devices that compute alike the result is the same bit for bit.
#include <chrono>
#include <memory>
#include <vector>

#include "compute/device_group.h"
#include "compute/nbody_gpu.h"

namespace ks {

struct NBodySlice {
  size_t first = 0, count = 0;  // bodies, multiples of the bodies per work-group
  bool operator==(const NBodySlice&) const = default;
};

// `padded` bodies (a multiple of `group`) cut into one slice per weight, sizes in
// proportion to the weights (a device's speed), each at least one group. Throws
// NBodyConfigError when there are fewer groups than weights.
std::vector<NBodySlice> nbodySlices(size_t padded, size_t group, const std::vector<double>& weights);

// Mean over largest of the devices' kernel times: 1 when all finish together.
double nbodyLoadBalance(const std::vector<double>& kernelMs);

struct NBodyDeviceCost;  // compute/nbody_slice_balance.h

struct NBodyMultiStepTimes {
  std::vector<double> kernelMs;  // per device, from its profiling event (device clock)
  // Per device, from its profiling event: from the launch until its kernel began
  // (queued to start). Beyond a launch's few microseconds, the device was busy
  // with other work first: GL drawing on the display device, the last exchange's
  // copies into it when the step was launched before they ended.
  std::vector<double> waitMs;
  // Host clock, from the launch until every device holds every new position
  // (step) or until every slice is on the host and on its way (launch + completeStep).
  double stepMs = 0.0;
  double exchangeMs = 0.0;       // stepMs less the slowest device's wait and kernel: what the exchange adds
};

class NBodyMultiDevice {
 public:
  // Builds the kernel on every device and uploads the system to each. Throws
  // NBodyConfigError, ProgramBuildError or ClError.
  NBodyMultiDevice(DeviceGroup& group, const NBodySystem& system, const NBodyConfig& config);
  ~NBodyMultiDevice();
  NBodyMultiDevice(const NBodyMultiDevice&) = delete;
  NBodyMultiDevice& operator=(const NBodyMultiDevice&) = delete;

  // One step on all devices; returns when every device holds all new positions.
  NBodyMultiStepTimes step(const NBodyParams& params);
  // A step in two halves, for the viewer, which runs the next step while GL draws
  // the last (a frame behind, as one device does). `launch` enqueues the kernels
  // and the reads of their slices into pinned host memory and waits for nothing
  // (a step still pending is completed first). `completeStep` waits until every
  // slice is on the host, sends each to the other devices (not waited for: each
  // device's next kernel follows them in its queue) and gives the step's times.
  void launch(const NBodyParams& params);
  NBodyMultiStepTimes completeStep();
  bool stepPending() const { return pending_; }
  // The pending step's kernels and reads have finished (never blocks; none pending: true).
  bool pendingStepFinished() const;
  // New slices in proportion to each device's speed in the given kernel times
  // (the slice's bodies per millisecond); moves the velocities of bodies that
  // change device. Returns whether the slices changed.
  bool rebalance(const std::vector<double>& kernelMs);
  // The same with each device's other work per step (compute/nbody_slice_balance.h):
  // the slices make every device's kernel plus other work equal.
  bool rebalance(const std::vector<NBodyDeviceCost>& costs);
  // The slices `rebalance(costs)` would make, without making them.
  std::vector<NBodySlice> balancedSlices(const std::vector<NBodyDeviceCost>& costs) const;
  // Any cut of whole groups (tests, rebalance); completes a pending step first.
  void setSlices(const std::vector<NBodySlice>& slices);
  const std::vector<NBodySlice>& slices() const { return slices_; }
  size_t devices() const { return parts_.size(); }
  size_t bodies() const { return bodies_; }
  size_t padded() const { return padded_; }
  const NBodyConfig& config() const { return config_; }
  const NBodyKernel& kernel(size_t device) const;
  // A device's queue and its buffers after the last step (positions: all bodies;
  // velocities: only its slice's are current): for measurements enqueued after the steps.
  Queue& queue(size_t device);
  cl_mem positions(size_t device) const;
  cl_mem velocities(size_t device) const;
  // Positions and velocities as they are now (each body's velocity from the device
  // that owns it); completes a pending step first.
  NBodySystem download();
  // What the kernels wrote for drawing (x, y, z and speed per padded body, in
  // float), each slice from the device that computed it: the viewer hands it to
  // the display device, which may be in another OpenCL context. Once asked for,
  // every step also reads its slices' display values into pinned host memory,
  // beside the exchange (no read of its own after the step). `displayOnHost`
  // gives the last completed step's, padded() * 4 floats (waiting for their reads,
  // which follow the positions'), valid until the second launch after it: two
  // buffers take turns, so a pending step never writes the one being shown.
  void gatherDisplayEachStep();
  const float* displayOnHost();

 private:
  struct Part;
  std::vector<std::unique_ptr<Part>> parts_;
  std::vector<NBodySlice> slices_;
  NBodyConfig config_;
  size_t bodies_ = 0, padded_ = 0, bytesPerBody_ = 0;
  // Host memory in the group's context, mapped for the whole run; two of each,
  // by step parity: a step's reads never overwrite what the copies of the step
  // before still read (launch waits for nothing).
  Buffer pinned_[2];
  unsigned char* host_[2] = {nullptr, nullptr};
  Buffer displayPinned_[2];  // the same for the display values (gatherDisplayEachStep)
  float* displayHost_[2] = {nullptr, nullptr};
  cl_command_queue mappedOn_ = nullptr;
  // The step launched and not yet completed: its parity, events and launch time.
  bool pending_ = false;
  int parity_ = 0;            // the buffers of the step launched last
  int shownParity_ = -1;      // the buffers of the last completed step's display values; -1: none
  std::vector<Event> kernels_, reads_, displayReads_;
  std::vector<Event> shownDisplayReads_;  // the last completed step's display reads, until waited for
  std::chrono::steady_clock::time_point launchedAt_;
  void gatherVelocities(std::vector<unsigned char>& out);
};

}  // namespace ks
