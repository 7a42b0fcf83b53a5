#pragma once
// The Runs and Sweep panels' part of AppState: recorded runs, the recording and
// sweep requests the panels leave for the frame loop, and the tuning cache.
#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "compute/histogram_sweep.h"
#include "compute/rotate_sweep_plan.h"
#include "compute/sweep_plan.h"
#include "lab/run_record.h"
#include "lab/tuning_cache.h"

namespace ks {

// A recording of the running scene: skip `warmup` frames, then take `frames`
// frames (or `seconds` seconds when bySeconds).
struct RecordingState {
  int frames = 300;
  float seconds = 5.0f;
  bool bySeconds = false;
  int warmup = 10;  // StartRecording, StopRecording (app/commands.h)
  // readings
  bool active = false;
  double progress = 0.0;  // 0..1
  std::string status;     // "warming up", "recording 120/300", "done: ..."
  int recorded = 0;       // recordings finished (for their names)
};

// N-body and transpose sweeps measure kernels alone; the interop sweep records
// the running scene on each interop path (frame times included).
enum class SweepTarget { NBody, Transpose, Interop, Rotate, Histogram };

// A sweep from the UI: ranges as check boxes over the variant tables' values.
struct SweepUiState {
  SweepTarget target = SweepTarget::NBody;
  std::vector<std::string> nbodyVariants = quickNBodySweep().variants;
  std::vector<int> workGroups = quickNBodySweep().workGroups, unrolls = quickNBodySweep().unrolls,
                   bodiesPerItem = quickNBodySweep().bodiesPerItem, splits = quickNBodySweep().splits;
  std::vector<std::string> transposeVariants = quickTransposeSweep().variants;
  std::vector<int> tiles, rowsPerItem, tileWorkGroups;  // empty: every value of the table
  // Rotate: empty lists are each variant's own values (shapes: those of 256 work-items).
  std::vector<std::string> rotateVariants = quickRotateSweep().variants;
  std::vector<int> rotatePixelsPerItem, rotateRowsPerItem;
  // Histogram: the ranges as the plan takes them; a parameter with an empty list: each variant's own values.
  HistogramSweepRanges histogram = quickHistogramSweep();
  int bodies = 0;  // 0: as many as the N-body scene runs (a winner is tuned for the N it was measured at)
  int imageSize = 2048;
  int channels = 4;
  int repetitions = 20;  // timed launches (interop: recorded frames) per configuration; the median is kept
  int warmupFrames = 30; // interop: frames after a switch before recording
  // StartSweep, CancelSweep, ApplySweepBest (app/commands.h)
  std::string message;  // the outcome of the last Apply best (the Runs panel has its own)
  // readings
  bool active = false;
  bool building = false;  // the next configuration's program is compiling on a worker thread
  // A CPU device is measuring on the sweep's worker thread: the scene's steps and the
  // device's ceilings wait until it is done (on the same cores they would wait for
  // its launches, holding frames, and skew what it measures).
  bool holdsDevice = false;
  double launchMs = 0.0;  // the longest launch of the configuration being measured (device time)
  size_t done = 0, total = 0, refused = 0;
  double elapsedSeconds = 0.0, etaSeconds = 0.0;
  std::string status;
  std::vector<RunRecord> results;  // of the last sweep, refused ones included
  SweepTarget resultsTarget = SweepTarget::NBody;  // the kind `results` came from (others are not shown)
};

struct RunsState {
  std::vector<RunRecord> runs;  // the comparison table (recordings, sweep results, imports)
  int baseline = 0;             // index into runs
  bool baselineChosen = false;  // picked by the user; until then, the first run that has the compared figure
  int chartMetric = 0;          // 0 rate, 1 kernel ms, 2 FPS
  // The chart under the table: bars of the compared figure, interactions/s against
  // energy drift, or speed-up against device count.
  enum class Chart { Bars, SpeedVsAccuracy, Scaling };
  Chart chart = Chart::Bars;
  char exportPath[256] = "kernelscope-runs";  // .csv / .json appended
  char importPath[256] = "";
  std::string message;          // outcome of the last export / import / apply
  // Runs recorded or measured here and not written by an export since: quitting asks
  // before losing them. Imported runs are in a file already and do not count.
  size_t unexportedRuns() const { return std::min(unexported, runs.size()); }
  void addMeasuredRun(RunRecord r) {
    runs.push_back(std::move(r));
    ++unexported;
  }
  void addImportedRun(RunRecord r) { runs.push_back(std::move(r)); }
  void markAllExported() { unexported = 0; }
  void clearRuns() {
    runs.clear();
    baseline = 0;
    baselineChosen = false;
    unexported = 0;
  }
  bool showRuns = false, showSweep = false;  // opened from the View menu
  RecordingState recording;
  SweepUiState sweep;
  TuningCache tuning;
  std::filesystem::path tuningFile;  // empty: do not save (headless runs)

 private:
  size_t unexported = 0;
};

}  // namespace ks
