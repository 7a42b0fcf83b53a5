#pragma once
// A recorded run: what ran where (metadata, every parameter as key/value text)
// and what it measured. Recordings in the app, UI sweeps and the headless
// --sweep / --record modes all produce these, and write them as the same CSV and
// JSON files; JSON files (from this or another machine) read back for comparison.
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "compute/ceilings.h"
#include "core/result.h"
#include "compute/iso_time.h"  // isoTimeNow(), which run records are stamped with
#include "compute/sample_stats.h"
#include "lab/run_energy.h"
#include "lab/run_split.h"

namespace ks {

struct DeviceDescriptor;

struct RunMetadata {
  std::string device, platform, driver, deviceKind;  // as the OpenCL runtime names them
  std::string interop;                               // interop path ("" for compute-only benchmarks)
  std::string scene;                                 // "nbody", "image", "julia", "transpose"
  std::string version;                               // kernelscope version (git describe when built from git)
  std::string sourceHash;                            // FNV-1a of the kernel source that ran, hex
  std::string time;                                  // ISO 8601 UTC, when the run ended
  std::string host;
  // The device's measured ceilings when the run was made (0: none), by Ceiling;
  // "ceiling_<key>" columns in CSV, metadata.ceilings.<key> in JSON (compute/ceilings.h).
  CeilingValues ceilings{};
  // Every parameter of the configuration, in a stable order ("variant" -> "blocked").
  std::vector<std::pair<std::string, std::string>> parameters;
  std::string parameter(const std::string& key) const;  // "" when absent
};

struct RunMeasurements {
  size_t frames = 0;       // frames recorded (0 for benchmark runs)
  double seconds = 0.0;    // wall time of the recording
  double fps = 0.0;
  SampleSummary frameMs;   // per frame (empty for benchmark runs)
  SampleSummary kernelMs;  // per kernel launch (or per frame's kernels)
  double rate = 0.0;       // derived rate, in rateUnit (GFLOP/s for N-body, GB/s for image kernels)
  std::string rateUnit;
  // Recordings: the median of each frame stage (FrameStage names: "update", "wait for
  // GPU", ..., "kernels (GPU)"), in FrameStage order; empty for benchmark runs.
  std::vector<std::pair<std::string, double>> stageMedianMs;
  RunEnergy energy;  // board power and clocks over the recording (NVML), lab/run_energy.h
  // The measured ceiling each kernel reached first ("n-body step: FP32 issue: 74 %"; kernels
  // separated by "; "): compute/work_model.h against the device's ceilings; "" when unknown.
  std::string bound;
  // N-body: how far the conserved quantities drifted over `driftSteps` steps
  // (compute/nbody_invariants.h nbodyDrift: energy relative and signed, momenta
  // relative to their scales); driftSteps 0: none measured. The same names as
  // CSV columns and JSON keys: energy_drift, momentum_drift, ...
  double energyDrift = 0.0, momentumDrift = 0.0, angularMomentumDrift = 0.0;
  unsigned long long driftSteps = 0;
  bool hasDrift() const { return driftSteps > 0; }
  // N-body split over several devices or MPI ranks (lab/run_split.h); one device: devices 1.
  RunSplit split;
};

struct RunRecord {
  std::string name;  // short label: "blocked wg=256 unroll=8 ..." or "recording 3"
  std::string status = "ok";  // "ok", or why the configuration did not run (sweeps keep refused ones)
  RunMetadata meta;
  RunMeasurements m;
  bool ok() const { return status == "ok"; }
};

// The JSON file format's version; the reader refuses other versions.
constexpr int kRunFileVersion = 1;

// Metadata fields that come from the device and the build: device, platform,
// driver, kind, version, time, host.
RunMetadata runMetadataFor(const DeviceDescriptor& device);
std::string kernelscopeVersion();   // git describe at configure time, else the project version
std::string hexHash(uint64_t hash);

// CSV: a header and one row per run. The fixed columns come first in a fixed
// order, then one "param:<key>" column per parameter key in order of first use.
std::string runsToCsv(const std::vector<RunRecord>& runs);
// Parses what runsToCsv writes (RFC 4180 quoting); the error says why it cannot.
Result<std::vector<RunRecord>> runsFromCsv(const std::string& text);

std::string runsToJson(const std::vector<RunRecord>& runs);
// Refuses text that is not JSON, not a kernelscope runs file, or of another version.
Result<std::vector<RunRecord>> runsFromJson(const std::string& text);

// File helpers: return an error message, empty on success.
std::string writeRunsCsv(const std::vector<RunRecord>& runs, const std::filesystem::path& file);
std::string writeRunsJson(const std::vector<RunRecord>& runs, const std::filesystem::path& file);
// The Runs panel's Export: `base` + ".csv" or ".json" (a relative name is relative to
// the folder kernelscope was started in). `message` tells the user the whole path
// written, or why nothing was.
struct ExportOutcome {
  bool written = false;
  std::string message;
};
ExportOutcome exportRuns(const std::vector<RunRecord>& runs, const std::string& base, bool json);
std::optional<std::vector<RunRecord>> readRunsJson(const std::filesystem::path& file, std::string* error);

}  // namespace ks
