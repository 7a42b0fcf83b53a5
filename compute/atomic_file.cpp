#include "compute/atomic_file.h"

#include <unistd.h>

#include <atomic>
#include <fstream>

namespace ks {

namespace fs = std::filesystem;

std::string replaceFileAtomically(const fs::path& file, std::string_view bytes) {
  std::error_code ec;
  if (file.has_parent_path()) {
    fs::create_directories(file.parent_path(), ec);
    if (ec) return "cannot create " + file.parent_path().string() + ": " + ec.message();
  }
  // Beside the target (one file system for the rename); the pid and a counter keep
  // two processes or threads writing the same file from sharing a temporary.
  static std::atomic<unsigned> counter{0};
  fs::path temporary = file;
  temporary += ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(counter++);
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out || !out.write(bytes.data(), static_cast<std::streamsize>(bytes.size())) || !out.flush()) {
      fs::remove(temporary, ec);
      return "cannot write " + temporary.string();
    }
  }
  fs::rename(temporary, file, ec);
  if (ec) {
    const std::string why = ec.message();
    fs::remove(temporary, ec);
    return "cannot replace " + file.string() + ": " + why;
  }
  return {};
}

}  // namespace ks
