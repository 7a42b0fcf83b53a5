#pragma once
// Kernel programs built off the frame (issue 22: a program never built before
// compiled in the frame that needed it, 0.2-2 s on PoCL). What is about to need
// programs (the image lab's next run, a scene being opened, a device being switched
// to) lists them here, starts them on worker threads (ComputeContext::prefetchKernelFile)
// and acts once none is still compiling; its later builds come from the program
// cache without compiling, and a failed one comes back from there with its log.
#include <string>
#include <vector>

#include "compute/compute_context.h"

namespace ks {

struct ProgramToBuild {
  std::string file, options;
  std::string what;  // in words, for "building kernel ..." ("rotate bilinear")
};

// Starts those of `builds` not built yet; never waits. Empty once every one has
// finished (built or failed), else what still builds, in words, each named once.
std::string startKernelBuilds(ComputeContext& compute, const std::vector<ProgramToBuild>& builds);

// "building kernel <what> for <device>", the words the panels and the status bar show.
std::string buildingKernelText(const std::string& what, const DeviceDescriptor& device);

}  // namespace ks
