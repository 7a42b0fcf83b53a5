#include "mpi/distributed_nbody.h"

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "app/bench_nbody.h"
#include "app/session.h"
#include "compute/exit_code.h"
#include "compute/kernel_files.h"
#include "compute/nbody_benchmark.h"
#include "compute/nbody_multi_device.h"
#include "compute/sample_stats.h"
#include "lab/run_record.h"
#include "lab/sweep_runs.h"

namespace ks {
namespace {

using Clock = std::chrono::steady_clock;
double msSince(Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); }

// The rank's place on its host: Open MPI says it in OMPI_COMM_WORLD_LOCAL_RANK;
// other launchers are asked through a communicator of the ranks sharing memory.
int localRank() {
  if (const char* env = std::getenv("OMPI_COMM_WORLD_LOCAL_RANK"); env && *env) return std::atoi(env);
  MPI_Comm local;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &local);
  int rank = 0;
  MPI_Comm_rank(local, &rank);
  MPI_Comm_free(&local);
  return rank;
}

std::string hostName() {
  char name[MPI_MAX_PROCESSOR_NAME] = {};
  int length = 0;
  MPI_Get_processor_name(name, &length);
  return std::string(name, static_cast<size_t>(std::max(length, 0)));
}

// What each rank tells rank 0 before anything runs: fixed-size text, so one
// MPI_Gather collects it whatever happened on the rank.
constexpr int kReportBytes = 2048;
struct StartReport {
  std::string problem;  // empty: ready
  std::string bodies, config, version, device;
  std::string text() const {
    return problem + '\x1f' + bodies + '\x1f' + config + '\x1f' + version + '\x1f' + device;
  }
  static StartReport parse(const char* data) {
    std::string all(data, strnlen(data, kReportBytes));
    std::vector<std::string> parts;
    for (size_t start = 0;;) {
      const size_t end = all.find('\x1f', start);
      parts.push_back(all.substr(start, end == std::string::npos ? std::string::npos : end - start));
      if (end == std::string::npos) break;
      start = end + 1;
    }
    parts.resize(5);
    return {parts[0], parts[1], parts[2], parts[3], parts[4]};
  }
};

// Rank 0's verdict on all the reports: empty when the run can start.
std::string startVerdict(const std::vector<StartReport>& reports) {
  std::string why;
  for (size_t r = 0; r < reports.size(); ++r)
    if (!reports[r].problem.empty()) why += "\n  rank " + std::to_string(r) + ": " + reports[r].problem;
  if (!why.empty()) return why;
  for (size_t r = 1; r < reports.size(); ++r) {
    if (reports[r].bodies != reports[0].bodies)
      why += "\n  rank " + std::to_string(r) + " has " + reports[r].bodies + " bodies, rank 0 " + reports[0].bodies;
    if (reports[r].version != reports[0].version)
      why += "\n  rank " + std::to_string(r) + " runs kernelscope " + reports[r].version + ", rank 0 " +
             reports[0].version;
    if (reports[r].config != reports[0].config)
      why += "\n  rank " + std::to_string(r) + " would run " + reports[r].config + ", rank 0 " + reports[0].config +
             " (give the kernel options, e.g. --variant and --wg, so that all ranks run the same)";
  }
  return why;
}

// The rank's own part: its device, kernel and state.
struct RankSetup {
  std::unique_ptr<ComputeContext> compute;
  std::unique_ptr<NBodyKernel> kernel;
  std::unique_ptr<NBodyDeviceState> state;
  Buffer display;
  NBodyConfig config;
};

