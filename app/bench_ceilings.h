#pragma once
// Measured ceilings outside the viewer: `--bench ceilings` measures the chosen
// device's and prints each figure with how it was measured; the other headless
// benchmarks stamp their run records with the device's ceilings (cached in
// <config dir>/ceilings.json, else measured once and kept there).
#include <optional>
#include <vector>

#include "app/cli.h"
#include "compute/ceilings.h"
#include "compute/device_catalog.h"
#include "io/settings.h"
#include "lab/run_record.h"

namespace ks {

class ComputeContext;

int runCeilingsBenchmark(DeviceCatalog catalog, const AppOptions& options, const Settings& settings);

// The figures as the benchmark prints them: a line per ceiling, its method below.
std::string describeCeilings(const MeasuredCeilings& ceilings);

// For headless run records: cached for this device, else measured (and cached).
MeasuredCeilings ceilingsForRuns(ComputeContext& compute, const AppOptions& options);
void stampCeilings(std::vector<RunRecord>& runs, const MeasuredCeilings& ceilings);
// Cached for this device only (nothing measured): what a benchmark compares its
// kernel with when the user has measured the ceilings (--bench ceilings, the viewer).
std::optional<MeasuredCeilings> cachedCeilings(const ComputeContext& compute, const AppOptions& options);

}  // namespace ks
