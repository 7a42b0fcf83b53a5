#include "compute/program_cache.h"

#include <chrono>
#include <sstream>
#include <vector>

namespace ks {

ErrorDetails buildDetails(const ProgramBuild& build) {
  return ErrorDetails{build.status != CL_SUCCESS ? clErrorName(build.status) : std::string(), build.log, build.label};
}

uint64_t hashSource(const std::string& text) {
  uint64_t hash = 1469598103934665603ull;
  for (unsigned char c : text) {
    hash ^= c;
    hash *= 1099511628211ull;
  }
  return hash;
}

std::string programBinary(cl_program program) {
  cl_uint devices = 0;
  clCheck(clGetProgramInfo(program, CL_PROGRAM_NUM_DEVICES, sizeof devices, &devices, nullptr), "clGetProgramInfo");
  std::vector<size_t> sizes(devices);
  clCheck(clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizes.size() * sizeof(size_t), sizes.data(), nullptr),
          "clGetProgramInfo");
  std::vector<std::string> binaries(devices);
  std::vector<unsigned char*> pointers(devices);
  for (cl_uint i = 0; i < devices; ++i) {
    binaries[i].resize(sizes[i]);
    pointers[i] = reinterpret_cast<unsigned char*>(binaries[i].data());
  }
  clCheck(clGetProgramInfo(program, CL_PROGRAM_BINARIES, pointers.size() * sizeof(unsigned char*), pointers.data(),
                           nullptr),
          "clGetProgramInfo");
  return devices ? binaries[0] : std::string();
}

static std::string buildLog(cl_program program, cl_device_id device) {
  size_t size = 0;
  if (clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size) != CL_SUCCESS) return {};
  std::string log(size, '\0');
  if (clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr) != CL_SUCCESS) return {};
  while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
  return log;
}

std::shared_ptr<const ProgramBuild> ProgramCache::build(const std::string& label, const std::string& source,
                                                        const std::string& options) const {
  auto result = std::make_shared<ProgramBuild>();
  result->label = label;
  result->options = options;
  const auto start = std::chrono::steady_clock::now();
  const char* text = source.c_str();
  const size_t length = source.size();
  cl_int status = CL_SUCCESS;
  ProgramHandle program(clCreateProgramWithSource(context_, 1, &text, &length, &status));
  if (status != CL_SUCCESS) {
    result->error = ClError(status, "clCreateProgramWithSource", label).what();
    result->status = status;
    return result;
  }
  status = clBuildProgram(program.get(), 1, &device_, options.c_str(), nullptr, nullptr);
  result->log = buildLog(program.get(), device_);
  result->buildMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  if (status != CL_SUCCESS) {
    result->error = ClError(status, "clBuildProgram", label + (options.empty() ? "" : " [" + options + "]")).what();
    result->status = status;
    return result;
  }
  result->program = std::move(program);
  return result;
}

std::shared_ptr<const ProgramBuild> ProgramCache::buildFromBinary(const std::string& label, const std::string& binary,
                                                                  const std::string& options) const {
  auto result = std::make_shared<ProgramBuild>();
  result->label = label;
  result->options = options;
  result->fromDisk = true;
  const auto start = std::chrono::steady_clock::now();
  const unsigned char* bytes = reinterpret_cast<const unsigned char*>(binary.data());
  const size_t length = binary.size();
  cl_int binaryStatus = CL_SUCCESS, status = CL_SUCCESS;
  ProgramHandle program(clCreateProgramWithBinary(context_, 1, &device_, &length, &bytes, &binaryStatus, &status));
  if (status != CL_SUCCESS || binaryStatus != CL_SUCCESS) {
    result->status = status != CL_SUCCESS ? status : binaryStatus;
    result->error = ClError(result->status, "clCreateProgramWithBinary", label).what();
    return result;
  }
  // Binaries still need clBuildProgram (a link step on most drivers) before kernels can be made.
  status = clBuildProgram(program.get(), 1, &device_, options.c_str(), nullptr, nullptr);
  result->log = buildLog(program.get(), device_);
  result->buildMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  if (status != CL_SUCCESS) {
    result->error = ClError(status, "clBuildProgram (binary)", label).what();
    result->status = status;
    return result;
  }
  result->program = std::move(program);
  return result;
}

