#include "compute/cl_objects.h"

#include <CL/cl_ext.h>

namespace ks {

std::string platformInfoString(cl_platform_id platform, cl_platform_info param) {
  size_t size = 0;
  clCheck(clGetPlatformInfo(platform, param, 0, nullptr, &size), "clGetPlatformInfo");
  std::string value(size, '\0');
  clCheck(clGetPlatformInfo(platform, param, size, value.data(), nullptr), "clGetPlatformInfo");
  while (!value.empty() && value.back() == '\0') value.pop_back();
  return value;
}

std::string deviceInfoString(cl_device_id device, cl_device_info param) {
  size_t size = 0;
  clCheck(clGetDeviceInfo(device, param, 0, nullptr, &size), "clGetDeviceInfo");
  std::string value(size, '\0');
  clCheck(clGetDeviceInfo(device, param, size, value.data(), nullptr), "clGetDeviceInfo");
  while (!value.empty() && value.back() == '\0') value.pop_back();
  return value;
}

std::vector<size_t> deviceInfoSizes(cl_device_id device, cl_device_info param) {
  size_t size = 0;
  clCheck(clGetDeviceInfo(device, param, 0, nullptr, &size), "clGetDeviceInfo");
  std::vector<size_t> values(size / sizeof(size_t));
  clCheck(clGetDeviceInfo(device, param, size, values.data(), nullptr), "clGetDeviceInfo");
  return values;
}

std::vector<cl_platform_id> platformIds() {
  cl_uint count = 0;
  cl_int status = clGetPlatformIDs(0, nullptr, &count);
  // The ICD loader reports "no platforms" as CL_PLATFORM_NOT_FOUND_KHR; that is an
  // answer (none), not a failure.
  if (status == CL_PLATFORM_NOT_FOUND_KHR || count == 0) return {};
  clCheck(status, "clGetPlatformIDs");
  std::vector<cl_platform_id> ids(count);
  clCheck(clGetPlatformIDs(count, ids.data(), nullptr), "clGetPlatformIDs");
  return ids;
}

std::vector<cl_device_id> deviceIds(cl_platform_id platform) {
  cl_uint count = 0;
  cl_int status = clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, nullptr, &count);
  if (status == CL_DEVICE_NOT_FOUND || count == 0) return {};
  clCheck(status, "clGetDeviceIDs");
  std::vector<cl_device_id> ids(count);
  clCheck(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, count, ids.data(), nullptr), "clGetDeviceIDs");
  return ids;
}

cl_event* Event::out() { return handle_.receive(); }

void Event::wait() const {
  cl_event e = handle_.get();
  clCheck(clWaitForEvents(1, &e), "clWaitForEvents");
}

bool Event::complete() const {
  if (!handle_) return true;
  cl_int status = CL_COMPLETE;
  clCheck(clGetEventInfo(handle_.get(), CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(status), &status, nullptr),
          "clGetEventInfo(CL_EVENT_COMMAND_EXECUTION_STATUS)");
  if (status < 0) throw ClError(status, "a command on the device (its event's execution status)");
  return status == CL_COMPLETE;
}

double Event::elapsedMs() const {
  cl_ulong start = 0, end = 0;
  clCheck(clGetEventProfilingInfo(handle_.get(), CL_PROFILING_COMMAND_START, sizeof(start), &start, nullptr),
          "clGetEventProfilingInfo");
  clCheck(clGetEventProfilingInfo(handle_.get(), CL_PROFILING_COMMAND_END, sizeof(end), &end, nullptr),
          "clGetEventProfilingInfo");
  return static_cast<double>(end - start) * 1e-6;
}

Buffer::Buffer(cl_context context, cl_mem_flags flags, size_t bytes, void* host) : bytes_(bytes) {
  cl_int status = CL_SUCCESS;
  cl_mem mem = clCreateBuffer(context, flags, bytes, host, &status);
  clCheck(status, "clCreateBuffer");
  handle_ = MemHandle(mem);
}

