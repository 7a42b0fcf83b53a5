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

// Milliseconds since `start`, for InteropTimings.
double msSince(std::chrono::steady_clock::time_point start);

}  // namespace ks
