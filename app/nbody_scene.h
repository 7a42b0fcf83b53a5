#pragma once
// The N-body lab: the simulation (kernels writing the GL vertex buffer through
// the interop layer), the particle renderer and the orbit camera, driven by
// AppState::nbody.
#include <memory>
#include <optional>
#include <string>

#include "app/nbody_split_runner.h"
#include "app/nbody_split_start.h"
#include "app/scene.h"
#include "compute/nbody_simulation.h"
#include "render/orbit_camera.h"
#include "render/particle_renderer.h"

namespace ks {

class NBodyScene final : public Scene {
 public:
  // Starts from `start` when given (a device switch), else from the preset in
  // state.nbody. Throws when the simulation cannot be created at all. stepWaitMs:
  // AppOptions::nbodyStepWaitMs.
  NBodyScene(ComputeContext& compute, InteropBackend& interop, AppState& state, double stepWaitMs,
             std::optional<NBodySystem> start = std::nullopt);
  ~NBodyScene() override;
  void rebindInterop(InteropBackend& interop) override;
  void reloadKernels(AppState& state) override;
  std::vector<ProgramToBuild> programsInUse(const AppState& state) const override;
  void update(AppState& state, double seconds) override;
  void draw(AppState& state, int viewportW, int viewportH) override;
  void handleInput(float dx, float dy, bool leftDown, bool rightDown, float wheel, int viewportH) override;
  std::optional<NBodySystem> snapshot() override { return currentSystem(); }
  // While a split start builds (or one given up still does): the scene's destructor
  // would wait for it.
  bool finishing() override;

 private:
  void applyRequests(AppState& state);
  // Whether the chosen configuration's program is built: one not built yet starts
  // building on a worker thread and the running configuration goes on meanwhile
  // (issue 22: compiled in the frame, a work-group change held it 25 s on PoCL).
  // Headless runs build it in the frame.
  bool chosenProgramBuilt(AppState& state);
  void clearPreparing(AppState& state);
  std::string preparingText_;  // what this scene put in state.preparing
  void resetSystem(AppState& state);
  void publishRunning(AppState& state) const;
  // The step split over several devices (app/nbody_scene_split.cpp).
  NBodySystem currentSystem() { return split_ ? split_->download() : simulation_->download(); }
  void applySplitRequest(AppState& state);
  // Starts preparing the split over `wanted` (indices into state.devices): its
  // kernels build off the frame while the bodies go on as they run now; `atOnce`:
  // waits for them (the split asked for on the command line, before any frame).
  // On a problem says why and keeps what runs.
  void beginSplit(const std::vector<size_t>& wanted, AppState& state, bool atOnce = false);
  // The prepared split takes over once its devices are ready (`wait`: waits for
  // them), from the bodies as they are then; on failure says why and keeps what ran.
  void finishSplitStart(AppState& state, bool wait = false);
  // A start no longer wanted: its worker finishes unwatched (dropped once done).
  void giveUpSplitStart(AppState& state);
  // Back to the display device alone with the split's bodies; returns the devices
  // the split ran on (empty when there was none).
  std::vector<size_t> joinSplit(AppState& state);
  // Completes the step the last frame left running, then launches this frame's.
  void advanceSplit(AppState& state, int steps, double seconds);
  void settleSplit(AppState& state);  // paused: shows the last step once it is done
  void showSplitValues();             // the split's newest completed positions to the display device
  // Energy and momenta: a new baseline after any change, a measurement every so many steps.
  void restartConservation() { ++conservationGeneration_; }
  void measureConservation(AppState& state, bool afterSteps);
  void collectConservation(AppState& state);
  // The meter failed (`why`): said once in the panel and the log, and dropped until a
  // change of precision or a kernel reload tries again.
  void dropFailedMeter(AppState& state, const std::string& why);
  // Makes the energy meter for the positions' precision; false when it cannot measure
  // (yet). `mayCompile`: false in a frame, where its program is only started on a
  // worker thread (app/kernel_builds.h) and the meter made once that has finished.
  bool makeMeter(AppState& state, bool fp64, bool mayCompile);
  ComputeContext& compute_;
  std::unique_ptr<NBodySimulation> simulation_;  // on the display device: steps alone, or draws the split's positions
  std::unique_ptr<NBodySplitRunner> split_;      // the step split over devices; none: simulation_ steps
  std::unique_ptr<NBodySplitStart> splitStart_;  // a split being prepared: its kernels build off the frame
  std::vector<std::unique_ptr<NBodySplitStart>> givenUp_;  // starts replaced before they were ready
  ParticleRenderer renderer_;
  // What the "drawn with" text was last made from: it is formatted again only when one of
  // these changes, not every frame.
  struct DrawingTextKey {
    ParticleDrawing drawn, asked;
    bool decided;
    std::string splatNotUsed;
    bool operator==(const DrawingTextKey&) const = default;
  };
  std::optional<DrawingTextKey> drawingTextKey_;
  OrbitCamera camera_;
  double cameraDistance_ = 10.0;
  double stepWaitMs_;  // AppOptions::nbodyStepWaitMs
  double secondsSinceSteps_ = 0.0;  // frames since the last launch: the steps-per-second reading
  bool cameraResetDue_ = true;  // a new system or scene: the camera goes back to fit it
  std::unique_ptr<NBodyInvariantsMeter> meter_;
  bool meterFp64_ = false, meterFailed_ = false;
  std::optional<NBodyInvariants> baseline_;
  NBodyParams baselineParams_;
  unsigned conservationGeneration_ = 1, baselineGeneration_ = 0, pendingGeneration_ = 0;
  unsigned long long pendingStep_ = 0, lastMeasuredStep_ = 0;
  bool pendingFromSplit_ = false;   // the measurement in flight is the split's (its meters), else meter_'s
  bool splitMeterFailed_ = false;   // said once; the next split tries again
};

}  // namespace ks
