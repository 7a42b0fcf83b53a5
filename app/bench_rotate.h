#pragma once
#include "app/cli.h"
#include "compute/device_catalog.h"

namespace ks {

struct Settings;

// `--bench rotate`: a sweep of the rotation variants (ranges from the "Rotate
// sweep" options, compute/rotate_sweep_plan.h; combinations the device refuses
// listed with the descriptor's reason before anything runs) turning a random
// WxH image (--image-size) by 30 degrees, per --channels value; the median of
// --iterations timed runs after 3 untimed ones. Prints a table and the winner,
// writes --csv/--json runs.
int runRotateSweep(DeviceCatalog catalog, const AppOptions& options, const Settings& settings);

}  // namespace ks
