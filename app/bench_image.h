#pragma once
#include "app/cli.h"
#include "compute/device_catalog.h"

namespace ks {

struct Settings;

// `--bench image`: every transpose, rotation and histogram configuration the
// device can run on a WxH image (default 8192x8192, --image-size), gray and RGBA,
// against a plain copy of the same bytes. Prints GB/s and the ratio to the copy.
int runImageBenchmark(DeviceCatalog catalog, const AppOptions& options, const Settings& settings);

}  // namespace ks
