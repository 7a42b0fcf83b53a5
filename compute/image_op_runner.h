#pragma once
// What the image operations' runners (ImageRotator, ImageTransposer, ImageHistogrammer)
// share: a configuration checked against the device when the runner is made (gray)
// and for each channel count before anything is built, and the programs built once
// per channel count (gray, RGBA), on first use. A runner says which configurations a
// device refuses (the `problem` function of its variant table), what it builds
// (makeBuilt) and which kernel the Profiler's kernel info describes (mainKernel).
#include <memory>
#include <string>

#include "compute/compute_context.h"
#include "compute/image_layout.h"
#include "compute/image_op_checks.h"

namespace ks {

template <class Config, class Variant, class Built>
class ImageOpRunner {
 public:
  using Problem = std::string (*)(const Config&, const DeviceDescriptor&, int channels);
  virtual ~ImageOpRunner() = default;
  ImageOpRunner(const ImageOpRunner&) = delete;
  ImageOpRunner& operator=(const ImageOpRunner&) = delete;

  // Builds the programs for this channel count now (a refusal or a build error throws here).
  void prepare(int channels) { built(channels); }
  const ProgramBuild& build(int channels) { return *mainKernel(built(channels)).build; }
  const KernelInfo& info(int channels) { return mainKernel(built(channels)).info; }
  // Whether the programs for this channel count are built (build() and info() would not compile).
  bool isBuilt(int channels) const { return built_[channelIndex(channels)] != nullptr; }
  const Config& config() const { return config_; }
  const Variant& variant() const { return *variant_; }

 protected:
  // Throws ImageConfigError with the table's reason when the device refuses the
  // configuration (checked for gray here; RGBA when it is first built).
  ImageOpRunner(ComputeContext& compute, const Config& config, const Variant* variant, Problem problem)
      : compute_(compute), config_(config), variant_(variant), problem_(problem) {
    if (std::string why = problem_(config_, compute_.device(), 1); !why.empty()) throw ImageConfigError(why);
  }
  Built& built(int channels) {
    if (std::string why = problem_(config_, compute_.device(), channels); !why.empty()) throw ImageConfigError(why);
    auto& slot = built_[channelIndex(channels)];
    if (!slot) slot = makeBuilt(channels);
    return *slot;
  }
  virtual std::shared_ptr<Built> makeBuilt(int channels) = 0;  // shared: made where Built is complete
  virtual const KernelBuild& mainKernel(const Built& built) const = 0;

  ComputeContext& compute_;
  const Config config_;
  const Variant* const variant_;

 private:
  Problem problem_;
  std::shared_ptr<Built> built_[2];  // gray, RGBA
};

}  // namespace ks
