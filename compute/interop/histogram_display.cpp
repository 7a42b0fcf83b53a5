#include "compute/interop/histogram_display.h"

#include "compute/compute_context.h"
#include "compute/image_histogram.h"
#include "render/gl_check.h"

namespace ks {

namespace {
constexpr size_t kBytes = (HistogramDisplay::kMaxChannels * kHistogramBins + HistogramDisplay::kMaxChannels) * 4;
}

HistogramDisplay::HistogramDisplay(ComputeContext& compute, InteropBackend& backend)
    : build_(compute.buildKernelFile("display.cl")), buffers_(backend, kBytes) {
  if (!build_->ok()) throw ProgramBuildError(build_);
  copy_ = Kernel(build_->program.get(), "histogram_for_display");
}

HistogramDisplay::~HistogramDisplay() {
  for (GLuint texture : textures_)
    if (texture) glDeleteTextures(1, &texture);
}

void HistogramDisplay::update(Queue& queue, cl_mem bins, int channels, uint64_t leftOut,
                              const std::array<uint8_t, kMaxChannels>& leftOutAt) {
  if (channels < 1 || channels > kMaxChannels) throw InteropError("a histogram of 1 to 5 channels is drawn");
  if (leftOut > UINT32_MAX) throw InteropError("more pixels left out of the histogram than its bins count");
  cl_ulong at = 0;
  for (int c = 0; c < kMaxChannels; ++c) at |= static_cast<cl_ulong>(leftOutAt[static_cast<size_t>(c)]) << (8 * c);
  SharedBuffer& shown = buffers_.beginUpdate(queue);
  const size_t slot = static_cast<size_t>(buffers_.writingIndex());
  try {
    if (!textures_[slot]) {
      glGenTextures(1, &textures_[slot]);
      glBindTexture(GL_TEXTURE_BUFFER, textures_[slot]);
      glTexBuffer(GL_TEXTURE_BUFFER, GL_R32UI, shown.glBuffer());
      glBindTexture(GL_TEXTURE_BUFFER, 0);
      glCheck("HistogramDisplay: glTexBuffer");
    }
    copy_.setArg(0, bins);
    copy_.setArg(1, shown.clMem());
    copy_.setArg(2, static_cast<cl_int>(channels));
    copy_.setArg(3, static_cast<cl_uint>(leftOut));
    copy_.setArg(4, at);
    queue.enqueueKernel(copy_, {static_cast<size_t>(kHistogramBins), static_cast<size_t>(channels)},
                        {static_cast<size_t>(kHistogramBins), 1});
  } catch (...) {
    buffers_.abandonUpdate(queue);
    throw;
  }
  buffers_.endUpdate(queue);
  channels_[slot] = channels;
}

GLuint HistogramDisplay::texture() const {
  const int shown = buffers_.shownIndex();
  return shown >= 0 ? textures_[static_cast<size_t>(shown)] : 0;
}

}  // namespace ks
