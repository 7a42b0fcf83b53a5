#pragma once
// The Julia demo: an OpenCL kernel renders an animated Julia set straight into
// a buffer GL draws from (a SharedImage, through the interop layer), behind the
// panels. Small enough for any device.
#include <memory>

#include "app/scene.h"
#include "compute/cl_objects.h"
#include "render/image_quad.h"

namespace ks {

class PatternScene final : public Scene {
 public:
  // Builds kernels/pattern.cl for the context's device; throws ProgramBuildError
  // (with the log), ClError or KernelsDirError when that fails.
  PatternScene(ComputeContext& compute, InteropBackend& interop, int size);
  void rebindInterop(InteropBackend& interop) override;
  void reloadKernels(AppState& state) override;
  std::vector<ProgramToBuild> programsInUse(const AppState& state) const override;
  void update(AppState& state, double seconds) override;
  void draw(AppState& state, int viewportW, int viewportH) override;

 private:
  ComputeContext& compute_;
  int size_;
  std::shared_ptr<const ProgramBuild> program_;
  Kernel kernel_;
  KernelInfo info_;
  std::unique_ptr<SharedImage> image_;
  ImageQuad quad_;
  size_t localSize_ = 8;
  double time_ = 0.0;
  Event lastKernel_;  // the previous frame's kernel, timed once it has finished
};

}  // namespace ks
