// The charts' tick maths (issue 22, "charts people would rather look at than read"):
// 1-2-5 steps, axes that end on a tick, log ticks, the labels, and ranges that are
// empty, negative or not numbers.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "ui/chart_axis.h"

namespace ks {
namespace {

// The mantissa of a step: 1, 2 or 5 (to rounding).
double mantissa(double step) { return step / std::pow(10.0, std::floor(std::log10(step) + 1e-9)); }

TEST(ChartAxis, StepsAreOneTwoOrFiveTimesAPowerOfTen) {
  for (double range : {1e-4, 0.003, 0.7, 1.0, 3.0, 9.9, 10.0, 17.0, 255.0, 999.0, 4096.0, 123456.0, 3.3e9})
    for (int target : {1, 2, 3, 5, 8, 12}) {
      SCOPED_TRACE(std::to_string(range) + " in " + std::to_string(target));
      const double step = niceTickStep(range, target);
      ASSERT_GT(step, 0.0);
      const double m = mantissa(step);
      EXPECT_TRUE(std::abs(m - 1.0) < 1e-6 || std::abs(m - 2.0) < 1e-6 || std::abs(m - 5.0) < 1e-6) << step;
      EXPECT_LE(range / step, target + 1e-6) << "more intervals than asked for";
      // The smallest such step: the next smaller one of the series would give too many.
      const double smaller = std::abs(m - 1.0) < 1e-6 ? step / 2.0 : std::abs(m - 2.0) < 1e-6 ? step / 2.0 : step * 0.4;
      EXPECT_GT(range / smaller, target - 1e-6) << "a smaller step " << smaller << " would do";
    }
  EXPECT_DOUBLE_EQ(niceTickStep(255.0, 5), 100.0);
  EXPECT_DOUBLE_EQ(niceTickStep(255.0, 6), 50.0);
  EXPECT_DOUBLE_EQ(niceTickStep(20.0, 4), 5.0);
  EXPECT_DOUBLE_EQ(niceTickStep(0.9, 4), 0.5);
}

TEST(ChartAxis, TicksAreMultiplesOfTheStepInsideTheRange) {
  const std::vector<double> t = niceTicks(0.0, 255.0, 6);
  EXPECT_EQ(t, (std::vector<double>{0, 50, 100, 150, 200, 250}));
  const std::vector<double> shifted = niceTicks(3.0, 17.0, 4);  // step 5
  EXPECT_EQ(shifted, (std::vector<double>{5, 10, 15}));
  // Decimal steps count from multiples: no 0.30000000000000004.
  const std::vector<double> tenths = niceTicks(0.0, 0.5, 5);
  ASSERT_EQ(tenths.size(), 6u);
  EXPECT_EQ(tickLabel(tenths[3], 0.1), "0.3");
  const std::vector<double> negative = niceTicks(-10.0, 10.0, 4);
  EXPECT_EQ(negative, (std::vector<double>{-10, -5, 0, 5, 10}));
  EXPECT_FALSE(std::signbit(negative[2])) << "-0";
}

TEST(ChartAxis, AnAxisEndsOnATickAtOrAboveTheLargestValue) {
  EXPECT_EQ(niceTicksCovering(16.7, 4), (std::vector<double>{0, 5, 10, 15, 20}));
  EXPECT_EQ(niceTicksCovering(250.0, 5), (std::vector<double>{0, 50, 100, 150, 200, 250}));
  for (double hi : {0.013, 0.9, 7.0, 33.3, 1234.5, 6.02e7})
    for (int target : {1, 3, 6}) {
      const std::vector<double> t = niceTicksCovering(hi, target);
      ASSERT_GE(t.size(), 2u);
      EXPECT_EQ(t.front(), 0.0);
      EXPECT_GE(t.back(), hi);
      EXPECT_LT(t[t.size() - 2], hi) << "a tick too many past " << hi;
      EXPECT_LE(static_cast<int>(t.size()) - 1, target);
    }
}

TEST(ChartAxis, EmptyOrNonNumericRangesGiveNoNaN) {
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(niceTickStep(0.0, 5), 0.0);
  EXPECT_EQ(niceTickStep(-3.0, 5), 0.0);
  EXPECT_EQ(niceTickStep(nan, 5), 0.0);
  EXPECT_EQ(niceTickStep(inf, 5), 0.0);
  EXPECT_GT(niceTickStep(10.0, 0), 0.0) << "no ticks asked for: one interval";
  EXPECT_EQ(niceTicks(4.0, 4.0, 5), (std::vector<double>{4.0})) << "a zero range: its one value";
  EXPECT_TRUE(niceTicks(5.0, 4.0, 5).empty());
  EXPECT_TRUE(niceTicks(nan, 4.0, 5).empty());
  EXPECT_TRUE(niceTicks(0.0, inf, 5).empty());
  EXPECT_EQ(niceTicksCovering(0.0, 5), (std::vector<double>{0.0}));
  EXPECT_EQ(niceTicksCovering(nan, 5), (std::vector<double>{0.0}));
  EXPECT_EQ(logTicks(nan, 5), (std::vector<double>{0.0}));
  EXPECT_EQ(logTicks(0.0, 5), (std::vector<double>{0.0}));
  for (double v : {0.0, 1.0, nan, inf}) {
    EXPECT_EQ(scaleFraction(v, 0.0, false), 0.0);
    EXPECT_EQ(scaleFraction(v, 0.0, true), 0.0);
    EXPECT_FALSE(std::isnan(scaleFraction(v, 10.0, true)));
  }
  for (const ChartTick& t : placeTicks({0.0, 1.0}, 0.0, true, 100.0f, 0.0f)) EXPECT_FALSE(std::isnan(t.pixel));
}

TEST(ChartAxis, LogTicksArePowersOfTenThinnedWhenCrowded) {
  EXPECT_EQ(logTicks(5000.0, 8), (std::vector<double>{0, 1, 10, 100, 1000}));
  EXPECT_EQ(logTicks(1000.0, 8), (std::vector<double>{0, 1, 10, 100, 1000}));
  EXPECT_EQ(logTicks(0.5, 8), (std::vector<double>{0})) << "no count of 1 to mark";
  // Eight decades on three ticks besides 0: every third decade.
  EXPECT_EQ(logTicks(2e7, 4), (std::vector<double>{0, 1, 1000, 1e6}));
  for (int target : {2, 3, 5}) EXPECT_LE(static_cast<int>(logTicks(1e9, target).size()), target);
}

TEST(ChartAxis, ScaleFractionIsLinearOrLogOfOnePlusTheValue) {
  EXPECT_DOUBLE_EQ(scaleFraction(25.0, 100.0, false), 0.25);
  EXPECT_DOUBLE_EQ(scaleFraction(99.0, 9999.0, true), 0.5);  // log(100) / log(10000)
  EXPECT_DOUBLE_EQ(scaleFraction(0.0, 9999.0, true), 0.0);
  EXPECT_DOUBLE_EQ(scaleFraction(200.0, 100.0, false), 1.0) << "clamped to the plot";
}

TEST(ChartAxis, LabelsUseTheDigitsTheStepNeeds) {
  EXPECT_EQ(tickLabel(0.0, 50.0), "0");
  EXPECT_EQ(tickLabel(150.0, 50.0), "150");
  EXPECT_EQ(tickLabel(2.5, 0.5), "2.5");
  EXPECT_EQ(tickLabel(2.0, 0.5), "2");
  EXPECT_EQ(tickLabel(0.02, 0.01), "0.02");
  EXPECT_EQ(tickLabel(1500.0, 500.0), "1.5k");
  EXPECT_EQ(tickLabel(1000.0, 500.0), "1k");
  EXPECT_EQ(tickLabel(1050.0, 50.0), "1050") << "a fine step keeps every digit";
  EXPECT_EQ(tickLabel(2e6, 1e6), "2M");
  EXPECT_EQ(tickLabel(1e4, 1e4), "10k");
  EXPECT_EQ(tickLabel(-0.0, 1.0), "0");
  EXPECT_EQ(tickLabel(1500.0, 500.0, false), "1500") << "before a unit: in full";
  EXPECT_EQ(tickLabel(2e6, 1e6, false), "2000000");
}

TEST(ChartAxis, TicksArePlacedAlongTheSide) {
  // A y axis: from the bottom (200) up to the top (100).
  const std::vector<ChartTick> y = placeTicks({0, 5, 10}, 10.0, false, 200.0f, 100.0f);
  ASSERT_EQ(y.size(), 3u);
  EXPECT_FLOAT_EQ(y[0].pixel, 200.0f);
  EXPECT_FLOAT_EQ(y[1].pixel, 150.0f);
  EXPECT_FLOAT_EQ(y[2].pixel, 100.0f);
  EXPECT_EQ(y[1].label, "5");
  const std::vector<ChartTick> log = placeTicks({0, 1, 10, 100}, 9999.0, true, 0.0f, 400.0f);
  EXPECT_NEAR(log[3].pixel, 200.0f, 1.0f);  // log(101) / log(10000) ~ 0.501
  EXPECT_EQ(log[3].label, "100");
}

}  // namespace
}  // namespace ks
