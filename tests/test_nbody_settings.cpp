// The N-body lab's choices in settings.json (io/nbody_choices.h, the "nbody" section
// of io/settings.h): every kept field round trips, each bad value is refused with a
// message naming it while the rest is kept, and files written before the section
// existed still load.
#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "io/settings.h"
#include "test_support.h"

namespace ks {
namespace {
namespace fs = std::filesystem;
using nlohmann::json;
using test::readFile;
using test::TempDir;
using test::writeFile;

// Every kept field away from its default.
NBodyChoices unusualNBodyChoices() {
  NBodyChoices c;
  c.config = {.variant = "tiled", .workGroup = 64, .unroll = 4, .bodiesPerItem = 1, .split = 1,
              .fp64 = true, .nativeRsqrt = false, .fastRelaxedMath = true, .denormsAreZero = true,
              .extraOptions = "-DLET_COMPILER_UNROLL"};
  c.configFromUser = true;
  c.bodies = 1234;
  c.preset = NBodyPreset::SphereShell;
  c.seed = 77;
  c.stepsPerFrame = 5;
  c.style = {.pointSize = 6.5f, .brightness = 0.25f, .colorMap = 2, .maxSpeed = 3.5f, .attenuationDistance = 12.0f,
             .drawing = ParticleDrawing::PointSprites};
  c.autoSpeedScale = false;
  c.conservation = {.on = false, .everySteps = 200};
  return c;
}

void expectKeptFieldsEqual(const NBodyChoices& a, const NBodyChoices& b) {
  EXPECT_EQ(a.configFromUser, b.configFromUser);
  EXPECT_TRUE(a.config == b.config) << describeNBodyConfig(a.config) << " / " << describeNBodyConfig(b.config);
  EXPECT_EQ(a.bodies, b.bodies);
  EXPECT_EQ(a.preset, b.preset);
  EXPECT_EQ(a.seed, b.seed);
  EXPECT_EQ(a.stepsPerFrame, b.stepsPerFrame);
  EXPECT_TRUE(a.style == b.style);
  EXPECT_EQ(a.style.pointSize, b.style.pointSize);
  EXPECT_EQ(a.style.brightness, b.style.brightness);
  EXPECT_EQ(a.style.colorMap, b.style.colorMap);
  EXPECT_EQ(a.style.maxSpeed, b.style.maxSpeed);
  EXPECT_EQ(a.style.attenuationDistance, b.style.attenuationDistance);
  EXPECT_EQ(a.style.drawing, b.style.drawing);
  EXPECT_EQ(a.autoSpeedScale, b.autoSpeedScale);
  EXPECT_TRUE(a.conservation == b.conservation);
}

SettingsRead loaded(const fs::path& file) {
  const auto read = loadSettings(file);
  EXPECT_TRUE(read) << read.error().what();
  return read ? *read : SettingsRead{};
}

TEST(NBodySettings, EveryKeptFieldRoundTrips) {
  TempDir dir;
  const fs::path file = dir / "settings.json";
  Settings s;
  s.nbody = unusualNBodyChoices();
  s.nbody->paused = true;                             // not kept: a start runs
  s.nbody->split.requested = std::vector<size_t>{0, 1};  // not kept: indices of this run's device list
  ASSERT_TRUE(saveSettings(s, file));
  const SettingsRead back = loaded(file);
  EXPECT_TRUE(back.nbodyProblems.empty()) << back.nbodyProblems.front();
  ASSERT_TRUE(back.settings.nbody.has_value()) << readFile(file);
  expectKeptFieldsEqual(*back.settings.nbody, unusualNBodyChoices());
  EXPECT_FALSE(back.settings.nbody->paused);
  EXPECT_FALSE(back.settings.nbody->split.requested.has_value());
  // The steps per frame and brightness were saved: the scene's first start keeps them.
  EXPECT_TRUE(back.settings.nbody->keepSavedStepsAndBrightness);
  // Saved again, the same file.
  ASSERT_TRUE(saveSettings(back.settings, dir / "again.json"));
  EXPECT_EQ(readFile(dir / "again.json"), readFile(file));
}

// The tuned configuration follows the device: it is not written, and none comes back.
TEST(NBodySettings, ATunedConfigurationIsNotKept) {
  TempDir dir;
  Settings s;
  s.nbody = unusualNBodyChoices();
  s.nbody->configFromUser = false;
  ASSERT_TRUE(saveSettings(s, dir / "settings.json"));
  EXPECT_FALSE(json::parse(readFile(dir / "settings.json"))["nbody"].contains("config"));
  const SettingsRead back = loaded(dir / "settings.json");
  ASSERT_TRUE(back.settings.nbody.has_value());
  EXPECT_FALSE(back.settings.nbody->configFromUser);
  EXPECT_TRUE(back.settings.nbody->config == NBodyConfig{});
  EXPECT_EQ(back.settings.nbody->bodies, 1234);
}

struct BadValue {
  std::string pointer;  // where in the "nbody" section
  json value;
  std::string message;  // what the log says, in part
  std::function<bool(const NBodyChoices&)> keptDefault;
};

// Each bad value is refused with a message naming it; that field keeps its default
// and every other field is read as saved.
TEST(NBodySettings, EachBadValueIsRefusedWithItsMessageAndKeepsItsDefault) {
  const NBodyChoices d;
  const std::vector<BadValue> cases = {
      {"/bodies", 0, "'bodies' 0: out of range (1 to 1073741824)", [&](auto& c) { return c.bodies == d.bodies; }},
      {"/bodies", -5, "'bodies' -5: out of range", [&](auto& c) { return c.bodies == d.bodies; }},
      {"/bodies", "many", "'bodies' \"many\": not a whole number", [&](auto& c) { return c.bodies == d.bodies; }},
      {"/bodies", 2.5, "'bodies' 2.5: not a whole number", [&](auto& c) { return c.bodies == d.bodies; }},
      {"/preset", "galaxy", "'preset' \"galaxy\": no such preset", [&](auto& c) { return c.preset == d.preset; }},
      {"/preset", 2, "'preset' 2: not a preset's name", [&](auto& c) { return c.preset == d.preset; }},
      {"/seed", 1e12, "'seed' 1000000000000.0: not a whole number", [&](auto& c) { return c.seed == d.seed; }},
      {"/seed", 5000000000LL, "'seed' 5000000000: out of range", [&](auto& c) { return c.seed == d.seed; }},
      {"/steps_per_frame", 0, "'steps_per_frame' 0: out of range (1 to 1000)",
       [&](auto& c) { return c.stepsPerFrame == d.stepsPerFrame && !c.keepSavedStepsAndBrightness; }},
      {"/steps_per_frame", 5000, "'steps_per_frame' 5000: out of range",
       [&](auto& c) { return c.stepsPerFrame == d.stepsPerFrame; }},
      {"/style/point_size", 0, "style 'point_size' 0: out of range (above 0.0 to 256.0)",
       [&](auto& c) { return c.style.pointSize == d.style.pointSize; }},
      {"/style/point_size", "big", "style 'point_size' \"big\": not a number",
       [&](auto& c) { return c.style.pointSize == d.style.pointSize; }},
      {"/style/brightness", -1, "style 'brightness' -1: out of range",
       [&](auto& c) { return c.style.brightness == d.style.brightness && !c.keepSavedStepsAndBrightness; }},
      {"/style/brightness", 1e30, "style 'brightness' 1e+30: out of range",
       [&](auto& c) { return c.style.brightness == d.style.brightness; }},
      {"/style/color_map", 3, "style 'color_map' 3: out of range (0 to 2)",
       [&](auto& c) { return c.style.colorMap == d.style.colorMap; }},
      {"/style/max_speed", 0, "style 'max_speed' 0: out of range",
       [&](auto& c) { return c.style.maxSpeed == d.style.maxSpeed; }},
      {"/style/attenuation_distance", -0.5, "style 'attenuation_distance' -0.5: out of range (0.0 to",
       [&](auto& c) { return c.style.attenuationDistance == d.style.attenuationDistance; }},
      {"/style/drawing", "lasers", "style 'drawing' \"lasers\": not a way of drawing (auto, sprites or compute)",
       [&](auto& c) { return c.style.drawing == d.style.drawing; }},
      {"/style", 7, "'style' 7: not a JSON object", [&](auto& c) { return c.style == d.style; }},
      {"/auto_speed_scale", "yes", "'auto_speed_scale' \"yes\": not true or false",
       [&](auto& c) { return c.autoSpeedScale == d.autoSpeedScale; }},
      {"/conservation/every_steps", 0, "conservation 'every_steps' 0: out of range (1 to 100000)",
       [&](auto& c) { return c.conservation.everySteps == d.conservation.everySteps; }},
      {"/conservation/on", 1, "conservation 'on' 1: not true or false",
       [&](auto& c) { return c.conservation.on == d.conservation.on; }},
      {"/conservation", "often", "'conservation' \"often\": not a JSON object",
       [&](auto& c) { return c.conservation == d.conservation; }},
      {"/config/variant", "warp_drive", "no variant 'warp_drive' in this kernelscope",
       [&](auto& c) { return !c.configFromUser && c.config == d.config; }},
      {"/config/work_group", 0, "'work_group' out of range (1 to 65536)",
       [&](auto& c) { return !c.configFromUser && c.config == d.config; }},
      {"/config/fp64", "no", "not true or false", [&](auto& c) { return !c.configFromUser && c.config == d.config; }},
      {"/config", json::array(), "'config' []: not a JSON object",
       [&](auto& c) { return !c.configFromUser && c.config == d.config; }},
  };
  Settings good;
  good.nbody = unusualNBodyChoices();
  json saved;
  to_json(saved, *good.nbody);
  for (const BadValue& bad : cases) {
    SCOPED_TRACE(bad.pointer + " = " + bad.value.dump());
    json section = saved;
    section[json::json_pointer(bad.pointer)] = bad.value;
    TempDir dir;
    writeFile(dir / "settings.json", json{{"version", 1}, {"window", {{"width", 900}}}, {"nbody", section}}.dump());
    const SettingsRead read = loaded(dir / "settings.json");
    ASSERT_EQ(read.nbodyProblems.size(), 1u);
    EXPECT_NE(read.nbodyProblems[0].find("settings file '" + (dir / "settings.json").string() + "': N-body choices: "),
              std::string::npos)
        << read.nbodyProblems[0];
    EXPECT_NE(read.nbodyProblems[0].find(bad.message), std::string::npos) << read.nbodyProblems[0];
    EXPECT_NE(read.nbodyProblems[0].find("; using the default"), std::string::npos) << read.nbodyProblems[0];
    ASSERT_TRUE(read.settings.nbody.has_value());
    EXPECT_TRUE(bad.keptDefault(*read.settings.nbody));
    EXPECT_EQ(read.settings.windowWidth, 900);  // the rest of the file is kept
    // ... and the rest of the section: the seed unless it was the bad one.
    if (bad.pointer != "/seed") {
      EXPECT_EQ(read.settings.nbody->seed, 77);
    }
    if (bad.pointer != "/bodies") {
      EXPECT_EQ(read.settings.nbody->bodies, 1234);
    }
  }
}

// A section that is not an object costs the N-body choices, not the file.
TEST(NBodySettings, ASectionThatIsNotAnObjectGivesTheDefaults) {
  TempDir dir;
  writeFile(dir / "settings.json", R"({"version": 1, "window": {"width": 900}, "vsync": false, "nbody": [1, 2]})");
  const SettingsRead read = loaded(dir / "settings.json");
  ASSERT_EQ(read.nbodyProblems.size(), 1u);
  EXPECT_NE(read.nbodyProblems[0].find("N-body choices: not a JSON object; using the default"), std::string::npos)
      << read.nbodyProblems[0];
  EXPECT_FALSE(read.settings.vsync);
  ASSERT_TRUE(read.settings.nbody.has_value());
  expectKeptFieldsEqual(*read.settings.nbody, NBodyChoices{});
}

// A settings.json as kernelscope wrote it before the N-body section (tests/fixtures,
// commit c133f64): no N-body choices come back, so the lab starts from its defaults
// for the device, and saving it again writes the same bytes.
TEST(NBodySettings, AFileWrittenBeforeTheSectionHasNoNBodyChoices) {
  const fs::path fixture = fs::path(KS_TEST_FIXTURES) / "settings_written_by_c133f64.json";
  const SettingsRead read = loaded(fixture);
  EXPECT_TRUE(read.nbodyProblems.empty());
  EXPECT_EQ(read.ignored, "");
  EXPECT_FALSE(read.settings.nbody.has_value());
  EXPECT_EQ(read.settings.windowWidth, 1500);
  TempDir dir;
  ASSERT_TRUE(saveSettings(read.settings, dir / "settings.json"));
  EXPECT_EQ(readFile(dir / "settings.json"), readFile(fixture));
}

// A section with part of the fields (hand-written, or from a version that keeps
// fewer): what is there is read, the rest keeps its defaults, and nothing is
// refused. Without both the steps and the brightness the preset's are taken.
TEST(NBodySettings, ASectionWithSomeFieldsKeepsTheOthersAtTheirDefaults) {
  TempDir dir;
  writeFile(dir / "settings.json", R"({"version": 1, "window": {}, "nbody": {"bodies": 2048, "preset": "collision",
                                       "steps_per_frame": 4, "style": {"color_map": 1}}})");
  const SettingsRead read = loaded(dir / "settings.json");
  EXPECT_TRUE(read.nbodyProblems.empty()) << read.nbodyProblems.front();
  ASSERT_TRUE(read.settings.nbody.has_value());
  NBodyChoices expected;
  expected.bodies = 2048;
  expected.preset = NBodyPreset::CollidingGalaxies;
  expected.stepsPerFrame = 4;
  expected.style.colorMap = 1;
  expectKeptFieldsEqual(*read.settings.nbody, expected);
  EXPECT_FALSE(read.settings.nbody->keepSavedStepsAndBrightness);
}

}  // namespace
}  // namespace ks