Kernel::Kernel(cl_program program, const std::string& name) : name_(name) {
  cl_int status = CL_SUCCESS;
  cl_kernel kernel = clCreateKernel(program, name.c_str(), &status);
  if (status != CL_SUCCESS) throw ClError(status, "clCreateKernel", name);
  handle_ = KernelHandle(kernel);
}

size_t Kernel::workGroupSize(cl_device_id device) const {
  size_t size = 0;
  clCheck(clGetKernelWorkGroupInfo(handle_.get(), device, CL_KERNEL_WORK_GROUP_SIZE, sizeof(size), &size, nullptr),
          "clGetKernelWorkGroupInfo");
  return size;
}

KernelInfo Kernel::info(cl_device_id device) const {
  KernelInfo k;
  cl_ulong local = 0, priv = 0;
  clCheck(clGetKernelWorkGroupInfo(handle_.get(), device, CL_KERNEL_WORK_GROUP_SIZE, sizeof(size_t), &k.workGroupSize,
                                   nullptr),
          "clGetKernelWorkGroupInfo");
  clCheck(clGetKernelWorkGroupInfo(handle_.get(), device, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, sizeof(size_t),
                                   &k.preferredMultiple, nullptr),
          "clGetKernelWorkGroupInfo");
  clCheck(clGetKernelWorkGroupInfo(handle_.get(), device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof(local), &local, nullptr),
          "clGetKernelWorkGroupInfo");
  clCheck(clGetKernelWorkGroupInfo(handle_.get(), device, CL_KERNEL_PRIVATE_MEM_SIZE, sizeof(priv), &priv, nullptr),
          "clGetKernelWorkGroupInfo");
  clCheck(clGetKernelWorkGroupInfo(handle_.get(), device, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof(k.compileWorkGroup),
                                   k.compileWorkGroup, nullptr),
          "clGetKernelWorkGroupInfo");
  k.localMemBytes = local;
  k.privateMemBytes = priv;
  return k;
}

Queue::Queue(cl_context context, cl_device_id device) {
  cl_int status = CL_SUCCESS;
  const cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
  cl_command_queue queue = clCreateCommandQueueWithProperties(context, device, props, &status);
  clCheck(status, "clCreateCommandQueueWithProperties");
  handle_ = QueueHandle(queue);
}

void Queue::enqueueKernel(const Kernel& kernel, const std::vector<size_t>& global, const std::vector<size_t>& local,
                          Event* event) {
  const size_t* localPtr = local.empty() ? nullptr : local.data();
  cl_int status = clEnqueueNDRangeKernel(handle_.get(), kernel.get(), static_cast<cl_uint>(global.size()), nullptr,
                                         global.data(), localPtr, 0, nullptr, event ? event->out() : nullptr);
  if (status != CL_SUCCESS) throw ClError(status, "clEnqueueNDRangeKernel", kernel.name());
}

void Queue::readBuffer(const Buffer& buffer, size_t offset, size_t bytes, void* dst, bool blocking, Event* event) {
  clCheck(clEnqueueReadBuffer(handle_.get(), buffer.get(), blocking ? CL_TRUE : CL_FALSE, offset, bytes, dst, 0,
                              nullptr, event ? event->out() : nullptr),
          "clEnqueueReadBuffer");
}

void Queue::writeBuffer(const Buffer& buffer, size_t offset, size_t bytes, const void* src, bool blocking) {
  clCheck(clEnqueueWriteBuffer(handle_.get(), buffer.get(), blocking ? CL_TRUE : CL_FALSE, offset, bytes, src, 0,
                               nullptr, nullptr),
          "clEnqueueWriteBuffer");
}

void Queue::flush() { clCheck(clFlush(handle_.get()), "clFlush"); }

void Queue::finish() { clCheck(clFinish(handle_.get()), "clFinish"); }

}  // namespace ks
