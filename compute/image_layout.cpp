#include "compute/image_layout.h"

#include "compute/image_op_checks.h"

namespace ks {

// ---- pixels ------------------------------------------------------------------------------

std::string imageLayoutProblem(const ImageLayout& layout) {
  if (std::string c = channelsProblem(layout.channels); !c.empty()) return c;
  if (layout.width < 1 || layout.height < 1)
    return "size " + std::to_string(layout.width) + "x" + std::to_string(layout.height) + " is empty";
  if (layout.pixels() > 0x7fffffffu)
    return std::to_string(layout.pixels()) + " pixels are more than the kernels' 32-bit indices allow (2^31 - 1)";
  return {};
}

std::string describeImageLayout(const ImageLayout& layout) {
  return std::to_string(layout.width) + "x" + std::to_string(layout.height) +
         (layout.channels == 1 ? " gray" : layout.channels == 4 ? " RGBA" : " ?" + std::to_string(layout.channels));
}

Event* ImageOpEvents::add(const std::string& label) {
  commands.push_back({label, Event()});
  return &commands.back().event;
}

double ImageOpEvents::elapsedMs() const {
  // Commands whose enqueue failed have no event: the span is of those that ran.
  const ImageOpCommand* first = nullptr;
  const ImageOpCommand* last = nullptr;
  for (const auto& c : commands)
    if (c.event) {
      c.event.wait();
      if (!first) first = &c;
      last = &c;
    }
  if (!first) return 0.0;
  cl_ulong start = 0, end = 0;
  clCheck(clGetEventProfilingInfo(first->event.get(), CL_PROFILING_COMMAND_START, sizeof start, &start, nullptr),
          "clGetEventProfilingInfo");
  clCheck(clGetEventProfilingInfo(last->event.get(), CL_PROFILING_COMMAND_END, sizeof end, &end, nullptr),
          "clGetEventProfilingInfo");
  return end > start ? static_cast<double>(end - start) * 1e-6 : 0.0;
}

bool ImageOpEvents::complete() const {
  for (const auto& c : commands)
    if (!c.event.complete()) return false;
  return true;
}

double ImageOpEvents::commandMs(const std::string& label) const {
  double total = 0.0;
  for (const auto& c : commands)
    if (c.label == label && c.event) {
      c.event.wait();
      total += c.event.elapsedMs();
    }
  return total;
}

size_t imageOpBytes(ImageOp op, const ImageLayout& in, const ImageLayout& out) {
  switch (op) {
    case ImageOp::Copy: return in.bytes() + (out.pixels() ? out.bytes() : in.bytes());
    case ImageOp::Rotate:
    case ImageOp::Transpose: return in.bytes() + out.bytes();
    case ImageOp::Histogram: return in.bytes();
  }
  return 0;
}

double imageGigabytesPerSecond(size_t bytes, double ms) {
  return ms > 0 ? static_cast<double>(bytes) / ms / 1e6 : 0.0;
}

}  // namespace ks
