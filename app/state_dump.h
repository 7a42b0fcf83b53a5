#pragma once
// `--state-dump FILE`: what the app showed, as JSON, for end-to-end tests and bug
// reports: {"scene": ..., "image": {"path", "width", "height", "channels"} | null,
// "nbody": {...} | null, "log": [...]}.
#include <filesystem>
#include <string>

namespace ks {

struct AppState;

// Returns an error message, or empty on success.
std::string writeStateDump(const AppState& state, const std::filesystem::path& file);

}  // namespace ks
