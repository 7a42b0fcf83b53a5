#pragma once
// Helpers shared by the test executables.
#include <filesystem>
#include <optional>
#include <string>

namespace ks::test {

// A fresh directory under $TMPDIR (or /tmp), removed with everything in it.
class TempDir {
 public:
  explicit TempDir(const std::string& prefix = "kernelscope-test");
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(const std::string& name) const { return path_ / name; }

 private:
  std::filesystem::path path_;
};

std::string readFile(const std::filesystem::path& file);

// The first executable `name` in $PATH.
std::optional<std::filesystem::path> findInPath(const std::string& name);

// What a child command did.
struct ShellResult {
  int exitCode = -1;  // 128+N when killed by signal N
  std::string out, err, command;
  bool timedOut = false;
  // For assertion messages: everything needed to see what happened.
  std::string describe() const;
};

// Runs `shellCommand` through /bin/sh in its own process group, stdin from
// /dev/null, stdout and stderr into files in `scratch`; kills the whole group
// after `timeoutSeconds`.
ShellResult runShell(const std::string& shellCommand, const std::filesystem::path& scratch, int timeoutSeconds);
void writeFile(const std::filesystem::path& file, const std::string& text);

}  // namespace ks::test
