#pragma once
// A camera orbiting a target point: left-drag rotates, the wheel zooms, right-drag
// pans, and a released drag keeps coasting (inertia) until it dies out.
// Input arrives as plain numbers (the app forwards ImGui's io), so the camera
// needs no window and works headless.
//
// Per frame, in this order:
//   while the left button is held:  rotate(io.MouseDelta.x, io.MouseDelta.y)  (also when the delta is 0)
//   while the right button is held: pan(io.MouseDelta.x, io.MouseDelta.y, viewportHeight)
//   zoom(io.MouseWheel);  update(dt);
// A frame with a rotate/pan call counts as "dragging": the orbit follows the mouse
// exactly, and a mouse held still stops it. Frames without one coast.
#include <glm/glm.hpp>

namespace ks {

class OrbitCamera {
 public:
  // Away from the poles, where the view's up vector would flip.
  static constexpr double kMaxPitch = 1.4835298641951802;  // 85 degrees
  static constexpr double kDefaultPitch = 0.35;            // about 20 degrees above the equator
  static constexpr float kFovY = 0.78539816f;              // 45 degrees, vertical

  explicit OrbitCamera(double distance = 10.0) { reset(distance); }

  // Pixels of mouse motion (screen coordinates, y down). Applied at once.
  void rotate(float dxPixels, float dyPixels);
  // Moves the target in the view plane so the scene under the mouse follows it.
  void pan(float dxPixels, float dyPixels, int viewportHeight);
  // Wheel steps (positive = towards the target); each step scales the distance by a fixed factor.
  void zoom(float wheelSteps);
  // Measures drag velocity, or coasts and damps it: exponential decay, integrated
  // exactly, so the motion does not depend on the frame rate.
  void update(double dtSeconds);

  // Looks at the origin from `distance`, slightly from above; stops all motion.
  void reset(double distance);
  void setDistance(double distance);  // clamped to the distance limits
  void setDistanceLimits(double minDistance, double maxDistance);
  void setTarget(const glm::vec3& target) { target_ = target; }
  void setAngles(double yaw, double pitch);  // radians; pitch clamped
  void stop();                               // drops all inertia

  glm::mat4 view() const;
  // Perspective with near/far proportional to the distance, so systems of any
  // scale fit in the depth range.
  glm::mat4 projection(float aspect) const;
  glm::vec3 eye() const;

  double yaw() const { return yaw_; }
  double pitch() const { return pitch_; }
  double distance() const { return distance_; }
  double minDistance() const { return minDistance_; }
  double maxDistance() const { return maxDistance_; }
  const glm::vec3& target() const { return target_; }
  // Still coasting: the app can keep redrawing while this is true.
  bool moving() const;

 private:
  glm::dvec3 right() const;
  glm::dvec3 up() const;
  void applyPan(double rightUnits, double upUnits);  // in units of the distance

  glm::vec3 target_{0.0f};
  double yaw_ = 0.0, pitch_ = 0.0, distance_ = 10.0;
  double minDistance_ = 1e-3, maxDistance_ = 1e6;

  // Angular velocity (yaw, pitch) in rad/s; pan velocity (right, up) in distances/s.
  glm::dvec2 angularVelocity_{0.0}, panVelocity_{0.0};
  // Drag input since the last update: radians and distances.
  glm::dvec2 pendingRotate_{0.0}, pendingPan_{0.0};
  bool rotatedThisFrame_ = false, pannedThisFrame_ = false;
};

}  // namespace ks
