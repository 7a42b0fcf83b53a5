#pragma once
// The image lab's kernels on an OpenCL device: rotation (compute/image_rotate.h),
// transpose (compute/image_transpose.h), histogram + statistics
// (compute/image_histogram.h), and a plain copy (the bandwidth reference,
// compute/image_copy.h); this header holds what they share. As for the N-body lab,
// the variants are DATA (tables in those headers): the UI, the benchmarks, the
// sweeps and the tests iterate over them, and over the *ConfigProblem() checks to
// know which combinations a device can run, with the reason when it cannot.
//
// Pixels: ImageLayout, row-major, no row padding, 1 byte per channel; channels is
// 1 (gray) or 4 (RGBA, bytes R, G, B, A in that order). Images live in plain
// cl_mem buffers; the runners enqueue on the queue they are given and record
// their commands' profiling events in an ImageOpEvents when asked.
//
// Exactness: every mapping is computed in integer fixed point (the rotation's
// cosine and sine as Q16 integers, see rotationFixedPoint), except the forward
// rotation, which is the seed's float arithmetic operation for operation
// (rotationFloat, no fused multiply-adds); either way the buffer kernels give
// bit-exact copies of the CPU references in compute/image_reference.h.
//
// Runners (ImageRotator, ImageTransposer, ImageHistogrammer: the one runner of
// compute/image_op_runner.h with each operation's launch description; ImageCopier).
// Each checks its configuration when constructed (throws ImageConfigError) and
// builds its program for a channel count on first use (prepare() builds ahead,
// e.g. before timing; ProgramBuildError on a compile failure). run() checks the
// layouts, the buffers' sizes and the channel-dependent limits (ImageConfigError)
// before enqueuing anything. Runners keep a reference to the ComputeContext and
// must not outlive it.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "compute/cl_objects.h"
#include "core/error.h"

namespace ks {

// ---- pixels ----------------------------------------------------------------------

struct ImageLayout {
  int width = 0;
  int height = 0;
  int channels = 1;  // 1 = gray, 4 = RGBA
  size_t pixels() const { return static_cast<size_t>(width) * static_cast<size_t>(height); }
  size_t bytes() const { return pixels() * static_cast<size_t>(channels); }
  bool operator==(const ImageLayout&) const = default;
};

// Empty when the layout is usable: channels 1 or 4, width and height >= 1, at most
// 2^31 - 1 pixels (the kernels index with 32-bit integers).
std::string imageLayoutProblem(const ImageLayout& layout);
std::string describeImageLayout(const ImageLayout& layout);  // "1000x777 RGBA"

// Luminance of an RGB triple, in integers so that kernel and reference agree bit
// for bit: (77 R + 150 G + 29 B + 128) >> 8. The weights are BT.601's 0.299,
// 0.587, 0.114 in 1/256 steps (they sum to 256, so white stays 255).
constexpr uint8_t imageLuminance(uint8_t r, uint8_t g, uint8_t b) {
  return static_cast<uint8_t>((77u * r + 150u * g + 29u * b + 128u) >> 8);
}

// An error for a configuration or an image the device cannot run, with the reason
// (never a raw CL_INVALID_WORK_GROUP_SIZE from a launch).
class ImageConfigError : public Error {
 public:
  using Error::Error;
};

// Profiling events of one operation (several commands for some: the histogram's
// partial + merge kernels, the forward rotation's clear + scatter + resolve, the
// image variants' buffer-to-image upload). Times come from the device's counters.
struct ImageOpCommand {
  std::string label;  // "transpose", "merge", "upload", ...
  Event event;
};
struct ImageOpEvents {
  std::vector<ImageOpCommand> commands;  // in enqueue order
  Event* add(const std::string& label);  // valid until the next add()
  // From the first command's start to the last one's end (waits for them).
  double elapsedMs() const;
  // Never blocks: whether every command has finished (throws ClError for one that failed).
  bool complete() const;
  // Sum of the named command's times (0 when absent).
  double commandMs(const std::string& label) const;
  void clear() { commands.clear(); }
};

// ---- bytes moved, for GB/s ------------------------------------------------------------
enum class ImageOp { Copy, Rotate, Transpose, Histogram };
// The bytes an ideal kernel must move: copy/transpose/rotate read the input once
// and write the output once (in.bytes() + out.bytes()); the histogram reads the
// input once (the 256-bin results are negligible and not counted). `out` is
// ignored for the histogram; for the copy, out defaults to in.
size_t imageOpBytes(ImageOp op, const ImageLayout& in, const ImageLayout& out = {});
double imageGigabytesPerSecond(size_t bytes, double ms);  // bytes / ms / 1e6

// Work-group shapes offered to the 2D kernels (rotation, naive transpose): the
// descriptors' lists, written in compute/kernel_ops.cpp.
const std::vector<int>& imageWorkGroupWidths();   // 8 .. 256
const std::vector<int>& imageWorkGroupHeights();  // 1 .. 32

}  // namespace ks
