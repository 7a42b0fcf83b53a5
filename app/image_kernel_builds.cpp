#include "app/image_kernel_builds.h"

#include "compute/plain_config_words.h"

namespace ks {

std::vector<ProgramToBuild> imagePipelineBuilds(const RotateConfig* rotate, const TransposeConfig* transpose,
                                                const HistogramConfig* histogram, int channels,
                                                const DeviceDescriptor& device) {
  std::vector<ProgramToBuild> builds;
  // What the status bar names: the operation and variant in words (the settings in shorthand meant nothing there).
  if (rotate && imageRotateConfigProblem(*rotate, device, channels).empty())
    builds.push_back({kRotateKernelFile, imageRotateBuildOptions(*rotate, channels), "rotate " + plainVariantName("rotate", rotate->variant)});
  if (transpose && imageTransposeConfigProblem(*transpose, device, channels).empty())
    builds.push_back({kTransposeKernelFile, imageTransposeBuildOptions(*transpose, channels),
                      "transpose " + plainVariantName("transpose", transpose->variant)});
  if (histogram && imageHistogramConfigProblem(*histogram, device, channels).empty())
    for (const std::string& options : imageHistogramProgramOptions(*histogram, channels, device))
      builds.push_back({kHistogramKernelFile, options, "histogram " + plainVariantName("histogram", histogram->variant)});
  return builds;
}

}  // namespace ks
