#pragma once
// The Runs panel's scaling view (issue 24): the N-body step split over 1, 2, ... K
// devices or MPI ranks, as `--bench nbody --devices ... --scaling` and
// `--distributed --scaling` record it (or runs recorded on different device counts).
// Speed-up against the fewest devices across, one line per configuration and body
// count, the ideal line (speed-up K on K devices) drawn, each point labelled with its
// parallel efficiency. Kept for tests as drawnChart("scaling"): its `bars` are the
// points (a small box round each marker, labelled "K: NN %").
#include <string>
#include <vector>

#include "app/runs_state.h"

namespace ks {

constexpr const char* kScalingChartId = "scaling";

struct ScalingPoint {
  size_t run = 0;        // index into the runs
  int devices = 1;       // devices or MPI ranks
  double speedUp = 0.0;  // against the series' fewest devices, times that count
  double efficiency = 0.0;
};
// Runs of one configuration and body count at different device counts.
struct ScalingSeries {
  // The runs' name without " on K devices" / " over K MPI ranks" (a label only),
  // with what sets it apart from another line of that name: "blocked (dt 0.02)".
  std::string name;
  std::string bodies;  // the runs' body count
  std::vector<ScalingPoint> points;  // by device count, one each (the newest run of a count)
};

// The name without the device count it ran on ("... on 4 devices", "... over 2 MPI
// ranks", "... on 1 device", also before an imported run's " @host"); the name
// itself when it has none. For the legend only: runs are grouped by their records.
std::string nameWithoutDeviceCount(const std::string& name);
// The series among `runs`: N-body runs that finished with a rate, grouped by their
// parameters (body count included; any device or rank count left out) and placed by
// m.split.devices; only groups with two device counts or more.
std::vector<ScalingSeries> scalingSeries(const std::vector<RunRecord>& runs);

// Draws the view in `height` pixels of the current window.
void drawScalingChart(const RunsState& runs, float height);

}  // namespace ks