void ProgramCache::enableDiskCache(ProgramBinaryCache disk, std::string deviceIdentity) {
  disk_ = std::move(disk);
  deviceIdentity_ = std::move(deviceIdentity);
}

ProgramCache::DiskBuild ProgramCache::buildThroughDisk(const std::string& label, const std::string& source,
                                                       const std::string& options) const {
  DiskBuild done;
  if (!disk_) {
    done.build = build(label, source, options);
    return done;
  }
  const std::string key = programBinaryKey(deviceIdentity_, hashSource(source), options);
  std::string problem;
  if (auto binary = disk_->load(key, problem)) {
    auto loaded = buildFromBinary(label, *binary, options);
    if (loaded->ok()) {
      done.diskHit = true;
      done.build = std::move(loaded);
      return done;
    }
    problem = "cached binary of " + label + " rejected by the driver (" + loaded->error + ")";
  }
  if (!problem.empty()) done.messages.push_back("program cache: " + problem + "; ignored, building from source");
  done.diskMiss = true;
  done.build = build(label, source, options);
  if (done.build->ok()) {
    try {
      const std::string binary = programBinary(done.build->program.get());
      if (binary.empty()) {
        done.messages.push_back("program cache: the driver returned no binary for " + label + "; not cached");
      } else if (const std::string error = disk_->store(key, binary); !error.empty()) {
        done.messages.push_back("program cache: " + error);
      }
    } catch (const std::exception& e) {
      done.messages.push_back("program cache: cannot read the binary of " + label + ": " + e.what());
    }
  }
  return done;
}

std::string ProgramCache::keyFor(const std::string& source, const std::string& options) const {
  std::ostringstream key;
  key << static_cast<const void*>(device_) << '|' << std::hex << hashSource(source) << '|' << options;
  return key.str();
}

std::shared_ptr<const ProgramBuild> ProgramCache::keep(const std::string& key, DiskBuild done) {
  if (done.diskHit) ++diskHits_;
  if (done.diskMiss) ++diskMisses_;
  for (std::string& m : done.messages) diskMessages_.push_back(std::move(m));
  if (done.build->ok()) {
    entries_[key] = done.build;
    failures_.erase(done.build->label);
  } else {
    failures_[done.build->label] = done.build;
  }
  return done.build;
}

std::shared_ptr<const ProgramBuild> ProgramCache::get(const std::string& label, const std::string& source,
                                                      const std::string& options) {
  ++requests_[label];
  const std::string key = keyFor(source, options);
  if (auto it = entries_.find(key); it != entries_.end()) {
    ++hits_;
    return it->second;
  }
  ++misses_;
  if (auto it = pending_.find(key); it != pending_.end()) {
    if (it->second.wait_for(std::chrono::seconds(0)) != std::future_status::ready) ++compiledInCall_;
    DiskBuild done = it->second.get();  // waits if the worker is not done yet
    pending_.erase(it);
    return keep(key, std::move(done));
  }
  ++compiledInCall_;
  return keep(key, buildThroughDisk(label, source, options));
}

void ProgramCache::prefetch(const std::string& label, const std::string& source, const std::string& options) {
  const std::string key = keyFor(source, options);
  if (entries_.count(key) || pending_.count(key)) return;
  // The worker gets its own copies of the texts; `this` outlives it (pending_ waits).
  pending_.emplace(key, std::async(std::launch::async, [this, label, source, options] {
                     return buildThroughDisk(label, source, options);
                   }));
}

bool ProgramCache::ready(const std::string& source, const std::string& options) const {
  const std::string key = keyFor(source, options);
  if (entries_.count(key)) return true;
  const auto it = pending_.find(key);
  return it != pending_.end() && it->second.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
}

bool ProgramCache::building() const {
  for (const auto& [key, build] : pending_)
    if (build.wait_for(std::chrono::seconds(0)) != std::future_status::ready) return true;
  return false;
}

void ProgramCache::clear() {
  pending_.clear();  // waits for builds under way
  entries_.clear();
  failures_.clear();
}

}  // namespace ks
