#pragma once
// `--sweep --op OPERATION [--variant ...] [--param NAME=V1,V2 ...]` (issue 21): one
// way to sweep and record any kernel operation from the command line. The operation
// names, variant names, parameter names and allowed values are all read from the
// operations' descriptors (compute/kernel_op.h); a parameter's name is the one its
// run records use as CSV column ("param:pixels_per_item"). What is given lands in the
// ranges of that operation's sweep (the same as --bench rotate / transpose / histogram
// and the N-body options do), so the older spellings keep working beside it.
#include <CLI/CLI.hpp>

#include <map>
#include <string>
#include <vector>

#include "app/cli.h"

namespace ks {

// The operations --sweep --op takes: those with a sweep (copy is the bandwidth
// reference, measured by --bench image).
std::vector<std::string> sweptOperationNames();

// Adds --op and --param; `params` receives --param's texts, `op` --op's name.
void addSweepOpOptions(CLI::App& app, std::string& op, std::vector<std::string>& params);

// The check of --variant while parsing: a variant of any of those operations.
CLI::Validator anyOperationVariant();

// After parsing, before the other checks: --sweep --op X becomes that operation's
// sweep (options.bench = X) and --variant / --param fill its ranges. Empty, or why
// the options cannot be used (a value the descriptor does not list, an N-body
// option for another operation, --op without --sweep).
std::string finishSweepOpOptions(const CLI::App& app, const std::string& op, const std::vector<std::string>& params,
                                 AppOptions& options);

}  // namespace ks
