#include "compute/nbody_slice_balance.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "compute/sample_stats.h"

namespace ks {

double nbodyCostBalance(const std::vector<NBodyDeviceCost>& costs) {
  std::vector<double> totals;
  for (const NBodyDeviceCost& c : costs) totals.push_back(c.totalMs());
  return nbodyLoadBalance(totals);
}

std::vector<double> nbodyBalancedWeights(const std::vector<NBodySlice>& slices,
                                         const std::vector<NBodyDeviceCost>& costs) {
  const size_t k = std::min(slices.size(), costs.size());
  if (k == 0) return {};
  // Speed in bodies per millisecond of kernel time.
  std::vector<double> speed(k, 0.0);
  double speedSum = 0.0;
  int known = 0;
  for (size_t d = 0; d < k; ++d)
    if (std::isfinite(costs[d].kernelMs) && costs[d].kernelMs > 0 && slices[d].count > 0) {
      speed[d] = static_cast<double>(slices[d].count) / costs[d].kernelMs;
      speedSum += speed[d];
      ++known;
    }
  const double fallback = known ? speedSum / known : 1.0;
  for (double& s : speed)
    if (!(s > 0)) s = fallback;
  // Every device busy for the same time T: count_d = speed_d * (T - other_d),
  // and the counts add up to all bodies.
  double bodies = 0.0, totalSpeed = 0.0, otherWork = 0.0;
  for (size_t d = 0; d < k; ++d) {
    const double other = std::isfinite(costs[d].otherMs) ? std::max(0.0, costs[d].otherMs) : 0.0;
    bodies += static_cast<double>(slices[d].count);
    totalSpeed += speed[d];
    otherWork += speed[d] * other;
  }
  const double common = (bodies + otherWork) / totalSpeed;
  std::vector<double> weights(k);
  for (size_t d = 0; d < k; ++d) {
    const double other = std::isfinite(costs[d].otherMs) ? std::max(0.0, costs[d].otherMs) : 0.0;
    // A tiny positive weight, not zero: nbodySlices counts a weight that is not
    // positive as the mean of the others.
    weights[d] = std::max(speed[d] * (common - other), bodies * 1e-9);
  }
  return weights;
}

double nbodyPredictedSlowestMs(const std::vector<NBodySlice>& now, const std::vector<NBodySlice>& next, size_t group,
                               const std::vector<unsigned>& computeUnits, const std::vector<NBodyDeviceCost>& costs) {
  const size_t k = std::min({now.size(), next.size(), computeUnits.size(), costs.size()});
  auto rounds = [&](size_t bodies, size_t d) {
    const size_t groups = group ? (bodies + group - 1) / group : bodies;
    const size_t units = std::max<size_t>(computeUnits[d], 1);
    return static_cast<double>((groups + units - 1) / units);
  };
  double slowest = 0.0;
  for (size_t d = 0; d < k; ++d) {
    const double before = rounds(now[d].count, d);
    const double kernel = before > 0 ? costs[d].kernelMs * rounds(next[d].count, d) / before : costs[d].kernelMs;
    slowest = std::max(slowest, kernel + std::max(0.0, costs[d].otherMs));
  }
  return slowest;
}

std::vector<NBodyDeviceCost> nbodyMedianCosts(const std::vector<std::vector<NBodyDeviceCost>>& frames) {
  if (frames.empty()) return {};
  const size_t k = frames.back().size();
  std::vector<NBodyDeviceCost> out(k);
  for (size_t d = 0; d < k; ++d) {
    std::vector<double> kernel, other;
    for (const auto& frame : frames) {
      if (frame.size() != k) continue;
      kernel.push_back(frame[d].kernelMs);
      other.push_back(frame[d].otherMs);
    }
    out[d] = {summarize(kernel).median, summarize(other).median};
  }
  return out;
}

}  // namespace ks
