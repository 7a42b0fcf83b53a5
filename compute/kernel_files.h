#pragma once
// Finds the kernels/ directory at run time and reads .cl sources from it.
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace ks {

class KernelsDirError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
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
