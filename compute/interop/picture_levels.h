#pragma once
// Writes a SharedImage's smaller levels from its level 0 on the device
// (kernels/display.cl halve_rgba): what glGenerateMipmap did, without GL and
// without a copy, right after the kernels that wrote level 0.
#include <memory>

#include "compute/cl_objects.h"
#include "compute/interop/interop.h"

namespace ks {

class ComputeContext;
struct ProgramBuild;

class PictureLevels {
 public:
  // Builds kernels/display.cl; throws ProgramBuildError with the log when it fails.
  explicit PictureLevels(ComputeContext& compute);
  // Enqueues levels 1.. of `image` into `pixels`, the buffer being updated
  // (between beginUpdate and endUpdate). Nothing for a picture without levels.
  void enqueue(Queue& queue, const SharedImage& image, SharedBuffer& pixels);
  const ProgramBuild& build() const { return *build_; }

 private:
  std::shared_ptr<const ProgramBuild> build_;
  Kernel halve_;
  size_t group_ = 64;
};

}  // namespace ks
