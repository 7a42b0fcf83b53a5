#pragma once
// Built programs, reused while (device, source hash, build options) stay the same.
#include <CL/cl.h>

#include <cstdint>
#include <future>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "compute/cl_objects.h"
#include "compute/program_binary_cache.h"
#include "core/error.h"

namespace ks {

struct ProgramBuild {
  ProgramHandle program;  // empty when the build failed
  std::string label;      // e.g. "pattern.cl"
  std::string options;
  std::string log;        // the compiler's build log (kept on success too)
  std::string error;      // "clBuildProgram failed: CL_BUILD_PROGRAM_FAILURE (-11)" on failure
  cl_int status = CL_SUCCESS;  // the failed call's status (CL_BUILD_PROGRAM_FAILURE)
  double buildMs = 0.0;
  bool fromDisk = false;  // loaded from the on-disk binary cache, not compiled from source
  bool ok() const { return static_cast<bool>(program); }
};

uint64_t hashSource(const std::string& text);  // FNV-1a, 64 bit

// The device binary of a built program (CL_PROGRAM_BINARIES; PTX text on NVIDIA).
std::string programBinary(cl_program program);

// What a failed build gives a ks::Error: the OpenCL status's name, the log, the file.
ErrorDetails buildDetails(const ProgramBuild& build);

// A kernel file that failed to build, with the compiler's log.
class ProgramBuildError : public Error {
 public:
  // Exit code 7 (--help); the details carry the log and the kernel file's name.
  explicit ProgramBuildError(std::shared_ptr<const ProgramBuild> build)
      : Error(build->error, kExitKernelBuildFailed, buildDetails(*build)), build_(std::move(build)) {}
  const ProgramBuild& build() const { return *build_; }

 private:
  std::shared_ptr<const ProgramBuild> build_;
};

class ProgramCache {
 public:
  ProgramCache(cl_context context, cl_device_id device) : context_(context), device_(device) {}
  // Keeps program binaries in `disk` too; `deviceIdentity` names platform, device and
  // driver version, so that a driver update or another device never loads a stale binary.
  void enableDiskCache(ProgramBinaryCache disk, std::string deviceIdentity);
  const std::optional<ProgramBinaryCache>& diskCache() const { return disk_; }
  // No disk cache, and why in words users read (shown where the disk cache's state is).
  void disableDiskCache(std::string why) { disk_.reset(); diskOffReason_ = std::move(why); }
  const std::string& diskOffReason() const { return diskOffReason_; }

  // Returns the cached build for this source and options, or builds it. A failed
  // build comes back with its log and is not cached, so a fixed file builds again.
  std::shared_ptr<const ProgramBuild> get(const std::string& label, const std::string& source,
                                          const std::string& options);
  // Starts building on a worker thread (OpenCL builds are thread-safe), so that a
  // later get() of the same program finds it done: the UI's sweeps build the next
  // configuration while the frame loop keeps drawing. Nothing when it is cached or
  // already under way.
  void prefetch(const std::string& label, const std::string& source, const std::string& options);
  // Whether get() would answer without compiling: cached, or a prefetch has finished.
  bool ready(const std::string& source, const std::string& options) const;
  size_t pending() const { return pending_.size(); }
  // Whether a build started by prefetch is still compiling; never waits. The cache's
  // destructor waits for such builds (a device switch puts itself off until then).
  bool building() const;

  size_t hits() const { return hits_; }
  size_t misses() const { return misses_; }
  // get() calls that compiled, or waited for a build still under way, on the caller's
  // thread: the frame loop's own should stay at none (issue 22).
  size_t compiledInCall() const { return compiledInCall_; }
  size_t size() const { return entries_.size(); }
  // How often `label` was asked for (hits and misses): tells hot reload which files a scene uses.
  size_t requests(const std::string& label) const {
    const auto it = requests_.find(label);
    return it == requests_.end() ? 0 : it->second;
  }
  // Memory misses answered from disk, and those compiled from source while the disk cache was on.
  size_t diskHits() const { return diskHits_; }
  size_t diskMisses() const { return diskMisses_; }
  // Disk cache problems since the last call (a corrupt file ignored, a failed write), for the log.
  std::vector<std::string> takeDiskMessages() { return std::exchange(diskMessages_, {}); }
  // The last failed build per label, for the UI's build-log window.
  const std::map<std::string, std::shared_ptr<const ProgramBuild>>& failures() const { return failures_; }
  void clear();

 private:
  std::shared_ptr<const ProgramBuild> build(const std::string& label, const std::string& source,
                                            const std::string& options) const;
  std::shared_ptr<const ProgramBuild> buildFromBinary(const std::string& label, const std::string& binary,
                                                      const std::string& options) const;
  // A build and what the disk cache said while making it; runs on any thread
  // (reads only the immutable members).
  struct DiskBuild {
    std::shared_ptr<const ProgramBuild> build;
    bool diskHit = false, diskMiss = false;
    std::vector<std::string> messages;
  };
  DiskBuild buildThroughDisk(const std::string& label, const std::string& source, const std::string& options) const;
  std::string keyFor(const std::string& source, const std::string& options) const;
  // Counts and keeps a finished build (the main thread's half of get()).
  std::shared_ptr<const ProgramBuild> keep(const std::string& key, DiskBuild done);
  cl_context context_;
  cl_device_id device_;
  std::map<std::string, std::shared_ptr<const ProgramBuild>> entries_;
  std::map<std::string, std::shared_ptr<const ProgramBuild>> failures_;
  size_t hits_ = 0, misses_ = 0, diskHits_ = 0, diskMisses_ = 0, compiledInCall_ = 0;
  std::optional<ProgramBinaryCache> disk_;
  std::string diskOffReason_;
  std::string deviceIdentity_;
  std::vector<std::string> diskMessages_;
  std::map<std::string, size_t> requests_;
  // Builds under way on worker threads, by key. Declared last: destroyed first,
  // and a std::async future's destructor waits for its build to end.
  std::map<std::string, std::future<DiskBuild>> pending_;
};

}  // namespace ks
