#pragma once
// The options of `--bench rotate` and `--bench histogram` (app/bench_rotate.h,
// app/bench_histogram.h), beside the parser (app/cli.cpp): their value lists and
// checks come from the operations' descriptors.
#include <CLI/CLI.hpp>

#include <string>
#include <vector>

#include "app/cli.h"
#include "compute/kernel_op.h"

namespace ks {

// How a swept parameter's help names its values: each variant offers some of them
// (the others are listed with the reason), or the operation's values in all.
enum class OfferedValues { EachVariantSome, All };
// Adds `flag`, a comma-separated list of the parameter's values from 1 to `largest`
// (a value the variant does not offer is refused by the sweep, with the reason);
// its help is `what` and the values the descriptor offers, then `note`.
CLI::Option* addSweptParameterOption(CLI::Option_group& group, const std::string& flag, std::vector<int>& values,
                                     const std::string& what, const KernelOp& op, const std::string& parameter,
                                     OfferedValues offered, int largest, const std::string& note = "");
// Adds the "Rotate sweep" option group; `shapes` receives --rotate-wg's WxH texts.
void addRotateSweepOptions(CLI::App& app, RotateSweepOptions& options, std::vector<std::string>& shapes);
// Adds the "Histogram sweep" option group.
void addHistogramSweepOptions(CLI::App& app, HistogramSweepOptions& options);
// After parsing: the shapes as numbers. Empty, or why the options cannot be used
// (the image sweeps' ranges given for another run).
std::string finishRotateSweepOptions(const CLI::App& app, const AppOptions& all, RotateSweepOptions& options,
                                     const std::vector<std::string>& shapes);

}  // namespace ks
