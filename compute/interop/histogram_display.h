#pragma once
// The image lab's histogram where GL draws it from: after each histogram run a
// kernel (kernels/display.cl histogram_for_display) copies the bins into a shared
// buffer and appends each channel's largest bin, so the plot (render/histogram_plot)
// is drawn from GPU memory and never waits for a read-back. Double-buffered as the
// pictures are (SharedBufferPair).
#include <array>
#include <cstdint>
#include <memory>

#include "compute/cl_objects.h"
#include "compute/interop/interop.h"

namespace ks {

class ComputeContext;
struct ProgramBuild;

class HistogramDisplay {
 public:
  static constexpr int kMaxChannels = 5;  // R, G, B, A and luminance
  // Builds kernels/display.cl; throws ProgramBuildError with the log when it fails.
  HistogramDisplay(ComputeContext& compute, InteropBackend& backend);
  ~HistogramDisplay();
  HistogramDisplay(const HistogramDisplay&) = delete;
  HistogramDisplay& operator=(const HistogramDisplay&) = delete;
  // Enqueues the copy of `bins` (channels x 256 cl_uints, as ImageHistogrammer
  // merges them); shown once the device is done (refresh). `leftOut` pixels are
  // taken out of bin leftOutAt[c] of each counted channel c (a rotation's fill:
  // compute/rotate_coverage.h).
  void update(Queue& queue, cl_mem bins, int channels, uint64_t leftOut = 0,
              const std::array<uint8_t, kMaxChannels>& leftOutAt = {});
  void refresh() { buffers_.refresh(); }
  void finishUpdates() { buffers_.finishUpdates(); }
  bool updatePending() const { return buffers_.updatePending(); }
  // The shown histogram as a GL_TEXTURE_BUFFER of R32UI texels (0 before the first
  // update finished): channel c's bins at c * 256, channel c's largest bin at
  // channels() * 256 + c.
  GLuint texture() const;
  int channels() const {
    const int shown = buffers_.shownIndex();
    return shown >= 0 ? channels_[shown] : 0;
  }
  void drawnByGl() { buffers_.drawnByGl(); }

 private:
  std::shared_ptr<const ProgramBuild> build_;
  Kernel copy_;
  SharedBufferPair buffers_;
  std::array<GLuint, 2> textures_{};
  int channels_[2] = {0, 0};  // per buffer: the channels it holds
};

}  // namespace ks
