// Statistics of timing samples against values worked out by hand (and NumPy's
// percentile convention: linear interpolation between closest ranks).
#include <gtest/gtest.h>

#include <cmath>

#include "compute/sample_stats.h"

using namespace ks;

TEST(SampleStats, EmptyIsAllZero) {
  SampleSummary s = summarize({});
  EXPECT_EQ(s.count, 0u);
  EXPECT_EQ(s.mean, 0.0);
  EXPECT_EQ(s.median, 0.0);
}

TEST(SampleStats, SingleSample) {
  SampleSummary s = summarize({4.5});
  EXPECT_EQ(s.count, 1u);
  EXPECT_EQ(s.last, 4.5);
  EXPECT_EQ(s.min, 4.5);
  EXPECT_EQ(s.max, 4.5);
  EXPECT_EQ(s.median, 4.5);
  EXPECT_EQ(s.p95, 4.5);
  EXPECT_EQ(s.stddev, 0.0);
}

TEST(SampleStats, KnownSample) {
  // 2 4 4 4 5 5 7 9: mean 5, population stddev 2 (the textbook example).
  SampleSummary s = summarize({9, 2, 5, 4, 4, 5, 4, 7});
  EXPECT_EQ(s.count, 8u);
  EXPECT_DOUBLE_EQ(s.mean, 5.0);
  EXPECT_DOUBLE_EQ(s.stddev, 2.0);
  EXPECT_DOUBLE_EQ(s.min, 2.0);
  EXPECT_DOUBLE_EQ(s.max, 9.0);
  EXPECT_DOUBLE_EQ(s.median, 4.5);
  EXPECT_DOUBLE_EQ(s.last, 7.0);
  // rank 0.95 * 7 = 6.65: 7 + 0.65 * (9 - 7)
  EXPECT_DOUBLE_EQ(s.p95, 8.3);
}

TEST(SampleStats, PercentilesInterpolate) {
  std::vector<double> sorted = {1, 2, 3, 4};
  EXPECT_DOUBLE_EQ(percentileOfSorted(sorted, 50), 2.5);
  EXPECT_DOUBLE_EQ(percentileOfSorted(sorted, 0), 1.0);
  EXPECT_DOUBLE_EQ(percentileOfSorted(sorted, 100), 4.0);
  EXPECT_DOUBLE_EQ(percentileOfSorted(sorted, 25), 1.75);
  EXPECT_DOUBLE_EQ(percentileOfSorted(sorted, 150), 4.0);  // clamped
}

TEST(SampleStats, LargeOffsetKeepsPrecision) {
  // Sum-of-squares formulas lose the spread here; two passes do not.
  SampleSummary s = summarize({1e9 + 1, 1e9 + 2, 1e9 + 3});
  EXPECT_NEAR(s.stddev, std::sqrt(2.0 / 3.0), 1e-6);
}

TEST(RollingSamples, KeepsNewest) {
  RollingSamples r(3);
  for (double v : {1.0, 2.0, 3.0, 4.0, 5.0}) r.push(v);
  ASSERT_EQ(r.size(), 3u);
  SampleSummary s = r.summary();
  EXPECT_DOUBLE_EQ(s.min, 3.0);
  EXPECT_DOUBLE_EQ(s.max, 5.0);
  EXPECT_DOUBLE_EQ(s.last, 5.0);
  r.setCapacity(2);
  EXPECT_EQ(r.size(), 2u);
  EXPECT_DOUBLE_EQ(r.summary().min, 4.0);
  r.setCapacity(0);  // at least one sample is kept
  EXPECT_EQ(r.capacity(), 1u);
  EXPECT_DOUBLE_EQ(r.summary().last, 5.0);
}
