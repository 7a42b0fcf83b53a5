#include "compute/image_copy.h"

#include <algorithm>

#include "compute/image_op_checks.h"
#include "compute/kernel_op.h"

namespace ks {

ImageCopier::ImageCopier(ComputeContext& compute, int workGroup) : workGroup_(workGroup) {
  if (std::string p = workGroup1dProblem(static_cast<size_t>(std::max(workGroup, 1)), compute.device());
      workGroup < 1 || !p.empty())
    throw ImageConfigError(workGroup < 1 ? copyOp().refusal("work_group_positive") : p);
  KernelBuild k = buildKernel(compute, kCopyKernelFile, "", "copy_bytes", static_cast<size_t>(workGroup));
  build_ = k.build;
  kernel_ = k.kernel;
}

void ImageCopier::run(Queue& queue, cl_mem in, cl_mem out, size_t bytes, ImageOpEvents* events) {
  if (bytes == 0) return;
  requireBuffer(in, bytes, "the input");
  requireBuffer(out, bytes, "the output");
  kernel_.setArg(0, in);
  kernel_.setArg(1, out);
  kernel_.setArg(2, static_cast<cl_ulong>(bytes));
  const size_t wg = static_cast<size_t>(workGroup_);
  enqueue(queue, kernel_, {roundUp(divUp(bytes, 16), wg)}, {wg}, eventFor(events, "copy"));
}

}  // namespace ks
