#pragma once
#include "app/cli.h"
#include "compute/device_catalog.h"

namespace ks {

struct Settings;

// `--bench transpose`: a sweep of the transpose variants (ranges from the
// "Transpose sweep" options, invalid combinations refused with the reason before
// anything runs) on a random WxH image (--image-size) per --channels value; the
// median of --iterations timed runs after 3 untimed ones. Prints a table and the
// winner, writes --csv/--json runs.
int runTransposeSweep(DeviceCatalog catalog, const AppOptions& options, const Settings& settings);

}  // namespace ks
