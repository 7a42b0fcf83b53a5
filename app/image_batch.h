#pragma once
// The image batch: `kernelscope --angle 30 --save-result 'out/%s.png' photos/*.jpg`.
// Each file goes through the image lab's pipeline (rotate, optional transpose,
// histogram + statistics) on the OpenCL device, without a window or GL, so it runs
// where there is no display. What is not asked for is what the lab would run:
// its default kernels for this device and image, its background, the histogram of
// the result. One line per file; a file that fails is said and the batch goes on.
#include <filesystem>
#include <string>
#include <vector>

#include "app/cli.h"
#include "compute/device_catalog.h"

namespace ks {

// Where `pattern` (--save-result, --histogram-out) puts the output for `input`:
// every "%s" replaced by the input's file name without its extension.
std::filesystem::path imageBatchOutputPath(const std::string& pattern, const std::filesystem::path& input);

// The files to process: each directory among `files` replaced by the image files
// directly in it (by extension: those loadImageFile reads), in name order. Sets
// *problem (as "what: why") for a directory that cannot be read or holds none.
std::vector<std::filesystem::path> expandImageDirectories(const std::vector<std::filesystem::path>& files,
                                                          std::string* problem);

// Why the batch cannot run as asked, before anything starts, as "--option: why";
// empty when it can: files given, no option of another run (viewer, benchmark),
// output patterns that give every file its own output and overwrite no input.
std::string imageBatchUsageProblem(const AppOptions& options);

// Runs the batch on the device --platform/--device choose (else the default
// order). kExitOk when every file was processed and written; kExitFailure when
// any was not (each is said on stderr); kExitKernelBuildFailed, with the build
// log, when a kernel does not compile (no file could go through it).
int runImageBatch(DeviceCatalog catalog, const AppOptions& options);

}  // namespace ks
