#include "compute/program_cache.h"

#include <chrono>
#include <sstream>
#include <vector>

namespace ks {

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
    return result;
  }
  status = clBuildProgram(program.get(), 1, &device_, options.c_str(), nullptr, nullptr);
  result->log = buildLog(program.get(), device_);
  result->buildMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  if (status != CL_SUCCESS) {
    result->error = ClError(status, "clBuildProgram", label + (options.empty() ? "" : " [" + options + "]")).what();
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
    result->error = ClError(status != CL_SUCCESS ? status : binaryStatus, "clCreateProgramWithBinary", label).what();
    return result;
  }
  // Binaries still need clBuildProgram (a link step on most drivers) before kernels can be made.
  status = clBuildProgram(program.get(), 1, &device_, options.c_str(), nullptr, nullptr);
  result->log = buildLog(program.get(), device_);
  result->buildMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  if (status != CL_SUCCESS) {
    result->error = ClError(status, "clBuildProgram (binary)", label).what();
    return result;
  }
  result->program = std::move(program);
  return result;
}

void ProgramCache::enableDiskCache(ProgramBinaryCache disk, std::string deviceIdentity) {
  disk_ = std::move(disk);
  deviceIdentity_ = std::move(deviceIdentity);
}

std::shared_ptr<const ProgramBuild> ProgramCache::buildThroughDisk(const std::string& label,
                                                                   const std::string& source,
                                                                   const std::string& options) {
  if (!disk_) return build(label, source, options);
  const std::string key = programBinaryKey(deviceIdentity_, hashSource(source), options);
  std::string problem;
  if (auto binary = disk_->load(key, problem)) {
    auto loaded = buildFromBinary(label, *binary, options);
    if (loaded->ok()) {
      ++diskHits_;
      return loaded;
    }
    problem = "cached binary of " + label + " rejected by the driver (" + loaded->error + ")";
  }
  if (!problem.empty()) diskMessages_.push_back("program cache: " + problem + "; ignored, building from source");
  ++diskMisses_;
  auto built = build(label, source, options);
  if (built->ok()) {
    try {
      const std::string binary = programBinary(built->program.get());
      if (binary.empty()) {
        diskMessages_.push_back("program cache: the driver returned no binary for " + label + "; not cached");
      } else if (const std::string error = disk_->store(key, binary); !error.empty()) {
        diskMessages_.push_back("program cache: " + error);
      }
    } catch (const std::exception& e) {
      diskMessages_.push_back("program cache: cannot read the binary of " + label + ": " + e.what());
    }
  }
  return built;
}

std::shared_ptr<const ProgramBuild> ProgramCache::get(const std::string& label, const std::string& source,
                                                      const std::string& options) {
  ++requests_[label];
  std::ostringstream key;
  key << static_cast<const void*>(device_) << '|' << std::hex << hashSource(source) << '|' << options;
  if (auto it = entries_.find(key.str()); it != entries_.end()) {
    ++hits_;
    return it->second;
  }
  ++misses_;
  auto result = buildThroughDisk(label, source, options);
  if (result->ok()) {
    entries_[key.str()] = result;
    failures_.erase(label);
  } else {
    failures_[label] = result;
  }
  return result;
}

void ProgramCache::clear() {
  entries_.clear();
  failures_.clear();
}

}  // namespace ks
