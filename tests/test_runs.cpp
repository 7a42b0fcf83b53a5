// Runs as files (CSV and JSON round trips, bad files refused), sweep plans
// (invalid combinations filtered with the variant tables' reasons) and the
// tuning cache (round trip; corrupt or old files ignored with a warning and
// rewritten). No OpenCL device needed: devices are descriptors.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <nlohmann/json.hpp>

#include "lab/run_bound.h"
#include "lab/histogram_runs.h"
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

// A CSV written before a column existed (07a26a2 wrote none of the bound, ceilings,
// stage times, energy or drift columns) loads with those fields empty; the columns
// are found by name (they were read by place, and such a file was refused).
TEST(RunFiles, ACsvWithoutTheLaterColumnsStillLoads) {
  const std::string current = runsToCsv({sampleRun("a, \"first\"", 123.5)});
  // The same file without every column after rate_unit but the parameters.
  std::vector<std::vector<std::string>> cells;
  std::istringstream lines(current);
  std::string line;
  std::vector<bool> keep;
  std::string old;
  for (int n = 0; std::getline(lines, line); ++n) {
    // (the sample's fields hold no comma but its name's, which comes first, quoted)
    std::vector<std::string> fields;
    bool quoted = false;
    std::string field;
    for (char ch : line) {
      if (ch == '"') quoted = !quoted;
      if (ch == ',' && !quoted) fields.push_back(field), field.clear();
      else field += ch;
    }
    fields.push_back(field);
    if (n == 0) {
      bool later = false;
      for (const std::string& f : fields) {
        keep.push_back(!later || f.rfind("param:", 0) == 0);
        later = later || f == "rate_unit";
      }
    }
    std::string out;
    for (size_t i = 0; i < fields.size(); ++i)
      if (keep[i]) out += (out.empty() ? "" : ",") + fields[i];
    old += out + "\n";
  }
  ASSERT_EQ(old.find("bound"), std::string::npos) << old;
  const auto runs = runsFromCsv(old);
  ASSERT_TRUE(runs) << refusalOf(runs);
  ASSERT_EQ(runs->size(), 1u);
  const RunRecord& r = runs->front();
  EXPECT_EQ(r.name, "a, \"first\"");
  EXPECT_DOUBLE_EQ(r.m.rate, 123.5);
  EXPECT_TRUE(r.m.bound.empty());
  EXPECT_FALSE(r.meta.parameters.empty()) << "the parameters are read after the missing columns too";
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

// A runs file as the first version that wrote them (07a26a2, app/run_record.cpp's
// runsToJson) did: a --bench transpose sweep row and an N-body recording, with
// none of the keys added since (ceilings, bound, stage times, energy, drift,
// devices). The Runs panel's import reads it; what it lacks stays empty.
TEST(RunFiles, TheFirstVersionsJsonStillLoads) {
  const std::string json = R"JSON({
  "format": "kernelscope-runs",
  "runs": [
    {
      "measurements": {
        "fps": 0.0,
        "frame_ms": {"count": 0, "last": 0.0, "max": 0.0, "mean": 0.0, "median": 0.0, "min": 0.0, "p95": 0.0, "stddev": 0.0},
        "frames": 0,
        "kernel_ms": {"count": 20, "last": 1.9, "max": 2.5, "mean": 2.0, "median": 1.95, "min": 1.8, "p95": 2.4, "stddev": 0.2},
        "rate": 8.6,
        "rate_unit": "GB/s",
        "seconds": 0.0
      },
      "metadata": {
        "device": "pthread-haswell-AMD EPYC",
        "device_kind": "CPU",
        "driver": "3.1+debian",
        "host": "vm",
        "interop": "",
        "kernelscope_version": "0.1.0 (07a26a2)",
        "parameters": [{"name": "variant", "value": "tiled"}, {"name": "tile", "value": "16"}, {"name": "rows_per_item", "value": "2"}, {"name": "padded", "value": "0"}, {"name": "image", "value": "2048x2048 RGBA"}, {"name": "iterations", "value": "20"}],
        "platform": "Portable Computing Language",
        "scene": "transpose",
        "source_hash": "1f2e3d4c5b6a7980",
        "time": "2026-11-20T10:00:00Z"
      },
      "name": "transpose tiled T=16 rows=2",
      "status": "ok"
    },
    {
      "measurements": {
        "fps": 41.2,
        "frame_ms": {"count": 300, "last": 24.1, "max": 40.0, "mean": 24.3, "median": 24.0, "min": 20.0, "p95": 30.0, "stddev": 2.0},
        "frames": 300,
        "kernel_ms": {"count": 300, "last": 3.1, "max": 5.0, "mean": 3.2, "median": 3.1, "min": 2.9, "p95": 3.9, "stddev": 0.3},
        "rate": 6.2,
        "rate_unit": "GFLOP/s",
        "seconds": 7.28
      },
      "metadata": {
        "device": "pthread-haswell-AMD EPYC",
        "device_kind": "CPU",
        "driver": "3.1+debian",
        "host": "vm",
        "interop": "host",
        "kernelscope_version": "0.1.0 (07a26a2)",
        "parameters": [{"name": "variant", "value": "blocked"}, {"name": "work_group", "value": "64"}, {"name": "unroll", "value": "8"}, {"name": "bodies_per_item", "value": "1"}, {"name": "split", "value": "1"}, {"name": "precision", "value": "fp32"}, {"name": "native_rsqrt", "value": "1"}, {"name": "fast_math", "value": "0"}, {"name": "ftz", "value": "0"}, {"name": "extra_options", "value": ""}, {"name": "bodies", "value": "1024"}],
        "platform": "Portable Computing Language",
        "scene": "nbody",
        "source_hash": "0a1b2c3d4e5f6071",
        "time": "2026-11-20T10:05:00Z"
      },
      "name": "recording 1",
      "status": "ok"
    }
  ],
  "version": 1
}
)JSON";
  const auto runs = runsFromJson(json);
  ASSERT_TRUE(runs) << runs.error().what();
  ASSERT_EQ(runs->size(), 2u);
  const RunRecord& transpose = runs->at(0);
  EXPECT_EQ(transpose.name, "transpose tiled T=16 rows=2");
  EXPECT_EQ(transpose.meta.scene, "transpose");
  EXPECT_EQ(transpose.meta.parameter("rows_per_item"), "2");
  EXPECT_EQ(transpose.m.rateUnit, "GB/s");
  EXPECT_DOUBLE_EQ(transpose.m.rate, 8.6);
  EXPECT_DOUBLE_EQ(transpose.m.kernelMs.median, 1.95);
  EXPECT_EQ(transpose.m.bound, "");
  EXPECT_TRUE(transpose.m.stageMedianMs.empty());
  for (double ceiling : transpose.meta.ceilings) EXPECT_EQ(ceiling, 0.0);
  const RunRecord& recording = runs->at(1);
  EXPECT_EQ(recording.meta.scene, "nbody");
  EXPECT_EQ(recording.meta.interop, "host");
  EXPECT_EQ(recording.meta.parameter("unroll"), "8");
  EXPECT_EQ(recording.m.frames, 300u);
  EXPECT_DOUBLE_EQ(recording.m.fps, 41.2);
  EXPECT_EQ(recording.m.rateUnit, "GFLOP/s");
}

