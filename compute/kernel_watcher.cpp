#include "compute/kernel_watcher.h"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "compute/program_cache.h"

namespace ks {
namespace fs = std::filesystem;

static uint64_t hashFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return hashSource(text.str());
}

KernelWatcher::KernelWatcher(fs::path dir) : dir_(std::move(dir)) {
  seen_ = scan();
  for (auto& [name, seen] : seen_) seen.textHash = hashFile(dir_ / name);
}

std::map<std::string, KernelWatcher::Seen> KernelWatcher::scan() const {
  std::map<std::string, Seen> files;
  std::error_code ec;
  for (fs::directory_iterator it(dir_, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->path().extension() != ".cl" || !it->is_regular_file(ec)) continue;
    Seen seen;
    seen.mtime = it->last_write_time(ec);
    seen.size = it->file_size(ec);
    files[it->path().filename().string()] = seen;
  }
  return files;
}

std::vector<std::string> KernelWatcher::changedFiles() {
  if (dir_.empty()) return {};
  std::map<std::string, Seen> now = scan();
  std::vector<std::string> changed;
  for (auto& [name, seen] : now) {
    const auto old = seen_.find(name);
    if (old != seen_.end() && old->second.mtime == seen.mtime && old->second.size == seen.size) {
      seen.textHash = old->second.textHash;
      continue;
    }
    seen.textHash = hashFile(dir_ / name);
    if (old == seen_.end() || old->second.textHash != seen.textHash) changed.push_back(name);
  }
  for (const auto& [name, seen] : seen_)
    if (!now.count(name)) changed.push_back(name);
  seen_ = std::move(now);
  std::sort(changed.begin(), changed.end());
  return changed;
}

}  // namespace ks
