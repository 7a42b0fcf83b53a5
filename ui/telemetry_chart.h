#pragma once
// One NVML figure (SM clock, board power) over the samples kept, drawn as a line
// over two axes: the figure's values in its unit, from 0 so that a dip shows its
// true size, and the time in seconds before the newest sample ("now" at the right
// edge). Kept under `id` (ui/chart_axis.h: drawnChart) so tests check the axes.
#include <optional>
#include <vector>

#include "compute/gpu_telemetry.h"

namespace ks {

// The Profiler's two clock-and-power charts, as drawnChart knows them.
constexpr const char* kSmClockChartId = "SM clock chart";
constexpr const char* kPowerChartId = "power chart";

// `title` is written above the chart (the newest figures are in the lines above it),
// `unit` over the value axis; `width` in pixels. Samples without the figure are skipped.
void drawTelemetryChart(const char* id, const std::vector<GpuSample>& history,
                        std::optional<double> GpuSample::*figure, const char* title, const char* unit, float width);

}  // namespace ks
