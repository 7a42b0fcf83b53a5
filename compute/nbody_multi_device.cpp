#include "compute/nbody_multi_device.h"

#include "compute/nbody_slice_balance.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <numeric>

namespace ks {

std::vector<NBodySlice> nbodySlices(size_t padded, size_t group, const std::vector<double>& weights) {
  const size_t groups = group ? padded / group : 0;
  const size_t k = weights.size();
  if (k == 0) throw NBodyConfigError("no devices to split the bodies over");
  if (groups < k)
    throw NBodyConfigError(std::to_string(padded) + " bodies make " + std::to_string(groups) + " work-group" +
                           (groups == 1 ? "" : "s") + " of " + std::to_string(group) + " bodies; " +
                           std::to_string(k) + " devices need at least one each (more bodies, or fewer devices)");
  // A weight that is not a positive number (a device that reported no time)
  // counts as the mean of the others, so one bad sample cannot starve a device.
  double sum = 0.0;
  int good = 0;
  for (double w : weights)
    if (std::isfinite(w) && w > 0) sum += w, ++good;
  const double fallback = good ? sum / good : 1.0;
  std::vector<double> w(k);
  for (size_t d = 0; d < k; ++d) w[d] = std::isfinite(weights[d]) && weights[d] > 0 ? weights[d] : fallback;
  const double total = std::accumulate(w.begin(), w.end(), 0.0);
  // Shares of all groups by largest remainder, then at least one group each
  // (taken from the largest slice: a device too slow for one group is rare).
  std::vector<size_t> count(k);
  std::vector<double> remainder(k);
  size_t given = 0;
  for (size_t d = 0; d < k; ++d) {
    const double share = groups * w[d] / total;
    count[d] = std::min(groups - given, static_cast<size_t>(std::floor(share)));
    given += count[d];
    remainder[d] = share - std::floor(share);
  }
  std::vector<size_t> order(k);
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return remainder[a] > remainder[b]; });
  for (size_t i = 0; given < groups; i = (i + 1) % k, ++given) ++count[order[i]];
  for (size_t d = 0; d < k; ++d)
    if (count[d] == 0) {
      ++count[d];
      --*std::max_element(count.begin(), count.end());
    }
  std::vector<NBodySlice> out(k);
  size_t first = 0;
  for (size_t d = 0; d < k; ++d) {
    out[d] = {first * group, count[d] * group};
    first += count[d];
  }
  return out;
}

double nbodyLoadBalance(const std::vector<double>& kernelMs) {
  if (kernelMs.empty()) return 0.0;
  const double largest = *std::max_element(kernelMs.begin(), kernelMs.end());
  if (!(largest > 0)) return 0.0;
  return std::accumulate(kernelMs.begin(), kernelMs.end(), 0.0) / kernelMs.size() / largest;
}

struct NBodyMultiDevice::Part {
  Part(ComputeContext& c, const NBodySystem& system, const NBodyConfig& config)
      : compute(&c), kernel(c, config), state(c, system, config),
        display(c.context(), CL_MEM_WRITE_ONLY, state.padded() * 4 * sizeof(float)) {}
  ComputeContext* compute;
  NBodyKernel kernel;
  NBodyDeviceState state;
  Buffer display;  // the kernel writes it; only the display device's is drawn (the viewer)
};

NBodyMultiDevice::NBodyMultiDevice(DeviceGroup& group, const NBodySystem& system, const NBodyConfig& config)
    : config_(config), bodies_(system.size()), padded_(nbodyPaddedCount(system.size(), config)),
      bytesPerBody_(4 * (config.fp64 ? sizeof(double) : sizeof(float))) {
  if (group.size() == 0) throw NBodyConfigError("no devices to split the bodies over");
  slices_ = nbodySlices(padded_, nbodyBodiesPerGroup(config), std::vector<double>(group.size(), 1.0));
  for (size_t d = 0; d < group.size(); ++d) parts_.push_back(std::make_unique<Part>(group[d], system, config));
  // Pinned host memory: the driver can copy to and from it without staging, for
  // every device of the context.
  mappedOn_ = parts_.front()->compute->queue().get();
  for (int b = 0; b < 2; ++b) {
    pinned_[b] = Buffer(group.context(), CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, padded_ * bytesPerBody_);
    cl_int status = CL_SUCCESS;
    void* mapped = clEnqueueMapBuffer(mappedOn_, pinned_[b].get(), CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0,
                                      padded_ * bytesPerBody_, 0, nullptr, nullptr, &status);
    clCheck(status, "clEnqueueMapBuffer");
    host_[b] = static_cast<unsigned char*>(mapped);
  }
}

NBodyMultiDevice::~NBodyMultiDevice() {
  // Nothing may be in flight from or into the mapped memory when it is unmapped;
  // a failure here cannot be reported from a destructor and frees nothing less.
  for (auto& p : parts_) clFinish(p->compute->queue().get());
  bool unmapped = false;
  for (int b = 0; b < 2; ++b) {
    if (host_[b]) clEnqueueUnmapMemObject(mappedOn_, pinned_[b].get(), host_[b], 0, nullptr, nullptr), unmapped = true;
    if (displayHost_[b])
      clEnqueueUnmapMemObject(mappedOn_, displayPinned_[b].get(), displayHost_[b], 0, nullptr, nullptr), unmapped = true;
  }
  if (unmapped) clFinish(mappedOn_);
}

