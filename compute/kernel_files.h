#pragma once
// Finds the kernels/ directory at run time and reads .cl sources from it.
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/error.h"

namespace ks {

class KernelsDirError : public Error {
 public:
  // Ends start-up with exit code 6 (--help).
  explicit KernelsDirError(const std::string& message, ErrorDetails details = {})
      : Error(message, kExitKernelsMissing, std::move(details)) {}
};

// Search order: the explicit override (--kernels-dir), $KERNELSCOPE_KERNELS_DIR,
// kernels/ beside the executable (build tree), <prefix>/share/kernelscope/kernels
// relative to the executable and the configured install prefix, then the source
// tree. An explicit override that does not exist is an error, not a fallback.
std::filesystem::path findKernelsDir(const std::optional<std::filesystem::path>& override,
                                     const std::filesystem::path& executableDir);

std::vector<std::filesystem::path> kernelsDirCandidates(const std::filesystem::path& executableDir);

// Reads kernels/<name>; throws KernelsDirError naming the path when it is missing.
std::string readKernelSource(const std::filesystem::path& kernelsDir, const std::string& name);

std::filesystem::path executableDir();

}  // namespace ks
