// The N a device steps within a time budget, from one measured step (issue 22:
// the N-body start on a CPU device ran 4096 bodies at a few frames per second).
// Fake measured speeds stand for devices slow and fast.
#include <gtest/gtest.h>

#include "compute/nbody_step_budget.h"

namespace ks {
namespace {

TEST(NBodyStepBudget, AStepCostsTheSquareOfN) {
  EXPECT_DOUBLE_EQ(predictedNBodyStepMs(1024, 7.0, 2048), 28.0);
  EXPECT_DOUBLE_EQ(predictedNBodyStepMs(1024, 7.0, 512), 1.75);
  EXPECT_DOUBLE_EQ(predictedNBodyStepMs(0, 7.0, 512), 0.0) << "nothing measured predicts nothing";
}

TEST(NBodyStepBudget, BodiesWithinABudgetAreAMultipleOf256) {
  // 1024 bodies in 8 ms: 50 ms fits 1024 * sqrt(6.25) = 2560 bodies.
  EXPECT_EQ(bodiesWithinStepMs(1024, 8.0, 50.0, 100000), 2560u);
  // 1024 in 10 ms: sqrt(5) * 1024 = 2289.7, rounded down to 2048.
  EXPECT_EQ(bodiesWithinStepMs(1024, 10.0, 50.0, 100000), 2048u);
  EXPECT_EQ(bodiesWithinStepMs(1024, 8.0, 50.0, 2000), 2000u) << "never more than asked for";
  EXPECT_EQ(bodiesWithinStepMs(1024, 5000.0, 50.0, 100000), 256u) << "never fewer than 256";
  EXPECT_EQ(bodiesWithinStepMs(1024, 5000.0, 50.0, 100), 100u) << "fewer than 256 when that is all that was asked";
  EXPECT_EQ(bodiesWithinStepMs(1024, 0.0, 50.0, 4096), 4096u) << "no measurement: as asked";
}

TEST(NBodyStepBudget, AFastDeviceKeepsTheDefault) {
  // A GPU-like 0.2 ms for 1024 bodies: 4096 takes 3.2 ms.
  const StartBodies choice = chooseStartBodies(4096, 1024, 0.2);
  EXPECT_EQ(choice.bodies, 4096u);
  EXPECT_EQ(choice.why, "");
  // Just within the budget: kept.
  EXPECT_EQ(chooseStartBodies(4096, 1024, kStartStepBudgetMs / 16.0).bodies, 4096u);
}

TEST(NBodyStepBudget, ASlowDeviceStartsWithFewerBodiesAndSaysWhy) {
  // Two CPU cores: 1024 bodies in 10 ms, so 4096 would take 160 ms (6 FPS at best).
  const StartBodies choice = chooseStartBodies(4096, 1024, 10.0);
  EXPECT_EQ(choice.bodies, 2048u);
  EXPECT_LE(predictedNBodyStepMs(1024, 10.0, choice.bodies), kStartStepBudgetMs);
  EXPECT_GT(predictedNBodyStepMs(1024, 10.0, choice.bodies + 256), kStartStepBudgetMs) << "the largest that fits";
  EXPECT_NE(choice.why.find("started with 2048 bodies, not 4096"), std::string::npos) << choice.why;
  EXPECT_NE(choice.why.find("about 160 ms"), std::string::npos) << choice.why;
  EXPECT_NE(choice.why.find("--n 4096"), std::string::npos) << "says how to get the N asked for: " << choice.why;
  // A slower one still, fewer still.
  EXPECT_EQ(chooseStartBodies(4096, 1024, 40.0).bodies, 1024u);
}

TEST(NBodyStepBudget, NoMeasurementKeepsWhatWasAskedFor) {
  const StartBodies choice = chooseStartBodies(4096, 1024, 0.0);
  EXPECT_EQ(choice.bodies, 4096u);
  EXPECT_EQ(choice.why, "");
}

}  // namespace
}  // namespace ks
