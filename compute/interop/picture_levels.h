#pragma once
// Writes a SharedImage's smaller levels from its level 0 on the device
// (kernels/display.cl shrink_rgba): what glGenerateMipmap did, without GL and
// without a copy, right after the kernels that wrote level 0. Only the levels
// asked for: a picture redrawn every frame writes the one it is drawn from.
#include <cstdint>
#include <memory>
#include <vector>

#include "compute/cl_objects.h"
#include "compute/interop/interop.h"

namespace ks {

class ComputeContext;
struct ProgramBuild;

// One launch of shrink_rgba: level `to` from level `from`, to - from = 1 to 3.
struct LevelStep {
  int from, to;
  bool operator==(const LevelStep&) const = default;
};
// The launches that write the levels in `wanted` (bit k: level k; level 0 is
// always there) of a chain of `levelCount` levels: each from the nearest written
// level above it, at most three levels at a time (a step of three reads 64 texels
// a texel), through the levels between where a wanted one is farther.
std::vector<LevelStep> levelSteps(PictureLevelMask wanted, int levelCount);

// Level 0's pixels as the kernels left them, read instead of the buffer's level 0:
// `channels` bytes a pixel (1: gray, drawn as g g g 255; 4: RGBA), row after row.
struct PictureSource {
  cl_mem pixels = nullptr;
  int channels = 4;
};

class PictureLevels {
 public:
  // Builds kernels/display.cl; throws ProgramBuildError with the log when it fails.
  explicit PictureLevels(ComputeContext& compute);
  // Enqueues the smaller levels of `image` that its update in progress writes (those
  // its beginUpdate was given) into `pixels`, the buffer beginUpdate returned; those
  // made from level 0 read it from `source`, else from `pixels` (written before on
  // the queue). Level 0 itself is not written here. Nothing for a picture without
  // smaller levels, or outside an update.
  void enqueue(Queue& queue, const SharedImage& image, SharedBuffer& pixels, PictureSource source = {});
  const ProgramBuild& build() const { return *build_; }

 private:
  std::shared_ptr<const ProgramBuild> build_;
  Kernel shrink_;
  size_t group_ = 64;
};

}  // namespace ks
