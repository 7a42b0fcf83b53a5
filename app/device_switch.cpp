#include "app/device_switch.h"

#include <algorithm>

#include "app/kernel_builds.h"
#include "app/scene_start_builds.h"

namespace ks {

void DeviceSwitch::start(size_t index, std::unique_ptr<ComputeContext> compute) {
  giveUp();
  index_ = index;
  compute_ = std::move(compute);
}

std::string DeviceSwitch::startBuilds(const AppState& state) {
  if (!compute_) return {};
  return startKernelBuilds(*compute_, sceneStartBuilds(state.scene, compute_->device(), state));
}

std::unique_ptr<ComputeContext> DeviceSwitch::take() {
  index_.reset();
  return std::move(compute_);
}

void DeviceSwitch::giveUp() {
  if (compute_) givenUp_.push_back(std::move(compute_));
  index_.reset();
  dropFinished();
}

void DeviceSwitch::dropFinished() {
  givenUp_.erase(std::remove_if(givenUp_.begin(), givenUp_.end(),
                                [](const std::unique_ptr<ComputeContext>& c) { return !c->programs().building(); }),
                 givenUp_.end());
}

bool DeviceSwitch::building() const {
  if (compute_ && compute_->programs().building()) return true;
  return std::any_of(givenUp_.begin(), givenUp_.end(),
                     [](const std::unique_ptr<ComputeContext>& c) { return c->programs().building(); });
}

}  // namespace ks
