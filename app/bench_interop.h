#pragma once
#include "app/cli.h"
#include "compute/device_catalog.h"

namespace ks {

class RenderSurface;
struct Settings;

// `--bench interop`: per-frame overhead (acquire + release + copy) of every
// available interop path at 1, 4, 16 and 64 MB, each result checked bit-exact
// through GL. Prints a table; returns the exit code.
int runInteropBenchmark(DeviceCatalog catalog, const AppOptions& options, const Settings& settings,
                        RenderSurface& surface);

}  // namespace ks
