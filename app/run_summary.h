#pragma once
// What a viewer run prints when it ends (the headless summary the README shows),
// and the end of a --record run: its line and its CSV/JSON files.
#include "app/app_state.h"
#include "app/cli.h"

namespace ks {

class Session;

void printRunSummary(const AppState& state, const Session& session, const AppOptions& options, double seconds);
// kExitOk, or why the recording asked for by --record is missing or its files were not written.
int finishRecording(const AppState& state, const AppOptions& options);

}  // namespace ks
