#pragma once
// The one runner of the image operations (rotate, transpose, histogram). What
// varies per operation is its launch description (RotateLaunch, TransposeLaunch,
// HistogramLaunch, beside each variant table): the configuration checks, the
// kernels one channel count builds, and the steps of a run as data (which kernel,
// its arguments, its global and local sizes, the command's label). The runner
// checks, builds once per channel count (gray, RGBA) on first use, keeps the
// buffers a run needs between runs, and enqueues the steps: every operation is
// launched by the same code (ImageOpRunnerCore::execute).
//
// A description derives from ImageOpLaunchBasics (its types, descriptor, variant
// lookup and configuration check) and adds:
//   static ImageOpProgram program(const Config&, int channels, const DeviceDescriptor&);
//   static void checkRun(const Config&, const ImageOpBuffers&, const Params&, const DeviceDescriptor&);
//   static std::vector<ImageOpStep> steps(const Config&, const ImageOpBuffers&, const Params&,
//                                         const ImageOpBuild&, const DeviceDescriptor&);
// and, where its output is not a picture, outputBytes and kOutputName.
#include <CL/cl.h>

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include "compute/cl_objects.h"
#include "compute/compute_context.h"
#include "compute/image_layout.h"
#include "compute/image_op_checks.h"
#include "compute/kernel_op.h"

namespace ks {

// What one run reads and writes.
struct ImageOpBuffers {
  cl_mem in = nullptr;
  ImageLayout inLayout;
  cl_mem out = nullptr;
  ImageLayout outLayout;  // the picture written; the histogram's output (bins) has none
};

// A buffer the runner keeps between runs in slot `slot` (the forward rotation's
// source index per output pixel, the histogram's partial histograms), grown to
// `bytes` when smaller; zeroed once when made where asked (the fused histogram's sums).
struct ScratchBuffer {
  int slot = 0;
  size_t bytes = 0;
  bool zeroedWhenMade = false;
};
// The run's input as a CL image (image2d_t kernels): made for the input's layout and
// copied from the input buffer (command "upload") when it is another buffer or
// sourceChanged() was called.
struct SourceImage {};

using ImageKernelArg =
    std::variant<cl_mem, cl_int, cl_uint, cl_ulong, cl_float, cl_uchar, cl_uchar4, ScratchBuffer, SourceImage>;

// One command of a run: a kernel launch, or (kernel kZeroFill) zeroing the first
// `bytes` of the ScratchBuffer that is its one argument.
struct ImageOpStep {
  static constexpr int kZeroFill = -1;
  std::string label;  // the command's label in ImageOpEvents: "rotate", "merge", "clear"
  int kernel = kZeroFill;  // index into ImageOpProgram::kernels
  std::vector<ImageKernelArg> args;  // in argument order
  std::vector<size_t> global, local;
};

// One kernel of an operation's program for one channel count.
struct ImageKernelToBuild {
  std::string options;  // build options (the program cache's key)
  std::string name;     // the kernel function
  size_t groupItems = 0;  // work-items per group it runs with (checked against the compiled kernel)
};

// What one channel count builds: the first kernel is the one the Profiler describes.
struct ImageOpProgram {
  std::vector<ImageKernelToBuild> kernels;
  bool sourceImage = false;  // the kernels read the input through a CL image (SourceImage)
  std::string variant;       // for the refusal when the device has no image format for it
};

struct ImageOpBuild {
  std::vector<KernelBuild> kernels;  // as ImageOpProgram::kernels
  cl_image_format sourceFormat{};    // sourceImage: CL_R / CL_LUMINANCE (gray) or CL_RGBA, UNORM_INT8
};

// What every launch description says the same way. Params: what one run takes
// besides its buffers (an empty struct where nothing).
template <class ConfigT, class VariantT, class ParamsT, const KernelOp& (*descriptor)(),
          const VariantT* (*find)(const std::string&),
          std::string (*check)(const ConfigT&, const DeviceDescriptor&, int channels)>
struct ImageOpLaunchBasics {
  using Config = ConfigT;
  using Variant = VariantT;
  using Params = ParamsT;
  static constexpr const char* kOutputName = "the output";
  static const KernelOp& op() { return descriptor(); }
  static const Variant* variant(const Config& config) { return find(config.variant); }
  static std::string problem(const Config& config, const DeviceDescriptor& device, int channels) {
    return check(config, device, channels);
  }
  static size_t outputBytes(const ImageOpBuffers& io) { return io.outLayout.bytes(); }  // a picture
};

// What does not depend on the operation's types: the builds per channel count, the
// buffers kept between runs, and the launch of a run's steps.
class ImageOpRunnerCore {
 public:
  virtual ~ImageOpRunnerCore() = default;
  ImageOpRunnerCore(const ImageOpRunnerCore&) = delete;
  ImageOpRunnerCore& operator=(const ImageOpRunnerCore&) = delete;

