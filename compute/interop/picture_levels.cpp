#include "compute/interop/picture_levels.h"

#include <algorithm>

#include "compute/compute_context.h"

namespace ks {

std::vector<LevelStep> levelSteps(PictureLevelMask wanted, int levelCount) {
  constexpr int longestStep = 3;
  std::vector<LevelStep> steps;
  int written = 0;  // the last level written, the next one's source
  for (int k = 1; k < std::min(levelCount, pictureLevelLimit); ++k) {
    if (!((wanted >> k) & 1u)) continue;
    for (; k - written > longestStep; written += longestStep) steps.push_back({written, written + longestStep});
    steps.push_back({written, k});
    written = k;
  }
  return steps;
}

PictureLevels::PictureLevels(ComputeContext& compute) : build_(compute.buildKernelFile("display.cl")) {
  if (!build_->ok()) throw ProgramBuildError(build_);
  shrink_ = Kernel(build_->program.get(), "shrink_rgba");
  group_ = std::clamp<size_t>(shrink_.workGroupSize(compute.device().id), 1, 64);
}

void PictureLevels::enqueue(Queue& queue, const SharedImage& image, SharedBuffer& pixels, PictureSource source) {
  const std::vector<PictureLevel>& levels = image.levels();
  for (const LevelStep& step : levelSteps(image.levelsBeingWritten(), static_cast<int>(levels.size()))) {
    const PictureLevel& from = levels[static_cast<size_t>(step.from)];
    const PictureLevel& to = levels[static_cast<size_t>(step.to)];
    const size_t texels = static_cast<size_t>(to.width) * static_cast<size_t>(to.height);
    const bool fromSource = step.from == 0 && source.pixels;
    shrink_.setArg(0, fromSource ? source.pixels : pixels.clMem());
    shrink_.setArg(1, static_cast<cl_uint>(from.offset));
    shrink_.setArg(2, static_cast<cl_int>(fromSource ? source.channels : 4));
    shrink_.setArg(3, static_cast<cl_int>(from.width));
    shrink_.setArg(4, static_cast<cl_int>(from.height));
    shrink_.setArg(5, pixels.clMem());
    shrink_.setArg(6, static_cast<cl_uint>(to.offset));
    shrink_.setArg(7, static_cast<cl_int>(to.width));
    shrink_.setArg(8, static_cast<cl_int>(to.height));
    shrink_.setArg(9, static_cast<cl_int>(step.to - step.from));
    queue.enqueueKernel(shrink_, {(texels + group_ - 1) / group_ * group_}, {group_});
  }
}

}  // namespace ks