// Waits for every rank of `comm` without spinning: MPI_Barrier polls a core,
// which slows a CPU device's measurement on the same host.
void waitForAll(MPI_Comm comm) {
  MPI_Request request;
  MPI_Ibarrier(comm, &request);
  for (int done = 0; MPI_Test(&request, &done, MPI_STATUS_IGNORE) == MPI_SUCCESS && !done;)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

// What one split run measured on this rank.
struct SplitRun {
  double seconds = 0.0;
  std::vector<double> kernelMs, commMs, stepMs;
  NBodySlice slice{0, 0};
  NBodySystem finalState;  // positions of all bodies; velocities right in this rank's slice only
};

// The untimed warm-up and `iterations` timed steps of self.state, the bodies split
// over the ranks of `comm`: each integrates its slice, then MPI_Allgatherv gives
// every rank all new positions, through pinned host memory.
SplitRun runSplit(RankSetup& self, const NBodyParams& params, MPI_Comm comm, int iterations,
                  const std::string& device) {
  int rank = 0, ranks = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &ranks);
  const NBodyConfig& config = self.config;
  NBodyDeviceState& state = *self.state;
  const size_t padded = state.padded();
  const size_t bytesPerBody = 4 * (config.fp64 ? sizeof(double) : sizeof(float));
  const std::vector<NBodySlice> slices =
      nbodySlices(padded, nbodyBodiesPerGroup(config), std::vector<double>(static_cast<size_t>(ranks), 1.0));
  SplitRun run;
  run.slice = slices[static_cast<size_t>(rank)];
  const NBodySlice mySlice = run.slice;
  // One body (xyz, mass in the configuration's precision) as an MPI type, so the
  // counts are bodies and stay within an int for any N the options allow.
  MPI_Datatype body;
  MPI_Type_contiguous(static_cast<int>(bytesPerBody), MPI_BYTE, &body);
  MPI_Type_commit(&body);
  std::vector<int> counts, displacements;
  for (const NBodySlice& s : slices) {
    counts.push_back(static_cast<int>(s.count));
    displacements.push_back(static_cast<int>(s.first));
  }
  try {
    // Pinned host memory for the exchange, mapped for the whole run.
    Buffer pinned(self.compute->context(), CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, padded * bytesPerBody);
    cl_int status = CL_SUCCESS;
    Queue& queue = self.compute->queue();
    auto* host = static_cast<unsigned char*>(clEnqueueMapBuffer(queue.get(), pinned.get(), CL_TRUE,
                                                                CL_MAP_READ | CL_MAP_WRITE, 0, padded * bytesPerBody,
                                                                0, nullptr, nullptr, &status));
    clCheck(status, "clEnqueueMapBuffer");
    auto step = [&](bool timed) {
      const auto started = Clock::now();
      Event kernel;
      self.kernel->enqueueSlice(queue, state.positionsIn(), state.positionsOut(), state.velocities(),
                                self.display.get(), padded, mySlice.first, mySlice.count, params, &kernel);
      clCheck(clEnqueueReadBuffer(queue.get(), state.positionsOut(), CL_TRUE, mySlice.first * bytesPerBody,
                                  mySlice.count * bytesPerBody, host + mySlice.first * bytesPerBody, 0, nullptr,
                                  nullptr),
              "clEnqueueReadBuffer");
      const auto exchange = Clock::now();
      MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, host, counts.data(), displacements.data(), body, comm);
      const double comm = msSince(exchange);
      // The others' slices into this device's new positions (its own are there).
      if (mySlice.first > 0)
        clCheck(clEnqueueWriteBuffer(queue.get(), state.positionsOut(), CL_FALSE, 0, mySlice.first * bytesPerBody,
                                     host, 0, nullptr, nullptr),
                "clEnqueueWriteBuffer");
      const size_t end = mySlice.first + mySlice.count;
      if (end < padded)
        clCheck(clEnqueueWriteBuffer(queue.get(), state.positionsOut(), CL_FALSE, end * bytesPerBody,
                                     (padded - end) * bytesPerBody, host + end * bytesPerBody, 0, nullptr, nullptr),
                "clEnqueueWriteBuffer");
      queue.finish();
      state.swap();
      if (timed) {
        run.kernelMs.push_back(kernel.elapsedMs());
        run.commMs.push_back(comm);
        run.stepMs.push_back(msSince(started));
      }
    };
    // The same steps as one device runs in --bench nbody: the warm-up, then the timed ones.
    for (int i = 0; i < std::max(2, iterations / 10); ++i) step(false);
    MPI_Barrier(comm);
    const auto start = Clock::now();
    for (int i = 0; i < iterations; ++i) step(true);
    run.seconds = msSince(start) * 1e-3;
    run.finalState = state.download(queue);
    clCheck(clEnqueueUnmapMemObject(queue.get(), pinned.get(), host, 0, nullptr, nullptr), "clEnqueueUnmapMemObject");
    queue.finish();
  } catch (const std::exception& e) {
    // A failure mid-run on one rank: the others would wait in MPI_Allgatherv for
    // it, so the whole job is ended with the reason.
    int worldRank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &worldRank);
    std::fprintf(stderr, "kernelscope: error: rank %d (%s): %s; ending all ranks\n", worldRank, device.c_str(),
                 e.what());
    std::fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, kExitFailure);
  }
  MPI_Type_free(&body);
  return run;
}

