#pragma once
// Notices edits to the .cl files in kernels/ while the app runs (hot reload).
// Polling, no new dependency: the main loop asks every half second; a file whose
// modification time or size moved is read and counts as changed only when its
// text differs (an editor that saves unchanged text triggers nothing).
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace ks {

class KernelWatcher {
 public:
  KernelWatcher() = default;
  // Takes the files as they are now as the baseline.
  explicit KernelWatcher(std::filesystem::path dir);
  // File names (e.g. "nbody.cl") whose text changed since the last call, or that
  // appeared or disappeared; sorted.
  std::vector<std::string> changedFiles();
  const std::filesystem::path& dir() const { return dir_; }

 private:
  struct Seen {
    std::filesystem::file_time_type mtime;
    uintmax_t size = 0;
    uint64_t textHash = 0;
  };
  std::map<std::string, Seen> scan() const;
  std::filesystem::path dir_;
  std::map<std::string, Seen> seen_;
};

}  // namespace ks
