#include "app/image_angle.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace ks {
namespace {

TEST(ImageAngle, WrapsIntoTheSlidersRange) {
  EXPECT_FLOAT_EQ(wrappedAngle(0.0f), 0.0f);
  EXPECT_FLOAT_EQ(wrappedAngle(90.0f), 90.0f);
  EXPECT_FLOAT_EQ(wrappedAngle(270.0f), -90.0f);  // +90 from 180
  EXPECT_FLOAT_EQ(wrappedAngle(-270.0f), 90.0f);  // -90 from -180
  EXPECT_FLOAT_EQ(wrappedAngle(725.0f), 5.0f);
  EXPECT_FLOAT_EQ(std::fabs(wrappedAngle(180.0f)), 180.0f);
  EXPECT_FLOAT_EQ(wrappedAngle(std::numeric_limits<float>::quiet_NaN()), 0.0f);
  EXPECT_FLOAT_EQ(wrappedAngle(std::numeric_limits<float>::infinity()), 0.0f);
}

TEST(ImageAngle, SpinningTurnsByTheSpeedTimesTheFrameTime) {
  EXPECT_NEAR(spunAngle(10.0f, 30.0f, 0.5), 25.0f, 1e-5f);
  EXPECT_NEAR(spunAngle(10.0f, -30.0f, 0.5), -5.0f, 1e-5f);
  EXPECT_NEAR(spunAngle(170.0f, 30.0f, 1.0), -160.0f, 1e-4f);  // past +180 it comes in from -180
  EXPECT_NEAR(spunAngle(-170.0f, -30.0f, 1.0), 160.0f, 1e-4f);
  EXPECT_FLOAT_EQ(spunAngle(42.0f, 0.0f, 1.0), 42.0f);
  EXPECT_FLOAT_EQ(spunAngle(42.0f, 90.0f, 0.0), 42.0f);
}

TEST(ImageAngle, ALongFrameTurnsByWhatItLasted) {
  // A stall of an hour at 90 deg/s: 324000 deg, 900 whole turns, lands where it started.
  EXPECT_NEAR(spunAngle(12.5f, 90.0f, 3600.0), 12.5f, 1e-3f);
  // 1000.25 s at 360 deg/s: 1000 whole turns and 90 deg.
  EXPECT_NEAR(spunAngle(0.0f, 360.0f, 1000.25), 90.0f, 1e-3f);
}

TEST(ImageAngle, EveryFrameOfASpinMovesThePictureAtHighFrameRates) {
  // 1000 FPS at 1 deg/s: each frame still changes the angle, so the pipeline recomputes.
  float a = 179.0f;
  for (int frame = 0; frame < 5000; ++frame) {
    const float next = spunAngle(a, 1.0f, 0.001);
    ASSERT_NE(next, a) << "frame " << frame << " at " << a;
    a = next;
  }
  EXPECT_NEAR(a, -176.0f, 0.05f);
}

}  // namespace
}  // namespace ks