const NBodyKernel& NBodyMultiDevice::kernel(size_t device) const { return parts_.at(device)->kernel; }
Queue& NBodyMultiDevice::queue(size_t device) { return parts_.at(device)->compute->queue(); }
cl_mem NBodyMultiDevice::positions(size_t device) const { return parts_.at(device)->state.positionsIn(); }
cl_mem NBodyMultiDevice::velocities(size_t device) const { return parts_.at(device)->state.velocities(); }

namespace {

// From the command's enqueueing to its start, by its profiling event: 0 where the
// runtime gives no sensible queued time (some report none, or the start itself).
double queuedToStartMs(const Event& event) {
  cl_ulong queued = 0, start = 0;
  if (clGetEventProfilingInfo(event.get(), CL_PROFILING_COMMAND_QUEUED, sizeof(queued), &queued, nullptr) !=
          CL_SUCCESS ||
      queued == 0)
    return 0.0;
  clCheck(clGetEventProfilingInfo(event.get(), CL_PROFILING_COMMAND_START, sizeof(start), &start, nullptr),
          "clGetEventProfilingInfo");
  return start > queued ? static_cast<double>(start - queued) * 1e-6 : 0.0;
}

}  // namespace

NBodyMultiStepTimes NBodyMultiDevice::step(const NBodyParams& params) {
  launch(params);
  const auto start = launchedAt_;
  NBodyMultiStepTimes times = completeStep();
  for (auto& p : parts_) p->compute->queue().finish();
  // Until every device holds every new position, as --bench nbody --devices reports it.
  times.stepMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  double slowest = 0.0;
  for (size_t d = 0; d < times.kernelMs.size(); ++d) slowest = std::max(slowest, times.kernelMs[d] + times.waitMs[d]);
  times.exchangeMs = std::max(0.0, times.stepMs - slowest);
  return times;
}

void NBodyMultiDevice::launch(const NBodyParams& params) {
  if (pending_) completeStep();
  const size_t k = parts_.size();
  parity_ ^= 1;
  unsigned char* host = host_[parity_];
  float* display = displayHost_[parity_];
  kernels_.assign(k, Event());
  reads_.assign(k, Event());
  displayReads_.assign(k, Event());
  launchedAt_ = std::chrono::steady_clock::now();
  for (size_t d = 0; d < k; ++d) {
    Part& p = *parts_[d];
    Queue& queue = p.compute->queue();
    p.kernel.enqueueSlice(queue, p.state.positionsIn(), p.state.positionsOut(), p.state.velocities(), p.display.get(),
                          padded_, slices_[d].first, slices_[d].count, params, &kernels_[d]);
    if (k > 1)
      clCheck(clEnqueueReadBuffer(queue.get(), p.state.positionsOut(), CL_FALSE, slices_[d].first * bytesPerBody_,
                                  slices_[d].count * bytesPerBody_, host + slices_[d].first * bytesPerBody_, 0,
                                  nullptr, reads_[d].out()),
              "clEnqueueReadBuffer");
    // After the positions: the exchange waits for those only; this read overlaps it.
    if (display)
      clCheck(clEnqueueReadBuffer(queue.get(), p.display.get(), CL_FALSE, slices_[d].first * 4 * sizeof(float),
                                  slices_[d].count * 4 * sizeof(float), display + slices_[d].first * 4, 0, nullptr,
                                  displayReads_[d].out()),
              "clEnqueueReadBuffer (display values)");
    queue.flush();
  }
  pending_ = true;
}

NBodyMultiStepTimes NBodyMultiDevice::completeStep() {
  NBodyMultiStepTimes times;
  if (!pending_) return times;
  pending_ = false;  // whatever happens below, the step is not completed twice
  const size_t k = parts_.size();
  unsigned char* host = host_[parity_];
  // Each slice goes on to the other devices as soon as it is on the host, while
  // slower devices still compute theirs.
  if (k > 1)
    for (size_t d = 0; d < k; ++d) {
      reads_[d].wait();
      for (size_t e = 0; e < k; ++e) {
        if (e == d) continue;
        Part& to = *parts_[e];
        clCheck(clEnqueueWriteBuffer(to.compute->queue().get(), to.state.positionsOut(), CL_FALSE,
                                     slices_[d].first * bytesPerBody_, slices_[d].count * bytesPerBody_,
                                     host + slices_[d].first * bytesPerBody_, 0, nullptr, nullptr),
                "clEnqueueWriteBuffer");
        to.compute->queue().flush();
      }
    }
  for (Event& e : kernels_) e.wait();  // one device alone: no read to wait for
  times.stepMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - launchedAt_).count();
  for (auto& p : parts_) p->state.swap();
  if (displayHost_[parity_]) {
    shownParity_ = parity_;
    shownDisplayReads_ = std::move(displayReads_);
    displayReads_.clear();
  }
  double slowest = 0.0;
  for (size_t d = 0; d < k; ++d) {
    times.kernelMs.push_back(kernels_[d].elapsedMs());
    // The kernel began after the launch and ended before the host saw it end: a
    // longer wait is a queued time on another clock, and counts as none.
    const double wait = queuedToStartMs(kernels_[d]);
    times.waitMs.push_back(wait + times.kernelMs.back() <= times.stepMs * 1.05 + 1.0 ? wait : 0.0);
    slowest = std::max(slowest, times.kernelMs.back() + times.waitMs.back());
  }
  times.exchangeMs = std::max(0.0, times.stepMs - slowest);
  return times;
}

