#pragma once
// The image lab's bandwidth reference (compute/image_layout.h: what the image
// operations share): a plain copy on the device.
#include <CL/cl.h>

#include <cstddef>
#include <memory>

#include "compute/cl_objects.h"
#include "compute/compute_context.h"
#include "compute/image_layout.h"

namespace ks {

// The work-group the image benchmark's copy runs with (the ceilings benchmark takes
// a smaller power of two on a device whose groups are smaller).
constexpr int kCopyWorkGroup = 256;

// The bandwidth reference: a plain copy of `bytes` bytes, 16 per work-item
// (kernels/copy.cl). One command: "copy".
class ImageCopier {
 public:
  explicit ImageCopier(ComputeContext& compute, int workGroup = kCopyWorkGroup);
  void run(Queue& queue, cl_mem in, cl_mem out, size_t bytes, ImageOpEvents* events = nullptr);
  const ProgramBuild& build() const { return *build_; }

 private:
  int workGroup_;
  std::shared_ptr<const ProgramBuild> build_;
  Kernel kernel_;
};
constexpr const char* kCopyKernelFile = "copy.cl";

}  // namespace ks