// Files kernelscope wrote before runsFromCsv/runsFromJson returned ks::Result (a
// `--sweep --op transpose --json` file, and the Runs panel's CSV export of an
// N-body, a transpose, a rotate and a histogram sweep, on PoCL): they still load.
TEST(RunFiles, FilesWrittenBeforeTheResultReadersStillLoad) {
  const std::string json =
    "{\"format\":\"kernelscope-runs\",\"runs\":[{\"measurements\":{\"angular_momentum_drift\":null,\"bound\":\"\",\"devi"
    "ce_count\":1.0,\"device_kernel_ms\":\"\",\"drift_steps\":null,\"energy_drift\":null,\"energy_j\":null,\"energy_p"
    "er_unit\":null,\"energy_source\":\"\",\"energy_unit\":\"\",\"exchange_ms\":null,\"fps\":0.0,\"frame_ms\":{\"count\":0"
    ",\"last\":0.0,\"max\":0.0,\"mean\":0.0,\"median\":0.0,\"min\":0.0,\"p95\":0.0,\"stddev\":0.0},\"frames\":0,\"kernel_m"
    "s\":{\"count\":100,\"last\":0.09952699999999999,\"max\":64.169292,\"mean\":1.2056340500000002,\"median\":0.0764"
    "14,\"min\":0.057357,\"p95\":0.17539369999999982,\"stddev\":7.957557844625866},\"load_balance\":null,\"momentu"
    "m_drift\":null,\"parallel_efficiency\":null,\"power_w\":null,\"rate\":6.861151097966341,\"rate_unit\":\"GB/s\","
    "\"seconds\":0.0,\"sm_clock_mhz\":null,\"stage_ms_median\":[],\"throttle_reasons\":\"\",\"throttled\":false},\"met"
    "adata\":{\"ceilings\":{\"copy_gbps\":1.8482707359533253,\"fp32_mad_gflops\":55.49973674949231,\"fp64_mad_gfl"
    "ops\":29.7548183434597,\"local_atomic_gops\":0.3720816661119355,\"local_gbps\":30.654063904750338,\"native"
    "_rsqrt_gops\":1.4721691053623227,\"read_gbps\":7.400125179024089,\"rsqrt_gops\":1.4264350007815854},\"devi"
    "ce\":\"pthread-haswell-AMD EPYC\",\"device_kind\":\"CPU\",\"driver\":\"3.1+debian\",\"host\":\"vm\",\"interop\":\"\",\"k"
    "ernelscope_version\":\"0.1.0 (5c31f5f-dirty)\",\"parameters\":[{\"name\":\"variant\",\"value\":\"block4x4\"},{\"na"
    "me\":\"tile\",\"value\":\"32\"},{\"name\":\"work_group\",\"value\":\"64\"},{\"name\":\"padded\",\"value\":\"0\"},{\"name\":\"b"
    "lock_order\",\"value\":\"rows\"},{\"name\":\"image\",\"value\":\"256x256 RGBA\"},{\"name\":\"iterations\",\"value\":\"10"
    "0\"}],\"platform\":\"Portable Computing Language\",\"scene\":\"transpose\",\"source_hash\":\"57ce03f37945ec9e\",\""
    "time\":\"2026-11-27T06:28:47Z\"},\"name\":\"transpose block4x4 T=32 wg=64\",\"status\":\"ok\"}],\"version\":1}";
  const auto fromJson = runsFromJson(json);
  ASSERT_TRUE(fromJson) << fromJson.error().what();
  ASSERT_EQ(fromJson->size(), 1u);
  const RunRecord& transpose = fromJson->front();
  EXPECT_EQ(transpose.name, "transpose block4x4 T=32 wg=64");
  EXPECT_EQ(transpose.meta.parameter("tile"), "32");
  EXPECT_EQ(transpose.m.rateUnit, "GB/s");
  EXPECT_NEAR(transpose.m.rate, 6.861151, 1e-6);

  const std::string csv =
    "name,status,scene,device,platform,driver,device_kind,interop,kernelscope_version,source_hash,time,ho"
    "st,frames,seconds,fps,frame_samples,frame_ms_median,frame_ms_p95,frame_ms_mean,kernel_samples,kernel"
    "_ms_median,kernel_ms_p95,kernel_ms_min,kernel_ms_max,kernel_ms_mean,kernel_ms_stddev,rate,rate_unit,"
    "bound,ceiling_copy_gbps,ceiling_read_gbps,ceiling_fp32_mad_gflops,ceiling_fp64_mad_gflops,ceiling_rs"
    "qrt_gops,ceiling_native_rsqrt_gops,ceiling_local_gbps,ceiling_local_atomic_gops,energy_source,energy"
    "_j,power_w,energy_per_unit,energy_unit,sm_clock_mhz,throttled,throttle_reasons,energy_drift,momentum"
    "_drift,angular_momentum_drift,drift_steps,device_count,device_kernel_ms,exchange_ms,load_balance,par"
    "allel_efficiency,param:variant,param:work_group,param:unroll,param:bodies_per_item,param:split,param"
    ":precision,param:native_rsqrt,param:fast_math,param:ftz,param:extra_options,param:bodies,param:itera"
    "tions,param:tile,param:padded,param:block_order,param:image,param:work_group_x,param:work_group_y,pa"
    "ram:pixels_per_item,param:rows_per_item,param:angle,param:copies,param:groups_per_compute_unit\n"
    "blocked wg=64 unroll=8 B=1 S=1 fp32 native_rsqrt,ok,nbody,pthread-haswell-AMD EPYC,Portable Computin"
    "g Language,3.1+debian,CPU,,0.1.0 (5c31f5f-dirty),006acd6e79e33aa1,2026-11-27T06:21:24Z,vm,0,0,0,0,0,"
    "0,0,20,144.685184,226.0052049,62.242348,228.64242199999998,149.42133389999998,47.14351016952647,1.09"
    "6153148618175,GFLOP/s,,10.928306911005013,11.105414357619262,38.67405650307904,30.800574105744378,1."
    "502292506944576,1.5394588482455773,31.541210752185453,0.38231596205853396,,,,,,,0,,,,,,1,,,,,blocked"
    ",64,8,1,1,fp32,1,0,0,,2816,20,,,,,,,,,,,\n"
    "transpose block4x4_columns T=64 wg=64,ok,transpose,pthread-haswell-AMD EPYC,Portable Computing Langu"
    "age,3.1+debian,CPU,,0.1.0 (5c31f5f-dirty),57ce03f37945ec9e,2026-11-27T06:22:35Z,vm,0,0,0,0,0,0,0,20,"
    "58.69758349999999,91.4897034,18.768646999999998,96.90729499999999,57.32452824999999,20.9268143512178"
    "92,0.5716492911501204,GB/s,,10.928306911005013,11.105414357619262,38.67405650307904,30.8005741057443"
    "78,1.502292506944576,1.5394588482455773,31.541210752185453,0.38231596205853396,,,,,,,0,,,,,,1,,,,,bl"
    "ock4x4_columns,64,,,,,,,,,,20,64,0,columns,2048x2048 RGBA,,,,,,,\n"
    "rotate bilinear wg=8x32 ppi=1,ok,rotate,pthread-haswell-AMD EPYC,Portable Computing Language,3.1+deb"
    "ian,CPU,,0.1.0 (5c31f5f-dirty),a7772791a86db14e,2026-11-27T06:23:44Z,vm,0,0,0,0,0,0,0,20,347.0340275"
    ",510.96933045000003,125.15317999999999,574.561978,376.7043471999999,108.4485492612074,0.096689169767"
    "36525,GB/s,,10.928306911005013,11.105414357619262,38.67405650307904,30.800574105744378,1.50229250694"
    "4576,1.5394588482455773,31.541210752185453,0.38231596205853396,,,,,,,0,,,,,,1,,,,,bilinear,,,,,,,,,,"
    ",20,,,,2048x2048 RGBA,8,32,1,1,30,,\n"
    "histogram local_atomic wg=256 copies=4 groups/CU=2,ok,histogram,pthread-haswell-AMD EPYC,Portable Co"
    "mputing Language,3.1+debian,CPU,,0.1.0 (5c31f5f-dirty),637f1bfd9bb0cedc,2026-11-27T06:27:14Z,vm,0,0,"
    "0,0,0,0,0,20,590.664308,921.7220654500003,352.623722,1169.46391,627.7357334500001,188.74512854541626"
    ",0.02840397798337935,GB/s,,10.928306911005013,11.105414357619262,38.67405650307904,30.80057410574437"
    "8,1.502292506944576,1.5394588482455773,31.541210752185453,0.38231596205853396,,,,,,,0,,,,,,1,,,,,loc"
    "al_atomic,256,,,,,,,,,,20,,,,2048x2048 RGBA,,,255,,,4,2\n";
  const auto fromCsv = runsFromCsv(csv);
  ASSERT_TRUE(fromCsv) << fromCsv.error().what();
  ASSERT_EQ(fromCsv->size(), 4u);
  EXPECT_EQ((*fromCsv)[0].meta.scene, "nbody");
  EXPECT_EQ((*fromCsv)[0].meta.parameter("unroll"), "8");
  EXPECT_EQ((*fromCsv)[1].name, "transpose block4x4_columns T=64 wg=64");
  EXPECT_EQ((*fromCsv)[2].meta.parameter("work_group_x"), "8");
  EXPECT_EQ((*fromCsv)[3].name, "histogram local_atomic wg=256 copies=4 groups/CU=2");
  EXPECT_EQ((*fromCsv)[3].m.rateUnit, "GB/s");
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

// A histogram record names only the parameters its variant's kernel uses: a
// local_atomic run was recorded with pixels_per_item=255, the default of a
// field only subhist_uchar reads (its kernel has no such macro), and
// subhist_uchar runs with copies and groups per compute unit they never had.
TEST(HistogramRuns, RecordOnlyTheParametersTheVariantUses) {
  for (const KernelOpVariant& variant : histogramOp().variants) {
    HistogramConfig c;
    c.variant = variant.name;
    const RunRecord r = refusedHistogramRun(fakeGpu(), c, ImageLayout{64, 64, 4}, "not run");
    for (const auto& p : histogramConfigParameters())
      EXPECT_EQ(r.meta.parameter(p.name).empty(), variant.parameter(p.name) == nullptr)
          << variant.name << " records " << p.name << "=" << r.meta.parameter(p.name);
  }
  HistogramConfig atomic;
  atomic.variant = "local_atomic";
  atomic.pixelsPerItem = 255;
  const RunRecord r = refusedHistogramRun(fakeGpu(), atomic, ImageLayout{64, 64, 1}, "not run");
  EXPECT_EQ(r.meta.parameter("pixels_per_item"), "");
  EXPECT_EQ(r.meta.parameter("copies"), std::to_string(atomic.copies));
  // In a CSV with a subhist_uchar row the column stays, empty for local_atomic.
  HistogramConfig uchar;
  uchar.variant = "subhist_uchar";
  uchar.pixelsPerItem = 64;
  const std::string csv = runsToCsv({r, refusedHistogramRun(fakeGpu(), uchar, ImageLayout{64, 64, 1}, "not run")});
  const auto back = runsFromCsv(csv);
  ASSERT_TRUE(back.ok()) << csv;
  EXPECT_EQ((*back)[0].meta.parameter("pixels_per_item"), "") << csv;
  EXPECT_EQ((*back)[1].meta.parameter("pixels_per_item"), "64") << csv;
}

}  // namespace
}  // namespace ks
