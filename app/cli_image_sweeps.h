#pragma once
// The options of `--bench rotate` and `--bench histogram` (app/bench_rotate.h,
// app/bench_histogram.h), beside the parser (app/cli.cpp): their value lists and
// checks come from the operations' descriptors.
#include <CLI/CLI.hpp>

#include <string>
#include <vector>

#include "app/cli.h"

namespace ks {

// Adds the "Rotate sweep" option group; `shapes` receives --rotate-wg's WxH texts.
void addRotateSweepOptions(CLI::App& app, RotateSweepOptions& options, std::vector<std::string>& shapes);
// Adds the "Histogram sweep" option group.
void addHistogramSweepOptions(CLI::App& app, HistogramSweepOptions& options);
// After parsing: the shapes as numbers. Empty, or why the options cannot be used
// (the image sweeps' ranges given for another run).
std::string finishRotateSweepOptions(const CLI::App& app, const AppOptions& all, RotateSweepOptions& options,
                                     const std::vector<std::string>& shapes);

}  // namespace ks
