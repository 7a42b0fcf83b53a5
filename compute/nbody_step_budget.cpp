#include "compute/nbody_step_budget.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace ks {

namespace {
constexpr size_t kBodiesStep = 256;
}

double predictedNBodyStepMs(size_t measuredBodies, double measuredMs, size_t bodies) {
  if (measuredBodies == 0) return 0.0;
  const double ratio = static_cast<double>(bodies) / static_cast<double>(measuredBodies);
  return measuredMs * ratio * ratio;
}

size_t bodiesWithinStepMs(size_t measuredBodies, double measuredMs, double budgetMs, size_t atMost) {
  if (measuredBodies == 0 || measuredMs <= 0.0) return atMost;
  const double fits = static_cast<double>(measuredBodies) * std::sqrt(std::max(budgetMs, 0.0) / measuredMs);
  const size_t rounded = static_cast<size_t>(fits) / kBodiesStep * kBodiesStep;
  return std::min(atMost, std::max(rounded, kBodiesStep));
}

StartBodies chooseStartBodies(size_t wanted, size_t probeBodies, double probeMs, int stepsPerFrame) {
  StartBodies choice{wanted, ""};
  if (probeMs <= 0.0 || probeBodies == 0) return choice;
  const int steps = std::max(stepsPerFrame, 1);
  // The frame's steps together: one step's time times their number.
  const double frameMs = probeMs * steps;
  const double wantedMs = predictedNBodyStepMs(probeBodies, frameMs, wanted);
  if (wantedMs <= kStartStepBudgetMs) return choice;
  choice.bodies = bodiesWithinStepMs(probeBodies, frameMs, kStartStepBudgetMs, wanted);
  if (choice.bodies == wanted) return choice;
  char text[400];
  if (steps == 1)
    std::snprintf(text, sizeof text,
                  "started with %zu bodies, not %zu: a step of %zu takes about %.0f ms on this device (measured %.1f ms "
                  "at %zu), too slow for 10 frames per second; --n %zu (or the bodies field) asks for more",
                  choice.bodies, wanted, wanted, wantedMs, probeMs, probeBodies, wanted);
  else
    std::snprintf(text, sizeof text,
                  "started with %zu bodies, not %zu: this preset takes %d steps a frame, and %d steps of %zu take about "
                  "%.0f ms on this device (one step measured %.1f ms at %zu), too slow for 10 frames per second; "
                  "--n %zu (or the bodies field) asks for more",
                  choice.bodies, wanted, steps, steps, wanted, wantedMs, probeMs, probeBodies, wanted);
  choice.why = text;
  return choice;
}

}  // namespace ks
