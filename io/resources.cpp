#include "io/resources.h"

#include <cstdlib>

namespace ks {
namespace fs = std::filesystem;

std::vector<fs::path> resourcesDirCandidates(const fs::path& exeDir) {
  std::vector<fs::path> dirs;
  if (const char* env = std::getenv("KERNELSCOPE_RESOURCES_DIR"); env && *env) dirs.emplace_back(env);
  dirs.push_back(exeDir / "resources");
  dirs.push_back(exeDir / ".." / "share" / "kernelscope" / "resources");
  dirs.emplace_back(KERNELSCOPE_INSTALL_RESOURCES_DIR);
  dirs.emplace_back(KERNELSCOPE_SOURCE_RESOURCES_DIR);
  return dirs;
}

std::optional<fs::path> findResourcesDir(const fs::path& exeDir) {
  std::error_code ec;
  for (const auto& dir : resourcesDirCandidates(exeDir))
    if (fs::is_directory(dir / "examples", ec)) return fs::weakly_canonical(dir, ec);
  return std::nullopt;
}

const std::vector<ExampleImage>& exampleImages() {
  static const std::vector<ExampleImage> examples = {
      {"zone_plate.png", "Zone plate",
       "Rings whose frequency grows from the centre to the finest a pixel grid holds at the edges. Rotate it: "
       "rings that appear where there were none are aliasing (nearest), contrast fading towards the edges is "
       "the blur of interpolation (bilinear)."},
      {"checkerboard.png", "Fine checkerboard",
       "Black and white cells two pixels wide. At 0 and 90 degrees every rotation gives them back exactly; a few "
       "degrees off, nearest sampling breaks them into moire and bilinear turns them grey."},
      {"gradient.png", "Colour gradient",
       "Red grows left to right and green top to bottom, four pixels a level, blue stays at 128: the red and green "
       "histograms are flat (4096 in every bin) and blue is one bar."},
      {"one_colour.png", "One colour",
       "Every pixel the same colour: all work-items add to the same bins at once, the worst case for a "
       "histogram built with atomics. Compare the histogram variants' times on it."},
  };
  return examples;
}

std::vector<fs::path> iconFiles(const fs::path& resourcesDir) {
  return {resourcesDir / "icon-32.png", resourcesDir / "icon-64.png"};
}

}  // namespace ks
