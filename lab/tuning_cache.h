#pragma once
// The best configurations found by sweeps, per device, in <configDir>/tuning.json
// (keyed by platform + device name + driver: a new driver may change the winner).
// Loaded at start: a cached N-body winner becomes the default configuration on
// that device (before the built-in table of compute/nbody_tuning.cpp), a cached
// transpose winner the image lab's default transpose.
#include <filesystem>
#include <map>
#include <optional>
#include <string>

#include "compute/device_catalog.h"
#include "compute/image_transpose.h"
#include "compute/nbody_variants.h"

namespace ks {

struct TunedNBody {
  NBodyConfig config;
  size_t bodies = 0;  // the N it was measured at
  double rate = 0.0;  // GFLOP/s
  std::string time;
};
struct TunedTranspose {
  TransposeConfig config;
  std::string image;  // "8192x8192 RGBA"
  double rate = 0.0;  // GB/s
  std::string time;
};
struct TuningEntry {
  std::optional<TunedNBody> nbody;
  std::map<int, TunedTranspose> transpose;  // by channel count (1, 4)
};

struct TuningCache {
  static constexpr int kVersion = 1;
  std::map<std::string, TuningEntry> devices;  // by tuningKey()
  const TuningEntry* find(const DeviceDescriptor& device) const;
};

std::string tuningKey(const DeviceDescriptor& device);  // "platform | device | driver"

// A missing file gives an empty cache. A corrupt file or one of another version
// is ignored with a warning in *warning and rewritten as an empty cache of this
// version (so the warning appears once); the caller goes on either way.
TuningCache loadTuningCache(const std::filesystem::path& file, std::string* warning);
// Returns an error message, empty on success (written atomically).
std::string saveTuningCache(const TuningCache& cache, const std::filesystem::path& file);

// The N-body configuration to start with on `device`: the cached winner when the
// device can run it, else tunedNBodyConfig's table.
NBodyConfig preferredNBodyConfig(const TuningCache& cache, const DeviceDescriptor& device, size_t bodies);
// The cached transpose winner for this channel count, when the device can run it.
std::optional<TransposeConfig> preferredTransposeConfig(const TuningCache& cache, const DeviceDescriptor& device,
                                                        int channels);

}  // namespace ks
