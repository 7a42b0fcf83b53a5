#pragma once
// Program binaries on disk (CL_PROGRAM_BINARIES), so a second start skips the
// compiler. One file per (platform, device, driver, source hash, options) key.
// Every file carries a header (magic, format version, the key it was written for,
// the binary's length and checksum) so that a truncated, foreign or corrupt file
// is recognised before its bytes reach the driver.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

namespace ks {

// What a cached binary is keyed by: everything that changes the compiled code.
std::string programBinaryKey(const std::string& deviceIdentity, uint64_t sourceHash, const std::string& options);

class ProgramBinaryCache {
 public:
  explicit ProgramBinaryCache(std::filesystem::path dir) : dir_(std::move(dir)) {}
  const std::filesystem::path& dir() const { return dir_; }
  // <dir>/<64-bit hash of key, hex>.bin
  std::filesystem::path pathFor(const std::string& key) const;

  // The binary stored for `key`. Missing file: nullopt with `problem` empty; an
  // unreadable, truncated or corrupt file, or one written for another key:
  // nullopt with `problem` saying why.
  std::optional<std::string> load(const std::string& key, std::string& problem) const;
  // Writes through a temporary file and a rename, so a reader never sees half a
  // file. Returns an error text, empty on success.
  std::string store(const std::string& key, const std::string& binary) const;

 private:
  std::filesystem::path dir_;
};

}  // namespace ks
