#pragma once
// The best configurations found by sweeps, per device, in <configDir>/tuning.json
// (keyed by platform + device name + driver: a new driver may change the winner).
// Loaded at start: a cached N-body winner becomes the default configuration on
// that device (before the built-in table of compute/nbody_tuning.cpp), a cached
// rotate, transpose or histogram winner the image lab's default for that
// operation (issue 21: every operation's sweep keeps its winner). A file written
// before rotate and histogram winners were kept has none of them, and loads.
#include <array>
#include <filesystem>
#include <map>
#include <optional>
#include <string>

#include "compute/device_catalog.h"
#include "compute/image_histogram.h"
#include "compute/image_rotate.h"
#include "compute/image_transpose.h"
#include "compute/nbody_variants.h"

namespace ks {

struct TunedNBody {
  NBodyConfig config;
  size_t bodies = 0;  // the N it was measured at
  double rate = 0.0;  // GFLOP/s
  std::string time;
};
// An image operation's winner for one pixel size.
template <class Config>
struct TunedImageOp {
  Config config;
  std::string image;  // "8192x8192 RGBA"
  double rate = 0.0;  // GB/s
  std::string time;
};
using TunedTranspose = TunedImageOp<TransposeConfig>;
using TunedRotate = TunedImageOp<RotateConfig>;
using TunedHistogram = TunedImageOp<HistogramConfig>;
struct TuningEntry {
  std::optional<TunedNBody> nbody;
  // By channel count (1, 4).
  std::map<int, TunedTranspose> transpose;
  std::map<int, TunedRotate> rotate;
  std::map<int, TunedHistogram> histogram;
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
// The cached rotate winner for this image, when the device can run it on it (an
// image2d_t variant: when the image fits the device's 2D images, maxImage2d).
std::optional<RotateConfig> preferredRotateConfig(const TuningCache& cache, const DeviceDescriptor& device,
                                                  const ImageLayout& image, std::array<size_t, 2> maxImage2d);
// The cached histogram winner for this channel count, when the device can run it.
std::optional<HistogramConfig> preferredHistogramConfig(const TuningCache& cache, const DeviceDescriptor& device,
                                                        int channels);

}  // namespace ks
