#pragma once
// The time now as ISO 8601 UTC, "2026-11-22T03:04:05Z": when a run was recorded
// (lab/run_record) and when ceilings were measured (compute/ceilings).
#include <string>

namespace ks {

std::string isoTimeNow();

}  // namespace ks
