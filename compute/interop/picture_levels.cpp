#include "compute/interop/picture_levels.h"

#include <algorithm>

#include "compute/compute_context.h"

namespace ks {

PictureLevels::PictureLevels(ComputeContext& compute) : build_(compute.buildKernelFile("display.cl")) {
  if (!build_->ok()) throw ProgramBuildError(build_);
  halve_ = Kernel(build_->program.get(), "halve_rgba");
  group_ = std::clamp<size_t>(halve_.workGroupSize(compute.device().id), 1, 64);
}

void PictureLevels::enqueue(Queue& queue, const SharedImage& image, SharedBuffer& pixels) {
  for (int k = 1; k < image.levelCount(); ++k) {
    const size_t texels = static_cast<size_t>(image.levelWidth(k)) * static_cast<size_t>(image.levelHeight(k));
    halve_.setArg(0, pixels.clMem());
    halve_.setArg(1, static_cast<cl_uint>(image.levelOffset(k - 1)));
    halve_.setArg(2, static_cast<cl_int>(image.levelWidth(k - 1)));
    halve_.setArg(3, static_cast<cl_int>(image.levelHeight(k - 1)));
    halve_.setArg(4, static_cast<cl_uint>(image.levelOffset(k)));
    halve_.setArg(5, static_cast<cl_int>(image.levelWidth(k)));
    halve_.setArg(6, static_cast<cl_int>(image.levelHeight(k)));
    queue.enqueueKernel(halve_, {(texels + group_ - 1) / group_ * group_}, {group_});
  }
}

}  // namespace ks
