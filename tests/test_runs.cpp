// Runs as files (CSV and JSON round trips, bad files refused), sweep plans
// (invalid combinations filtered with the variant tables' reasons) and the
// tuning cache (round trip; corrupt or old files ignored with a warning and
// rewritten). No OpenCL device needed: devices are descriptors.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "lab/run_bound.h"
#include "lab/run_record.h"
#include "lab/sweep_runs.h"
#include "lab/tuning_cache.h"
#include "compute/nbody_tuning.h"
#include "compute/sweep_plan.h"
#include "test_support.h"

namespace ks {
namespace {

DeviceDescriptor fakeGpu(size_t maxGroup = 1024, uint64_t localMem = 48 * 1024) {
  DeviceDescriptor d;
  d.platformName = "Fake Platform";
  d.name = "Fake GPU";
  d.driverVersion = "1.2.3";
  d.kind = DeviceKind::Gpu;
  d.maxWorkGroupSize = maxGroup;
  d.maxWorkItemSizes = {maxGroup, maxGroup, 64};
  d.localMemBytes = localMem;
  d.maxAllocBytes = 1ull << 30;
  return d;
}

RunRecord sampleRun(const std::string& name, double rate) {
  RunRecord r;
  r.name = name;
  r.meta = runMetadataFor(fakeGpu());
  r.meta.scene = "nbody";
  r.meta.interop = "host";
  r.meta.sourceHash = hexHash(0x0123456789abcdefull);
  r.meta.parameters = {{"variant", "blocked"}, {"work_group", "256"}, {"extra_options", "-DX=1, \"quoted\""}};
  r.m.frames = 120;
  r.m.seconds = 2.5;
  r.m.fps = 48.0;
  r.m.frameMs = summarize({20.0, 21.0, 19.5, 25.0});
  r.m.kernelMs = summarize({1.25, 1.5, 1.0, 3.0, 1.125});
  r.m.rate = rate;
  r.m.rateUnit = "GFLOP/s";
  r.m.bound = "n-body step: FP32 issue: 74 %; histogram: local atomics: 104 %";
  return r;
}

void expectSameRun(const RunRecord& a, const RunRecord& b) {
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.status, b.status);
  EXPECT_EQ(a.meta.device, b.meta.device);
  EXPECT_EQ(a.meta.platform, b.meta.platform);
  EXPECT_EQ(a.meta.driver, b.meta.driver);
  EXPECT_EQ(a.meta.deviceKind, b.meta.deviceKind);
  EXPECT_EQ(a.meta.interop, b.meta.interop);
  EXPECT_EQ(a.meta.scene, b.meta.scene);
  EXPECT_EQ(a.meta.version, b.meta.version);
  EXPECT_EQ(a.meta.sourceHash, b.meta.sourceHash);
  EXPECT_EQ(a.meta.time, b.meta.time);
  EXPECT_EQ(a.meta.host, b.meta.host);
  EXPECT_EQ(a.meta.parameters, b.meta.parameters);
  EXPECT_EQ(a.m.frames, b.m.frames);
  EXPECT_DOUBLE_EQ(a.m.seconds, b.m.seconds);
  EXPECT_DOUBLE_EQ(a.m.fps, b.m.fps);
  EXPECT_EQ(a.m.kernelMs.count, b.m.kernelMs.count);
  EXPECT_DOUBLE_EQ(a.m.kernelMs.median, b.m.kernelMs.median);
  EXPECT_DOUBLE_EQ(a.m.kernelMs.p95, b.m.kernelMs.p95);
  EXPECT_DOUBLE_EQ(a.m.kernelMs.min, b.m.kernelMs.min);
  EXPECT_DOUBLE_EQ(a.m.frameMs.median, b.m.frameMs.median);
  EXPECT_DOUBLE_EQ(a.m.frameMs.p95, b.m.frameMs.p95);
  EXPECT_DOUBLE_EQ(a.m.rate, b.m.rate);
  EXPECT_EQ(a.m.rateUnit, b.m.rateUnit);
  EXPECT_EQ(a.m.bound, b.m.bound);
}

// ---- run files ---------------------------------------------------------------

// What a refused runs text is refused with ("" when it was read: the checks on it then fail).
std::string refusalOf(const Result<std::vector<RunRecord>>& read) { return read ? "" : read.error().what(); }

TEST(RunFiles, MetadataNamesDeviceVersionTimeAndHost) {
  const RunMetadata m = runMetadataFor(fakeGpu());
  EXPECT_EQ(m.device, "Fake GPU");
  EXPECT_EQ(m.platform, "Fake Platform");
  EXPECT_EQ(m.driver, "1.2.3");
  EXPECT_EQ(m.version.rfind(KERNELSCOPE_VERSION, 0), 0u) << m.version;
  ASSERT_EQ(m.time.size(), 20u) << m.time;  // 2026-11-22T03:04:05Z
  EXPECT_EQ(m.time[10], 'T');
  EXPECT_EQ(m.time.back(), 'Z');
  EXPECT_FALSE(m.host.empty());
}

TEST(RunFiles, JsonRoundTripKeepsEverything) {
  RunRecord refused = sampleRun("refused one", 0.0);
  refused.status = "refused: unroll 4 is not offered by the naive variant";
  refused.meta.parameters = {{"variant", "naive"}, {"unroll", "4"}};
  const std::vector<RunRecord> runs = {sampleRun("a, \"first\"", 123.5), refused};
  const auto back = runsFromJson(runsToJson(runs));
  ASSERT_TRUE(back) << back.error().what();
  ASSERT_EQ(back->size(), runs.size());
  for (size_t i = 0; i < runs.size(); ++i) expectSameRun(runs[i], (*back)[i]);
}

TEST(RunFiles, CsvRoundTripKeepsEveryColumn) {
  RunRecord other = sampleRun("second", 7.25);
  other.meta.parameters = {{"variant", "tiled"}, {"tile", "32"}};  // a key the first run lacks
  other.meta.host = "line\nbreak";
  const std::vector<RunRecord> runs = {sampleRun("first", 1e3 / 3.0), other};
  const std::string csv = runsToCsv(runs);
  EXPECT_EQ(csv.rfind("name,status,scene,device,platform,driver,", 0), 0u) << csv;
  EXPECT_NE(csv.find(",param:variant,param:work_group,param:extra_options,param:tile\n"), std::string::npos) << csv;
  const auto back = runsFromCsv(csv);
  ASSERT_TRUE(back) << back.error().what();
  ASSERT_EQ(back->size(), runs.size());
  for (size_t i = 0; i < runs.size(); ++i) {
    // CSV keeps the summary's median, p95, min, max, mean, stddev and count (not "last").
    expectSameRun(runs[i], (*back)[i]);
  }
}

// A step split over devices (issue 24) keeps its figures in both files; a run
// on one device says 1 device and leaves the split's figures empty (CSV) or null (JSON).
TEST(RunFiles, SplitRunsKeepDevicesKernelTimesExchangeBalanceAndEfficiency) {
  RunRecord split = sampleRun("split", 900.0);
  split.m.split.devices = 3;
  split.m.split.deviceKernelMs = {12.5, 12.75, 13.0625};
  split.m.split.exchangeMs = 0.375;
  split.m.split.loadBalance = 0.96875;
  split.m.split.parallelEfficiency = 0.9453125;
  const RunRecord one = sampleRun("one", 300.0);
  const std::string csv = runsToCsv({split, one});
  EXPECT_NE(csv.find(",device_count,device_kernel_ms,exchange_ms,load_balance,parallel_efficiency"), std::string::npos)
      << csv;
  EXPECT_NE(csv.find(",3,12.5;12.75;13.0625,0.375,0.96875,0.9453125"), std::string::npos) << csv;
  EXPECT_NE(csv.find(",1,,,,"), std::string::npos) << csv;
  const std::string json = runsToJson({split, one});
  EXPECT_NE(json.find("\"exchange_ms\": null"), std::string::npos) << json;
  for (const auto& back : {runsFromCsv(csv), runsFromJson(json)}) {
    ASSERT_TRUE(back) << back.error().what();
    ASSERT_EQ(back->size(), 2u);
    const RunSplit& s = (*back)[0].m.split;
    EXPECT_EQ(s.devices, 3);
    EXPECT_EQ(s.deviceKernelMs, split.m.split.deviceKernelMs);
    EXPECT_EQ(s.exchangeMs, 0.375);
    EXPECT_EQ(s.loadBalance, 0.96875);
    EXPECT_EQ(s.parallelEfficiency, 0.9453125);
    EXPECT_EQ((*back)[1].m.split.devices, 1);
    EXPECT_TRUE((*back)[1].m.split.deviceKernelMs.empty());
  }
}

// Export names the whole path it wrote (it named only the file, written wherever
// kernelscope had been started), and says why when it wrote nothing.
TEST(RunFiles, ExportNamesTheWholePathWritten) {
  test::TempDir dir("ks-export");
  const std::vector<RunRecord> runs = {sampleRun("a", 1.0), sampleRun("b", 2.0)};
  const std::filesystem::path previous = std::filesystem::current_path();
  std::filesystem::current_path(dir.path());
  const ExportOutcome csv = exportRuns(runs, "my-runs", false);
  const ExportOutcome json = exportRuns(runs, "sub/../my-runs", true);
  const ExportOutcome unnamed = exportRuns(runs, "", false);
  std::filesystem::create_directory(dir.path() / "taken.csv");  // a folder where the file would go
  const ExportOutcome refused = exportRuns(runs, "taken", false);
  std::filesystem::current_path(previous);
  const std::string folder = std::filesystem::canonical(dir.path()).string();
  EXPECT_TRUE(csv.written && json.written);
  EXPECT_EQ(csv.message, "wrote 2 runs to " + (std::filesystem::path(folder) / "my-runs.csv").string());
  EXPECT_EQ(json.message, "wrote 2 runs to " + (std::filesystem::path(folder) / "my-runs.json").string());
  EXPECT_TRUE(std::filesystem::exists(dir.path() / "my-runs.csv"));
  EXPECT_TRUE(std::filesystem::exists(dir.path() / "my-runs.json"));
  EXPECT_FALSE(unnamed.written);
  EXPECT_EQ(unnamed.message, "give the file a name first");
  EXPECT_FALSE(refused.written);
  EXPECT_EQ(refused.message.find("wrote"), std::string::npos) << refused.message;
  EXPECT_NE(refused.message.find("taken.csv"), std::string::npos) << refused.message;
}

TEST(RunFiles, CsvWithAChangedHeaderIsRefused) {
  std::string csv = runsToCsv({sampleRun("a", 1.0)});
  csv.replace(0, 4, "nome");
  const std::string error = refusalOf(runsFromCsv(csv));
  EXPECT_NE(error.find("column 1 is 'nome', expected 'name'"), std::string::npos) << error;
}

TEST(RunFiles, BadJsonIsRefusedWithAReason) {
  std::string error;
  error = refusalOf(runsFromJson("{ not json"));
  EXPECT_NE(error.find("not JSON"), std::string::npos) << error;
  error = refusalOf(runsFromJson(R"({"version": 1, "runs": []})"));
  EXPECT_NE(error.find("not a kernelscope runs file"), std::string::npos) << error;
  error = refusalOf(runsFromJson(R"({"format": "kernelscope-runs", "version": 0, "runs": []})"));
  EXPECT_NE(error.find("version 0"), std::string::npos) << error;
  EXPECT_NE(error.find("older"), std::string::npos) << error;
  error = refusalOf(runsFromJson(R"({"format": "kernelscope-runs", "version": 1, "runs": [{"name": "x"}]})"));
  EXPECT_NE(error.find("malformed runs file"), std::string::npos) << error;
}

TEST(RunFiles, FilesWriteAndReadBack) {
  test::TempDir dir("ks-runs");
  const std::vector<RunRecord> runs = {sampleRun("a", 1.0), sampleRun("b", 2.0)};
  ASSERT_EQ(writeRunsJson(runs, dir / "sub/runs.json"), "");
  ASSERT_EQ(writeRunsCsv(runs, dir / "runs.csv"), "");
  std::string error;
  const auto back = readRunsJson(dir / "sub/runs.json", &error);
  ASSERT_TRUE(back) << error;
  EXPECT_EQ(back->size(), 2u);
  EXPECT_FALSE(readRunsJson(dir / "missing.json", &error));
  EXPECT_NE(error.find("cannot read"), std::string::npos) << error;
}

TEST(RunFiles, BestRunIsTheHighestRateThatRan) {
  std::vector<RunRecord> runs = {sampleRun("slow", 1.0), sampleRun("refused", 0.0), sampleRun("fast", 9.0)};
  runs[1].status = "refused: no";
  runs.push_back(sampleRun("failed but high", 100.0));
  runs.back().status = "failed: x";
  EXPECT_EQ(bestRunIndex(runs), 2);
  EXPECT_EQ(bestRunIndex({}), -1);
}

// ---- sweep plans ---------------------------------------------------------------

TEST(SweepPlan, NBodyProductSplitsValidFromRefusedWithReasons) {
  NBodySweepRanges r;
  r.variants = {"naive", "tiled"};
  r.workGroups = {32, 48, 64};
  r.unrolls = {1, 4};
  const SweepPlan<NBodyConfig> plan = planNBodySweep(r, NBodyConfig{}, fakeGpu());
  EXPECT_EQ(plan.total(), 2u * 3u * 2u);
  // naive: wg 32, 64 with unroll 1; tiled: wg 32, 64 x unroll 1, 4
  EXPECT_EQ(plan.valid.size(), 6u);
  for (const NBodyConfig& c : plan.valid) EXPECT_EQ(nbodyConfigProblem(c, fakeGpu()), "") << describeNBodyConfig(c);
  size_t notMultiple = 0, noUnroll = 0;
  for (const auto& [c, why] : plan.refused) {
    EXPECT_EQ(nbodyConfigProblem(c, fakeGpu()), why);
    notMultiple += why.find("not a multiple of 32") != std::string::npos;
    noUnroll += why.find("not offered by the naive variant") != std::string::npos;
  }
  EXPECT_EQ(notMultiple, 4u);  // wg 48: naive x 2 unrolls + tiled x 2 unrolls
  EXPECT_EQ(noUnroll, 2u);     // naive unroll 4 at wg 32, 64
}

TEST(SweepPlan, NBodyDefaultsStopAtTheDeviceLimitAndKeepTheBase) {
  NBodyConfig base;
  base.denormsAreZero = true;
  base.nativeRsqrt = false;
  const SweepPlan<NBodyConfig> plan = planNBodySweep({{"tiled"}, {}, {8}, {}, {}}, base, fakeGpu(256));
  std::vector<int> groups;
  for (const auto& c : plan.valid) {
    groups.push_back(c.workGroup);
    EXPECT_TRUE(c.denormsAreZero);
    EXPECT_FALSE(c.nativeRsqrt);
  }
  EXPECT_EQ(groups, (std::vector<int>{32, 64, 128, 256}));
  // wg 32 x unroll 8 and up: all fine; nothing above 256 is even tried
  EXPECT_TRUE(plan.refused.empty());
}

TEST(SweepPlan, NBodyLocalMemoryAndUnknownVariantsAreRefused) {
  // 1 KiB of local memory: tiles of 64 fp32 bodies (1 KiB) fit, 128 do not.
  const SweepPlan<NBodyConfig> plan = planNBodySweep({{"tiled", "warp"}, {64, 128}, {1}, {}, {}}, NBodyConfig{},
                                                     fakeGpu(1024, 1024));
  ASSERT_EQ(plan.valid.size(), 1u);
  EXPECT_EQ(plan.valid[0].workGroup, 64);
  bool local = false, unknown = false;
  for (const auto& [c, why] : plan.refused) {
    local = local || why.find("local memory") != std::string::npos;
    unknown = unknown || why.find("unknown variant 'warp'") != std::string::npos;
  }
  EXPECT_TRUE(local);
  EXPECT_TRUE(unknown);
}

TEST(SweepPlan, TransposeAppliesEachRangeToTheVariantsThatHaveIt) {
  TransposeSweepRanges r;
  r.variants = {"naive", "tiled", "block4x4"};
  r.tiles = {16, 64};         // tiled offers 16 (not 64), block4x4 offers 64 (not 16)
  r.rowsPerItem = {4};
  r.workGroups = {256, 512};  // 512 is not offered by block4x4
  r.naiveShapes = {{32, 8}, {64, 64}};  // 4096 work-items exceed the device
  const SweepPlan<TransposeConfig> plan = planTransposeSweep(r, fakeGpu(), 4);
  EXPECT_EQ(plan.total(), 2u + 2u + 4u);
  std::vector<std::string> valid;
  for (const auto& c : plan.valid) valid.push_back(describeTransposeConfig(c));
  EXPECT_EQ(plan.valid.size(), 3u) << ::testing::PrintToString(valid);  // naive 32x8, tiled T=16 r=4, block4x4 T=64 wg=256
  for (const auto& [c, why] : plan.refused) {
    EXPECT_FALSE(why.empty());
    EXPECT_EQ(imageTransposeConfigProblem(c, fakeGpu(), 4), why);
  }
}

TEST(SweepPlan, TransposeDefaultsMatchTheTable) {
  const SweepPlan<TransposeConfig> plan = planTransposeSweep({}, fakeGpu(), 1);
  const std::vector<TransposeConfig> all = allTransposeConfigs(fakeGpu(), 1);
  for (const auto& c : plan.valid) {
    EXPECT_NE(std::find(all.begin(), all.end(), c), all.end()) << describeTransposeConfig(c);
  }
  EXPECT_EQ(plan.total(), plan.valid.size() + plan.refused.size());
  EXPECT_GT(plan.valid.size(), 20u);
}

// ---- tuning cache ---------------------------------------------------------------

TEST(TuningCache, RoundTripAndPreferredConfigs) {
  test::TempDir dir("ks-tuning");
  const DeviceDescriptor gpu = fakeGpu();
  TuningCache cache;
  NBodyConfig c;
  c.variant = "tiled";
  c.workGroup = 128;
  c.unroll = 16;
  c.bodiesPerItem = 1;
  c.split = 1;
  TransposeConfig t;
  t.variant = "tiled_padded";
  t.tile = 16;
  t.rowsPerItem = 2;
  cache.devices[tuningKey(gpu)].nbody = TunedNBody{c, 65536, 1234.5, "2026-11-22T03:00:00Z"};
  cache.devices[tuningKey(gpu)].transpose[4] = TunedTranspose{t, "2048x2048 RGBA", 900.0, "2026-11-22T03:00:00Z"};
  ASSERT_EQ(saveTuningCache(cache, dir / "tuning.json"), "");
  std::string warning;
  const TuningCache back = loadTuningCache(dir / "tuning.json", &warning);
  EXPECT_EQ(warning, "");
  EXPECT_EQ(preferredNBodyConfig(back, gpu, 1000), c);
  ASSERT_TRUE(preferredTransposeConfig(back, gpu, 4));
  EXPECT_EQ(*preferredTransposeConfig(back, gpu, 4), t);
  EXPECT_FALSE(preferredTransposeConfig(back, gpu, 1));
  // Another driver is another key: the built-in table applies.
  DeviceDescriptor newer = gpu;
  newer.driverVersion = "2.0";
  EXPECT_EQ(preferredNBodyConfig(back, newer, 1000), tunedNBodyConfig(newer, 1000));
  // A cached winner the device cannot run (smaller limit) falls back too.
  EXPECT_EQ(preferredNBodyConfig(back, fakeGpu(64), 1000), tunedNBodyConfig(fakeGpu(64), 1000));
}

// Rotate and histogram winners (issue 21, item 2): kept per device and pixel size,
// offered only where the device runs them (an image2d_t rotation only where the
// image fits the device's 2D images).
TEST(TuningCache, RotateAndHistogramWinnersRoundTripAndAreOfferedWhereTheyRun) {
  test::TempDir dir("ks-tuning-image-ops");
  const DeviceDescriptor gpu = fakeGpu();
  RotateConfig r;
  r.variant = "bilinear_image";
  r.workGroupX = 32;
  r.workGroupY = 8;
  r.pixelsPerItem = 2;
  r.rowsPerItem = 2;
  ASSERT_EQ(imageRotateConfigProblem(r, gpu, 4), "");
  HistogramConfig h = defaultHistogramConfig(1);
  h.copies = 4;
  h.groupsPerComputeUnit = 16;
  ASSERT_EQ(imageHistogramConfigProblem(h, gpu, 1), "");
  TuningCache cache;
  cache.devices[tuningKey(gpu)].rotate[4] = TunedRotate{r, "2048x2048 RGBA", 300.0, "2026-11-26T23:00:00Z"};
  cache.devices[tuningKey(gpu)].histogram[1] = TunedHistogram{h, "2048x2048 gray", 80.0, "2026-11-26T23:00:00Z"};
  ASSERT_EQ(saveTuningCache(cache, dir / "tuning.json"), "");
  std::string warning;
  const TuningCache back = loadTuningCache(dir / "tuning.json", &warning);
  EXPECT_EQ(warning, "");
  const ImageLayout rgba{2048, 2048, 4};
  const std::array<size_t, 2> large{16384, 16384}, small{1024, 1024};
  ASSERT_TRUE(preferredRotateConfig(back, gpu, rgba, large));
  EXPECT_EQ(*preferredRotateConfig(back, gpu, rgba, large), r);
  EXPECT_EQ(back.find(gpu)->rotate.at(4).image, "2048x2048 RGBA");
  EXPECT_DOUBLE_EQ(back.find(gpu)->rotate.at(4).rate, 300.0);
  EXPECT_FALSE(preferredRotateConfig(back, gpu, rgba, small)) << "the picture is larger than the device's 2D images";
  EXPECT_FALSE(preferredRotateConfig(back, gpu, {2048, 2048, 1}, large)) << "no gray winner";
  ASSERT_TRUE(preferredHistogramConfig(back, gpu, 1));
  EXPECT_EQ(*preferredHistogramConfig(back, gpu, 1), h);
  EXPECT_FALSE(preferredHistogramConfig(back, gpu, 4));
  EXPECT_FALSE(preferredHistogramConfig(back, fakeGpu(64), 1)) << "a device that refuses 256-item groups";
}

// tuning.json as versions before rotate and histogram winners wrote it still loads.
TEST(TuningCache, AFileWithoutRotateOrHistogramWinnersLoads) {
  test::TempDir dir("ks-tuning-earlier");
  const DeviceDescriptor gpu = fakeGpu();
  test::writeFile(dir / "tuning.json", R"({"format": "kernelscope-tuning", "version": 1, "devices": {")" +
                                           tuningKey(gpu) + R"(": {"transpose": {"4": {"variant": "tiled", "tile": 16,
      "rows_per_item": 2, "work_group": 64, "work_group_x": 16, "work_group_y": 16, "image": "2048x2048 RGBA",
      "gbps": 12.5, "time": "2026-11-20T00:00:00Z"}}}}})");
  std::string warning;
  const TuningCache cache = loadTuningCache(dir / "tuning.json", &warning);
  EXPECT_EQ(warning, "");
  ASSERT_TRUE(cache.find(gpu));
  EXPECT_EQ(cache.find(gpu)->transpose.at(4).config.variant, "tiled");
  EXPECT_TRUE(cache.find(gpu)->rotate.empty());
  EXPECT_TRUE(cache.find(gpu)->histogram.empty());
}

