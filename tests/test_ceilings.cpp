// Measured ceilings (issue 23, item 1): the micro-benchmarks on a real device
// (PoCL here), their self-checks against broken kernels, the ceilings cache, the
// viewer's step-per-frame measurement and "Measure again", the run records' columns.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>

#include "compute/ceiling_benchmarks.h"
#include "compute/kernel_files.h"
#include "lab/ceilings_cache.h"
#include "lab/run_record.h"
#include "session_fixture.h"
#include "test_devices.h"
#include "test_support.h"

namespace ks {
namespace {

namespace fs = std::filesystem;

// The best of a few measurements, figure by figure: a ceiling is the best the
// device does, and on a shared CI machine one measurement may be slowed down.
MeasuredCeilings bestOf(ComputeContext& compute, int times) {
  MeasuredCeilings best = measureCeilings(compute);
  for (int i = 1; i < times; ++i) {
    const MeasuredCeilings again = measureCeilings(compute);
    for (size_t k = 0; k < kCeilingCount; ++k)
      if (again.figures[k].value > best.figures[k].value) best.figures[k] = again.figures[k];
  }
  return best;
}

TEST(CeilingsOnTheDevice, EveryFigureIsPositiveAndTheyAreConsistent) {
  KS_NEED("opencl", test::openClMissing());
  auto compute = test::makeTestCompute();
  const DeviceDescriptor& device = compute->device();
  const bool fp64 = device.hasExtension("cl_khr_fp64");
  const MeasuredCeilings c = bestOf(*compute, 3);
  EXPECT_FALSE(c.time.empty());
  for (size_t i = 0; i < kCeilingCount; ++i) {
    const Ceiling kind = ceilingAt(i);
    const CeilingFigure& f = c.figures[i];
    std::printf("%-44s %10.2f %-8s %s\n", ceilingName(kind).label, f.value, ceilingName(kind).unit,
                f.measured() ? f.method.c_str() : f.error.c_str());
    if (kind == Ceiling::Fp64Mad && !fp64) {
      EXPECT_FALSE(f.measured());
      EXPECT_EQ(f.error.rfind("not available: no fp64", 0), 0u) << f.error;
      continue;
    }
    EXPECT_GT(f.value, 0.0) << ceilingName(kind).key << ": " << f.error;
    EXPECT_TRUE(std::isfinite(f.value)) << ceilingName(kind).key;
    EXPECT_FALSE(f.method.empty()) << ceilingName(kind).key;
  }
  // A copy reads and writes each byte: it cannot move more than twice what a pure read does.
  // The two are measured at different moments of a shared machine: a margin (CI on PoCL, the
  // suite running beside it: copy 19.08 GB/s against a read of 9.28). A byte counted twice
  // in the copy's formula would still show as four times the read.
  EXPECT_LE(c.value(Ceiling::Copy), 2.5 * c.value(Ceiling::Read));
  // At least one flop per cycle per compute unit (any core does more than that).
  const double floor = 1e-3 * device.clockMHz * device.computeUnits;  // GFLOP/s
  EXPECT_GE(c.value(Ceiling::Fp32Mad), floor) << device.clockMHz << " MHz x " << device.computeUnits << " units";
  // No device does fp64 faster than fp32. On a CPU the two can be nearly equal (PoCL: 64 and 63
  // GFLOP/s under load), and they are measured at different moments of a shared machine: a margin.
  if (fp64) {
    EXPECT_GE(c.value(Ceiling::Fp32Mad), 0.8 * c.value(Ceiling::Fp64Mad));
  }
}

// The viewer runs one step() a frame: the global-memory benchmarks come in pieces of
// at most one launch of the 32 MiB buffers (or a quarter of the input's writing), not
// in one step that held a CPU device's frame for 229 ms (issue 23). Each step's time
// is printed for the record; what is asserted is the cutting, which does not depend
// on the machine's load.
TEST(CeilingsOnTheDevice, GlobalMemoryBenchmarksComeInOneLaunchPieces) {
  KS_NEED("opencl", test::openClMissing());
  auto compute = test::makeTestCompute();
  CeilingMeasurement measurement(*compute);
  const int runs = measurement.plan().runs;
  std::vector<int> steps(kCeilingCount, 0);
  std::vector<double> longestMs(kCeilingCount, 0.0);
  std::vector<std::string> progress;
  size_t current = 0;
  std::vector<std::string> longestPart(kCeilingCount);
  // The first step builds the kernels, then runs the copy's first piece.
  for (int guard = 0; !measurement.done() && guard < 1000; ++guard) {
    for (size_t i = 0; i < kCeilingCount; ++i)
      if (measurement.progress().find(std::string(ceilingName(ceilingAt(i)).label) + " (") == 0) current = i;
    progress.push_back(measurement.progress());
    const auto start = std::chrono::steady_clock::now();
    measurement.step(true);
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    ++steps[current];
    if (ms > longestMs[current]) longestMs[current] = ms, longestPart[current] = progress.back();
  }
  ASSERT_TRUE(measurement.done());
  for (size_t i = 0; i < kCeilingCount; ++i)
    std::printf("%-44s %3d steps, the longest %6.1f ms (%s)\n", ceilingName(ceilingAt(i)).label, steps[i],
                longestMs[i], longestPart[i].c_str());
  const auto& figures = measurement.result();
  EXPECT_TRUE(figures[Ceiling::Copy].measured()) << figures[Ceiling::Copy].error;
  EXPECT_TRUE(figures[Ceiling::Read].measured()) << figures[Ceiling::Read].error;
  // Copy: the buffers, the input in 4 parts, a warm-up, each timed copy, the check.
  EXPECT_EQ(steps[static_cast<size_t>(Ceiling::Copy)], 1 + 4 + 1 + runs + 1);
  // Read: the warm-up, each timed launch, the check.
  EXPECT_EQ(steps[static_cast<size_t>(Ceiling::Read)], 1 + runs + 1);
  // The user sees how far it is.
  EXPECT_TRUE(std::any_of(progress.begin(), progress.end(), [](const std::string& p) {
    return p.find("(1 of 8), part 3 of") != std::string::npos;
  }));
}

// Local memory and local atomics: one shape each understated what real kernels
// reach (104-120 % of those ceilings on the H200, issue 23): 4-byte words where
// kernels staging float4s read 16 bytes at a time, random bins where a histogram
// with a copy of its bins per lane has no conflicts. Each ceiling is now the faster
// of two shapes, both checked against the CPU, and its method gives the other's rate.
TEST(CeilingsOnTheDevice, LocalCeilingsAreTheFasterOfTwoShapes) {
  KS_NEED("opencl", test::openClMissing());
  auto compute = test::makeTestCompute();
  const MeasuredCeilings c = measureCeilings(*compute);
  struct Case {
    Ceiling kind;
    const char* phrase;
    std::regex other;  // the slower shape's rate, as the method writes it
    double rounding;   // of that rate's printed digits
  };
  const Case cases[] = {
      {Ceiling::LocalBandwidth, "the faster of 4- and 16-byte words", std::regex(R"(\((4|16)-byte: ([0-9.]+) GB/s\))"),
       0.05},
      {Ceiling::LocalAtomics, "the faster of random bins and bins spread",
       std::regex(R"(\((random|spread): ([0-9.]+) G/s\))"), 0.005}};
  for (const Case& k : cases) {
    const CeilingFigure& f = c[k.kind];
    SCOPED_TRACE(ceilingName(k.kind).key);
    ASSERT_TRUE(f.measured()) << f.error;
    std::printf("%s: %.2f %s (%s)\n", ceilingName(k.kind).label, f.value, ceilingName(k.kind).unit, f.method.c_str());
    EXPECT_NE(f.method.find(k.phrase), std::string::npos) << f.method;
    std::smatch m;
    ASSERT_TRUE(std::regex_search(f.method, m, k.other)) << f.method;
    const double other = std::stod(m[2].str());
    EXPECT_GT(other, 0.0);
    EXPECT_GE(f.value + k.rounding, other) << "the ceiling is the faster shape's rate";
  }
}

// A copy of kernels/ with ceilings.cl changed by `edits` (text -> replacement, every occurrence).
fs::path mutatedKernels(const test::TempDir& dir, const std::vector<std::pair<std::string, std::string>>& edits) {
  const fs::path kernels = dir / "kernels";
  fs::create_directories(kernels);
  for (const auto& entry : fs::directory_iterator(test::testKernelsDir())) fs::copy_file(entry.path(), kernels / entry.path().filename());
  std::string source = test::readFile(kernels / kCeilingsKernelFile);
  for (const auto& [from, to] : edits) {
    const size_t before = source.size();
    size_t at = 0, count = 0;
    while ((at = source.find(from, at)) != std::string::npos) source.replace(at, from.size(), to), at += to.size(), ++count;
    EXPECT_GT(count, 0u) << "'" << from << "' is not in ceilings.cl any more" << before;
  }
  test::writeFile(kernels / kCeilingsKernelFile, source);
  return kernels;
}

// Kernels that skip their work would give flattering figures: each benchmark checks
// its kernel's output against the CPU and gives an error instead.
TEST(CeilingsOnTheDevice, KernelsThatSkipTheirWorkGiveErrorsNotFigures) {
  KS_NEED("opencl", test::openClMissing());
  auto reference = test::makeTestCompute();
  test::TempDir dir("ks-ceilings-broken");
  // Every iteration loop runs once; the read sums every other pair of float4s.
  const fs::path kernels = mutatedKernels(dir, {{"i < iterations;", "i < 1;"}, {"k += 2)", "k += 4)"}});
  ComputeContext compute(reference->device(), kernels);
  const MeasuredCeilings c = measureCeilings(compute);
  for (Ceiling kind : {Ceiling::Read, Ceiling::Fp32Mad, Ceiling::Rsqrt, Ceiling::NativeRsqrt, Ceiling::LocalBandwidth,
                       Ceiling::LocalAtomics}) {
    EXPECT_FALSE(c[kind].measured()) << ceilingName(kind).key << " = " << c[kind].value;
    EXPECT_NE(c[kind].error.find("expected"), std::string::npos) << ceilingName(kind).key << ": " << c[kind].error;
  }
  if (compute.device().hasExtension("cl_khr_fp64")) {
    EXPECT_FALSE(c[Ceiling::Fp64Mad].measured());
    EXPECT_NE(c[Ceiling::Fp64Mad].error.find("expected"), std::string::npos) << c[Ceiling::Fp64Mad].error;
  }
  // The copy kernel (copy.cl) was left alone: it still measures.
  EXPECT_TRUE(c[Ceiling::Copy].measured()) << c[Ceiling::Copy].error;
}

TEST(CeilingsOnTheDevice, AKernelFileThatDoesNotBuildGivesErrors) {
  KS_NEED("opencl", test::openClMissing());
  auto reference = test::makeTestCompute();
  test::TempDir dir("ks-ceilings-syntax");
  const fs::path kernels = mutatedKernels(dir, {{"#define ATOMIC_BINS 256", "#define ATOMIC_BINS 256 +"}});
  ComputeContext compute(reference->device(), kernels);
  const MeasuredCeilings c = measureCeilings(compute);
  EXPECT_TRUE(c[Ceiling::Copy].measured()) << c[Ceiling::Copy].error;
  EXPECT_FALSE(c[Ceiling::Fp32Mad].measured());
  EXPECT_NE(c[Ceiling::Fp32Mad].error.find("did not build"), std::string::npos) << c[Ceiling::Fp32Mad].error;
}

// ---- the cache --------------------------------------------------------------------------

DeviceDescriptor fakeDevice(const std::string& name) {
  DeviceDescriptor d;
  d.platformName = "Test platform";
  d.name = name;
  d.driverVersion = "1.2.3";
  return d;
}

MeasuredCeilings sampleCeilings(double scale) {
  MeasuredCeilings c;
  c.time = "2026-01-02T03:04:05Z";
  for (size_t i = 0; i < kCeilingCount; ++i) {
    c.figures[i].value = scale * static_cast<double>(i + 1) + 0.125;
    c.figures[i].method = "method " + std::to_string(i);
  }
  c[Ceiling::Fp64Mad] = CeilingFigure{0.0, "", "not available: no fp64"};
  return c;
}

// Seen once on PoCL in a window: "the inverse square root kernel's result is 16.4856,
// expected 16". The kernel was right: on a loaded machine its launch had been scaled
// down to 6 iterations, and x <- 1/sqrt(x) from 5..8.75 sums to 16.4857 after 6, not
// yet 16. The check now wants what the iterations that ran give.
TEST(CeilingChecks, TheInverseSquareRootResultIsCheckedForTheIterationsThatRan) {
  EXPECT_EQ(rsqrtResultProblem(16.4856f, 6), "");
  EXPECT_NEAR(expectedRsqrtSum(0), 110.0, 1e-9);  // the starts: 5, 5.25, ..., 8.75
  for (int n = 2; n <= 64; ++n) {
    EXPECT_EQ(rsqrtResultProblem(static_cast<float>(expectedRsqrtSum(n)), n), "") << n << " iterations";
    // A kernel whose loop ran once (the mutation test's), or, while the sum still
    // moves by more than the tolerance, one iteration short.
    EXPECT_NE(rsqrtResultProblem(static_cast<float>(expectedRsqrtSum(1)), n), "") << n << " iterations";
    if (n <= 8)
      EXPECT_NE(rsqrtResultProblem(static_cast<float>(expectedRsqrtSum(n - 1)), n), "") << n << " iterations";
  }
  EXPECT_NE(rsqrtResultProblem(std::nanf(""), 8), "");
  EXPECT_NE(rsqrtResultProblem(INFINITY, 8), "");
  const std::string problem = rsqrtResultProblem(20.0f, 6);
  EXPECT_NE(problem.find("expected 16.4857 after 6 iterations"), std::string::npos) << problem;
}

// On an H200 the launch ran so many iterations that checking each of its work-items
// against a sum recomputed step by step held the viewer's start for minutes. The sum
// reaches its fixed point (x = 1 in every lane) within about 60 steps.
TEST(CeilingChecks, TheExpectedInverseSquareRootSumStopsAtItsFixedPoint) {
  EXPECT_EQ(expectedRsqrtSum(2'000'000'000), 16.0);
  EXPECT_EQ(expectedRsqrtSum(100), 16.0);
  EXPECT_EQ(rsqrtResultProblem(16.0f, 2'000'000'000), "");
  EXPECT_NE(rsqrtResultProblem(17.0f, 2'000'000'000), "");
}

TEST(CeilingsCache, RoundTripsEveryFigureMethodAndError) {
  test::TempDir dir("ks-ceilings-cache");
  CeilingsCache cache;
  cache.devices[tuningKey(fakeDevice("A"))] = sampleCeilings(1.0);
  cache.devices[tuningKey(fakeDevice("B"))] = sampleCeilings(3.5);
  ASSERT_EQ(saveCeilingsCache(cache, dir / "ceilings.json"), "");
  std::string warning;
  const CeilingsCache back = loadCeilingsCache(dir / "ceilings.json", &warning);
  EXPECT_EQ(warning, "");
  ASSERT_EQ(back.devices.size(), 2u);
  const MeasuredCeilings* b = back.find(fakeDevice("B"));
  ASSERT_NE(b, nullptr);
  const MeasuredCeilings expected = sampleCeilings(3.5);
  EXPECT_EQ(b->time, expected.time);
  for (size_t i = 0; i < kCeilingCount; ++i) {
    EXPECT_EQ(b->figures[i].value, expected.figures[i].value) << i;
    EXPECT_EQ(b->figures[i].method, expected.figures[i].method) << i;
    EXPECT_EQ(b->figures[i].error, expected.figures[i].error) << i;
  }
  // Another driver is another entry: nothing found.
  DeviceDescriptor newer = fakeDevice("B");
  newer.driverVersion = "1.2.4";
  EXPECT_EQ(back.find(newer), nullptr);
  EXPECT_EQ(loadCeilingsCache(dir / "missing.json", &warning).devices.size(), 0u);
  EXPECT_EQ(warning, "");
}

TEST(CeilingsCache, ADamagedFileIsIgnoredWithAWarningAndRewritten) {
  test::TempDir dir("ks-ceilings-damaged");
  CeilingsCache cache;
  cache.devices[tuningKey(fakeDevice("A"))] = sampleCeilings(1.0);
  const fs::path file = dir / "ceilings.json";
  ASSERT_EQ(saveCeilingsCache(cache, file), "");
  const std::string good = test::readFile(file);
  // Cut short, an entry missing a figure, another format, another version.
  nlohmann::json missingFigure = nlohmann::json::parse(good);
  missingFigure["devices"].begin().value()["figures"].erase("local_gbps");
  nlohmann::json otherVersion = nlohmann::json::parse(good);
  otherVersion["version"] = 99;
  for (const std::string& damaged : {good.substr(0, good.size() / 2), missingFigure.dump(), std::string("{\"format\": \"x\"}"),
                                     otherVersion.dump()}) {
    test::writeFile(file, damaged);
    std::string warning;
    const CeilingsCache loaded = loadCeilingsCache(file, &warning);
    EXPECT_TRUE(loaded.devices.empty());
    EXPECT_NE(warning.find("ignoring ceilings cache"), std::string::npos) << warning;
    EXPECT_NE(warning.find("rewritten empty"), std::string::npos) << warning;
    // Rewritten: the next load is quiet.
    std::string again;
    EXPECT_TRUE(loadCeilingsCache(file, &again).devices.empty());
    EXPECT_EQ(again, "") << damaged;
  }
}

// ---- run records ------------------------------------------------------------------------

TEST(CeilingsInRunRecords, CsvColumnsAndJsonKeysCarryEveryCeiling) {
  RunRecord measured, unmeasured;
  measured.name = "with ceilings";
  measured.meta.ceilings = ceilingValues(sampleCeilings(2.0));
  unmeasured.name = "without";
  const std::string csv = runsToCsv({measured, unmeasured});
  const std::string header = csv.substr(0, csv.find('\n'));
  for (size_t i = 0; i < kCeilingCount; ++i)
    EXPECT_NE(header.find(std::string(",ceiling_") + ceilingName(ceilingAt(i)).key), std::string::npos)
        << ceilingName(ceilingAt(i)).key << " in " << header;
  const auto fromCsv = runsFromCsv(csv);
  ASSERT_TRUE(fromCsv) << fromCsv.error().what();
  const auto fromJson = runsFromJson(runsToJson({measured, unmeasured}));
  ASSERT_TRUE(fromJson) << fromJson.error().what();
  for (const auto* runs : {&*fromCsv, &*fromJson}) {
    ASSERT_EQ(runs->size(), 2u);
    EXPECT_EQ((*runs)[0].meta.ceilings, measured.meta.ceilings);
    EXPECT_EQ((*runs)[1].meta.ceilings, CeilingValues{});
  }
  // JSON: metadata.ceilings by the same keys; null where the run had none (FP64 here).
  const auto j = nlohmann::json::parse(runsToJson({measured}));
  const auto& keys = j.at("runs")[0].at("metadata").at("ceilings");
  EXPECT_EQ(keys.size(), kCeilingCount);
  EXPECT_EQ(keys.at("fp32_mad_gflops").get<double>(), measured.meta.ceilings[static_cast<size_t>(Ceiling::Fp32Mad)]);
  EXPECT_TRUE(keys.at("fp64_mad_gflops").is_null());
}

// ---- the viewer: a step per frame, "Measure again" -------------------------------------------

class CeilingsInTheViewer : public test::SessionFixture {
 protected:
  CeilingsInTheViewer() : SessionFixture(320, 240, 256) { ceilingsKnown_ = false; }
  void configure() override { state_.ceilingsFile = dir_ / "ceilings.json"; }
  // Frames until the measurement ends; returns how many frames it took.
  int framesUntilMeasured() {
    int frames = 0;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (state_.ceilings.measuring && std::chrono::steady_clock::now() < deadline) {
      const auto start = std::chrono::steady_clock::now();
      frame();
      longestFrameMs_ = std::max(longestFrameMs_, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
      ++frames;
      if (!state_.ceilings.progress.empty()) progressSeen_.push_back(state_.ceilings.progress);
    }
    return frames;
  }
  test::TempDir dir_{"ks-ceilings-viewer"};
  std::vector<std::string> progressSeen_;
  double longestFrameMs_ = 0.0;
};

TEST_F(CeilingsInTheViewer, MeasuresOneBenchmarkPerFrameCachesAndMeasuresAgain) {
  ASSERT_TRUE(state_.ceilings.measuring);  // a new device: nothing cached
  const int frames = framesUntilMeasured();
  ASSERT_FALSE(state_.ceilings.measuring) << "not done after " << frames << " frames";
  // One micro-benchmark per frame (and frames while the kernels compile): never all at once.
  EXPECT_GE(frames, static_cast<int>(kCeilingCount));
  // For the record (a shared machine's timings, nothing to assert): the longest frame meanwhile.
  std::printf("measured in %d frames, the longest %.0f ms (scene included)\n", frames, longestFrameMs_);
  EXPECT_TRUE(std::any_of(progressSeen_.begin(), progressSeen_.end(),
                          [](const std::string& p) { return p.find("(3 of 8)") != std::string::npos; }));
  EXPECT_GT(state_.ceilings.measured.value(Ceiling::Fp32Mad), 0.0) << state_.ceilings.measured[Ceiling::Fp32Mad].error;
  // Cached in the file, under this device.
  std::string warning;
  CeilingsCache onDisk = loadCeilingsCache(state_.ceilingsFile, &warning);
  ASSERT_NE(onDisk.find(session_->compute().device()), nullptr) << warning;
  EXPECT_EQ(onDisk.find(session_->compute().device())->time, state_.ceilings.measured.time);

  // Measure again replaces the entry (marked here so the new one is told apart).
  state_.ceilingsCache.devices[tuningKey(session_->compute().device())].time = "marked";
  state_.commands.push(MeasureCeilings{});
  frame();
  EXPECT_TRUE(state_.ceilings.measuring);
  framesUntilMeasured();
  ASSERT_FALSE(state_.ceilings.measuring);
  onDisk = loadCeilingsCache(state_.ceilingsFile, &warning);
  ASSERT_NE(onDisk.find(session_->compute().device()), nullptr) << warning;
  EXPECT_NE(onDisk.find(session_->compute().device())->time, "marked");
  EXPECT_NE(state_.ceilings.source.find("measured"), std::string::npos) << state_.ceilings.source;
}

}  // namespace
}  // namespace ks
