// Clocks, power and energy through NVML (issue 23, item 5), without an NVIDIA GPU:
// the throttle reasons in words, matching OpenCL devices to NVML's, the energy
// arithmetic, the run records' energy fields (CSV/JSON), and, against the fake
// libnvidia-ml (tests/fake_nvml.c), the loader, the sampler, the panel's text,
// a recording's energy and the app's state dump and --record JSON end to end.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <thread>

#include "compute/gpu_monitor.h"
#include "compute/gpu_telemetry.h"
#include "compute/nvml_library.h"
#include "lab/run_energy.h"
#include "lab/run_record.h"
#include "test_devices.h"
#include "test_require.h"
#include "test_support.h"

namespace ks {
namespace {
namespace fs = std::filesystem;

const std::string kFakeNvml = FAKE_NVML_LIBRARY;

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// Sets a variable the fake reads and unsets it on the way out. Declared before the
// monitor, it outlives the monitor's thread, which calls getenv through the fake.
struct ScopedEnv {
  std::string name;
  ScopedEnv(std::string n, const char* value) : name(std::move(n)) {
    if (value) setenv(name.c_str(), value, 1);
  }
  ~ScopedEnv() { unsetenv(name.c_str()); }
};

// ---- throttle reasons ------------------------------------------------------------

TEST(ThrottleReasons, EachNvmlBitHasItsWords) {
  // NVML's nvmlClocksThrottleReason* bits, as its API reference lists them.
  const struct {
    uint64_t bit;
    const char* words;
    bool throttles;
  } expected[] = {{0x1, "GPU idle", false},          {0x2, "applications clocks setting", false},
                  {0x4, "power cap", true},          {0x8, "HW slowdown", true},
                  {0x10, "sync boost", true},        {0x20, "thermal (software)", true},
                  {0x40, "HW thermal slowdown", true}, {0x80, "HW power brake", true},
                  {0x100, "display clock setting", true}};
  for (const auto& e : expected) {
    EXPECT_EQ(throttleReasonWords(e.bit), std::vector<std::string>{e.words}) << std::hex << e.bit;
    EXPECT_EQ(clockThrottled(e.bit), e.throttles) << e.words;
  }
}

TEST(ThrottleReasons, TextSaysWhatHoldsTheClock) {
  EXPECT_EQ(throttleText(0), "not throttled");
  EXPECT_EQ(throttleText(0x1), "not throttled (GPU idle)");
  EXPECT_EQ(throttleText(0x3), "not throttled (GPU idle, applications clocks setting)");
  // Idle beside a real reason is left out of the words: the clock is held down.
  EXPECT_EQ(throttleText(0x5), "throttled: power cap");
  EXPECT_EQ(throttleText(0x44), "throttled: power cap, HW thermal slowdown");
  // A bit newer than this table still counts, by number.
  EXPECT_TRUE(clockThrottled(0x200));
  EXPECT_EQ(throttleText(0x201), "throttled: reason 0x200");
}

// ---- matching OpenCL devices to NVML's ----------------------------------------------

std::vector<NvmlDeviceInfo> twoH200s() {
  return {{0, "NVIDIA H200", true, 0, 0x17, 0}, {1, "NVIDIA H200", true, 0, 0x65, 0}};
}

TEST(NvmlMatching, ByPciBusAndSlotWhenOpenClGivesThem) {
  OpenClDeviceKey key;
  key.nvidia = true;
  key.name = "NVIDIA H200";
  key.pciBus = 0x65, key.pciSlot = 0;
  const NvmlMatch m = matchNvmlDevice(key, twoH200s());
  ASSERT_TRUE(m.index);
  EXPECT_EQ(*m.index, 1u);
  EXPECT_EQ(m.how, "PCI bus 0x65, slot 0");
}

TEST(NvmlMatching, ByNameWhenUniqueElseByPositionAndSaysSo) {
  OpenClDeviceKey key;
  key.nvidia = true;
  key.name = "NVIDIA L4";
  std::vector<NvmlDeviceInfo> mixed = {{0, "NVIDIA H200", false}, {1, "NVIDIA L4", false}};
  NvmlMatch m = matchNvmlDevice(key, mixed);
  ASSERT_TRUE(m.index);
  EXPECT_EQ(*m.index, 1u);
  EXPECT_EQ(m.how, "name (NVIDIA L4)");
  // Two alike and no PCI ID: the position among NVIDIA OpenCL devices, said as such.
  key.name = "NVIDIA H200";
  key.nvidiaIndex = 1;
  m = matchNvmlDevice(key, {{0, "NVIDIA H200", false}, {1, "NVIDIA H200", false}});
  ASSERT_TRUE(m.index);
  EXPECT_EQ(*m.index, 1u);
  EXPECT_TRUE(contains(m.how, "index 1 among NVIDIA devices")) << m.how;
  EXPECT_TRUE(contains(m.how, "several alike")) << m.how;
}

TEST(NvmlMatching, RefusesWhatItCannotMatch) {
  OpenClDeviceKey pocl;
  pocl.name = "cpu-haswell-AMD EPYC";
  NvmlMatch m = matchNvmlDevice(pocl, twoH200s());
  EXPECT_FALSE(m.index);
  EXPECT_EQ(m.how, "not an NVIDIA device");
  OpenClDeviceKey elsewhere;
  elsewhere.nvidia = true;
  elsewhere.pciBus = 0x99, elsewhere.pciSlot = 0;
  m = matchNvmlDevice(elsewhere, twoH200s());
  EXPECT_FALSE(m.index);
  EXPECT_EQ(m.how, "no NVML device at PCI bus 0x99, slot 0");
  pocl.forcedIndex = 5;
  m = matchNvmlDevice(pocl, twoH200s());
  EXPECT_FALSE(m.index);
  EXPECT_TRUE(contains(m.how, "KERNELSCOPE_NVML_DEVICE=5")) << m.how;
  pocl.forcedIndex = 0;
  m = matchNvmlDevice(pocl, twoH200s());
  ASSERT_TRUE(m.index);
  EXPECT_EQ(*m.index, 0u);
}

// ---- energy arithmetic ---------------------------------------------------------------

GpuSample reading(double seconds, std::optional<double> energyJ, double watts, uint64_t reasons = 0) {
  GpuSample s;
  s.seconds = seconds;
  s.energyJ = energyJ;
  s.powerW = watts;
  s.throttleReasons = reasons;
  return s;
}

TEST(Energy, CounterSlopeTimesTheSpan) {
  // The counter climbs 300 J/s while the power reads 100 W: the counter wins.
  std::vector<GpuSample> s;
  for (int i = 0; i <= 10; ++i) s.push_back(reading(100.0 + 0.2 * i, 7000.0 + 300.0 * 0.2 * i, 100.0));
  const EnergyEstimate e = energyOver(s, 100.3, 101.8);
  EXPECT_EQ(e.source, "energy counter");
  EXPECT_NEAR(e.watts, 300.0, 1e-9);
  EXPECT_NEAR(e.joules, 300.0 * 1.5, 1e-9);
}

TEST(Energy, MeanPowerTimesTheSpanWithoutACounterOrOverAShortSpan) {
  std::vector<GpuSample> s = {reading(9.9, std::nullopt, 10.0), reading(10.1, std::nullopt, 100.0),
                              reading(10.3, std::nullopt, 200.0), reading(10.6, std::nullopt, 999.0)};
  EnergyEstimate e = energyOver(s, 10.0, 10.5);  // the 10 W before and the 999 W after are outside
  EXPECT_EQ(e.source, "power x time");
  EXPECT_NEAR(e.watts, 150.0, 1e-9);
  EXPECT_NEAR(e.joules, 75.0, 1e-9);
  // A counter that moved over less than half a second is too coarse to trust.
  s = {reading(10.0, 500.0, 40.0), reading(10.2, 560.0, 60.0)};
  e = energyOver(s, 10.0, 10.2);
  EXPECT_EQ(e.source, "power x time");
  EXPECT_NEAR(e.joules, 50.0 * 0.2, 1e-9);
  // No sample inside: the one just before stands for the span.
  e = energyOver({reading(5.0, std::nullopt, 80.0)}, 5.1, 5.3);
  EXPECT_NEAR(e.joules, 80.0 * 0.2, 1e-9);
  EXPECT_TRUE(energyOver({}, 0.0, 1.0).source.empty());
  EXPECT_TRUE(energyOver(s, 2.0, 1.0).source.empty());
}

TEST(Energy, ThrottleReasonsOfTheSpanOnly) {
  const std::vector<GpuSample> s = {reading(1.0, {}, 1, 0x40), reading(2.0, {}, 1, 0x1), reading(3.0, {}, 1, 0x4),
                                    reading(4.0, {}, 1, 0x80)};
  EXPECT_EQ(throttleReasonsOver(s, 1.5, 3.5), 0x5u);
  EXPECT_EQ(throttleReasonsOver(s, 4.5, 5.0), 0x80u);  // none inside: the reading before
}

TEST(Energy, JoulesPerUnitOfWork) {
  EXPECT_DOUBLE_EQ(joulesPerUnit(120.0, 40.0), 3.0);
  EXPECT_EQ(joulesPerUnit(120.0, 0.0), 0.0);
}

TEST(Energy, RecordingCollectsSamplesPublishedMeanwhile) {
  GpuTelemetryState t;
  t.available = true;
  t.history = {reading(9.8, 1000.0, 50.0)};
  RecordingEnergy rec;
  rec.begin(t, 10.0);
  // The published history is trimmed as it goes: the recording keeps its own.
  for (int i = 1; i <= 10; ++i) {
    t.history = {reading(9.8 + 0.2 * i, 1000.0 + 250.0 * 0.2 * i, 50.0, i == 5 ? 0x4 : 0x1)};
    t.history.back().smClockMHz = 1000.0 + i;
    rec.onFrame(t);
  }
  const RunEnergy e = rec.finish(t, 11.8, 90.0, "J/GB");
  EXPECT_EQ(e.source, "energy counter");
  EXPECT_NEAR(e.watts, 250.0, 1e-6);
  EXPECT_NEAR(e.joules, 250.0 * 1.8, 1e-6);
  EXPECT_NEAR(e.perUnit, 250.0 * 1.8 / 90.0, 1e-9);
  EXPECT_EQ(e.unit, "J/GB");
  EXPECT_TRUE(e.throttled);
  EXPECT_EQ(e.throttleReasons, "power cap");
  EXPECT_EQ(e.smClockMHz, 1006.0);  // median of 1002..1010 (the sample before the start left out)
  t.available = false;
  t.status = "not an NVIDIA device";
  rec.begin(t, 0.0);
  const RunEnergy none = rec.finish(t, 1.0, 1.0, "J/GB");
  EXPECT_FALSE(none.measured());
  EXPECT_EQ(none.source, "not an NVIDIA device");
}

// ---- run records ---------------------------------------------------------------------

RunRecord recordWithEnergy() {
  RunRecord r;
  r.name = "recording 1: nbody";
  r.meta.scene = "nbody";
  r.m.frames = 100;
  r.m.energy.source = "energy counter";
  r.m.energy.joules = 812.25;
  r.m.energy.watts = 406.125;
  r.m.energy.perUnit = 0.0123;
  r.m.energy.unit = "J/G interactions";
  r.m.energy.smClockMHz = 1755;
  r.m.energy.throttled = true;
  r.m.energy.throttleReasons = "power cap, HW slowdown";
  return r;
}

void expectSameEnergy(const RunEnergy& a, const RunEnergy& b) {
  EXPECT_EQ(a.source, b.source);
  EXPECT_EQ(a.joules, b.joules);
  EXPECT_EQ(a.watts, b.watts);
  EXPECT_EQ(a.perUnit, b.perUnit);
  EXPECT_EQ(a.unit, b.unit);
  EXPECT_EQ(a.smClockMHz, b.smClockMHz);
  EXPECT_EQ(a.throttled, b.throttled);
  EXPECT_EQ(a.throttleReasons, b.throttleReasons);
}

TEST(RunEnergyFields, RoundTripThroughCsvAndJsonUnderOneName) {
  RunRecord plain;
  plain.name = "no NVML";
  plain.m.energy.source = "NVML not available: libnvidia-ml.so.1 not found";
  const std::vector<RunRecord> runs = {recordWithEnergy(), plain};
  const auto csv = runsFromCsv(runsToCsv(runs));
  ASSERT_TRUE(csv) << csv.error().what();
  const auto json = runsFromJson(runsToJson(runs));
  ASSERT_TRUE(json) << json.error().what();
  for (const auto* back : {&*csv, &*json}) {
    ASSERT_EQ(back->size(), 2u);
    expectSameEnergy((*back)[0].m.energy, runs[0].m.energy);
    expectSameEnergy((*back)[1].m.energy, runs[1].m.energy);
  }
  // Every field: a CSV column, and the JSON key of the same name under "measurements".
  const std::string header = runsToCsv(runs).substr(0, runsToCsv(runs).find('\n'));
  const auto doc = nlohmann::json::parse(runsToJson(runs));
  const auto& m = doc.at("runs")[0].at("measurements");
  for (const RunEnergyField& f : runEnergyFields()) {
    EXPECT_TRUE(contains("," + header + ",", std::string(",") + f.name + ",")) << f.name;
    EXPECT_TRUE(m.contains(f.name)) << f.name;
  }
  EXPECT_EQ(m.at("energy_j"), 812.25);
  EXPECT_EQ(m.at("throttled"), true);
  EXPECT_TRUE(doc.at("runs")[1].at("measurements").at("energy_j").is_null());
}

TEST(RunEnergyFields, FilesFromBeforeReadBackEmptyAndBadValuesAreRefused) {
  auto doc = nlohmann::json::parse(runsToJson({recordWithEnergy()}));
  for (const RunEnergyField& f : runEnergyFields()) doc["runs"][0]["measurements"].erase(f.name);
  std::string error;
  const auto old = runsFromJson(doc.dump());
  ASSERT_TRUE(old) << old.error().what();
  EXPECT_FALSE((*old)[0].m.energy.measured());
  EXPECT_FALSE((*old)[0].m.energy.throttled);
  std::string csv = runsToCsv({recordWithEnergy()});
  const size_t at = csv.find("812.25");
  ASSERT_NE(at, std::string::npos);
  csv.replace(at, 6, "lots");
  const auto refused = runsFromCsv(csv);
  ASSERT_FALSE(refused);
  error = refused.error().what();
  EXPECT_TRUE(contains(error, "'lots' is not a number")) << error;
}

// ---- the loader against the fake library ---------------------------------------------

TEST(NvmlLibrary, OpensTheFakeAndListsItsDevices) {
  unsetenv("FAKE_NVML_INIT_ERROR");
  void* self = dlopen(kFakeNvml.c_str(), RTLD_NOW | RTLD_LOCAL);  // to read its init count
  ASSERT_TRUE(self) << dlerror();
  auto liveInits = reinterpret_cast<int (*)()>(dlsym(self, "fakeNvmlLiveInits"));
  ASSERT_TRUE(liveInits);
  {
    auto lib = NvmlLibrary::open(kFakeNvml);
    ASSERT_TRUE(lib->available()) << lib->unavailableWhy();
    EXPECT_EQ(liveInits(), 1);
    std::string error;
    const auto devices = lib->devices(&error);
    ASSERT_EQ(devices.size(), 2u) << error;
    EXPECT_EQ(devices[1].name, "Fake GPU B");
    EXPECT_TRUE(devices[1].hasPci);
    EXPECT_EQ(devices[1].pciBus, 0x65u);
    EXPECT_FALSE(lib->handle(7, &error));
    EXPECT_TRUE(contains(error, "Invalid Argument")) << error;
    EXPECT_EQ(lib->errorText(3), "Not Supported");
  }
  EXPECT_EQ(liveInits(), 0) << "the loader must call nvmlShutdown";
  dlclose(self);
}

TEST(NvmlLibrary, SaysWhyWhenAbsentBrokenOrRefused) {
  auto missing = NvmlLibrary::open("/nonexistent/libnvidia-ml.so.1");
  EXPECT_FALSE(missing->available());
  EXPECT_EQ(missing->unavailableWhy(), "/nonexistent/libnvidia-ml.so.1 not found");
  std::string error;
  EXPECT_TRUE(missing->devices(&error).empty());
  auto notNvml = NvmlLibrary::open("libm.so.6");
  EXPECT_FALSE(notNvml->available());
  EXPECT_EQ(notNvml->unavailableWhy(), "libm.so.6 has no nvmlInit_v2 (driver too old?)");
  setenv("FAKE_NVML_INIT_ERROR", "9", 1);
  auto refused = NvmlLibrary::open(kFakeNvml);
  unsetenv("FAKE_NVML_INIT_ERROR");
  EXPECT_FALSE(refused->available());
  EXPECT_EQ(refused->unavailableWhy(), "nvmlInit_v2 failed: Driver Not Loaded");
}

// ---- the sampler and the panel's text, end to end --------------------------------------

// Publishes until `done` holds or 5 s pass (the monitor samples every 20 ms here).
template <typename Done>
bool publishUntil(GpuMonitor& monitor, GpuTelemetryState& t, const OpenClDeviceKey& key, Done done) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (std::chrono::steady_clock::now() < deadline) {
    monitor.publish(t, key);
    if (done()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

TEST(GpuMonitor, SamplesTheMatchedDeviceAndThePanelSaysWhatItRead) {
  const ScopedEnv throttle("FAKE_NVML_THROTTLE", "0x44");
  GpuMonitor monitor(kFakeNvml, 0.02);
  GpuTelemetryState t;
  OpenClDeviceKey key;
  key.nvidia = true;
  key.name = "Fake GPU B";
  key.pciBus = 0x65, key.pciSlot = 0;
  ASSERT_TRUE(publishUntil(monitor, t, key, [&] { return t.history.size() >= 3; })) << t.status;
  EXPECT_TRUE(t.available);
  EXPECT_EQ(t.nvmlDevice, "Fake GPU B");
  EXPECT_EQ(t.status, "PCI bus 0x65, slot 0");
  const GpuSample& s = t.history.back();
  EXPECT_EQ(s.smClockMHz, 1410.0);
  EXPECT_EQ(s.memClockMHz, 1593.0);
  EXPECT_DOUBLE_EQ(*s.powerW, 150.5);
  EXPECT_EQ(s.temperatureC, 57.0);
  ASSERT_TRUE(s.energyJ);
  EXPECT_GT(*s.energyJ, 5e6);  // millijoules read as joules
  EXPECT_EQ(s.throttleReasons, 0x44u);
  // Samples come a period apart, not once a frame.
  const double spacing = (t.history.back().seconds - t.history.front().seconds) / double(t.history.size() - 1);
  EXPECT_GT(spacing, 0.015);
  const auto lines = telemetryLines(t);
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_EQ(lines[0], "SM clock 1410 MHz, memory clock 1593 MHz");
  EXPECT_EQ(lines[1], "power 150.5 W, temperature 57 \xC2\xB0" "C");
  EXPECT_EQ(lines[2], "throttled: power cap, HW thermal slowdown");
  EXPECT_EQ(lines[3], "Fake GPU B (matched by PCI bus 0x65, slot 0)");
}

TEST(GpuMonitor, NotAvailableSaysWhyInOneLine) {
  GpuTelemetryState t;
  OpenClDeviceKey pocl;
  pocl.name = "cpu-haswell";
  GpuMonitor withFake(kFakeNvml, 0.02);
  ASSERT_TRUE(publishUntil(withFake, t, pocl, [&] { return t.status != "NVML: starting"; }));
  EXPECT_FALSE(t.available);
  EXPECT_EQ(telemetryLines(t), std::vector<std::string>{"not an NVIDIA device"});
  GpuMonitor absent("/nonexistent/libnvidia-ml.so.1", 0.02);
  OpenClDeviceKey nvidia;
  nvidia.nvidia = true;
  ASSERT_TRUE(publishUntil(absent, t, nvidia, [&] { return t.status != "NVML: starting"; }));
  EXPECT_FALSE(t.available);
  EXPECT_TRUE(t.history.empty());
  EXPECT_EQ(telemetryLines(t),
            std::vector<std::string>{"NVML not available: /nonexistent/libnvidia-ml.so.1 not found"});
}

TEST(GpuMonitor, ARecordingGetsTheCounterEnergyElsePowerTimesTime) {
  for (const bool counter : {true, false}) {
    const ScopedEnv noEnergy("FAKE_NVML_NO_ENERGY", counter ? nullptr : "1");
    GpuMonitor monitor(kFakeNvml, 0.02);
    GpuTelemetryState t;
    OpenClDeviceKey key;
    key.forcedIndex = 0;
    ASSERT_TRUE(publishUntil(monitor, t, key, [&] { return !t.history.empty(); })) << t.status;
    RecordingEnergy rec;
    const double start = steadySeconds();
    rec.begin(t, start);
    publishUntil(monitor, t, key, [&] { return steadySeconds() - start > 0.8; });
    const double end = steadySeconds();
    const RunEnergy e = rec.finish(t, end, 2.0, "J/G interactions");
    // The fake's counter climbs at 200 W, its power reads 150.5 W.
    const double watts = counter ? 200.0 : 150.5;
    EXPECT_EQ(e.source, counter ? "energy counter" : "power x time");
    EXPECT_NEAR(e.watts, watts, watts * 0.03);
    EXPECT_NEAR(e.joules, e.watts * (end - start), 1e-6);
    EXPECT_NEAR(e.perUnit, e.joules / 2.0, 1e-9);
    EXPECT_EQ(e.smClockMHz, 1410.0);
    EXPECT_FALSE(e.throttled);
  }
}

// ---- the app: state dump and --record JSON ------------------------------------------

std::string shellQuote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

test::ShellResult runApp(const test::TempDir& dir, const std::vector<std::string>& env,
                         const std::vector<std::string>& args) {
  std::string cmd = "env -u DISPLAY -u WAYLAND_DISPLAY -u KERNELSCOPE_NVML_LIBRARY -u KERNELSCOPE_NVML_DEVICE";
  for (const auto& e : env) cmd += " " + shellQuote(e);
  cmd += " " + shellQuote(KERNELSCOPE_BINARY) + " --headless --config-dir " + shellQuote((dir / "config").string());
  for (const auto& a : args) cmd += " " + shellQuote(a);
  return test::runShell(cmd, dir.path(), 80);
}

TEST(GpuTelemetryApp, StateDumpAndRecordCarryTheFiguresFromTheFake) {
  KS_NEED("opencl", test::openClMissing());
  test::TempDir dir("ks-nvml-app");
  const fs::path dump = dir / "state.json", runs = dir / "runs.json";
  // Enough frames for samples 50 ms apart to arrive; PoCL is not an NVIDIA device, so the
  // device is named by NVML index.
  const auto r = runApp(dir,
                        {"KERNELSCOPE_NVML_LIBRARY=" + kFakeNvml, "KERNELSCOPE_NVML_DEVICE=1", "FAKE_NVML_THROTTLE=0x4"},
                        {"--n", "256", "--frames", "400", "--record", "300", "--warmup", "50", "--size", "320x240",
                         "--state-dump", dump.string(), "--json", runs.string()});
  ASSERT_EQ(r.exitCode, 0) << r.describe();
  const auto j = nlohmann::json::parse(test::readFile(dump));
  const auto& g = j.at("gpu_telemetry");
  ASSERT_TRUE(g.at("available").get<bool>()) << g.dump(2);
  EXPECT_EQ(g.at("status"), "KERNELSCOPE_NVML_DEVICE=1");
  EXPECT_EQ(g.at("nvml_device"), "Fake GPU B");
  EXPECT_EQ(g.at("sm_clock_mhz"), 1410.0);
  EXPECT_EQ(g.at("power_w"), 150.5);
  EXPECT_EQ(g.at("throttle_reasons"), nlohmann::json::array({"power cap"}));
  EXPECT_TRUE(g.at("throttled").get<bool>());
  std::string error;
  const auto recorded = readRunsJson(runs, &error);
  ASSERT_TRUE(recorded && recorded->size() == 1) << error;
  const RunEnergy& e = recorded->front().m.energy;
  EXPECT_TRUE(e.measured()) << e.source;
  EXPECT_TRUE(e.throttled);
  EXPECT_EQ(e.throttleReasons, "power cap");
  EXPECT_EQ(e.unit, "J/G interactions");
  // 256 bodies: 65536 interactions a step; energy per G interactions from the steps recorded.
  EXPECT_GT(e.perUnit, 0.0);
  EXPECT_TRUE(contains(r.out, "power: ")) << r.out;
}

TEST(GpuTelemetryApp, WithoutNvmlTheStateDumpSaysWhyAndTheRunStillRecords) {
  KS_NEED("opencl", test::openClMissing());
  test::TempDir dir("ks-nvml-absent");
  const fs::path dump = dir / "state.json", runs = dir / "runs.json";
  const auto r = runApp(dir, {"KERNELSCOPE_NVML_LIBRARY=/nonexistent/libnvidia-ml.so.1"},
                        {"--n", "128", "--frames", "20", "--record", "5", "--warmup", "2", "--size", "320x240",
                         "--state-dump", dump.string(), "--json", runs.string()});
  ASSERT_EQ(r.exitCode, 0) << r.describe();
  const auto g = nlohmann::json::parse(test::readFile(dump)).at("gpu_telemetry");
  EXPECT_FALSE(g.at("available").get<bool>());
  // PoCL: NVML is not even opened; an NVIDIA device here would say the library is missing.
  const std::string status = g.at("status");
  EXPECT_TRUE(status == "not an NVIDIA device" ||
              status == "NVML not available: /nonexistent/libnvidia-ml.so.1 not found") << status;
  std::string error;
  const auto recorded = readRunsJson(runs, &error);
  ASSERT_TRUE(recorded && recorded->size() == 1) << error;
  EXPECT_FALSE(recorded->front().m.energy.measured());
  EXPECT_EQ(recorded->front().m.energy.source, status);
  EXPECT_TRUE(contains(r.out, "power: not available (" + status + ")")) << r.out;
}

}  // namespace
}  // namespace ks
