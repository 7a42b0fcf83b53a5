// How often the frame loop builds the panels (app/panel_pacing.h).
#include <gtest/gtest.h>

#include <chrono>

#include "app/panel_pacing.h"

namespace ks {
namespace {

using Clock = PanelPacing::Clock;
using std::chrono::microseconds;

TEST(PanelPacing, BuildsAtMostTheRateAskedFor) {
  PanelPacing pacing(250.0);  // every 4 ms
  const Clock::time_point t0 = Clock::now();
  EXPECT_TRUE(pacing.due(t0)) << "the first frame builds them";
  EXPECT_EQ(pacing.secondsBetweenBuilds(), 0.0);
  EXPECT_FALSE(pacing.due(t0 + microseconds(1000)));
  EXPECT_FALSE(pacing.due(t0 + microseconds(3999)));
  EXPECT_TRUE(pacing.due(t0 + microseconds(4000)));
  EXPECT_NEAR(pacing.secondsBetweenBuilds(), 0.004, 1e-9);
  // Counted from the last build, not from a grid: a late frame does not make the next one early.
  EXPECT_FALSE(pacing.due(t0 + microseconds(7000)));
  EXPECT_TRUE(pacing.due(t0 + microseconds(9000)));
  EXPECT_NEAR(pacing.secondsBetweenBuilds(), 0.005, 1e-9);
}

TEST(PanelPacing, AForcedBuildRestartsTheWait) {
  PanelPacing pacing(100.0);
  const Clock::time_point t0 = Clock::now();
  ASSERT_TRUE(pacing.due(t0));
  EXPECT_TRUE(pacing.due(t0 + microseconds(1000), true)) << "e.g. the scene was replaced";
  EXPECT_FALSE(pacing.due(t0 + microseconds(10500)));
  EXPECT_TRUE(pacing.due(t0 + microseconds(11000)));
}

TEST(PanelPacing, ZeroBuildsEveryFrame) {
  PanelPacing pacing(0.0);
  const Clock::time_point t0 = Clock::now();
  for (int i = 0; i < 5; ++i) EXPECT_TRUE(pacing.due(t0 + microseconds(i))) << i;
}

}  // namespace
}  // namespace ks
