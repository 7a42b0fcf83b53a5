#pragma once
// Replacing a file in one step: the bytes go to a temporary beside it, which is
// then renamed over it, so a crash or a full disk never leaves half a file (a
// settings file, the tuning cache, a program binary).
#include <filesystem>
#include <string>
#include <string_view>

namespace ks {

// Creates the parent directories. Returns "" or what went wrong, naming the file.
std::string replaceFileAtomically(const std::filesystem::path& file, std::string_view bytes);

}  // namespace ks
