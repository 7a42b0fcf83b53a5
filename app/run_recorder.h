#pragma once
// Records the running scene as a RunRecord: fed once per frame by the frame loop,
// it acts on state.runs.recording's start/cancel requests, skips the warm-up
// frames, collects frame times and the scene's kernel times, and appends the
// finished run to state.runs.runs.
#include <chrono>
#include <string>
#include <vector>

#include "app/app_state.h"
#include "app/nbody_split_figures.h"
#include "compute/compute_context.h"
#include "lab/run_energy.h"

namespace ks {

class RunRecorder {
 public:
  // `frameMs`: the wall time of the frame just finished.
  void onFrame(AppState& state, double frameMs, const ComputeContext& compute);
  bool active() const { return phase_ != Phase::Idle; }

 private:
  enum class Phase { Idle, WarmUp, Recording };
  void finish(AppState& state, const ComputeContext& compute);
  void startClock(const AppState& state);  // the recording's time, energy and work count from here
  Phase phase_ = Phase::Idle;
  int warmupLeft_ = 0;
  SceneKind scene_ = SceneKind::NBody;
  std::vector<double> frameMs_, kernelMs_;
  std::vector<FrameProfiler::StageFrame> stages_;  // per recorded frame
  NBodySplitRecording split_;  // the N-body step split over devices: each device's kernel times, the exchange
  std::chrono::steady_clock::time_point start_;
  RecordingEnergy energy_;
  unsigned long long workAtStart_ = 0;  // N-body steps or image pipeline runs when the clock started
};

// The kernel time (ms) of the scene's last frame, the bytes or flops behind it
// and the parameters that describe what ran, as the recorder takes them.
struct SceneSample {
  double kernelMs = 0.0;
  double work = 0.0;          // flops (N-body) or bytes (image) per kernelMs
  std::string rateUnit;       // "GFLOP/s", "GB/s" or "" (no rate)
  const char* sceneName = "";
  const char* kernelFile = "";
};
SceneSample sampleScene(const AppState& state);
std::vector<std::pair<std::string, std::string>> sceneParameters(const AppState& state);

}  // namespace ks