// A run's figures as rank 0 reports them, gathered from the k ranks that ran it
// (`comm`; MPI_COMM_NULL on a rank that sat it out).
struct SplitFigures {
  std::vector<double> rankKernelMs, rankCommMs;
  double commMs = 0.0;  // rank 0's median MPI_Allgatherv per step
  std::vector<NBodySlice> slices;
  NBodySystem finalState;  // on rank 0: every body's, velocities gathered from their ranks
};

SplitFigures gatherFigures(const SplitRun& run, MPI_Comm comm, int k, int worldRank) {
  SplitFigures f;
  if (comm == MPI_COMM_NULL) return f;
  const double myKernel = summarize(run.kernelMs).median, myComm = summarize(run.commMs).median;
  const bool root = worldRank == 0;
  f.rankKernelMs.resize(root ? static_cast<size_t>(k) : 0);
  f.rankCommMs.resize(root ? static_cast<size_t>(k) : 0);
  MPI_Gather(&myKernel, 1, MPI_DOUBLE, f.rankKernelMs.data(), 1, MPI_DOUBLE, 0, comm);
  MPI_Gather(&myComm, 1, MPI_DOUBLE, f.rankCommMs.data(), 1, MPI_DOUBLE, 0, comm);
  const unsigned long long mine[2] = {run.slice.first, run.slice.count};
  std::vector<unsigned long long> all(root ? static_cast<size_t>(2 * k) : 0);
  MPI_Gather(mine, 2, MPI_UNSIGNED_LONG_LONG, all.data(), 2, MPI_UNSIGNED_LONG_LONG, 0, comm);
  for (size_t r = 0; r + 1 < all.size(); r += 2)
    f.slices.push_back({static_cast<size_t>(all[r]), static_cast<size_t>(all[r + 1])});
  // Velocities are right only in each rank's own slice: gathered to rank 0 the same way.
  const NBodySystem& state = run.finalState;
  const size_t values = state.size() * 4;
  std::vector<double> velocities(values, 0.0), allVelocities(root ? values : 0);
  for (size_t i = run.slice.first; i < std::min<size_t>(run.slice.first + run.slice.count, state.size()); ++i)
    for (int c = 0; c < 4; ++c) velocities[i * 4 + static_cast<size_t>(c)] = state.velocities[i][c];
  MPI_Reduce(velocities.data(), allVelocities.data(), static_cast<int>(values), MPI_DOUBLE, MPI_SUM, 0, comm);
  if (root) {
    f.commMs = myComm;
    f.finalState = state;
    for (size_t i = 0; i < state.size(); ++i)
      f.finalState.velocities[i] = glm::dvec4(allVelocities[i * 4], allVelocities[i * 4 + 1],
                                              allVelocities[i * 4 + 2], allVelocities[i * 4 + 3]);
  }
  return f;
}

// --bench nbody's report, with each rank's slice and times, the communication and the efficiency.
void printSplitReport(const NBodyOptions& o, int iterations, const NBodyConfig& config, int ranks,
                      const std::vector<StartReport>& reports, const SplitFigures& f, const NBodyMeasurement& one,
                      double msPerStep, double rate, double efficiency) {
  std::printf("kernelscope N-body benchmark over %d MPI ranks, one device each\n", ranks);
  std::printf("%zu bodies (%s preset), %d iterations after an untimed warm-up; %s\n", o.bodies, o.preset.c_str(),
              iterations, "flops counted as NVIDIA's nbody sample does: 20 per interaction in fp32, 30 in fp64");
  std::printf("%s\n", describeNBodyConfig(config).c_str());
  std::printf("%zu bodies, total time for %d iterations: %.3f ms\n", o.bodies, iterations, msPerStep * iterations);
  std::printf("= %.3f billion interactions per second\n", rate * 1e-9);
  std::printf("= %.3f %s-precision GFLOP/s at %.0f flops per interaction\n",
              rate * nbodyFlopsPerInteraction(config) * 1e-9, config.fp64 ? "double" : "single",
              nbodyFlopsPerInteraction(config));
  for (size_t r = 0; r < f.slices.size(); ++r)
    std::printf("rank %zu %s: bodies %llu to %llu (%llu), kernel %.3f ms, MPI_Allgatherv %.3f ms median per step\n", r,
                reports[r].device.c_str(), static_cast<unsigned long long>(f.slices[r].first),
                static_cast<unsigned long long>(f.slices[r].first + f.slices[r].count - 1),
                static_cast<unsigned long long>(f.slices[r].count), f.rankKernelMs[r], f.rankCommMs[r]);
  std::printf("communication: %.3f ms median per step on rank 0 (MPI_Allgatherv of the new positions)\n", f.commMs);
  std::printf("load balance: %.1f %% (mean kernel time over the slowest)\n", nbodyLoadBalance(f.rankKernelMs) * 100.0);
  if (one.problem.empty())
    std::printf("one device (rank 0's) alone: %.3f ms per step\n= speed-up %.2fx on %d ranks, parallel efficiency "
                "%.1f %% (one device's step time / (%d x the split step time))\n",
                one.msPerStep, msPerStep > 0 ? one.msPerStep / msPerStep : 0.0, ranks, efficiency * 100.0, ranks);
  else
    std::printf("one device alone could not be measured: %s\n", one.problem.c_str());
}

}  // namespace

