#pragma once
// The N-body step split over several devices (issue 24) in the panels: the
// choice of devices (Devices panel) and each device's figures (Profiler).
#include <cstddef>
#include <string>
#include <vector>

namespace ks {

struct AppState;

// The Devices panel's "Devices for N-body": a checkbox per device of the
// display device's platform and "all"; ticking sets state.nbody.choices.split.requested.
void drawNBodySplitChoice(AppState& state);
// The Profiler's rows while split: each device's bodies and kernel time, the
// exchange, the load balance.
void drawNBodySplitProfile(const AppState& state);

// Why device `index` cannot join a split drawn by device `display` (another
// platform, not available), or empty when it can.
std::string nbodySplitJoinProblem(const AppState& state, size_t index, size_t display);
// The devices ticked now: the pending request, else what runs, else the display device.
std::vector<size_t> nbodySplitTicked(const AppState& state, size_t display);

}  // namespace ks
