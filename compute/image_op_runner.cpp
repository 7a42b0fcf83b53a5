#include "compute/image_op_runner.h"

#include <algorithm>
#include <type_traits>

namespace ks {
namespace {

// CL_R for gray (CL_LUMINANCE where CL_R is missing: both read back in .x), CL_RGBA
// for RGBA, as UNORM_INT8; false when the context offers none of them.
bool findSourceFormat(ComputeContext& compute, int channels, cl_image_format& format) {
  cl_uint count = 0;
  clCheck(clGetSupportedImageFormats(compute.context(), CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, 0, nullptr, &count),
          "clGetSupportedImageFormats");
  std::vector<cl_image_format> formats(count);
  clCheck(clGetSupportedImageFormats(compute.context(), CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, count, formats.data(),
                                     nullptr),
          "clGetSupportedImageFormats");
  const std::vector<cl_channel_order> wanted =
      channels == 1 ? std::vector<cl_channel_order>{CL_R, CL_LUMINANCE} : std::vector<cl_channel_order>{CL_RGBA};
  for (cl_channel_order order : wanted)
    if (std::any_of(formats.begin(), formats.end(), [&](const cl_image_format& f) {
          return f.image_channel_order == order && f.image_channel_data_type == CL_UNORM_INT8;
        })) {
      format = {order, CL_UNORM_INT8};
      return true;
    }
  return false;
}

}  // namespace

ImageOpBuild& ImageOpRunnerCore::builtFor(int channels, const std::function<ImageOpProgram()>& describe) {
  auto& slot = built_[channelIndex(channels)];
  if (slot) return *slot;
  const ImageOpProgram program = describe();
  auto b = std::make_unique<ImageOpBuild>();
  for (const ImageKernelToBuild& k : program.kernels)
    b->kernels.push_back(
        buildKernel(compute_, op_.kernelFile.c_str(), k.options, k.name.c_str(), k.groupItems));
  if (program.sourceImage && !findSourceFormat(compute_, channels, b->sourceFormat))
    throw ImageConfigError(op_.refusal(
        "image_format", {{"formats", channels == 1 ? "CL_R or CL_LUMINANCE" : "CL_RGBA"}, {"variant", program.variant}}));
  slot = std::move(b);
  return *slot;
}

cl_mem ImageOpRunnerCore::scratch(Queue& queue, const ScratchBuffer& wanted) {
  if (scratch_.size() <= static_cast<size_t>(wanted.slot)) scratch_.resize(static_cast<size_t>(wanted.slot) + 1);
  Buffer& buffer = scratch_[static_cast<size_t>(wanted.slot)];
  if (buffer.bytes() < wanted.bytes) {
    buffer = Buffer(compute_.context(), CL_MEM_READ_WRITE, wanted.bytes);
    if (wanted.zeroedWhenMade) {
      const cl_uint zero = 0;
      clCheck(clEnqueueFillBuffer(queue.get(), buffer.get(), &zero, sizeof zero, 0, wanted.bytes, 0, nullptr, nullptr),
              "clEnqueueFillBuffer");
    }
  }
  return buffer.get();
}

cl_mem ImageOpRunnerCore::sourceImage(Queue& queue, const ImageOpBuild& build, const ImageOpBuffers& io,
                                      ImageOpEvents* events) {
  const size_t width = static_cast<size_t>(io.inLayout.width), height = static_cast<size_t>(io.inLayout.height);
  if (!image_ || !(imageLayout_ == io.inLayout)) {
    imageSource_ = nullptr;
    cl_image_desc desc{};
    desc.image_type = CL_MEM_OBJECT_IMAGE2D;
    desc.image_width = width;
    desc.image_height = height;
    cl_int status = CL_SUCCESS;
    cl_mem image = clCreateImage(compute_.context(), CL_MEM_READ_ONLY, &build.sourceFormat, &desc, nullptr, &status);
    clCheck(status, "clCreateImage");
    image_ = MemHandle(image);
    imageLayout_ = io.inLayout;
  }
  if (imageSource_ != io.in) {
    const size_t origin[3] = {0, 0, 0};
    const size_t region[3] = {width, height, 1};
    Event* upload = eventFor(events, "upload");
    clCheck(clEnqueueCopyBufferToImage(queue.get(), io.in, image_.get(), 0, origin, region, 0, nullptr,
                                       upload ? upload->out() : nullptr),
            "clEnqueueCopyBufferToImage");
    imageSource_ = io.in;
  }
  return image_.get();
}

void ImageOpRunnerCore::execute(Queue& queue, ImageOpBuild& build, const ImageOpBuffers& io,
                                const std::vector<ImageOpStep>& steps, ImageOpEvents* events) {
  for (const ImageOpStep& step : steps) {
    if (step.kernel == ImageOpStep::kZeroFill) {
      const ScratchBuffer& target = std::get<ScratchBuffer>(step.args.at(0));
      const cl_mem buffer = scratch(queue, target);
      const cl_uint zero = 0;
      Event* event = eventFor(events, step.label.c_str());
      clCheck(clEnqueueFillBuffer(queue.get(), buffer, &zero, sizeof zero, 0, target.bytes, 0, nullptr,
                                  event ? event->out() : nullptr),
              "clEnqueueFillBuffer");
      continue;
    }
    Kernel& kernel = build.kernels.at(static_cast<size_t>(step.kernel)).kernel;
    for (size_t i = 0; i < step.args.size(); ++i) {
      const cl_uint index = static_cast<cl_uint>(i);
      std::visit(
          [&](const auto& value) {
            using T = std::decay_t<decltype(value)>;
            if constexpr (std::is_same_v<T, ScratchBuffer>) kernel.setArg(index, scratch(queue, value));
            else if constexpr (std::is_same_v<T, SourceImage>) kernel.setArg(index, sourceImage(queue, build, io, events));
            else kernel.setArg(index, value);
          },
          step.args[i]);
    }
    enqueue(queue, kernel, step.global, step.local, eventFor(events, step.label.c_str()));
  }
}

}  // namespace ks
