#pragma once
// The program's exit codes, documented in --help: every library that ends a run
// (benchmarks, run files, the session's start-up) returns one of these.

namespace ks {

// Exit codes documented in --help.
enum ExitCode : int {
  kExitOk = 0,
  kExitFailure = 1,
  kExitUsage = 2,
  kExitNoOpenClPlatform = 3,
  kExitNoUsableDevice = 4,
  kExitGraphicsFailed = 5,
  kExitKernelsMissing = 6,
  kExitKernelBuildFailed = 7,
};

}  // namespace ks
