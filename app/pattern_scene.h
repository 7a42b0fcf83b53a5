#pragma once
// The start scene: an OpenCL kernel renders an animated Julia set straight into
// the pixel buffer of a GL texture (through the interop layer), drawn behind the panels.
#include <memory>
#include <stdexcept>

#include "compute/cl_objects.h"
#include "compute/compute_context.h"
#include "compute/interop/interop.h"
#include "render/image_quad.h"

namespace ks {

struct PatternParams;
struct FrameBreakdown;

class PatternScene {
 public:
  // Builds kernels/pattern.cl for the context's device; throws ProgramBuildError
  // (with the log), ClError or KernelsDirError when that fails.
  PatternScene(ComputeContext& compute, InteropBackend& interop, int size);
  // Output objects for another interop path; the scene's state is its time only.
  void rebindInterop(InteropBackend& interop);
  // Runs the kernel for time t into the shared texture; times go into `frame`.
  void update(ComputeContext& compute, float time, const PatternParams& params, FrameBreakdown& frame);
  void draw(const ImageQuad& quad, int viewportW, int viewportH) const;

 private:
  int size_;
  std::shared_ptr<const ProgramBuild> program_;
  Kernel kernel_;
  std::unique_ptr<SharedTexture> image_;
  size_t localSize_ = 8;
};

}  // namespace ks
