#include "lab/device_cache_file.h"

#include <fstream>
#include <stdexcept>

#include "compute/atomic_file.h"

namespace ks {
using nlohmann::json;

bool readDeviceCacheFile(const DeviceCacheFile& file,
                         const std::function<void(const std::string& key, const json& entry)>& readEntry,
                         const std::function<std::string()>& writeEmpty, std::string* warning) {
  std::ifstream in(file.path);
  if (!in) return true;
  try {
    const json j = json::parse(in);
    if (!j.is_object() || j.value("format", "") != "kernelscope-" + file.kind)
      throw std::runtime_error("not a kernelscope " + file.kind + " file");
    if (const int v = j.value("version", 0); v != file.version)
      throw std::runtime_error("version " + std::to_string(v) + ", this kernelscope reads version " +
                               std::to_string(file.version));
    for (const auto& [key, entry] : j.at("devices").items()) readEntry(key, entry);
  } catch (const std::exception& e) {
    std::string message = "ignoring " + file.kind + " cache '" + file.path.string() + "' (" + e.what() + ")";
    in.close();  // before the file is replaced
    if (const std::string error = writeEmpty(); error.empty())
      message += "; rewritten empty";
    else
      message += "; cannot rewrite it: " + error;
    if (warning) *warning = message;
    return false;
  }
  return true;
}

std::string writeDeviceCacheFile(const DeviceCacheFile& file, const json& devices) {
  const json j = {{"format", "kernelscope-" + file.kind}, {"version", file.version}, {"devices", devices}};
  if (std::string error = replaceFileAtomically(file.path, j.dump(2) + "\n"); !error.empty())
    return file.kind + " cache: " + error;
  return {};
}

}  // namespace ks
