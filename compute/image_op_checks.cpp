#include "compute/image_op_checks.h"

#include <sstream>

#include "compute/kernel_constraints.h"
#include "compute/kernel_op.h"

namespace ks {

namespace {

size_t memObjectSize(cl_mem mem) {
  size_t size = 0;
  clCheck(clGetMemObjectInfo(mem, CL_MEM_SIZE, sizeof size, &size, nullptr), "clGetMemObjectInfo");
  return size;
}

}  // namespace

std::string listOf(const std::vector<int>& values) {
  std::ostringstream o;
  for (size_t i = 0; i < values.size(); ++i) o << (i ? ", " : "") << values[i];
  return o.str();
}

std::string channelsProblem(int channels) {
  if (contains(imageChannelCounts(), channels)) return {};
  return channelsConstraint().refusal({{"channels", channels}});
}

std::string workGroup2dLimitsProblem(size_t x, size_t y, const DeviceDescriptor& device) {
  const size_t items = x * y;
  if (device.maxWorkGroupSize && items > device.maxWorkGroupSize)
    return workGroup2dItemsConstraint().refusal(
        {{"x", x}, {"y", y}, {"items", items}, {"max", device.maxWorkGroupSize}});
  if (device.maxWorkItemSizes.size() >= 2 && (x > device.maxWorkItemSizes[0] || y > device.maxWorkItemSizes[1]))
    return workGroup2dSizesConstraint().refusal(
        {{"x", x}, {"y", y}, {"max_x", device.maxWorkItemSizes[0]}, {"max_y", device.maxWorkItemSizes[1]}});
  return {};
}

std::string workGroup2dProblem(int x, int y, const DeviceDescriptor& device) {
  if (!contains(imageWorkGroupWidths(), x))
    return workGroupWidthConstraint().refusal({{"x", x}, {"offered", listOf(imageWorkGroupWidths())}});
  if (!contains(imageWorkGroupHeights(), y))
    return workGroupHeightConstraint().refusal({{"y", y}, {"offered", listOf(imageWorkGroupHeights())}});
  return workGroup2dLimitsProblem(static_cast<size_t>(x), static_cast<size_t>(y), device);
}

std::string workGroup1dProblem(size_t items, const DeviceDescriptor& device) {
  if (device.maxWorkGroupSize && items > device.maxWorkGroupSize)
    return workGroupItemsConstraint().refusal({{"items", items}, {"max", device.maxWorkGroupSize}});
  if (!device.maxWorkItemSizes.empty() && items > device.maxWorkItemSizes[0])
    return workGroupItemSizeConstraint().refusal({{"items", items}, {"max", device.maxWorkItemSizes[0]}});
  return {};
}

std::string localMemoryProblem(size_t bytes, const DeviceDescriptor& device, const char* what) {
  if (device.localMemBytes && bytes > device.localMemBytes)
    return localMemoryConstraint(what).refusal({{"bytes", bytes}, {"max", device.localMemBytes}});
  return {};
}

void requireBuffer(cl_mem mem, size_t bytes, const std::string& what) {
  if (!mem) throw ImageConfigError(what + " buffer is null");
  const size_t have = memObjectSize(mem);
  if (have < bytes)
    throw ImageConfigError(what + " buffer holds " + std::to_string(have) + " bytes; " + std::to_string(bytes) +
                           " are needed");
}

void requireLayout(const ImageLayout& layout, const std::string& what) {
  if (std::string problem = imageLayoutProblem(layout); !problem.empty())
    throw ImageConfigError(what + " image: " + problem);
}

KernelBuild buildKernel(ComputeContext& compute, const char* file, const std::string& options, const char* name,
                        size_t groupItems) {
  KernelBuild k;
  k.build = compute.buildKernelFile(file, options);
  if (!k.build->ok()) throw ProgramBuildError(k.build);
  k.kernel = Kernel(k.build->program.get(), name);
  k.info = k.kernel.info(compute.device().id);
  // The compiled kernel may allow fewer work-items than the device (registers).
  if (k.info.launchableWorkGroupSize() < groupItems)
    throw ImageConfigError(kernelWorkGroupConstraint().refusal(
        {{"kernel", name}, {"max", k.info.launchableWorkGroupSize()}, {"items", groupItems}}));
  // Local memory is checked before the build, from the arrays the kernel declares
  // (localMemoryProblem), not from CL_KERNEL_LOCAL_MEM_SIZE: NVIDIA reports 4 bytes
  // more than a kernel declares (49156 for 48 KB of histogram copies) and runs it
  // on a device whose CL_DEVICE_LOCAL_MEM_SIZE is 49152. A launch the driver
  // refuses still comes back as a clear OpenCL error.
  return k;
}

void enqueue(Queue& queue, const Kernel& kernel, std::vector<size_t> global, std::vector<size_t> local,
             Event* event) {
  queue.enqueueKernel(kernel, global, local, event);
}

}  // namespace ks