  // Whether the programs for this channel count are built (build() and info() would not compile).
  bool isBuilt(int channels) const { return built_[channelIndex(channels)] != nullptr; }
  // The contents of the input buffer changed: a SourceImage is copied again.
  void sourceChanged() { imageSource_ = nullptr; }

 protected:
  ImageOpRunnerCore(ComputeContext& compute, const KernelOp& op) : compute_(compute), op_(op) {}
  // The build for this channel count, made from describe() on first use.
  ImageOpBuild& builtFor(int channels, const std::function<ImageOpProgram()>& describe);
  // Enqueues the steps in order, each command's event in `events` under its label.
  void execute(Queue& queue, ImageOpBuild& build, const ImageOpBuffers& io, const std::vector<ImageOpStep>& steps,
               ImageOpEvents* events);

  ComputeContext& compute_;

 private:
  cl_mem scratch(Queue& queue, const ScratchBuffer& wanted);
  cl_mem sourceImage(Queue& queue, const ImageOpBuild& build, const ImageOpBuffers& io, ImageOpEvents* events);

  const KernelOp& op_;
  std::unique_ptr<ImageOpBuild> built_[2];  // gray, RGBA
  std::vector<Buffer> scratch_;             // by ScratchBuffer::slot
  MemHandle image_;                         // SourceImage: the input as a CL image
  ImageLayout imageLayout_;
  cl_mem imageSource_ = nullptr;            // the buffer image_ holds a copy of (null: copy again)
};

// The runner of one operation: ImageRotator, ImageTransposer and (with its
// read-back) ImageHistogrammer are this with their launch descriptions. The
// configuration is checked against the device when it is made (gray) and for each
// channel count before anything is built; a refusal throws ImageConfigError with
// the descriptor's words.
template <class Launch>
class ImageOpRunner : public ImageOpRunnerCore {
 public:
  using Config = typename Launch::Config;
  using Variant = typename Launch::Variant;
  using Params = typename Launch::Params;

  ImageOpRunner(ComputeContext& compute, const Config& config)
      : ImageOpRunnerCore(compute, Launch::op()), config_(config), variant_(Launch::variant(config)) {
    if (std::string why = Launch::problem(config_, compute_.device(), 1); !why.empty()) throw ImageConfigError(why);
  }

  // Builds the programs for this channel count now (a refusal or a build error throws here).
  void prepare(int channels) { built(channels); }
  const ProgramBuild& build(int channels) { return *built(channels).kernels.front().build; }
  const KernelInfo& info(int channels) { return built(channels).kernels.front().info; }
  const Config& config() const { return config_; }
  const Variant& variant() const { return *variant_; }

  // One run: checks the layouts and buffers (ImageConfigError) before anything is
  // enqueued, then enqueues the description's steps.
  void run(Queue& queue, cl_mem in, const ImageLayout& inLayout, cl_mem out, const ImageLayout& outLayout,
           const Params& params, ImageOpEvents* events = nullptr) {
    const ImageOpBuffers io{in, inLayout, out, outLayout};
    Launch::checkRun(config_, io, params, compute_.device());
    ImageOpBuild& b = built(inLayout.channels);
    requireBuffer(in, inLayout.bytes(), "the input");
    requireBuffer(out, Launch::outputBytes(io), Launch::kOutputName);
    execute(queue, b, io, Launch::steps(config_, io, params, b, compute_.device()), events);
  }
  // The same for an operation that takes nothing besides its buffers (transpose).
  void run(Queue& queue, cl_mem in, const ImageLayout& inLayout, cl_mem out, const ImageLayout& outLayout,
           ImageOpEvents* events = nullptr)
    requires std::is_empty_v<Params>
  {
    run(queue, in, inLayout, out, outLayout, Params{}, events);
  }

 protected:
  ImageOpBuild& built(int channels) {
    if (std::string why = Launch::problem(config_, compute_.device(), channels); !why.empty())
      throw ImageConfigError(why);
    return builtFor(channels, [&] { return Launch::program(config_, channels, compute_.device()); });
  }

  const Config config_;
  const Variant* const variant_;
};

}  // namespace ks
