#pragma once
// Tuned N-body configurations kept as data per device (from the sweeps in
// docs/BENCHMARKS.md): what the app and `--bench nbody` start with when the user
// names no kernel parameters.
#include <cstddef>

#include "compute/device_catalog.h"
#include "compute/nbody_variants.h"

namespace ks {

struct NBodyTunedEntry {
  const char* deviceMatch;  // substring of the device name ("" matches any)
  DeviceKind kind;
  size_t minBodies;         // the entry applies from this N up
  NBodyConfig config;
};

const std::vector<NBodyTunedEntry>& nbodyTunedTable();

// The first entry matching the device and N whose configuration the device can
// run; otherwise a portable configuration clamped to the device's limits.
NBodyConfig tunedNBodyConfig(const DeviceDescriptor& device, size_t bodies);

}  // namespace ks
