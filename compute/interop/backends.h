#pragma once
// The three interop paths, behind interop.h. Internal to compute/interop.
#include <chrono>
#include <memory>

#include "compute/interop/interop.h"

namespace ks {

InteropPathStatus probeGlSharingPath(const ComputeContext& compute);
InteropPathStatus probeExternalPath(ComputeContext& compute);

std::unique_ptr<InteropBackend> createGlSharingBackend(ComputeContext& compute);
std::unique_ptr<InteropBackend> createExternalBackend(ComputeContext& compute);
std::unique_ptr<InteropBackend> createHostBackend(ComputeContext& compute);

// A path whose backend only makes its kind of SharedBuffer (BufferT(compute, bytes)).
template <class BufferT, InteropPath kPath>
class BufferMakingBackend final : public InteropBackend {
 public:
  explicit BufferMakingBackend(ComputeContext& compute) : compute_(compute) {}
  InteropPath path() const override { return kPath; }
  std::unique_ptr<SharedBuffer> createBuffer(size_t bytes) override {
    return std::make_unique<BufferT>(compute_, bytes);
  }

 private:
  ComputeContext& compute_;
};

// Milliseconds since `start`, for InteropTimings.
double msSince(std::chrono::steady_clock::time_point start);

}  // namespace ks
