#pragma once

namespace ks {

// The image lab's rotation angle in degrees, kept in [-180, 180] as the slider shows it.
float wrappedAngle(float degrees);

// The angle after `seconds` of spinning at `degreesPerSecond` (either sign), wrapped.
float spunAngle(float degrees, float degreesPerSecond, double seconds);

}  // namespace ks