TEST(TuningCache, CorruptOrOldFileIsIgnoredWithAWarningAndRewritten) {
  test::TempDir dir("ks-tuning-bad");
  for (const std::string& text : {std::string("{ this is not json"),
                                 std::string(R"({"format": "kernelscope-tuning", "version": 0, "devices": {}})"),
                                 std::string(R"({"format": "kernelscope-tuning", "version": 1, "devices": {"x": {"nbody": {"variant": 3}}}})")}) {
    test::writeFile(dir / "tuning.json", text);
    std::string warning;
    const TuningCache cache = loadTuningCache(dir / "tuning.json", &warning);
    EXPECT_TRUE(cache.devices.empty());
    EXPECT_NE(warning.find("ignoring tuning cache"), std::string::npos) << warning;
    EXPECT_NE(warning.find("rewritten"), std::string::npos) << warning;
    const auto rewritten = nlohmann::json::parse(test::readFile(dir / "tuning.json"));
    EXPECT_EQ(rewritten.at("version").get<int>(), TuningCache::kVersion);
    EXPECT_EQ(rewritten.at("format").get<std::string>(), "kernelscope-tuning");
    std::string again;
    loadTuningCache(dir / "tuning.json", &again);
    EXPECT_EQ(again, "") << "the rewritten file loads without a warning";
  }
}

