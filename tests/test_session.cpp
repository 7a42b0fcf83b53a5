// The running app's OpenCL side without a window: device switching (PoCL made
// to list two devices), interop path requests, scene switching and N-body
// requests, through the same AppState the panels write.
#include <gtest/gtest.h>

#include <cstdlib>

#include "app/app_state.h"
#include "app/render_surface.h"
#include "app/session.h"

namespace ks {
namespace {

// PoCL lists one device per name in POCL_DEVICES; two give the app something to
// switch between. Set before the ICD loader first runs.
const bool kTwoPoclDevices = [] {
  setenv("POCL_DEVICES", "pthread basic", 0);
  return true;
}();

class SessionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    try {
      surface_ = createHeadlessSurface(320, 240);
    } catch (const std::exception& e) {
      GTEST_SKIP() << "no headless GL context: " << e.what();
    }
    options_.kernelsDir = KERNELSCOPE_SOURCE_KERNELS_DIR;
    options_.nbody.bodies = 500;
    options_.nbody.explicitOptions = {"--n"};
    DeviceCatalog catalog;
    try {
      catalog = requireDevices();
    } catch (const std::exception& e) {
      GTEST_SKIP() << e.what();
    }
    session_ = std::make_unique<Session>(std::move(catalog), options_, Settings{}, *surface_, state_);
  }
  void frame() {
    session_->applyRequests(state_);
    session_->update(state_, 1.0 / 60.0);
    session_->draw(state_, 320, 240);
  }
  std::unique_ptr<RenderSurface> surface_;
  AppOptions options_;
  AppState state_;
  std::unique_ptr<Session> session_;
};

TEST_F(SessionTest, StartsOnADeviceWithTheNBodyScene) {
  ASSERT_TRUE(state_.activeDevice);
  EXPECT_EQ(state_.scene, SceneKind::NBody);
  frame();
  EXPECT_EQ(state_.nbody.runningBodies, 500u);
  EXPECT_EQ(state_.nbody.steps, 1u);
  EXPECT_GT(state_.nbody.interactionsPerSecond, 0.0);
}

TEST_F(SessionTest, SwitchingDeviceKeepsTheBodies) {
  if (state_.devices.size() < 2) GTEST_SKIP() << "only one OpenCL device listed";
  frame();
  state_.nbody.paused = true;
  const NBodySystem before = *session_->snapshot();
  for (int round = 0; round < 6; ++round) {  // back and forth: old objects must go cleanly
    const size_t other = *state_.activeDevice == 0 ? 1 : 0;
    state_.requestedDevice = other;
    frame();
    ASSERT_EQ(state_.activeDevice, other) << state_.deviceMessage;
    EXPECT_NE(state_.deviceMessage.find("switched to"), std::string::npos) << state_.deviceMessage;
  }
  const NBodySystem after = *session_->snapshot();
  ASSERT_EQ(after.size(), before.size());
  for (size_t i = 0; i < before.size(); ++i)
    for (int k = 0; k < 4; ++k) EXPECT_FLOAT_EQ(float(after.positions[i][k]), float(before.positions[i][k]));
}

TEST_F(SessionTest, AnUnavailableInteropPathIsRefusedWithTheReason) {
  for (const auto& s : state_.interopPaths) {
    if (s.available) continue;
    const InteropPath running = state_.interopPath;
    state_.requestedInterop = s.path;
    frame();
    EXPECT_EQ(state_.interopPath, running);
    EXPECT_NE(state_.interopMessage.find(s.reason), std::string::npos) << state_.interopMessage;
  }
}

TEST_F(SessionTest, AnInvalidKernelConfigurationIsRefusedAndTheOldOneKeepsRunning) {
  frame();
  const NBodyConfig running = state_.nbody.runningConfig;
  state_.nbody.config.workGroup = 48;
  frame();
  EXPECT_EQ(state_.nbody.config, running);
  EXPECT_NE(state_.nbody.message.find("multiple of 32"), std::string::npos) << state_.nbody.message;
  EXPECT_EQ(state_.nbody.steps, 2u) << "the simulation kept stepping";
}

TEST_F(SessionTest, ChangingNAndVariantLive) {
  state_.nbody.bodies = 777;
  frame();
  EXPECT_EQ(state_.nbody.runningBodies, 777u);
  state_.nbody.config.variant = "naive";
  state_.nbody.config.unroll = 1;
  state_.nbody.config.bodiesPerItem = 1;
  state_.nbody.config.split = 1;
  frame();
  EXPECT_EQ(state_.nbody.runningConfig.variant, "naive") << state_.nbody.message;
  state_.nbody.verifyRequested = true;
  frame();
  EXPECT_EQ(state_.nbody.verification.rfind("PASS", 0), 0u) << state_.nbody.verification;
}

TEST_F(SessionTest, SwitchingSceneAndBack) {
  state_.requestedScene = SceneKind::Julia;
  frame();
  EXPECT_EQ(state_.scene, SceneKind::Julia);
  EXPECT_GT(state_.breakdown.kernelMs, 0.0);
  EXPECT_FALSE(session_->snapshot());
  state_.requestedScene = SceneKind::NBody;
  frame();
  EXPECT_EQ(state_.scene, SceneKind::NBody);
  EXPECT_TRUE(session_->snapshot());
}

TEST_F(SessionTest, LoadingACorruptStateFileKeepsTheSimulation) {
  frame();
  const std::string path = ::testing::TempDir() + "ks-corrupt-state.ksn";
  FILE* f = std::fopen(path.c_str(), "wb");
  ASSERT_TRUE(f);
  std::fputs("KSNBODY\x01 this is not a state file", f);
  std::fclose(f);
  std::snprintf(state_.nbody.statePath, sizeof state_.nbody.statePath, "%s", path.c_str());
  state_.nbody.loadRequested = true;
  frame();
  EXPECT_EQ(state_.nbody.runningBodies, 500u);
  EXPECT_NE(state_.nbody.message.find("load failed"), std::string::npos) << state_.nbody.message;
  // and a good round trip
  state_.nbody.saveRequested = true;
  frame();
  state_.nbody.bodies = 100;
  frame();
  state_.nbody.loadRequested = true;
  frame();
  EXPECT_EQ(state_.nbody.runningBodies, 500u) << state_.nbody.message;
  std::remove(path.c_str());
}

}  // namespace
}  // namespace ks
