#pragma once
// The options of `--bench rotate` (app/bench_rotate.h), kept beside the parser
// (app/cli.cpp) so that their value lists and checks come from the rotate descriptor.
#include <CLI/CLI.hpp>

#include <string>
#include <vector>

#include "app/cli.h"

namespace ks {

// Adds the "Rotate sweep" option group; `shapes` receives --rotate-wg's WxH texts.
void addRotateSweepOptions(CLI::App& app, RotateSweepOptions& options, std::vector<std::string>& shapes);
// After parsing: the shapes as numbers. Empty, or why the options cannot be used.
std::string finishRotateSweepOptions(const CLI::App& app, const AppOptions& all, RotateSweepOptions& options,
                                     const std::vector<std::string>& shapes);

}  // namespace ks
