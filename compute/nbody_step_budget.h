#pragma once
// How many bodies a device steps within a time budget, from one measured step:
// a step costs N^2 interactions, so its time grows with the square of N. Used to
// start the N-body scene at a size a slow (CPU) device draws at 10 FPS or more,
// and to tell the Sweep panel what one launch will cost at the N it is given.
#include <cstddef>
#include <string>

namespace ks {

// The time of one step of `bodies`, from one of `measuredBodies` that took `measuredMs`.
double predictedNBodyStepMs(size_t measuredBodies, double measuredMs, size_t bodies);

// The largest N whose predicted step fits `budgetMs`, a multiple of 256 (the
// work-group sizes divide it), never more than `atMost` nor fewer than 256
// (fewer shows little; at most `atMost` when that is smaller).
size_t bodiesWithinStepMs(size_t measuredBodies, double measuredMs, double budgetMs, size_t atMost);

// The step the N-body scene may take at start, so that with drawing the frame
// stays under 100 ms (10 FPS).
constexpr double kStartStepBudgetMs = 50.0;

struct StartBodies {
  size_t bodies = 0;
  std::string why;  // empty when `wanted` is kept; else for the log: what it would cost and what to do
};

// The scene's starting N on a device whose step of `probeBodies` took `probeMs`:
// `wanted` when its predicted frame of `stepsPerFrame` steps fits kStartStepBudgetMs,
// else the largest N that does. No measurement (probeMs <= 0) keeps `wanted`.
StartBodies chooseStartBodies(size_t wanted, size_t probeBodies, double probeMs, int stepsPerFrame = 1);

}  // namespace ks
