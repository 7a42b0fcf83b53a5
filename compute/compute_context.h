#pragma once
// Everything OpenCL for one chosen device: context, profiling queue, program
// cache and the kernels directory. Replacing this object switches devices.
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "compute/cl_objects.h"
#include "compute/device_catalog.h"
#include "compute/gl_share_probe.h"
#include "compute/program_cache.h"

namespace ks {

// Reading a program's binaries on PoCL's CPU devices compiles every kernel of it under a
// PoCL-wide lock that kernel launches also take: seconds of stalled frames (issue 22).
bool readingBinariesStallsTheDevice(const DeviceDescriptor& device);

// Whether the on-disk program cache is used where reading binaries stalls the device.
// Force: tests of the cache code on CI's PoCL.
enum class DiskCacheOnStallingDevices { Off, Force };

class ComputeContext {
 public:
  // With `gl` naming the current GL context and a device that shares it, the CL
  // context is created for cl_khr_gl_sharing (so every interop path stays open
  // without rebuilding the context); if that fails, a plain context is used.
  // With `programCacheDir`, program binaries are kept there across runs (see program_binary_cache.h),
  // except on devices where reading them stalls the device (unless `stalling` is Force).
  ComputeContext(const DeviceDescriptor& device, std::filesystem::path kernelsDir, const GlContextHandles& gl = {},
                 const std::optional<std::filesystem::path>& programCacheDir = std::nullopt,
                 DiskCacheOnStallingDevices stalling = DiskCacheOnStallingDevices::Off);
  // One device of a context that several devices share (compute/device_group.h):
  // its own queue and program cache, no GL sharing.
  ComputeContext(const DeviceDescriptor& device, std::filesystem::path kernelsDir, ContextHandle shared);

  const DeviceDescriptor& device() const { return device_; }
  cl_context context() const { return context_.get(); }
  Queue& queue() { return queue_; }
  ProgramCache& programs() { return *programs_; }
  const ProgramCache& programs() const { return *programs_; }
  const std::filesystem::path& kernelsDir() const { return kernelsDir_; }
  bool sharesGl() const { return sharesGl_; }
  const std::string& glSharingError() const { return glSharingError_; }

  // Reads kernels/<file> and builds it (through the cache) for this device.
  std::shared_ptr<const ProgramBuild> buildKernelFile(const std::string& file, const std::string& options = {});
  // Starts building it on a worker thread (ProgramCache::prefetch), and says whether
  // buildKernelFile would now answer without compiling. A file that cannot be read
  // counts as ready: buildKernelFile then reports why.
  void prefetchKernelFile(const std::string& file, const std::string& options = {});
  bool kernelFileReady(const std::string& file, const std::string& options = {}) const;
  // Appended to every build's options (benchmarks: --cl-options, e.g. -cl-nv-verbose).
  void setExtraBuildOptions(std::string options) { extraBuildOptions_ = std::move(options); }

 private:
  DeviceDescriptor device_;
  std::filesystem::path kernelsDir_;
  ContextHandle context_;
  Queue queue_;
  std::unique_ptr<ProgramCache> programs_;
  bool sharesGl_ = false;
  std::string glSharingError_;
  std::string extraBuildOptions_;
  std::string allOptions(const std::string& options) const;
};

}  // namespace ks
