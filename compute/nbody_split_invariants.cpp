#include "compute/nbody_split_invariants.h"

#include <algorithm>

namespace ks {

NBodyInvariants operator+(const NBodyInvariants& a, const NBodyInvariants& b) {
  NBodyInvariants sum;
  sum.kinetic = a.kinetic + b.kinetic;
  sum.potential = a.potential + b.potential;
  sum.momentum = a.momentum + b.momentum;
  sum.angularMomentum = a.angularMomentum + b.angularMomentum;
  sum.mass = a.mass + b.mass;
  sum.inertia = a.inertia + b.inertia;
  return sum;
}

NBodySplitInvariants::NBodySplitInvariants(DeviceGroup& group, bool positionsFp64) {
  for (size_t d = 0; d < group.size(); ++d)
    meters_.push_back(std::make_unique<NBodyInvariantsMeter>(group[d], positionsFp64));
  measuring_.assign(meters_.size(), false);
}

bool NBodySplitInvariants::busy() const { return pending_; }

bool NBodySplitInvariants::sumsInDouble() const {
  return std::all_of(meters_.begin(), meters_.end(), [](const auto& m) { return m->sumsInDouble(); });
}

void NBodySplitInvariants::enqueue(NBodyMultiDevice& multi, const NBodyParams& params) {
  if (pending_ || multi.devices() != meters_.size()) return;
  const std::vector<NBodySlice>& slices = multi.slices();
  for (size_t d = 0; d < meters_.size(); ++d) {
    // Padding bodies (past bodies()) have no mass: a slice of them only adds nothing.
    const size_t first = std::min(slices[d].first, multi.bodies());
    const size_t count = std::min(slices[d].first + slices[d].count, multi.bodies()) - first;
    measuring_[d] = count > 0;
    if (measuring_[d])
      meters_[d]->enqueueRange(multi.queue(d), multi.positions(d), multi.velocities(d), multi.bodies(), first, count,
                               params);
  }
  pending_ = true;
}

std::optional<NBodyInvariants> NBodySplitInvariants::poll(bool wait) {
  if (!pending_) return std::nullopt;
  if (!wait)
    for (size_t d = 0; d < meters_.size(); ++d)
      if (measuring_[d] && !meters_[d]->finished()) return std::nullopt;
  NBodyInvariants total;
  double slowest = 0.0;
  for (size_t d = 0; d < meters_.size(); ++d) {
    if (!measuring_[d]) continue;
    const std::optional<NBodyInvariants> part = meters_[d]->poll(true);
    if (part) total = total + *part;
    slowest = std::max(slowest, meters_[d]->lastKernelMs());
  }
  pending_ = false;
  kernelMs_ = slowest;
  return total;
}

}  // namespace ks
