#pragma once
// Measured ceilings per device in <configDir>/ceilings.json, keyed like the
// tuning cache (platform + device + driver: a new driver may change them). The
// viewer measures a device's ceilings the first time it runs on it and keeps
// them here; the Device info panel's "Measure again" replaces the entry.
#include <filesystem>
#include <map>
#include <string>

#include "compute/ceilings.h"
#include "compute/device_catalog.h"

namespace ks {

struct CeilingsCache {
  static constexpr int kVersion = 1;
  std::map<std::string, MeasuredCeilings> devices;  // by tuningKey()
  const MeasuredCeilings* find(const DeviceDescriptor& device) const;
};

// A missing file gives an empty cache. A damaged file, or one of another version,
// is ignored with a warning in *warning and rewritten empty (so the warning shows once).
CeilingsCache loadCeilingsCache(const std::filesystem::path& file, std::string* warning);
// Returns an error message, empty on success (written atomically).
std::string saveCeilingsCache(const CeilingsCache& cache, const std::filesystem::path& file);

}  // namespace ks
