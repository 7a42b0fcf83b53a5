#pragma once
// Paths of image files as the image lab takes them from the user and keeps
// them in its recent list. Only strings and std::filesystem: no GL, no device.
#include <string>
#include <string_view>
#include <vector>

namespace ks {

// What was typed (or pasted) into File > Open, made into the path to open:
// surrounding whitespace goes (pasted paths often bring a space or a newline),
// and a leading "~" or "~/" becomes `home`, as a shell would expand it. "~user"
// is left as typed, and so is "~" when `home` is null or empty: opening it then
// says that the file does not exist.
std::string tidyTypedPath(std::string_view typed, const char* home);

// Puts `file` at the front of `recent` (most recent first, at most `limit`
// entries, no duplicates) as an absolute, lexically normal path, so the entry
// still names the same file when the app starts from another folder. Symbolic
// links are kept (the name the user chose); when the working directory cannot
// be found, `file` goes in as given.
void addRecentImage(std::vector<std::string>& recent, const std::string& file, size_t limit);

}  // namespace ks
