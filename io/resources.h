#pragma once
// resources/: the window icon and the image lab's example pictures, found at run
// time beside the binary, where `make install` put them, or in the source tree.
// Unlike kernels/, the app runs without them (no icon, no File > Examples).
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace ks {

// Where resources/ is looked for, in order: $KERNELSCOPE_RESOURCES_DIR, beside the
// binary, ../share/kernelscope/resources, the install prefix, the source tree.
std::vector<std::filesystem::path> resourcesDirCandidates(const std::filesystem::path& executableDir);
// The first candidate that holds the example pictures; nothing when none does.
std::optional<std::filesystem::path> findResourcesDir(const std::filesystem::path& executableDir);

// A picture under resources/examples/ chosen because it shows one thing at a glance.
struct ExampleImage {
  const char* file;   // under resources/examples/
  const char* title;  // File > Examples
  const char* shows;  // its tooltip: what to look for
};
const std::vector<ExampleImage>& exampleImages();

// The window icon's pictures, smallest first (the window system picks a size).
std::vector<std::filesystem::path> iconFiles(const std::filesystem::path& resourcesDir);

}  // namespace ks
