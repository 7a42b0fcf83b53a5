#pragma once
// Internal to the image operations' sources (compute/image_*.cpp), not for the
// app: the small helpers and validity checks that more than one operation uses.
#include <algorithm>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "compute/cl_objects.h"
#include "compute/compute_context.h"
#include "compute/device_catalog.h"
#include "compute/image_layout.h"

namespace ks {

inline bool contains(const std::vector<int>& values, int value) {
  return std::find(values.begin(), values.end(), value) != values.end();
}

std::string listOf(const std::vector<int>& values);  // "8, 16, 32"

inline size_t roundUp(size_t value, size_t multiple) { return (value + multiple - 1) / multiple * multiple; }
inline size_t divUp(size_t value, size_t divisor) { return (value + divisor - 1) / divisor; }

// Empty for 1 (gray) or 4 (RGBA) channels, else why not.
std::string channelsProblem(int channels);

// A 2D work-group of x by y items against the device's limits: the items in all,
// and each dimension against CL_DEVICE_MAX_WORK_ITEM_SIZES.
std::string workGroup2dLimitsProblem(size_t x, size_t y, const DeviceDescriptor& device);

// A 2D work-group shape against the offered lists and the device's limits.
std::string workGroup2dProblem(int x, int y, const DeviceDescriptor& device);

// A 1D work-group of `items` against the device's limits.
std::string workGroup1dProblem(size_t items, const DeviceDescriptor& device);

// Empty when `bytes` of local memory fit the device; else why not, naming `what`.
std::string localMemoryProblem(size_t bytes, const DeviceDescriptor& device, const char* what);

// The runners' slot for a channel count: 0 gray, 1 RGBA.
inline int channelIndex(int channels) { return channels == 4 ? 1 : 0; }

// Throws ImageConfigError when `mem` is null or holds fewer than `bytes` bytes.
void requireBuffer(cl_mem mem, size_t bytes, const std::string& what);

// Throws ImageConfigError when the layout is not usable (imageLayoutProblem).
void requireLayout(const ImageLayout& layout, const std::string& what);

// The event of a new command labelled `label`, or null when not recording.
inline Event* eventFor(ImageOpEvents* events, const char* label) { return events ? events->add(label) : nullptr; }

// A kernel built for this device, checked against the work-group it will run with.
struct KernelBuild {
  std::shared_ptr<const ProgramBuild> build;
  Kernel kernel;
  KernelInfo info;
};

KernelBuild buildKernel(ComputeContext& compute, const char* file, const std::string& options, const char* name,
                        size_t groupItems);

void enqueue(Queue& queue, const Kernel& kernel, std::vector<size_t> global, std::vector<size_t> local, Event* event);

}  // namespace ks
