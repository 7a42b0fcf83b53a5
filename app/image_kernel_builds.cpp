#include "app/image_kernel_builds.h"

namespace ks {

std::vector<ImageKernelBuild> imagePipelineBuilds(const RotateConfig& rotate, bool transpose,
                                                  const TransposeConfig& transposeConfig,
                                                  const HistogramConfig& histogram, int channels,
                                                  const DeviceDescriptor& device) {
  std::vector<ImageKernelBuild> builds;
  if (imageRotateConfigProblem(rotate, device, channels).empty())
    builds.push_back({kRotateKernelFile, imageRotateBuildOptions(rotate, channels), "rotate " + describeRotateConfig(rotate)});
  if (transpose && imageTransposeConfigProblem(transposeConfig, device, channels).empty())
    builds.push_back({kTransposeKernelFile, imageTransposeBuildOptions(transposeConfig, channels),
                      "transpose " + describeTransposeConfig(transposeConfig)});
  if (imageHistogramConfigProblem(histogram, device, channels).empty())
    for (const std::string& options : imageHistogramProgramOptions(histogram, channels, device))
      builds.push_back({kHistogramKernelFile, options, "histogram " + histogram.variant});
  return builds;
}

std::string startImageKernelBuilds(ComputeContext& compute, const std::vector<ImageKernelBuild>& builds) {
  std::string building;
  for (const ImageKernelBuild& b : builds) {
    if (compute.kernelFileReady(b.file, b.options)) continue;
    compute.prefetchKernelFile(b.file, b.options);
    if (compute.kernelFileReady(b.file, b.options)) continue;
    if (building.find(b.what) == std::string::npos) building += (building.empty() ? "" : ", ") + b.what;
  }
  return building;
}

}  // namespace ks
