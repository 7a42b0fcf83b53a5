#pragma once
// The start scene: an OpenCL kernel renders an animated Julia set into a buffer
// that is copied to a GL texture and drawn behind the panels.
#include <memory>
#include <stdexcept>
#include <vector>

#include "compute/cl_objects.h"
#include "compute/compute_context.h"
#include "render/gl_objects.h"
#include "render/image_quad.h"

namespace ks {

struct PatternParams;

// A kernel file that failed to build, with the compiler's log.
class ProgramBuildError : public std::runtime_error {
 public:
  explicit ProgramBuildError(std::shared_ptr<const ProgramBuild> build)
      : std::runtime_error(build->error), build_(std::move(build)) {}
  const ProgramBuild& build() const { return *build_; }

 private:
  std::shared_ptr<const ProgramBuild> build_;
};

class PatternScene {
 public:
  // Builds kernels/pattern.cl for the context's device; throws (ClError with the
  // build log, or KernelsDirError) when that fails.
  PatternScene(ComputeContext& compute, int size);
  // Runs the kernel for time t and uploads the result; times go into params.
  void update(ComputeContext& compute, float time, PatternParams& params);
  void draw(const ImageQuad& quad, int viewportW, int viewportH) const;
  int size() const { return size_; }
  GLuint texture() const { return texture_.get(); }

 private:
  int size_;
  std::shared_ptr<const ProgramBuild> program_;
  Kernel kernel_;
  Buffer pixels_;
  std::vector<unsigned char> host_;
  Texture texture_;
  size_t localSize_ = 8;
};

}  // namespace ks
