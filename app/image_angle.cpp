#include "app/image_angle.h"

#include <cmath>

namespace ks {

float wrappedAngle(float degrees) {
  if (!std::isfinite(degrees)) return 0.0f;
  return std::remainder(degrees, 360.0f);
}

float spunAngle(float degrees, float degreesPerSecond, double seconds) {
  // In double, and the turn wrapped before it is added: a long frame (a stall, a
  // breakpoint) turns the picture by what it lasted, never by a float's rounding.
  const double turn = std::remainder(static_cast<double>(degreesPerSecond) * seconds, 360.0);
  return wrappedAngle(static_cast<float>(static_cast<double>(degrees) + turn));
}

}  // namespace ks
