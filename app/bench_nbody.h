#pragma once
// Headless N-body modes that need no GL: `--bench nbody` (one configuration, as
// NVIDIA's nbody -benchmark reports it), `--sweep` (a table over configurations)
// and `--verify` (one step against the CPU reference).
#include <vector>

#include "app/cli.h"
#include "compute/device_catalog.h"
#include "compute/nbody_variants.h"
#include "compute/sweep_plan.h"

namespace ks {

struct Settings;

// The configuration(s) the options ask for: one for --bench/--verify (the tuned
// configuration for the device when no kernel option is given, else the first
// value of each list and defaults for the rest); for --sweep, planNBodySweep's
// product of the lists (all allowed values where a list is not given), the
// runnable ones first, then the refused ones (nbodyConfigProblem() says why).
std::vector<NBodyConfig> nbodyConfigsFromOptions(const NBodyOptions& options, const DeviceDescriptor& device);

// The --variant/--wg/--unroll/--bodies-per-item/--split lists as sweep ranges.
NBodySweepRanges nbodySweepRangesFromOptions(const NBodyOptions& options);

int runNBodyBenchmark(DeviceCatalog catalog, const AppOptions& options, const Settings& settings);
int runNBodyVerify(DeviceCatalog catalog, const AppOptions& options, const Settings& settings);

}  // namespace ks
