#pragma once
// The Runs panel's speed-vs-accuracy view (issue 23): one point per run that has an
// energy drift measured, interactions/s (or the run's rate) across, |energy drift|
// up on a log scale, so that fp32/fp64, fast math, native_rsqrt and flushed
// denormals are compared on both axes. Kept for tests as drawnChart("speed-accuracy"):
// its `bars` are the points (each a small box round the marker, labelled with the
// run's distinguishing name), `baseline` the baseline run's x.
#include <optional>
#include <string>
#include <vector>

#include "app/runs_state.h"
#include "ui/chart_axis.h"

namespace ks {

constexpr const char* kSpeedAccuracyChartId = "speed-accuracy";

// G interactions per second of an N-body run (bodies^2 over the median step); none
// for a run without a body count or a step time.
std::optional<double> runGigaInteractionsPerSecond(const RunRecord& run);

// Powers of ten from 10^floor(log10 lo) to 10^ceil(log10 hi) (at least two), every
// second or third one when more than `targetTicks` would crowd the axis; empty when
// lo or hi is not positive and finite or hi < lo.
std::vector<double> decadeTicks(double lo, double hi, int targetTicks);
// "1e-6"; "1" for 10^0.
std::string decadeLabel(double power);

// What the view names under its plot: "No drift measured: " and the runs that ran
// without a drift (a few, then how many more); empty when every run has one.
std::string speedAccuracyNote(const RunsState& runs);

// Draws the view in `height` pixels of the current window (caption, plot, axes, the
// runs without drift named underneath).
void drawSpeedAccuracyChart(const RunsState& runs, float height);

}  // namespace ks
