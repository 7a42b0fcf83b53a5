#pragma once
// What tuning.json and ceilings.json share: one JSON file of per-device entries,
// {"format": "kernelscope-<kind>", "version": N, "devices": {key: entry}}, written
// atomically. A file that cannot be read as this kind and version is not an error:
// the cache starts empty, the file is rewritten empty and a warning says so.
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>

namespace ks {

struct DeviceCacheFile {
  std::filesystem::path path;
  std::string kind;  // "tuning", "ceilings": the format's suffix and the messages' noun
  int version = 0;   // the one version this kernelscope reads and writes
};

// Calls readEntry for each device's entry (it throws on a damaged entry). Returns
// false, after the file was rewritten empty (writeEmpty) and *warning says why, when
// the file is damaged or of another version; true when read or missing.
bool readDeviceCacheFile(const DeviceCacheFile& file,
                         const std::function<void(const std::string& key, const nlohmann::json& entry)>& readEntry,
                         const std::function<std::string()>& writeEmpty, std::string* warning);
// Writes the entries; the error in words, or empty.
std::string writeDeviceCacheFile(const DeviceCacheFile& file, const nlohmann::json& devices);

}  // namespace ks
