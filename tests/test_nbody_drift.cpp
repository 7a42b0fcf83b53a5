// Accuracy beside speed (issue 23, item 4): the energy drift of a configuration
// over S steps from a preset (compute/nbody_drift.h), the precision settings a
// sweep compares, and the drift fields of run files (CSV columns and JSON keys
// named alike; files from before them still read).
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <nlohmann/json.hpp>

#include "compute/compute_context.h"
#include "compute/nbody_drift.h"
#include "compute/nbody_gpu.h"
#include "compute/nbody_precision.h"
#include "lab/run_record.h"
#include "test_devices.h"
#include "test_require.h"

namespace ks {
namespace {

// ---- run files -----------------------------------------------------------------

RunRecord driftRun(const std::string& name, double energyDrift, unsigned long long steps) {
  RunRecord r;
  r.name = name;
  r.meta.scene = "nbody";
  r.meta.parameters = {{"bodies", "4096"}, {"precision", "fp32"}};
  r.m.kernelMs.median = 2.5;
  r.m.rate = 130.0;
  r.m.rateUnit = "GFLOP/s";
  r.m.energyDrift = energyDrift;
  r.m.momentumDrift = 3.25e-9;
  r.m.angularMomentumDrift = 7.0e-8;
  r.m.driftSteps = steps;
  return r;
}

void expectSameDrift(const RunRecord& a, const RunRecord& b) {
  EXPECT_EQ(a.m.hasDrift(), b.m.hasDrift()) << a.name;
  EXPECT_EQ(a.m.driftSteps, b.m.driftSteps) << a.name;
  EXPECT_EQ(a.m.energyDrift, b.m.energyDrift) << a.name;
  EXPECT_EQ(a.m.momentumDrift, b.m.momentumDrift) << a.name;
  EXPECT_EQ(a.m.angularMomentumDrift, b.m.angularMomentumDrift) << a.name;
}

TEST(DriftInRunFiles, CsvColumnsAndJsonKeysHaveOneNameAndRoundTrip) {
  RunRecord none = driftRun("no drift", 0.0, 0);
  none.m.momentumDrift = none.m.angularMomentumDrift = 0.0;
  const std::vector<RunRecord> runs = {driftRun("fp32", -1.0 / 3.0 * 1e-4, 1000), none};
  const std::string csv = runsToCsv(runs);
  const std::string header = csv.substr(0, csv.find('\n'));
  const nlohmann::json doc = nlohmann::json::parse(runsToJson(runs));
  const nlohmann::json& measured = doc["runs"][0]["measurements"];
  for (const char* key : {"energy_drift", "momentum_drift", "angular_momentum_drift", "drift_steps"}) {
    EXPECT_NE(("," + header + ",").find(std::string(",") + key + ","), std::string::npos) << key << " in " << header;
    ASSERT_TRUE(measured.contains(key)) << key;
    EXPECT_TRUE(measured[key].is_number()) << key;
    EXPECT_TRUE(doc["runs"][1]["measurements"][key].is_null()) << key << ": none measured is null, not 0";
  }
  EXPECT_EQ(measured["drift_steps"].get<unsigned long long>(), 1000u);
  const auto fromCsv = runsFromCsv(csv);
  ASSERT_TRUE(fromCsv) << fromCsv.error().what();
  const auto fromJson = runsFromJson(runsToJson(runs));
  ASSERT_TRUE(fromJson) << fromJson.error().what();
  ASSERT_EQ(fromCsv->size(), 2u);
  ASSERT_EQ(fromJson->size(), 2u);
  for (size_t i = 0; i < runs.size(); ++i) {
    expectSameDrift(runs[i], (*fromCsv)[i]);
    expectSameDrift(runs[i], (*fromJson)[i]);
  }
  EXPECT_FALSE((*fromJson)[1].m.hasDrift());
}

// A file written before drift was recorded has none of its keys: it reads, without drift.
TEST(DriftInRunFiles, OldJsonWithoutDriftStillReads) {
  nlohmann::json doc = nlohmann::json::parse(runsToJson({driftRun("old", 2e-5, 500)}));
  nlohmann::json& measured = doc["runs"][0]["measurements"];
  for (const char* key : {"energy_drift", "momentum_drift", "angular_momentum_drift", "drift_steps"}) measured.erase(key);
  const auto runs = runsFromJson(doc.dump());
  ASSERT_TRUE(runs) << runs.error().what();
  ASSERT_EQ(runs->size(), 1u);
  EXPECT_FALSE(runs->front().m.hasDrift());
  EXPECT_EQ(runs->front().m.energyDrift, 0.0);
  EXPECT_EQ(runs->front().m.rate, 130.0) << "the rest of the run is read as before";
}

TEST(NBodyPrecision, EachSettingChangesOneThingFromFp32) {
  const NBodyConfig base;
  ASSERT_EQ(nbodyPrecisionNames().size(), 5u);
  EXPECT_EQ(withNBodyPrecision(base, "fp32"), base);
  EXPECT_TRUE(withNBodyPrecision(base, "fp64")->fp64);
  EXPECT_TRUE(withNBodyPrecision(base, "fast-math")->fastRelaxedMath);
  EXPECT_TRUE(withNBodyPrecision(base, "ftz")->denormsAreZero);
  EXPECT_FALSE(withNBodyPrecision(base, "precise-rsqrt")->nativeRsqrt);
  for (const std::string& name : nbodyPrecisionNames()) {
    if (name == "fp32") continue;
    EXPECT_NE(withNBodyPrecision(base, name), base) << name;
  }
  EXPECT_FALSE(withNBodyPrecision(base, "fp16"));
}

// ---- on the device ---------------------------------------------------------------

class NBodyDriftDevice : public ::testing::Test {
 protected:
  void SetUp() override {
    KS_NEED("opencl", test::openClMissing());
    static std::unique_ptr<ComputeContext> shared = test::makeTestCompute();
    compute_ = shared.get();
    ASSERT_NE(compute_, nullptr);
  }
  ComputeContext* compute_ = nullptr;
};

// The principled bound: in fp64 the device's drift is the integrator's own, what the
// CPU reference (double) drifts over the same steps, to far below a part in 1e9 (the
// leapfrog's energy error, about 2e-7 here, is truncation, not rounding). fp32's
// rounding moves its drift off the reference's by far more.
TEST_F(NBodyDriftDevice, Fp64DriftIsTheIntegratorsOwnAndFp32AddsItsRounding) {
  if (!compute_->device().hasExtension("cl_khr_fp64")) GTEST_SKIP() << "the device lacks cl_khr_fp64";
  const size_t n = 96;  // not a multiple of the work-group: padded bodies take part
  const int steps = 40;
  const NBodySystem start = makeNBodyPreset(NBodyPreset::RandomCube, n, 5);
  NBodyParams params = nbodyPresetDefaults(NBodyPreset::RandomCube, n).params;
  // The cube's dt before it took 3 steps a frame: coarse enough that the integrator's
  // own drift shows in 40 steps (at the preset's 0.0008 it is 3e-9).
  params.dt = 0.0025;
  NBodySystem end = start;
  for (int i = 0; i < steps; ++i) end = nbodyReferenceStep(end, params);
  const NBodyDrift reference = nbodyDrift(nbodyReferenceInvariants(end, params), nbodyReferenceInvariants(start, params));
  ASSERT_GT(std::abs(reference.energy), 1e-7) << "the integrator's drift is there to be matched";

  NBodyConfig config;
  config.variant = "tiled";
  config.workGroup = 64;
  config.unroll = 4;
  config.bodiesPerItem = 1;
  NBodyConfig fp64 = config;
  fp64.fp64 = true;
  const NBodyDriftMeasurement d64 = measureNBodyDrift(*compute_, start, fp64, params, steps);
  ASSERT_EQ(d64.problem, "");
  EXPECT_EQ(d64.steps, steps);
  const NBodyDriftMeasurement d32 = measureNBodyDrift(*compute_, start, config, params, steps);
  ASSERT_EQ(d32.problem, "");
  const double off64 = std::abs(d64.drift.energy - reference.energy);
  const double off32 = std::abs(d32.drift.energy - reference.energy);
  EXPECT_LT(off64, 1e-9) << "fp64 " << d64.drift.energy << " against the reference's " << reference.energy;
  EXPECT_NEAR(d64.drift.angularMomentum, reference.angularMomentum, 1e-9 + 1e-6 * reference.angularMomentum);
  EXPECT_GT(off32, 100.0 * off64) << "fp32 " << d32.drift.energy << ", fp64 " << d64.drift.energy << ", reference "
                                  << reference.energy;
  EXPECT_LT(off32, 1e-3) << "fp32 still follows the same trajectory";
}

// A configuration the device cannot run is not stepped: it says why, and has no drift.
TEST_F(NBodyDriftDevice, AConfigurationThatCannotRunSaysWhy) {
  NBodyConfig config;
  config.variant = "tiled";
  config.bodiesPerItem = 1;
  config.workGroup = 48;  // not a multiple of 32
  const NBodyDriftMeasurement d =
      measureNBodyDrift(*compute_, makeNBodyPreset(NBodyPreset::RandomCube, 64, 1), config, NBodyParams{}, 5);
  EXPECT_NE(d.problem.find("multiple of 32"), std::string::npos) << d.problem;
  EXPECT_EQ(d.drift.energy, 0.0);
}

}  // namespace
}  // namespace ks