TEST(TuningCache, MissingFileIsEmptyWithoutWarning) {
  test::TempDir dir("ks-tuning-none");
  std::string warning;
  EXPECT_TRUE(loadTuningCache(dir / "tuning.json", &warning).devices.empty());
  EXPECT_EQ(warning, "");
  EXPECT_FALSE(std::filesystem::exists(dir / "tuning.json"));
}

// The Runs panel's column (issue 23, item 3): each kernel's binding ceiling and
// fraction, read back from the record's text as the recorder and the benches write it.
TEST(RunBound, TheColumnShowsTheCeilingAndFractionOfEachKernel) {
  EXPECT_EQ(runBoundCell("n-body step: FP32 issue: 74 %"), "FP32 issue 74 %");
  EXPECT_EQ(runBoundCell("rotate: DRAM: 85 %; histogram: local atomics: 104 %"),
            "rotate: DRAM 85 %\nhistogram: local atomics 104 %");
  const std::vector<RunKernelBound> e = parseRunBound("transpose tiled: DRAM read: 92 %; to_rgba: DRAM: 7 %");
  ASSERT_EQ(e.size(), 2u);
  EXPECT_EQ(e[0].kernel, "transpose tiled");
  EXPECT_EQ(e[0].ceiling, "DRAM read");
  EXPECT_EQ(e[0].percent, 92.0);
  EXPECT_EQ(e[1].kernel, "to_rgba");
  EXPECT_EQ(e[1].percent, 7.0);
  EXPECT_EQ(runBoundPercent("rotate: DRAM: 85 %; histogram: local atomics: 104 %"), 104.0) << "the largest";
  // Nothing bound (no ceilings measured), or text that is not "kernel: ceiling: NN %".
  EXPECT_EQ(runBoundCell(""), "");
  EXPECT_EQ(runBoundPercent(""), -1.0);
  EXPECT_EQ(runBoundCell("FP32 issue: 74 %"), "") << "no kernel named";
  EXPECT_EQ(runBoundCell("n-body step: FP32 issue: most"), "");
  EXPECT_EQ(runBoundCell("n-body step: FP32 issue: 74 %; junk"), "FP32 issue 74 %");
}

}  // namespace
}  // namespace ks