int runDistributedNBodyBenchmark(DeviceCatalog catalog, const AppOptions& options, const Settings& settings) {
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) MPI_Init(nullptr, nullptr);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  const NBodyOptions& o = options.nbody;
  const int local = localRank();
  const NBodyPreset preset = parseNBodyPreset(o.preset).value_or(NBodyPreset::DiskGalaxy);
  const NBodySystem system = makeNBodyPreset(preset, o.bodies, o.seed);
  const NBodyParams params = nbodyPresetDefaults(preset, o.bodies).params;

  // ---- start: every rank finds its device and builds, then all agree or all stop.
  RankSetup self;
  StartReport report;
  report.bodies = std::to_string(o.bodies);
  report.version = kernelscopeVersion();
  try {
    const StartDevice start = chooseStartDevice(std::move(catalog), options, settings, GlContextHandles{});
    const int platform = start.devices[start.index].platformIndex;
    std::vector<DeviceDescriptor> onPlatform;
    for (const DeviceDescriptor& d : start.devices)
      if (d.platformIndex == platform && d.available) onPlatform.push_back(d);
    if (static_cast<size_t>(local) >= onPlatform.size())
      throw std::runtime_error("finds no device: it is local rank " + std::to_string(local) + " on " + hostName() +
                               ", and " + start.devices[start.index].platformName + " has " +
                               std::to_string(onPlatform.size()) + " available device(s) there (one rank per device)");
    const DeviceDescriptor& device = onPlatform[static_cast<size_t>(local)];
    report.device = device.displayName() + " on " + hostName();
    self.config = nbodyConfigsFromOptions(o, device).front();
    report.config = describeNBodyConfig(self.config);
    self.compute = std::make_unique<ComputeContext>(device, locateKernelsDir(options));
    self.kernel = std::make_unique<NBodyKernel>(*self.compute, self.config);
    self.state = std::make_unique<NBodyDeviceState>(*self.compute, system, self.config);
    self.display = Buffer(self.compute->context(), CL_MEM_WRITE_ONLY, self.state->padded() * 4 * sizeof(float));
  } catch (const ProgramBuildError& e) {
    report.problem = std::string(e.what()) + " (build log: " + e.build().log.substr(0, 400) + ")";
  } catch (const std::exception& e) {
    report.problem = e.what();
  }
  std::vector<char> mine(kReportBytes, '\0'), all(rank == 0 ? static_cast<size_t>(kReportBytes) * ranks : 0);
  std::strncpy(mine.data(), report.text().c_str(), kReportBytes - 1);
  MPI_Gather(mine.data(), kReportBytes, MPI_CHAR, all.data(), kReportBytes, MPI_CHAR, 0, MPI_COMM_WORLD);
  std::vector<StartReport> reports;
  int go = 1;
  if (rank == 0) {
    for (int r = 0; r < ranks; ++r) reports.push_back(StartReport::parse(all.data() + static_cast<size_t>(r) * kReportBytes));
    if (const std::string why = startVerdict(reports); !why.empty()) {
      std::fprintf(stderr, "kernelscope: error: the distributed N-body run cannot start (%d ranks):%s\n", ranks,
                   why.c_str());
      go = 0;
    }
  }
  MPI_Bcast(&go, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (!go) {
    MPI_Finalize();
    return kExitFailure;
  }

  // ---- the runs: rank 0's device alone first, then the split over all ranks
  // (--scaling: over the first 1, 2, ... K ranks, each from the same start).
  const NBodyConfig& config = self.config;
  const int iterations = std::max(options.iterations, 1);
  int result = kExitOk;
  NBodyMeasurement one;
  // --scaling compares with its own first row instead: rank 0 alone, through the same exchange.
  if (rank == 0 && !o.scaling) one = measureNBody(*self.compute, system, config, params, iterations);
  waitForAll(MPI_COMM_WORLD);
  std::vector<RunRecord> runs;
  if (rank == 0 && o.scaling) {
    std::printf("strong scaling over MPI ranks, %zu bodies: speed-up and efficiency against the first row (rank 0's "
                "device alone, the same steps)\n",
                o.bodies);
    std::printf("%8s %14s %16s %10s %12s %14s %12s\n", "ranks", "ms per step", "G interactions/s", "speed-up",
                "efficiency", "MPI ms", "balance");
  }
  for (int k = o.scaling ? 1 : ranks; k <= ranks; ++k) {
    // The first k ranks run; the others wait for them (without spinning).
    MPI_Comm comm = MPI_COMM_NULL;
    MPI_Comm_split(MPI_COMM_WORLD, rank < k ? 0 : MPI_UNDEFINED, rank, &comm);
    SplitRun run;
    if (comm != MPI_COMM_NULL) {
      if (k > 1 || o.scaling) self.state = std::make_unique<NBodyDeviceState>(*self.compute, system, config);
      run = runSplit(self, params, comm, iterations, report.device);
    }
    const SplitFigures f = gatherFigures(run, comm, k, rank);
    if (comm != MPI_COMM_NULL) MPI_Comm_free(&comm);
    waitForAll(MPI_COMM_WORLD);
    if (rank != 0) continue;
    const double n = static_cast<double>(o.bodies);
    const double msPerStep = run.seconds * 1e3 / iterations;
    const double rate = run.seconds > 0 ? n * n * iterations / run.seconds : 0.0;
    if (o.scaling && k == 1) one.msPerStep = msPerStep;
    const double efficiency = one.problem.empty() && msPerStep > 0 ? one.msPerStep / (k * msPerStep) : 0.0;
    if (o.scaling) {
      std::printf("%8d %14.3f %16.3f %9.2fx %11.1f %% %14.3f %10.1f %%\n", k, msPerStep, rate * 1e-9,
                  msPerStep > 0 ? one.msPerStep / msPerStep : 0.0, efficiency * 100.0, f.commMs,
                  nbodyLoadBalance(f.rankKernelMs) * 100.0);
      std::fflush(stdout);
    } else {
      printSplitReport(o, iterations, config, k, reports, f, one, msPerStep, rate, efficiency);
    }
    if (!o.scaling && o.positionsOut) {
      try {
        saveNBodySystem(f.finalState, *o.positionsOut);
        std::printf("final positions and velocities written to %s\n", o.positionsOut->string().c_str());
      } catch (const std::exception& e) {
        std::fprintf(stderr, "kernelscope: error: %s\n", e.what());
        result = kExitFailure;
      }
    }
    NBodyMeasurement m;
    m.config = config;
    m.stepMs = run.stepMs;
    m.msPerStep = msPerStep;
    m.interactionsPerSecond = rate;
    m.sourceHash = hashSource(readKernelSource(self.compute->kernelsDir(), kNBodyKernelFile));
    RunRecord record = nbodyRun(self.compute->device(), m, o.bodies, iterations);
    record.name += " over " + std::to_string(k) + (k == 1 ? " MPI rank" : " MPI ranks");
    record.m.split.devices = k;
    record.m.split.deviceKernelMs = f.rankKernelMs;
    record.m.split.exchangeMs = f.commMs;
    record.m.split.loadBalance = nbodyLoadBalance(f.rankKernelMs);
    record.m.split.parallelEfficiency = efficiency;
    runs.push_back(std::move(record));
  }
  if (rank == 0) {
    if (o.scaling) std::printf("(ideal: speed-up K on K ranks, efficiency 100 %%)\n");
    if (o.csv || o.json)
      if (const int written = writeRunFiles(runs, o.csv, o.json); written != kExitOk) result = written;
    std::fflush(stdout);
  }
  MPI_Finalize();
  return result;
}

}  // namespace ks
