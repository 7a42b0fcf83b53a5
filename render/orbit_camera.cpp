#include "render/orbit_camera.h"

#include <algorithm>
#include <cmath>
#include <glm/gtc/matrix_transform.hpp>

namespace ks {

namespace {

constexpr double kRadiansPerPixel = 0.005;
constexpr double kZoomPerStep = 1.15;
// Drag velocity is a running average over about this long: one jittery frame
// must not decide the fling.
constexpr double kDragSmoothingSeconds = 0.04;
// Coasting velocity falls to 1/e in this long; the whole coast covers v * tau.
constexpr double kCoastSeconds = 0.25;
constexpr double kStopAngularSpeed = 1e-4;  // rad/s
constexpr double kStopPanSpeed = 1e-5;      // distances/s
// Near and far planes as multiples of the distance: depth only has to hold the
// scene around the target, whatever its scale.
constexpr double kNearFactor = 1e-3;
constexpr double kFarFactor = 1e3;

}  // namespace

void OrbitCamera::rotate(float dxPixels, float dyPixels) {
  // Dragging right swings the camera left around the target (the scene turns
  // with the mouse); dragging down raises it.
  const double before = pitch_;
  const glm::dvec2 delta(-dxPixels * kRadiansPerPixel, dyPixels * kRadiansPerPixel);
  yaw_ += delta.x;
  pitch_ = std::clamp(pitch_ + delta.y, -kMaxPitch, kMaxPitch);
  // Only the pitch that actually happened counts towards the fling.
  pendingRotate_ += glm::dvec2(delta.x, pitch_ - before);
  rotatedThisFrame_ = true;
}

void OrbitCamera::pan(float dxPixels, float dyPixels, int viewportHeight) {
  if (viewportHeight <= 0) return;
  // The view plane through the target is 2 tan(fov/2) distances tall.
  const double unitsPerPixel = 2.0 * std::tan(kFovY * 0.5) / viewportHeight;
  const glm::dvec2 delta(-dxPixels * unitsPerPixel, dyPixels * unitsPerPixel);
  applyPan(delta.x, delta.y);
  pendingPan_ += delta;
  pannedThisFrame_ = true;
}

void OrbitCamera::zoom(float wheelSteps) { setDistance(distance_ * std::pow(kZoomPerStep, -wheelSteps)); }

void OrbitCamera::update(double dtSeconds) {
  // A zero or negative step cannot measure a velocity; the drag input waits for the next one.
  if (!(dtSeconds > 0.0)) return;
  const double follow = 1.0 - std::exp(-dtSeconds / kDragSmoothingSeconds);
  const double decay = std::exp(-dtSeconds / kCoastSeconds);
  // Distance covered while v decays as v exp(-t/tau): v tau (1 - exp(-dt/tau)).
  const double coast = kCoastSeconds * (1.0 - decay);

  if (rotatedThisFrame_) {
    angularVelocity_ += (pendingRotate_ / dtSeconds - angularVelocity_) * follow;
  } else {
    yaw_ += angularVelocity_.x * coast;
    const double wantedPitch = pitch_ + angularVelocity_.y * coast;
    pitch_ = std::clamp(wantedPitch, -kMaxPitch, kMaxPitch);
    if (pitch_ != wantedPitch) angularVelocity_.y = 0.0;  // ran into the clamp: no bouncing back
    angularVelocity_ *= decay;
    if (glm::length(angularVelocity_) < kStopAngularSpeed) angularVelocity_ = glm::dvec2(0.0);
  }
  if (pannedThisFrame_) {
    panVelocity_ += (pendingPan_ / dtSeconds - panVelocity_) * follow;
  } else {
    applyPan(panVelocity_.x * coast, panVelocity_.y * coast);
    panVelocity_ *= decay;
    if (glm::length(panVelocity_) < kStopPanSpeed) panVelocity_ = glm::dvec2(0.0);
  }
  pendingRotate_ = pendingPan_ = glm::dvec2(0.0);
  rotatedThisFrame_ = pannedThisFrame_ = false;
}

void OrbitCamera::reset(double distance) {
  target_ = glm::vec3(0.0f);
  yaw_ = 0.0;
  pitch_ = kDefaultPitch;
  setDistance(distance);
  stop();
}

void OrbitCamera::setDistance(double distance) {
  if (!std::isfinite(distance)) distance = distance > 0 ? maxDistance_ : distance_;
  distance_ = std::clamp(distance, minDistance_, maxDistance_);
}

void OrbitCamera::setDistanceLimits(double minDistance, double maxDistance) {
  if (!(minDistance > 0.0) || !(maxDistance >= minDistance)) return;
  minDistance_ = minDistance;
  maxDistance_ = maxDistance;
  setDistance(distance_);
}

void OrbitCamera::setAngles(double yaw, double pitch) {
  yaw_ = yaw;
  pitch_ = std::clamp(pitch, -kMaxPitch, kMaxPitch);
}

void OrbitCamera::stop() {
  angularVelocity_ = panVelocity_ = pendingRotate_ = pendingPan_ = glm::dvec2(0.0);
  rotatedThisFrame_ = pannedThisFrame_ = false;
}

bool OrbitCamera::moving() const { return angularVelocity_ != glm::dvec2(0.0) || panVelocity_ != glm::dvec2(0.0); }

// Camera frame for yaw y, pitch p: the eye sits at target + distance *
// (cos p sin y, sin p, cos p cos y), so yaw 0, pitch 0 looks down -z.
glm::dvec3 OrbitCamera::right() const { return {std::cos(yaw_), 0.0, -std::sin(yaw_)}; }

glm::dvec3 OrbitCamera::up() const {
  return {-std::sin(pitch_) * std::sin(yaw_), std::cos(pitch_), -std::sin(pitch_) * std::cos(yaw_)};
}

void OrbitCamera::applyPan(double rightUnits, double upUnits) {
  target_ = glm::vec3(glm::dvec3(target_) + (right() * rightUnits + up() * upUnits) * distance_);
}

glm::vec3 OrbitCamera::eye() const {
  const glm::dvec3 offset(std::cos(pitch_) * std::sin(yaw_), std::sin(pitch_), std::cos(pitch_) * std::cos(yaw_));
  return glm::vec3(glm::dvec3(target_) + offset * distance_);
}

glm::mat4 OrbitCamera::view() const { return glm::lookAt(eye(), target_, glm::vec3(up())); }

glm::mat4 OrbitCamera::projection(float aspect) const {
  if (!(aspect > 0.0f) || !std::isfinite(aspect)) aspect = 1.0f;
  return glm::perspective(kFovY, aspect, static_cast<float>(distance_ * kNearFactor),
                          static_cast<float>(distance_ * kFarFactor));
}

}  // namespace ks
