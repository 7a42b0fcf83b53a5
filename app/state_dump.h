#pragma once
// `--state-dump FILE`: what the app showed, as JSON, for end-to-end tests and bug
// reports: {"scene": ..., "image": {"path", "width", "height", "channels"} | null,
// "nbody": {...} | null, "log": [...]}.
#include <filesystem>

#include "core/result.h"

namespace ks {

struct AppState;

// The error names the file when it cannot be written.
Result<void> writeStateDump(const AppState& state, const std::filesystem::path& file);

}  // namespace ks
