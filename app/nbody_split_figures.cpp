#include "app/nbody_split_figures.h"

#include "compute/nbody_multi_device.h"
#include "compute/sample_stats.h"

namespace ks {

RunSplit nbodySplitFigures(const std::vector<NBodySplitReadings::Sample>& frames) {
  RunSplit out;
  if (frames.empty()) return out;
  const size_t k = frames.back().deviceKernelMs.size();
  if (k < 2) return out;
  std::vector<std::vector<double>> kernel(k);
  std::vector<double> exchange, step;
  for (const auto& f : frames) {
    if (f.deviceKernelMs.size() != k) continue;
    for (size_t d = 0; d < k; ++d) kernel[d].push_back(f.deviceKernelMs[d]);
    exchange.push_back(f.exchangeMs);
    step.push_back(f.stepMs);
  }
  out.devices = static_cast<int>(k);
  double kernelSum = 0.0;
  for (const auto& samples : kernel) {
    out.deviceKernelMs.push_back(summarize(samples).median);
    kernelSum += out.deviceKernelMs.back();
  }
  out.exchangeMs = summarize(exchange).median;
  // What each device spends on its share: its kernel and the other work before it.
  const std::vector<double> other = nbodySplitOtherMedians(frames);
  std::vector<double> whole = out.deviceKernelMs;
  for (size_t d = 0; d < k && d < other.size(); ++d) whole[d] += other[d];
  out.loadBalance = nbodyLoadBalance(whole);
  const double stepMs = summarize(step).median;
  out.parallelEfficiency = stepMs > 0 ? kernelSum / (static_cast<double>(k) * stepMs) : 0.0;
  return out;
}

std::vector<double> nbodySplitOtherMedians(const std::vector<NBodySplitReadings::Sample>& frames) {
  if (frames.empty()) return {};
  const size_t k = frames.back().deviceKernelMs.size();
  std::vector<double> out;
  for (size_t d = 0; d < k; ++d) {
    std::vector<double> samples;
    for (const auto& f : frames)
      if (f.deviceKernelMs.size() == k && f.deviceOtherMs.size() == k) samples.push_back(f.deviceOtherMs[d]);
    out.push_back(samples.empty() ? 0.0 : summarize(samples).median);
  }
  return out;
}

void NBodySplitRecording::onFrame(const NBodySplitReadings& split) {
  if (!split.active() || split.timedFrames == seen_ || split.recent.empty()) return;
  seen_ = split.timedFrames;
  frames_.push_back(split.recent.back());
}

}  // namespace ks
