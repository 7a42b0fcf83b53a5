#pragma once
// The UI's sweeps, run from the frame loop one configuration per frame (build,
// warm-up, K timed launches, median kept) so the window keeps drawing and the
// Cancel button works. Acts on state.runs.sweep's requests: start builds the
// plan with compute/sweep_plan (refused combinations listed, never run), cancel
// stops, apply-best puts the winner into the scene and the tuning cache.
#include <chrono>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "app/app_state.h"
#include "compute/cl_objects.h"
#include "compute/image_layout.h"
#include "compute/image_transpose.h"
#include "compute/interop/interop_path.h"
#include "compute/nbody_model.h"

namespace ks {

class Session;

// The bodies an N-body sweep runs: the Sweep panel's number, or (0) the scene's.
size_t sweptBodies(const AppState& state);

class SweepRunner {
 public:
  void step(AppState& state, Session& session);

 private:
  void start(AppState& state, ComputeContext& compute);
  void finish(AppState& state, const std::string& status);
  void applyBest(AppState& state, const ComputeContext& compute);
  // Interop sweep: one frame of the switch / warm-up / record cycle.
  void stepInterop(AppState& state, const ComputeContext& compute);
  // The kernel file and build options configuration `index` of the queue runs with.
  std::pair<std::string, std::string> programOf(size_t index) const;

  bool active_ = false;
  const ComputeContext* compute_ = nullptr;  // the context the sweep runs on (a device switch cancels it)
  SweepTarget target_ = SweepTarget::NBody;
  std::vector<NBodyConfig> nbodyQueue_;
  std::vector<TransposeConfig> transposeQueue_;
  size_t next_ = 0;
  // What the results (state.runs.sweep.results) were measured with, index for index.
  std::vector<NBodyConfig> nbodyResults_;
  std::vector<TransposeConfig> transposeResults_;
  std::vector<InteropPath> interopQueue_, interopResults_;
  enum class InteropPhase { Switch, WarmUp, Record } interopPhase_ = InteropPhase::Switch;
  int warmupLeft_ = 0;
  InteropPath originalPath_ = InteropPath::Host;
  std::vector<double> frameMs_, kernelMs_;
  std::chrono::steady_clock::time_point recordStart_;
  std::optional<NBodySystem> system_;
  NBodyParams params_;
  size_t bodies_ = 0;  // what the N-body sweep runs at
  ImageLayout layout_;
  Buffer in_, out_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace ks
