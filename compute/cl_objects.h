#pragma once
// Thin RAII owners for OpenCL objects (in the spirit of CLBlast's clpp11.hpp):
// each class owns one handle, copies retain, destruction releases, and every
// call goes through clCheck so failures carry the call and the error name.
#include <CL/cl.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "compute/cl_error.h"

namespace ks {

template <typename Handle, cl_int(CL_API_CALL* Retain)(Handle), cl_int(CL_API_CALL* Release)(Handle)>
class ClHandle {
 public:
  ClHandle() = default;
  // Takes ownership of a handle that already carries one reference.
  explicit ClHandle(Handle h) : handle_(h) {}
  ClHandle(const ClHandle& other) : handle_(other.handle_) {
    if (handle_) Retain(handle_);
  }
  ClHandle(ClHandle&& other) noexcept : handle_(std::exchange(other.handle_, nullptr)) {}
  ClHandle& operator=(ClHandle other) noexcept {
    std::swap(handle_, other.handle_);
    return *this;
  }
  ~ClHandle() {
    if (handle_) Release(handle_);
  }
  Handle get() const { return handle_; }
  // Releases the current handle and exposes the slot for a C call that creates one
  // (clEnqueue*'s event out-parameter).
  Handle* receive() {
    if (handle_) Release(std::exchange(handle_, nullptr));
    return &handle_;
  }
  explicit operator bool() const { return handle_ != nullptr; }

 private:
  Handle handle_ = nullptr;
};

using ContextHandle = ClHandle<cl_context, clRetainContext, clReleaseContext>;
using QueueHandle = ClHandle<cl_command_queue, clRetainCommandQueue, clReleaseCommandQueue>;
using ProgramHandle = ClHandle<cl_program, clRetainProgram, clReleaseProgram>;
using KernelHandle = ClHandle<cl_kernel, clRetainKernel, clReleaseKernel>;
using MemHandle = ClHandle<cl_mem, clRetainMemObject, clReleaseMemObject>;
using EventHandle = ClHandle<cl_event, clRetainEvent, clReleaseEvent>;

// ---- typed info queries --------------------------------------------------------
std::string platformInfoString(cl_platform_id platform, cl_platform_info param);
std::string deviceInfoString(cl_device_id device, cl_device_info param);
template <typename T>
T deviceInfo(cl_device_id device, cl_device_info param) {
  T value{};
  clCheck(clGetDeviceInfo(device, param, sizeof(T), &value, nullptr), "clGetDeviceInfo");
  return value;
}
std::vector<size_t> deviceInfoSizes(cl_device_id device, cl_device_info param);
std::vector<cl_platform_id> platformIds();  // empty when the ICD loader finds none
std::vector<cl_device_id> deviceIds(cl_platform_id platform);

// ---- objects ----------------------------------------------------------------------
class Event {
 public:
  Event() = default;
  explicit Event(cl_event e) : handle_(e) {}
  cl_event get() const { return handle_.get(); }
  cl_event* out();  // for enqueue calls: releases any previous event
  void wait() const;
  // Never blocks: true once the command has finished; throws ClError when it
  // failed (a negative execution status is the error code). No event: true.
  bool complete() const;
  explicit operator bool() const { return static_cast<bool>(handle_); }
  // Kernel/command time from the profiling counters, in milliseconds.
  double elapsedMs() const;

 private:
  EventHandle handle_;
};

class Buffer {
 public:
  Buffer() = default;
  Buffer(cl_context context, cl_mem_flags flags, size_t bytes, void* host = nullptr);
  cl_mem get() const { return handle_.get(); }
  size_t bytes() const { return bytes_; }

 private:
  MemHandle handle_;
  size_t bytes_ = 0;
};

// What the runtime says about a built kernel on one device.
struct KernelInfo {
  size_t workGroupSize = 0;          // CL_KERNEL_WORK_GROUP_SIZE
  size_t preferredMultiple = 0;      // CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE
  uint64_t localMemBytes = 0;        // CL_KERNEL_LOCAL_MEM_SIZE
  uint64_t privateMemBytes = 0;      // CL_KERNEL_PRIVATE_MEM_SIZE
  size_t compileWorkGroup[3] = {0, 0, 0};  // CL_KERNEL_COMPILE_WORK_GROUP_SIZE (reqd_work_group_size; 0s: none)
  // The most work-items per group a launch may ask for. A kernel compiled for a
  // fixed group size (reqd_work_group_size) was fitted to it by the compiler:
  // NVIDIA's driver reports CL_KERNEL_WORK_GROUP_SIZE 256 for a histogram kernel
  // compiled for 1024 items and runs it at 1024 (see docs/BENCHMARKS.md).
  size_t launchableWorkGroupSize() const {
    const size_t compiled = compileWorkGroup[0] * compileWorkGroup[1] * compileWorkGroup[2];
    return compiled > workGroupSize ? compiled : workGroupSize;
  }
};

class Kernel {
 public:
  Kernel() = default;
  Kernel(cl_program program, const std::string& name);
  cl_kernel get() const { return handle_.get(); }
  const std::string& name() const { return name_; }
  template <typename T>
  void setArg(cl_uint index, const T& value) {
    clCheck(clSetKernelArg(handle_.get(), index, sizeof(T), &value), "clSetKernelArg");
  }
  void setArg(cl_uint index, const Buffer& buffer) { setArg(index, buffer.get()); }
  size_t workGroupSize(cl_device_id device) const;  // CL_KERNEL_WORK_GROUP_SIZE
  KernelInfo info(cl_device_id device) const;

 private:
  KernelHandle handle_;
  std::string name_;
};

class Queue {
 public:
  Queue() = default;
  // Profiling is always enabled: every command can be timed.
  Queue(cl_context context, cl_device_id device);
  cl_command_queue get() const { return handle_.get(); }
  void enqueueKernel(const Kernel& kernel, const std::vector<size_t>& global,
                     const std::vector<size_t>& local, Event* event = nullptr);
  void readBuffer(const Buffer& buffer, size_t offset, size_t bytes, void* dst, bool blocking = true,
                  Event* event = nullptr);
  void writeBuffer(const Buffer& buffer, size_t offset, size_t bytes, const void* src, bool blocking = true);
  void flush();   // hands what is enqueued to the device without waiting for it
  void finish();

 private:
  QueueHandle handle_;
};

}  // namespace ks
