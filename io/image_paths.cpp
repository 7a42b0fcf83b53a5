#include "io/image_paths.h"

#include <algorithm>
#include <filesystem>
#include <system_error>

namespace ks {
namespace fs = std::filesystem;

std::string tidyTypedPath(std::string_view typed, const char* home) {
  constexpr std::string_view kSpace = " \t\n\r\v\f";
  const size_t first = typed.find_first_not_of(kSpace);
  if (first == std::string_view::npos) return {};
  std::string path(typed.substr(first, typed.find_last_not_of(kSpace) - first + 1));
  const bool tilde = path == "~" || path.rfind("~/", 0) == 0;
  if (!tilde || !home || !*home) return path;
  return path.size() <= 2 ? std::string(home) : (fs::path(home) / path.substr(2)).string();
}

void addRecentImage(std::vector<std::string>& recent, const std::string& file, size_t limit) {
  std::error_code ec;
  const fs::path absolute = fs::absolute(file, ec);
  const std::string entry = ec ? file : absolute.lexically_normal().string();
  recent.erase(std::remove(recent.begin(), recent.end(), entry), recent.end());
  recent.insert(recent.begin(), entry);
  if (recent.size() > limit) recent.resize(limit);
}

}  // namespace ks
