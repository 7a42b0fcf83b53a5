#pragma once
// One N-body step split over several devices of one platform (issue 24). The
// padded bodies are cut into contiguous slices of whole work-groups, one per
// device; each device keeps all N positions and integrates its slice with the
// same kernel and configuration as one device does (kernels/nbody.cl's
// firstBody argument), then the new positions go through pinned host memory to
// every other device. Per body the arithmetic is the single device's, so on
// devices that compute alike the result is the same bit for bit.
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

struct NBodyMultiStepTimes {
  std::vector<double> kernelMs;  // per device, from its profiling event (device clock)
  double stepMs = 0.0;           // host clock, from the first launch until every device holds every new position
  double exchangeMs = 0.0;       // stepMs less the slowest kernel: the time the exchange (and launching) adds
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
  // New slices in proportion to each device's speed in the given kernel times
  // (the slice's bodies per millisecond); moves the velocities of bodies that
  // change device. Returns whether the slices changed.
  bool rebalance(const std::vector<double>& kernelMs);
  void setSlices(const std::vector<NBodySlice>& slices);  // for tests: any cut of whole groups
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
  // Positions and velocities as they are now (each body's velocity from the device that owns it).
  NBodySystem download();
  // What the kernels wrote for drawing (x, y, z and speed per padded body, in
  // float), each slice from the device that computed it: the viewer hands it to
  // the display device, which may be in another OpenCL context. Once asked for,
  // every step also reads its slices' display values into pinned host memory,
  // beside the exchange (no read of its own after the step): `displayOnHost`
  // gives them, padded() * 4 floats, valid until the next step.
  void gatherDisplayEachStep();
  const float* displayOnHost() const { return displayHost_; }

 private:
  struct Part;
  std::vector<std::unique_ptr<Part>> parts_;
  std::vector<NBodySlice> slices_;
  NBodyConfig config_;
  size_t bodies_ = 0, padded_ = 0, bytesPerBody_ = 0;
  Buffer pinned_;           // host memory in the group's context, mapped for the whole run
  unsigned char* host_ = nullptr;
  Buffer displayPinned_;    // the same for the display values (gatherDisplayEachStep)
  float* displayHost_ = nullptr;
  cl_command_queue mappedOn_ = nullptr;
  void gatherVelocities(std::vector<unsigned char>& out);
};

}  // namespace ks
