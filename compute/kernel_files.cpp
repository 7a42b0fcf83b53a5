#include "compute/kernel_files.h"

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace ks {
namespace fs = std::filesystem;

fs::path executableDir() {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::current_path() : exe.parent_path();
}

std::vector<fs::path> kernelsDirCandidates(const fs::path& exeDir) {
  std::vector<fs::path> dirs;
  if (const char* env = std::getenv("KERNELSCOPE_KERNELS_DIR"); env && *env) dirs.emplace_back(env);
  dirs.push_back(exeDir / "kernels");
  dirs.push_back(exeDir / ".." / "share" / "kernelscope" / "kernels");
  dirs.emplace_back(KERNELSCOPE_INSTALL_KERNELS_DIR);
  dirs.emplace_back(KERNELSCOPE_SOURCE_KERNELS_DIR);
  return dirs;
}

fs::path findKernelsDir(const std::optional<fs::path>& override, const fs::path& exeDir) {
  std::error_code ec;
  if (override) {
    if (fs::is_directory(*override, ec)) return fs::weakly_canonical(*override, ec);
    throw KernelsDirError("kernels directory '" + override->string() + "' does not exist");
  }
  std::string tried;
  for (const auto& dir : kernelsDirCandidates(exeDir)) {
    if (fs::is_directory(dir, ec)) return fs::weakly_canonical(dir, ec);
    tried += "\n  " + dir.string();
  }
  throw KernelsDirError("kernels directory not found; looked in:" + tried +
                        "\nset --kernels-dir or KERNELSCOPE_KERNELS_DIR");
}

std::string readKernelSource(const fs::path& kernelsDir, const std::string& name) {
  const fs::path path = kernelsDir / name;
  std::ifstream in(path, std::ios::binary);
  if (!in) throw KernelsDirError("cannot read kernel file '" + path.string() + "'", ErrorDetails{{}, {}, path});
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace ks