bool NBodyMultiDevice::pendingStepFinished() const {
  if (!pending_) return true;
  for (const auto* events : {&kernels_, &reads_, &displayReads_})
    for (const Event& e : *events)
      if (!e.complete()) return false;
  return true;
}

const float* NBodyMultiDevice::displayOnHost() {
  if (shownParity_ < 0) return nullptr;
  for (Event& e : shownDisplayReads_)  // they follow the positions' reads: under way or just done
    if (e) e.wait();
  shownDisplayReads_.clear();
  return displayHost_[shownParity_];
}

void NBodyMultiDevice::gatherVelocities(std::vector<unsigned char>& out) {
  out.resize(padded_ * bytesPerBody_);
  for (size_t d = 0; d < parts_.size(); ++d)
    parts_[d]->compute->queue().readBuffer(parts_[d]->state.velocitiesBuffer(), slices_[d].first * bytesPerBody_,
                                           slices_[d].count * bytesPerBody_, out.data() + slices_[d].first * bytesPerBody_);
}

void NBodyMultiDevice::setSlices(const std::vector<NBodySlice>& slices) {
  const size_t group = nbodyBodiesPerGroup(config_);
  size_t next = 0;
  bool valid = slices.size() == parts_.size();
  for (const NBodySlice& s : slices) {
    valid = valid && s.first == next && s.count > 0 && s.count % group == 0;
    next += s.count;
  }
  if (!valid || next != padded_)
    throw NBodyConfigError("the slices must cover the " + std::to_string(padded_) +
                           " padded bodies in order, one per device, each a non-empty multiple of " +
                           std::to_string(group));
  if (slices == slices_) return;
  if (pending_) completeStep();  // its exchange goes by the slices it was launched with
  // Velocities live only on the device that integrates a body: every device gets
  // all of them, so each has its new slice's.
  std::vector<unsigned char> velocities;
  gatherVelocities(velocities);
  for (auto& p : parts_)
    p->compute->queue().writeBuffer(p->state.velocitiesBuffer(), 0, velocities.size(), velocities.data());
  slices_ = slices;
}

bool NBodyMultiDevice::rebalance(const std::vector<double>& kernelMs) {
  std::vector<NBodyDeviceCost> costs;
  for (double ms : kernelMs) costs.push_back({ms, 0.0});
  return rebalance(costs);
}

std::vector<NBodySlice> NBodyMultiDevice::balancedSlices(const std::vector<NBodyDeviceCost>& costs) const {
  if (costs.size() != parts_.size()) return slices_;
  return nbodySlices(padded_, nbodyBodiesPerGroup(config_), nbodyBalancedWeights(slices_, costs));
}

bool NBodyMultiDevice::rebalance(const std::vector<NBodyDeviceCost>& costs) {
  const std::vector<NBodySlice> next = balancedSlices(costs);
  if (next == slices_) return false;
  setSlices(next);
  return true;
}

void NBodyMultiDevice::gatherDisplayEachStep() {
  if (displayHost_[0]) return;
  constexpr size_t kBytesPerBody = 4 * sizeof(float);
  for (int b = 0; b < 2; ++b) {
    displayPinned_[b] = Buffer(parts_.front()->compute->context(), CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR,
                               padded_ * kBytesPerBody);
    cl_int status = CL_SUCCESS;
    void* mapped = clEnqueueMapBuffer(mappedOn_, displayPinned_[b].get(), CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0,
                                      padded_ * kBytesPerBody, 0, nullptr, nullptr, &status);
    clCheck(status, "clEnqueueMapBuffer (display values)");
    displayHost_[b] = static_cast<float*>(mapped);
  }
}

NBodySystem NBodyMultiDevice::download() {
  if (pending_) completeStep();
  // Positions: every device holds all of them after a step; device 0's are read.
  NBodySystem system = parts_.front()->state.download(parts_.front()->compute->queue());
  for (size_t d = 1; d < parts_.size(); ++d) {
    const NBodySystem own = parts_[d]->state.download(parts_[d]->compute->queue());
    const size_t end = std::min(bodies_, slices_[d].first + slices_[d].count);
    for (size_t i = slices_[d].first; i < end; ++i) system.velocities[i] = own.velocities[i];
  }
  return system;
}

}  // namespace ks
