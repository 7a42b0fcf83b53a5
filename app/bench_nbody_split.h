#pragma once
// `--bench nbody --devices all|0,2,...`: one N-body configuration with each step
// split over several devices of one platform (issue 24). Prints what --bench
// nbody prints, then each device's slice and kernel time, the exchange time, the
// load balance and the parallel efficiency against one device measured first.
#include "app/cli.h"
#include "compute/device_catalog.h"

namespace ks {

struct Settings;

int runNBodySplitBenchmark(DeviceCatalog catalog, const AppOptions& options, const Settings& settings);

}  // namespace ks
