#include "app/pattern_scene.h"

#include <glad/gl.h>

#include <algorithm>
#include <chrono>

#include "app/app_state.h"
#include "render/gl_check.h"

namespace ks {

PatternScene::PatternScene(ComputeContext& compute, int size) : size_(size) {
  program_ = compute.buildKernelFile("pattern.cl");
  if (!program_->ok()) throw ProgramBuildError(program_);
  kernel_ = Kernel(program_->program.get(), "julia");
  pixels_ = Buffer(compute.context(), CL_MEM_WRITE_ONLY, static_cast<size_t>(size) * size * 4);
  host_.resize(pixels_.bytes());
  texture_ = createTexture2D(size, size, GL_RGBA8);
  // An 8x8 tile unless the kernel cannot run that many work-items per group.
  const size_t maxGroup = kernel_.workGroupSize(compute.device().id);
  while (localSize_ > 1 && localSize_ * localSize_ > maxGroup) localSize_ /= 2;
}

void PatternScene::update(ComputeContext& compute, float time, PatternParams& params) {
  kernel_.setArg(0, pixels_);
  kernel_.setArg(1, static_cast<cl_int>(size_));
  kernel_.setArg(2, static_cast<cl_int>(size_));
  kernel_.setArg(3, time);
  kernel_.setArg(4, static_cast<cl_int>(std::clamp(params.iterations, 1, 4096)));
  const size_t global = (static_cast<size_t>(size_) + localSize_ - 1) / localSize_ * localSize_;
  Event done;
  compute.queue().enqueueKernel(kernel_, {global, global}, {localSize_, localSize_}, &done);
  done.wait();
  const auto copyStart = std::chrono::steady_clock::now();
  compute.queue().readBuffer(pixels_, 0, host_.size(), host_.data(), true);
  params.kernelMs = done.elapsedMs();
  glBindTexture(GL_TEXTURE_2D, texture_.get());
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, size_, size_, GL_RGBA, GL_UNSIGNED_BYTE, host_.data());
  glBindTexture(GL_TEXTURE_2D, 0);
  glCheck("glTexSubImage2D (pattern upload)");
  params.copyMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - copyStart).count();
}

void PatternScene::draw(const ImageQuad& quad, int viewportW, int viewportH) const {
  // Largest centred square that fits the viewport.
  const float side = static_cast<float>(std::min(viewportW, viewportH));
  quad.draw(texture_.get(), (viewportW - side) * 0.5f, (viewportH - side) * 0.5f, side, side, viewportW, viewportH);
}

}  // namespace ks
