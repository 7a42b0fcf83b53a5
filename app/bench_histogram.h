#pragma once
#include "app/cli.h"
#include "compute/device_catalog.h"

namespace ks {

struct Settings;

// `--bench histogram`: a sweep of the histogram variants (ranges from the
// "Histogram sweep" options, compute/histogram_sweep.h; combinations the device
// refuses listed with the descriptor's reason before anything runs) on a random
// WxH image (--image-size) per --channels value; the median of --iterations timed
// runs after 3 untimed ones. Prints a table and the winner, writes --csv/--json runs.
int runHistogramSweep(DeviceCatalog catalog, const AppOptions& options, const Settings& settings);

}  // namespace ks
