#include "app/pattern_scene.h"

#include <algorithm>

#include "app/app_state.h"

namespace ks {

PatternScene::PatternScene(ComputeContext& compute, InteropBackend& interop, int size)
    : compute_(compute), size_(size) {
  program_ = compute.buildKernelFile("pattern.cl");
  if (!program_->ok()) throw ProgramBuildError(program_);
  kernel_ = Kernel(program_->program.get(), "julia");
  info_ = kernel_.info(compute.device().id);
  // An 8x8 tile unless the kernel cannot run that many work-items per group.
  const size_t maxGroup = kernel_.workGroupSize(compute.device().id);
  while (localSize_ > 1 && localSize_ * localSize_ > maxGroup) localSize_ /= 2;
  rebindInterop(interop);
}

void PatternScene::reloadKernels(AppState&) {
  auto program = compute_.buildKernelFile("pattern.cl");
  if (!program->ok()) throw ProgramBuildError(program);
  Kernel kernel(program->program.get(), "julia");
  info_ = kernel.info(compute_.device().id);
  program_ = std::move(program);
  kernel_ = std::move(kernel);
}

std::vector<ProgramToBuild> PatternScene::programsInUse(const AppState&) const { return {{"pattern.cl", "", "Julia"}}; }

void PatternScene::rebindInterop(InteropBackend& interop) {
  image_.reset();  // its buffers belong to the old backend
  image_ = interop.createImage(size_, size_);
}

void PatternScene::update(AppState& state, double seconds) {
  const PatternParams& params = state.pattern;
  if (params.animate) time_ += seconds * params.speed;
  // The last frame's picture goes on screen when it is done; this frame's is computed meanwhile.
  image_->refresh();
  SharedBuffer& pixels = image_->beginUpdate(compute_.queue());
  Event done;
  try {
    kernel_.setArg(0, pixels.clMem());
    kernel_.setArg(1, static_cast<cl_int>(size_));
    kernel_.setArg(2, static_cast<cl_int>(size_));
    kernel_.setArg(3, static_cast<float>(time_));
    kernel_.setArg(4, static_cast<cl_int>(std::clamp(params.iterations, 1, 4096)));
    const size_t global = (static_cast<size_t>(size_) + localSize_ - 1) / localSize_ * localSize_;
    compute_.queue().enqueueKernel(kernel_, {global, global}, {localSize_, localSize_}, &done);
  } catch (...) {
    image_->abandonUpdate(compute_.queue());
    throw;
  }
  image_->endUpdate(compute_.queue());
  const std::string tile = std::to_string(localSize_) + "x" + std::to_string(localSize_) + " tile";
  state.activeKernels = {{"julia", tile, program_->label, program_->options, program_->buildMs, program_->fromDisk, info_}};
  const InteropTimings& t = image_->timings();
  FrameBreakdown& frame = state.breakdown;
  frame.acquireMs = t.acquireMs;
  frame.releaseMs = t.releaseMs;
  frame.copyMs = t.copyMs;
  // The kernel's time, one frame late: read when it has finished, never waited for.
  if (lastKernel_ && lastKernel_.complete()) frame.kernelMs = lastKernel_.elapsedMs();
  lastKernel_ = std::move(done);
}

void PatternScene::draw(AppState& state, int viewportW, int viewportH) {
  // The largest square centred in the part of the window the panels leave free
  // (state.sceneArea, y down): centred in the whole window, panels covered a third of it.
  const ScreenRect& area = state.sceneArea;
  const float x0 = area.x0 * float(viewportW), x1 = area.x1 * float(viewportW);
  const float y0 = area.y0 * float(viewportH), y1 = area.y1 * float(viewportH);
  const float side = std::max(std::min(x1 - x0, y1 - y0), 1.0f);
  if (!image_->hasPicture()) image_->finishUpdates();  // the first frame: nothing else to show
  quad_.draw(image_->texture(), image_->levels(), true,
             {(x0 + x1 - side) * 0.5f, (y0 + y1 - side) * 0.5f, side, side, viewportW, viewportH});
  image_->drawnByGl();
}

}  // namespace ks
