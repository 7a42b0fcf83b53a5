#pragma once
// `mpirun -np K kernelscope --headless --bench nbody --distributed`: the N-body
// step split over MPI ranks, one device each (issue 24). Each rank takes the
// device of its local rank on the start device's platform, integrates its slice
// of the bodies with the single-device kernel and configuration, and the new
// positions are exchanged with MPI_Allgatherv every step. Rank 0 reports what
// --bench nbody reports plus the communication time and parallel efficiency.
// Built only with MPI (CMake's FindMPI, KS_WITH_MPI); kept in this folder.
#include "app/cli.h"
#include "compute/device_catalog.h"

namespace ks {

struct Settings;

// Calls MPI_Init and MPI_Finalize itself. A bad start on any rank (no device for
// its local rank, a build failure, ranks that disagree on N, the configuration
// or kernelscope's version) gives one message from rank 0 and every rank exits
// with an error: all ranks always meet at the same collective calls, so none waits forever.
int runDistributedNBodyBenchmark(DeviceCatalog catalog, const AppOptions& options, const Settings& settings);

}  // namespace ks
