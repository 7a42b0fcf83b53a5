#pragma once
// Benchmark measurements as RunRecords: every parameter of the configuration as
// key/value text, kernel times summarised with summarize(), the derived rate
// (GFLOP/s for N-body, GB/s for transposes). Refused configurations become runs
// whose status says why, so a sweep's file lists every combination.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "lab/run_record.h"
#include "compute/image_layout.h"
#include "compute/image_transpose.h"
#include "compute/kernel_op.h"
#include "compute/nbody_benchmark.h"
#include "compute/transpose_benchmark.h"

namespace ks {

RunRecord nbodyRun(const DeviceDescriptor& device, const NBodyMeasurement& m, size_t bodies, int iterations);
RunRecord refusedNBodyRun(const DeviceDescriptor& device, const NBodyConfig& config, const std::string& why,
                          size_t bodies);

RunRecord transposeRun(const DeviceDescriptor& device, const TransposeMeasurement& m, int iterations);
RunRecord refusedTransposeRun(const DeviceDescriptor& device, const TransposeConfig& config, const ImageLayout& layout,
                              const std::string& why);

// An image operation's configuration that did not run, from its descriptor: named
// "<operation> <configuration>", the operation's name as the scene and its figure
// of merit as the rate's unit, `parameters` (the configuration's, by the
// descriptor's names) and the image, and the first line of why.
RunRecord refusedImageOpRun(const KernelOp& op, const DeviceDescriptor& device, const std::string& configuration,
                            std::vector<std::pair<std::string, std::string>> parameters, const ImageLayout& layout,
                            const std::string& why);
// An image operation's run (`refused` made by its refused...Run with the measurement's
// configuration) completed with what was measured: iterations, source hash, and the
// median kernel time and rate, or the failure's first line. One place for the
// transpose, rotate and histogram records.
RunRecord measuredImageRun(RunRecord refused, const ImageRunTimes& times, int iterations);

// The parameters as they appear in runs ("variant", "work_group", ...).
std::vector<std::pair<std::string, std::string>> nbodyParameters(const NBodyConfig& config);
std::vector<std::pair<std::string, std::string>> transposeParameters(const TransposeConfig& config);

// The run that wins (highest rate among the ok ones); -1 when none ran.
int bestRunIndex(const std::vector<RunRecord>& runs);

// Writes the runs to the files given (--csv, --json) and says where on stdout;
// returns kExitOk, or kExitFailure after printing why a file could not be written.
int writeRunFiles(const std::vector<RunRecord>& runs, const std::optional<std::filesystem::path>& csv,
                  const std::optional<std::filesystem::path>& json);

}  // namespace ks
