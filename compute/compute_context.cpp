#include "compute/compute_context.h"

#include <cstdio>

#include "compute/kernel_files.h"

namespace ks {

static void CL_CALLBACK reportContextError(const char* message, const void*, size_t, void*) {
  // Asynchronous driver errors: visible in the terminal, never fatal.
  std::fprintf(stderr, "kernelscope: OpenCL context: %s\n", message);
}

bool readingBinariesStallsTheDevice(const DeviceDescriptor& device) {
  // PoCL names its platform this way on every build; its own cache (POCL_CACHE_DIR, on by
  // default) already keeps built programs, so ours gains little there.
  return device.platformName == "Portable Computing Language";
}

ComputeContext::ComputeContext(const DeviceDescriptor& device, std::filesystem::path kernelsDir,
                               const GlContextHandles& gl,
                               const std::optional<std::filesystem::path>& programCacheDir,
                               DiskCacheOnStallingDevices stalling)
    : device_(device), kernelsDir_(std::move(kernelsDir)) {
  cl_int status = CL_SUCCESS;
  cl_device_id id = device.id;
  // Only a device that lists cl_khr_gl_sharing and that the runtime named for this
  // GL context gets GL properties (see gl_share_probe.h for why).
  if (device.hasGlSharing() && device.sharesCurrentGlContext) {
    const auto props = glSharingProperties(gl, device.platform);
    if (!props.empty()) {
      cl_context shared = clCreateContext(props.data(), 1, &id, reportContextError, nullptr, &status);
      if (status == CL_SUCCESS) {
        context_ = ContextHandle(shared);
        sharesGl_ = true;
      } else {
        glSharingError_ = ClError(status, "clCreateContext (GL sharing)").what();
      }
    }
  }
  if (!context_) {
    const cl_context_properties props[] = {CL_CONTEXT_PLATFORM,
                                           reinterpret_cast<cl_context_properties>(device.platform), 0};
    context_ = ContextHandle(clCreateContext(props, 1, &id, reportContextError, nullptr, &status));
    if (status != CL_SUCCESS) throw ClError(status, "clCreateContext", device.displayName());
  }
  queue_ = Queue(context_.get(), device.id);
  programs_ = std::make_unique<ProgramCache>(context_.get(), device.id);
  if (programCacheDir && readingBinariesStallsTheDevice(device) && stalling == DiskCacheOnStallingDevices::Off)
    programs_->disableDiskCache("PoCL keeps its own cache of built programs");
  else if (programCacheDir)
    programs_->enableDiskCache(ProgramBinaryCache(*programCacheDir),
                               device.platformName + " " + device.platformVersion + "|" + device.name + "|driver " +
                                   device.driverVersion + "|" + device.deviceVersion);
}

ComputeContext::ComputeContext(const DeviceDescriptor& device, std::filesystem::path kernelsDir, ContextHandle shared)
    : device_(device), kernelsDir_(std::move(kernelsDir)), context_(std::move(shared)) {
  queue_ = Queue(context_.get(), device.id);
  programs_ = std::make_unique<ProgramCache>(context_.get(), device.id);
}

std::string ComputeContext::allOptions(const std::string& options) const {
  return extraBuildOptions_.empty() ? options : options + " " + extraBuildOptions_;
}

std::shared_ptr<const ProgramBuild> ComputeContext::buildKernelFile(const std::string& file,
                                                                    const std::string& options) {
  return programs_->get(file, readKernelSource(kernelsDir_, file), allOptions(options));
}

void ComputeContext::prefetchKernelFile(const std::string& file, const std::string& options) {
  std::string source;
  try {
    source = readKernelSource(kernelsDir_, file);
  } catch (const std::exception&) {
    return;  // buildKernelFile will say what is wrong with the file
  }
  programs_->prefetch(file, source, allOptions(options));
}

bool ComputeContext::kernelFileReady(const std::string& file, const std::string& options) const {
  try {
    return programs_->ready(readKernelSource(kernelsDir_, file), allOptions(options));
  } catch (const std::exception&) {
    return true;
  }
}

}  // namespace ks
