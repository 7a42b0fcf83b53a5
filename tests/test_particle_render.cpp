// The drawing side of the N-body scene: orbit camera maths (no GL), and the
// particle sprites rendered offscreen through a headless EGL context (Mesa
// llvmpipe in CI, the GPU on the GPU machine), checked pixel by pixel; and the
// screenshots taken of what was drawn (read back, written as PNG).
#include <gtest/gtest.h>
#include <unistd.h>

#include <stb_image.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <glm/gtc/matrix_transform.hpp>
#include <memory>
#include <random>
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "render/egl_headless.h"
#include "render/embedded_shaders.h"
#include "render/gl_check.h"
#include "render/gl_objects.h"
#include "render/orbit_camera.h"
#include "render/particle_drawing_trial.h"
#include "render/particle_renderer.h"
#include "render/particle_splat.h"
#include "render/screenshot.h"
#include "test_require.h"
#include "test_support.h"

namespace ks {
namespace {

// ---- camera maths ------------------------------------------------------------

glm::vec3 toNdc(const glm::mat4& viewProjection, const glm::vec3& world) {
  const glm::vec4 clip = viewProjection * glm::vec4(world, 1.0f);
  return glm::vec3(clip) / clip.w;
}

TEST(OrbitCamera, ViewPutsTargetAtScreenCentre) {
  OrbitCamera camera(7.0);
  camera.setTarget({1.0f, -2.0f, 3.5f});
  const std::pair<double, double> angles[] = {{0.0, 0.0}, {1.0, 0.5}, {-2.5, -1.2}, {4.0, 1.4}};
  for (const auto& [yaw, pitch] : angles) {
    camera.setAngles(yaw, pitch);
    const glm::vec3 ndc = toNdc(camera.projection(1.5f) * camera.view(), camera.target());
    EXPECT_NEAR(ndc.x, 0.0f, 1e-5f) << "yaw " << yaw << " pitch " << pitch;
    EXPECT_NEAR(ndc.y, 0.0f, 1e-5f) << "yaw " << yaw << " pitch " << pitch;
    EXPECT_GT(ndc.z, -1.0f);
    EXPECT_LT(ndc.z, 1.0f);
    EXPECT_NEAR(glm::length(camera.eye() - camera.target()), 7.0f, 1e-4f);
  }
}

TEST(OrbitCamera, ProjectsLikeA45DegreePerspective) {
  // yaw 0, pitch 0 looks down -z: x and y land at x / (d tan(fov/2) aspect), y / (d tan(fov/2)).
  OrbitCamera camera(10.0);
  camera.setAngles(0.0, 0.0);
  const float halfHeight = 10.0f * std::tan(OrbitCamera::kFovY * 0.5f);
  const glm::vec3 ndc = toNdc(camera.projection(1.5f) * camera.view(), {2.0f, 1.5f, 0.0f});
  EXPECT_NEAR(ndc.x, 2.0f / (halfHeight * 1.5f), 1e-5f);
  EXPECT_NEAR(ndc.y, 1.5f / halfHeight, 1e-5f);
  EXPECT_NEAR(camera.eye().z, 10.0f, 1e-5f);
}

TEST(OrbitCamera, ZoomIsMultiplicative) {
  OrbitCamera camera(10.0);
  camera.zoom(1.0f);
  const double d1 = camera.distance();
  EXPECT_LT(d1, 10.0);  // positive steps move towards the target
  camera.zoom(1.0f);
  const double d2 = camera.distance();
  EXPECT_NEAR(d2 / d1, d1 / 10.0, 1e-12);
  camera.zoom(-2.0f);
  EXPECT_NEAR(camera.distance(), 10.0, 1e-9);
  // The same steps scale a tiny and a huge system alike.
  OrbitCamera tiny(1e-2), huge(1e5);
  tiny.zoom(3.0f);
  huge.zoom(3.0f);
  EXPECT_NEAR(tiny.distance() / 1e-2, huge.distance() / 1e5, 1e-12);
}

TEST(OrbitCamera, DistanceIsClamped) {
  OrbitCamera camera(10.0);
  camera.setDistance(1e30);
  EXPECT_EQ(camera.distance(), camera.maxDistance());
  camera.zoom(1e4f);
  EXPECT_EQ(camera.distance(), camera.minDistance());
  camera.setDistance(-5.0);
  EXPECT_EQ(camera.distance(), camera.minDistance());
  camera.setDistanceLimits(1.0, 2.0);
  EXPECT_EQ(camera.distance(), 1.0);
  camera.zoom(-100.0f);
  EXPECT_EQ(camera.distance(), 2.0);
}

TEST(OrbitCamera, RotateMovesTheEyeButKeepsTheDistance) {
  OrbitCamera camera(5.0);
  camera.setTarget({1.0f, 1.0f, 1.0f});
  const glm::vec3 before = camera.eye();
  camera.rotate(40.0f, -25.0f);
  const glm::vec3 after = camera.eye();
  EXPECT_GT(glm::length(after - before), 0.1f);
  EXPECT_NEAR(glm::length(after - camera.target()), 5.0f, 1e-5f);
  EXPECT_EQ(camera.distance(), 5.0);
  EXPECT_EQ(camera.target(), glm::vec3(1.0f));
}

TEST(OrbitCamera, PitchIsClampedAwayFromThePoles) {
  OrbitCamera camera(3.0);
  camera.rotate(0.0f, 1e6f);
  EXPECT_EQ(camera.pitch(), OrbitCamera::kMaxPitch);
  EXPECT_LT(OrbitCamera::kMaxPitch, glm::half_pi<double>());
  camera.rotate(0.0f, -1e6f);
  EXPECT_EQ(camera.pitch(), -OrbitCamera::kMaxPitch);
  camera.setAngles(0.0, 100.0);
  EXPECT_EQ(camera.pitch(), OrbitCamera::kMaxPitch);
  // Coasting into the clamp stops there, with a usable view.
  camera.setAngles(0.0, 0.0);
  for (int i = 0; i < 10; ++i) {
    camera.rotate(0.0f, 80.0f);
    camera.update(1.0 / 60.0);
  }
  for (int i = 0; i < 120; ++i) camera.update(1.0 / 60.0);
  EXPECT_EQ(camera.pitch(), OrbitCamera::kMaxPitch);
  const glm::mat4 view = camera.view();
  for (int c = 0; c < 4; ++c)
    for (int r = 0; r < 4; ++r) EXPECT_TRUE(std::isfinite(view[c][r]));
  const glm::vec3 ndc = toNdc(camera.projection(1.0f) * view, camera.target());
  EXPECT_NEAR(ndc.x, 0.0f, 1e-5f);
  EXPECT_NEAR(ndc.y, 0.0f, 1e-5f);
}

TEST(OrbitCamera, PanMovesTheTargetInTheViewPlane) {
  OrbitCamera camera(10.0);
  camera.setAngles(0.0, 0.0);
  // Dragging right by 100 of 500 pixels moves the scene right: the target goes left
  // by the matching share of the view plane's height at the target.
  camera.pan(100.0f, 0.0f, 500);
  const float unitsPerPixel = 2.0f * 10.0f * std::tan(OrbitCamera::kFovY * 0.5f) / 500.0f;
  EXPECT_NEAR(camera.target().x, -100.0f * unitsPerPixel, 1e-5f);
  EXPECT_NEAR(camera.target().y, 0.0f, 1e-6f);
  EXPECT_NEAR(camera.target().z, 0.0f, 1e-6f);
  camera.pan(0.0f, 50.0f, 500);  // mouse down: scene down, target up
  EXPECT_NEAR(camera.target().y, 50.0f * unitsPerPixel, 1e-5f);
  EXPECT_EQ(camera.distance(), 10.0);
  camera.pan(10.0f, 10.0f, 0);  // no viewport: nothing to pan against
  EXPECT_NEAR(camera.target().x, -100.0f * unitsPerPixel, 1e-5f);
}

// A fling: drag right at 240 px/s for half a second, release, coast for a second.
double flingYaw(int fps, double coastSeconds = 1.0) {
  OrbitCamera camera(10.0);
  camera.setAngles(0.0, 0.0);
  const double dt = 1.0 / fps;
  for (int i = 0; i < fps / 2; ++i) {
    camera.rotate(240.0f / fps, 0.0f);
    camera.update(dt);
  }
  for (int i = 0; i < static_cast<int>(std::lround(coastSeconds * fps)); ++i) camera.update(dt);
  return camera.yaw();
}

TEST(OrbitCamera, InertiaIsFrameRateIndependent) {
  const double draggedOnly = flingYaw(60, 0.0);
  const double at60 = flingYaw(60), at30 = flingYaw(30), at144 = flingYaw(144);
  EXPECT_GT(std::abs(at60) - std::abs(draggedOnly), 0.2) << "the coast should have added a good deal";
  EXPECT_NEAR(at30, at60, 1e-3 * std::abs(at60));
  EXPECT_NEAR(at144, at60, 1e-3 * std::abs(at60));
}

TEST(OrbitCamera, InertiaDecaysToRest) {
  OrbitCamera camera(10.0);
  for (int i = 0; i < 10; ++i) {
    camera.rotate(30.0f, 10.0f);
    camera.pan(20.0f, -5.0f, 600);
    camera.update(1.0 / 60.0);
  }
  camera.update(1.0 / 60.0);
  EXPECT_TRUE(camera.moving());
  for (int i = 0; i < 5 * 60; ++i) camera.update(1.0 / 60.0);
  EXPECT_FALSE(camera.moving());
  const double yaw = camera.yaw(), pitch = camera.pitch();
  const glm::vec3 target = camera.target();
  for (int i = 0; i < 60; ++i) camera.update(1.0 / 60.0);
  EXPECT_EQ(camera.yaw(), yaw);
  EXPECT_EQ(camera.pitch(), pitch);
  EXPECT_EQ(camera.target(), target);
}

TEST(OrbitCamera, HoldingTheMouseStillStopsTheOrbit) {
  OrbitCamera camera(10.0);
  for (int i = 0; i < 20; ++i) {
    camera.rotate(20.0f, 0.0f);
    camera.update(1.0 / 60.0);
  }
  for (int i = 0; i < 30; ++i) {  // button held, mouse still
    camera.rotate(0.0f, 0.0f);
    camera.update(1.0 / 60.0);
  }
  const double released = camera.yaw();
  for (int i = 0; i < 120; ++i) camera.update(1.0 / 60.0);
  EXPECT_NEAR(camera.yaw(), released, 1e-3);
}

TEST(OrbitCamera, ZeroTimeStepKeepsTheDrag) {
  OrbitCamera a(10.0), b(10.0);
  a.rotate(10.0f, 0.0f);
  a.update(0.0);  // e.g. the very first frame
  a.update(1.0 / 60.0);
  b.rotate(10.0f, 0.0f);
  b.update(1.0 / 60.0);
  for (int i = 0; i < 30; ++i) {
    a.update(1.0 / 60.0);
    b.update(1.0 / 60.0);
  }
  EXPECT_NEAR(a.yaw(), b.yaw(), 1e-12);
}

TEST(OrbitCamera, NearAndFarScaleWithTheDistance) {
  for (double d : {1e-3, 1.0, 1e5}) {
    OrbitCamera camera(d);
    camera.setTarget(glm::vec3(static_cast<float>(3.0 * d), 0.0f, 0.0f));
    const glm::mat4 vp = camera.projection(1.0f) * camera.view();
    const glm::vec3 forward = glm::normalize(camera.target() - camera.eye());
    // The target and a system a few distances deep around it all fit in depth.
    for (float along : {-0.9f, 0.0f, 5.0f}) {
      const glm::vec3 ndc = toNdc(vp, camera.target() + forward * static_cast<float>(along * d));
      EXPECT_GT(ndc.z, -1.0f) << "distance " << d << ", " << along << " distances along the view";
      EXPECT_LT(ndc.z, 1.0f) << "distance " << d << ", " << along << " distances along the view";
    }
  }
}

// ---- particle rendering ----------------------------------------------------------

constexpr int kWidth = 96, kHeight = 64;  // not square: the aspect ratio has to be right

// One GL context for the whole executable: EGL start-up is the slow part.
struct GlEnvironment {
  std::unique_ptr<EglHeadlessContext> egl;
  std::string skipReason;
};

GlEnvironment& glEnvironment() {
  static GlEnvironment env = [] {
    GlEnvironment e;
    try {
      e.egl = std::make_unique<EglHeadlessContext>();
    } catch (const std::exception& ex) {
      e.skipReason = std::string("no headless GL context: ") + ex.what();
    }
    return e;
  }();
  return env;
}

struct Rgba {
  unsigned char r, g, b, a;
  int sum() const { return r + g + b; }
};

// Pixels in GL's order: row 0 at the bottom, like window coordinates.
struct Image {
  std::vector<Rgba> pixels;
  const Rgba& at(int x, int y) const { return pixels[static_cast<size_t>(y) * kWidth + x]; }
  bool black() const {
    for (const Rgba& p : pixels)
      if (p.r || p.g || p.b) return false;
    return true;
  }
  int litCount() const {
    int n = 0;
    for (const Rgba& p : pixels) n += p.sum() > 0;
    return n;
  }
  // Brightness-weighted centre of the pixels within `radius` of (x, y), in
  // window coordinates (pixel i covers [i, i + 1)).
  glm::vec2 centroid(glm::vec2 around, int radius) const {
    glm::dvec2 sum(0.0);
    double weight = 0.0;
    for (int y = static_cast<int>(around.y) - radius; y <= static_cast<int>(around.y) + radius; ++y)
      for (int x = static_cast<int>(around.x) - radius; x <= static_cast<int>(around.x) + radius; ++x) {
        if (x < 0 || y < 0 || x >= kWidth || y >= kHeight) continue;
        const double w = at(x, y).sum();
        sum += glm::dvec2(x + 0.5, y + 0.5) * w;
        weight += w;
      }
    return weight > 0 ? glm::vec2(sum / weight) : glm::vec2(-1.0f);
  }
};

// Every drawing test runs for the point sprites and for the compute splat, which must draw the same picture.
class ParticleRender : public ::testing::TestWithParam<ParticleDrawing> {
 protected:
  void SetUp() override {
    KS_NEED("gl", glEnvironment().skipReason);
    framebuffer_ = Framebuffer(kWidth, kHeight);
    renderer_ = std::make_unique<ParticleRenderer>();
    GLuint names[2] = {0, 0};
    glGenBuffers(2, names);
    buffer_ = GlBuffer(names[0]);
    otherBuffer_ = GlBuffer(names[1]);
    camera_.setAngles(0.0, 0.0);
    style_.colorMap = 2;  // white unless a test says otherwise
    style_.pointSize = 6.0f;
    style_.drawing = GetParam();
    glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_.get());
    glViewport(0, 0, kWidth, kHeight);
    glCheck("test set-up");
  }
  void TearDown() override {
    if (glEnvironment().egl) {
      glBindFramebuffer(GL_FRAMEBUFFER, 0);
      while (glGetError() != GL_NO_ERROR) {
      }  // a failed test must not leave an error for the next one
    }
  }

  static void upload(GLuint buffer, const std::vector<glm::vec4>& particles) {
    glBindBuffer(GL_ARRAY_BUFFER, buffer);
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(particles.size() * sizeof(glm::vec4)), particles.data(),
                 GL_STATIC_DRAW);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    glCheck("particle upload");
  }
  glm::mat4 viewProjection() const {
    return camera_.projection(static_cast<float>(kWidth) / kHeight) * camera_.view();
  }
  // Where a world point lands, in window coordinates.
  glm::vec2 toWindow(const glm::vec3& world) const {
    const glm::vec3 ndc = toNdc(viewProjection(), world);
    return {(ndc.x * 0.5f + 0.5f) * kWidth, (ndc.y * 0.5f + 0.5f) * kHeight};
  }
  static void clear() {
    glClearColor(0.0f, 0.0f, 0.0f, 0.0f);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  }
  static Image readBack() {
    Image image;
    image.pixels.resize(static_cast<size_t>(kWidth) * kHeight);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, kWidth, kHeight, GL_RGBA, GL_UNSIGNED_BYTE, image.pixels.data());
    glCheck("glReadPixels");
    return image;
  }
  Image render(const std::vector<glm::vec4>& particles) {
    upload(buffer_.get(), particles);
    clear();
    renderer_->draw(buffer_.get(), particles.size(), viewProjection(), style_);
    expectDrawnAsAsked();
    return readBack();
  }
  // The compute splat falls back to point sprites only where the GL lacks it; llvmpipe (CI) and
  // NVIDIA's drivers have it, so a fallback there means a test checked the wrong path.
  void expectDrawnAsAsked() const {
    if (style_.drawing == ParticleDrawing::ComputeSplat)
      EXPECT_EQ(renderer_->lastDrawing(), ParticleDrawing::ComputeSplat)
          << "the compute splat was not used: " << renderer_->splatNotUsedReason();
    else
      EXPECT_EQ(renderer_->lastDrawing(), ParticleDrawing::PointSprites);
  }

  Framebuffer framebuffer_;
  std::unique_ptr<ParticleRenderer> renderer_;
  GlBuffer buffer_, otherBuffer_;
  OrbitCamera camera_{10.0};
  ParticleStyle style_;
};

TEST_P(ParticleRender, ParticleAtTheTargetLightsTheCentre) {
  const Image image = render({glm::vec4(0.0f, 0.0f, 0.0f, 0.5f)});
  const Rgba& centre = image.at(kWidth / 2, kHeight / 2);
  EXPECT_GT(centre.sum(), 3 * 200) << "centre pixel " << int(centre.r) << "," << int(centre.g) << "," << int(centre.b);
  const std::pair<int, int> corners[] = {{0, 0}, {kWidth - 1, 0}, {0, kHeight - 1}, {kWidth - 1, kHeight - 1}};
  for (const auto& [x, y] : corners)
    EXPECT_EQ(image.at(x, y).sum(), 0) << "corner " << x << "," << y;
  const glm::vec2 c = image.centroid({kWidth / 2.0f, kHeight / 2.0f}, 6);
  EXPECT_NEAR(c.x, kWidth / 2.0f, 0.5f);
  EXPECT_NEAR(c.y, kHeight / 2.0f, 0.5f);
  // A round sprite of about pointSize across, not a square of it.
  const int lit = image.litCount();
  EXPECT_GE(lit, 16);
  EXPECT_LT(lit, 36);
}

TEST_P(ParticleRender, SpriteFallsOffTowardsItsRim) {
  style_.pointSize = 16.0f;
  const Image image = render({glm::vec4(0.0f, 0.0f, 0.0f, 0.0f)});
  const int cx = kWidth / 2, cy = kHeight / 2;
  EXPECT_GT(image.at(cx, cy).sum(), image.at(cx + 4, cy).sum());
  EXPECT_GT(image.at(cx + 4, cy).sum(), image.at(cx + 6, cy).sum());
  EXPECT_GT(image.at(cx + 6, cy).sum(), 0);
  EXPECT_EQ(image.at(cx + 7, cy + 7).sum(), 0) << "the square's corner lies outside the disc";
}

TEST_P(ParticleRender, ParticlesLandAtTheirProjectedPixels) {
  camera_.setTarget({0.5f, -0.25f, 0.0f});
  const glm::vec3 a(2.0f, 0.0f, 0.0f), b(-1.0f, 1.5f, 0.0f);
  const Image image = render({glm::vec4(a, 0.0f), glm::vec4(b, 0.0f)});
  for (const glm::vec3& p : {a, b}) {
    const glm::vec2 expected = toWindow(p);
    const glm::vec2 got = image.centroid(expected, 5);
    EXPECT_NEAR(got.x, expected.x, 0.75f) << "particle at " << p.x << "," << p.y;
    EXPECT_NEAR(got.y, expected.y, 0.75f) << "particle at " << p.x << "," << p.y;
    EXPECT_GT(image.at(static_cast<int>(expected.x), static_cast<int>(expected.y)).sum(), 0);
  }
  // Nothing where no particle is: the mirror image of a's position, and the target.
  const glm::vec2 pa = toWindow(a);
  EXPECT_EQ(image.at(kWidth - 1 - static_cast<int>(pa.x), kHeight - 1 - static_cast<int>(pa.y)).sum(), 0);
  EXPECT_EQ(image.at(kWidth / 2, kHeight / 2).sum(), 0);
}

TEST_P(ParticleRender, AdditiveBlendingMakesOverlapsBrighter) {
  style_.brightness = 0.3f;
  const Rgba one = render({glm::vec4(0.0f)}).at(kWidth / 2, kHeight / 2);
  const Rgba two = render({glm::vec4(0.0f), glm::vec4(0.0f)}).at(kWidth / 2, kHeight / 2);
  EXPECT_GT(one.r, 20);
  EXPECT_LT(one.r, 120);
  EXPECT_NEAR(two.r, 2 * one.r, 2);
  EXPECT_NEAR(two.g, 2 * one.g, 2);
  EXPECT_NEAR(two.b, 2 * one.b, 2);
}

// A uniform the shader does not have (misspelt, or unused and so dropped by the
// compiler) is an error that names it, not a location of -1 that makes every
// glUniform* call with it do nothing.
TEST_P(ParticleRender, AMissingUniformIsNamed) {
  const ShaderProgram program = createShaderProgram(
      "#version 330 core\nuniform vec2 offset;\nvoid main() { gl_Position = vec4(offset, 0.0, 1.0); }\n",
      "#version 330 core\nout vec4 colour;\nvoid main() { colour = vec4(1.0); }\n", "test");
  GLint offset = -1, missing = -1;
  lookUpUniforms(program.get(), {{"offset", &offset}}, "test");
  EXPECT_GE(offset, 0);
  try {
    lookUpUniforms(program.get(), {{"offset", &offset}, {"ofset", &missing}}, "test");
    ADD_FAILURE() << "a uniform the program does not have was looked up";
  } catch (const GlError& e) {
    EXPECT_NE(std::string(e.what()).find("'ofset'"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("test shader"), std::string::npos) << e.what();
  }
}

TEST_P(ParticleRender, CountZeroDrawsNothing) {
  upload(buffer_.get(), {glm::vec4(0.0f), glm::vec4(1.0f, 1.0f, 0.0f, 0.0f)});
  clear();
  renderer_->draw(buffer_.get(), 0, viewProjection(), style_);
  renderer_->draw(0, 0, viewProjection(), style_);  // no buffer yet is fine too
  EXPECT_TRUE(readBack().black());
  glCheck("after empty draws");
}

TEST_P(ParticleRender, FollowsTheBufferItIsGiven) {
  upload(buffer_.get(), {glm::vec4(-2.0f, 0.0f, 0.0f, 0.0f)});
  upload(otherBuffer_.get(), {glm::vec4(2.0f, 0.0f, 0.0f, 0.0f)});
  clear();
  renderer_->draw(buffer_.get(), 1, viewProjection(), style_);
  const Image first = readBack();
  clear();
  renderer_->draw(otherBuffer_.get(), 1, viewProjection(), style_);
  const Image second = readBack();
  const glm::vec2 left = toWindow({-2.0f, 0.0f, 0.0f}), right = toWindow({2.0f, 0.0f, 0.0f});
  EXPECT_GT(first.at(int(left.x), int(left.y)).sum(), 0);
  EXPECT_EQ(first.at(int(right.x), int(right.y)).sum(), 0);
  EXPECT_EQ(second.at(int(left.x), int(left.y)).sum(), 0);
  EXPECT_GT(second.at(int(right.x), int(right.y)).sum(), 0);
}

TEST_P(ParticleRender, ColourFollowsSpeedThroughTheMap) {
  int count = 0;
  const char* const* names = ParticleRenderer::colorMapNames(&count);
  ASSERT_EQ(count, ParticleRenderer::kColorMapCount);
  ASSERT_EQ(count, 3);
  EXPECT_STREQ(names[0], "inferno");
  EXPECT_STREQ(names[1], "ice");
  EXPECT_STREQ(names[2], "white");

  style_.maxSpeed = 10.0f;
  const glm::vec3 slowAt(-2.0f, 0.0f, 0.0f), fastAt(2.0f, 0.0f, 0.0f);
  const std::vector<glm::vec4> particles = {glm::vec4(slowAt, 0.0f), glm::vec4(fastAt, 25.0f)};  // fast: past max
  const glm::vec2 slowPx = toWindow(slowAt), fastPx = toWindow(fastAt);
  auto colours = [&](int map) {
    style_.colorMap = map;
    const Image image = render(particles);
    return std::pair{image.at(int(slowPx.x), int(slowPx.y)), image.at(int(fastPx.x), int(fastPx.y))};
  };
  const auto [infernoSlow, infernoFast] = colours(0);
  EXPECT_GT(infernoSlow.sum(), 60) << "slow particles must stay visible on black";
  EXPECT_GT(infernoSlow.b, infernoSlow.g);  // dark purple
  EXPECT_GT(infernoFast.g, 200);            // pale yellow
  EXPECT_GT(infernoFast.r, infernoFast.b);
  const auto [iceSlow, iceFast] = colours(1);
  EXPECT_GT(iceSlow.b, iceSlow.r + 40);  // deep blue
  EXPECT_GT(iceFast.sum(), iceSlow.sum() + 200);
  const auto [whiteSlow, whiteFast] = colours(2);
  EXPECT_EQ(whiteSlow.r, whiteSlow.b);
  EXPECT_EQ(whiteSlow.sum(), whiteFast.sum());
  // Out-of-range maps fall back to the nearest one instead of drawing garbage.
  const auto [clampedSlow, clampedFast] = colours(99);
  EXPECT_EQ(clampedSlow.sum(), whiteSlow.sum());
}

TEST_P(ParticleRender, BrightnessScalesTheColour) {
  style_.brightness = 0.25f;
  const Rgba dim = render({glm::vec4(0.0f)}).at(kWidth / 2, kHeight / 2);
  style_.brightness = 0.5f;
  const Rgba bright = render({glm::vec4(0.0f)}).at(kWidth / 2, kHeight / 2);
  EXPECT_NEAR(bright.r, 2 * dim.r, 2);
  style_.brightness = 0.0f;
  EXPECT_TRUE(render({glm::vec4(0.0f)}).black());
}

TEST_P(ParticleRender, AttenuationGrowsNearSprites) {
  style_.pointSize = 6.0f;
  style_.attenuationDistance = 10.0f;  // the camera's distance: sprites at the target keep pointSize
  const int atTarget = render({glm::vec4(0.0f)}).litCount();
  const int nearer = render({glm::vec4(0.0f, 0.0f, 5.0f, 0.0f)}).litCount();  // half as far from the eye
  style_.attenuationDistance = 0.0f;
  const int plain = render({glm::vec4(0.0f)}).litCount();
  EXPECT_EQ(atTarget, plain);
  EXPECT_GT(nearer, 3 * atTarget);
}

TEST_P(ParticleRender, TinyAndHugeSystemsBothRender) {
  for (double scale : {1e-3, 1e5}) {
    camera_.reset(10.0 * scale);
    camera_.setTarget(glm::vec3(static_cast<float>(4.0 * scale), static_cast<float>(-scale), 0.0f));
    const glm::vec3 offset(static_cast<float>(2.0 * scale), 0.0f, 0.0f);
    const Image image = render({glm::vec4(camera_.target(), 0.0f), glm::vec4(camera_.target() + offset, 0.0f)});
    EXPECT_GT(image.at(kWidth / 2, kHeight / 2).sum(), 0) << "scale " << scale;
    const glm::vec2 px = toWindow(camera_.target() + offset);
    EXPECT_GT(px.x, kWidth / 2.0f + 5.0f);
    EXPECT_GT(image.at(int(px.x), int(px.y)).sum(), 0) << "scale " << scale;
  }
}

TEST_P(ParticleRender, RestoresTheGlStateItChanges) {
  const ShaderProgram other = createShaderProgram(shaders::picture_vert, shaders::picture_frag, "other");
  const VertexArray otherVao = createVertexArray();
  upload(buffer_.get(), {glm::vec4(0.0f)});

  // State as the UI would leave it: blending for translucency, a program and VAO of its own, depth on.
  glEnable(GL_BLEND);
  glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
  glBlendEquation(GL_FUNC_SUBTRACT);
  glEnable(GL_DEPTH_TEST);
  glDepthFunc(GL_LESS);
  glUseProgram(other.get());
  glBindVertexArray(otherVao.get());
  glBindBuffer(GL_ARRAY_BUFFER, otherBuffer_.get());
  glClearColor(0.0f, 0.0f, 0.0f, 0.0f);
  glClearDepth(0.0);  // every fragment would fail GL_LESS: the sprites must not depth test
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  glClearDepth(1.0);
  renderer_->draw(buffer_.get(), 1, viewProjection(), style_);
  glCheck("draw");
  EXPECT_GT(readBack().at(kWidth / 2, kHeight / 2).sum(), 0) << "depth testing was left on";

  auto integer = [](GLenum name) {
    GLint v = 0;
    glGetIntegerv(name, &v);
    return v;
  };
  EXPECT_TRUE(glIsEnabled(GL_BLEND));
  EXPECT_TRUE(glIsEnabled(GL_DEPTH_TEST));
  EXPECT_FALSE(glIsEnabled(GL_PROGRAM_POINT_SIZE));
  EXPECT_EQ(integer(GL_BLEND_SRC_RGB), GL_SRC_ALPHA);
  EXPECT_EQ(integer(GL_BLEND_DST_RGB), GL_ONE_MINUS_SRC_ALPHA);
  EXPECT_EQ(integer(GL_BLEND_SRC_ALPHA), GL_ONE);
  EXPECT_EQ(integer(GL_BLEND_DST_ALPHA), GL_ONE_MINUS_SRC_ALPHA);
  EXPECT_EQ(integer(GL_BLEND_EQUATION_RGB), GL_FUNC_SUBTRACT);
  EXPECT_EQ(integer(GL_CURRENT_PROGRAM), static_cast<GLint>(other.get()));
  EXPECT_EQ(integer(GL_VERTEX_ARRAY_BINDING), static_cast<GLint>(otherVao.get()));
  EXPECT_EQ(integer(GL_ARRAY_BUFFER_BINDING), static_cast<GLint>(otherBuffer_.get()));

  // And the other way round: nothing enabled, nothing bound.
  glDisable(GL_BLEND);
  glDisable(GL_DEPTH_TEST);
  glBlendEquation(GL_FUNC_ADD);
  glUseProgram(0);
  glBindVertexArray(0);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  renderer_->draw(buffer_.get(), 1, viewProjection(), style_);
  EXPECT_FALSE(glIsEnabled(GL_BLEND));
  EXPECT_FALSE(glIsEnabled(GL_DEPTH_TEST));
  EXPECT_EQ(integer(GL_CURRENT_PROGRAM), 0);
  EXPECT_EQ(integer(GL_VERTEX_ARRAY_BINDING), 0);
  EXPECT_EQ(integer(GL_ARRAY_BUFFER_BINDING), 0);
  glCheck("state queries");
}

TEST_P(ParticleRender, RejectsABufferTooSmallForTheCount) {
  upload(buffer_.get(), {glm::vec4(0.0f), glm::vec4(0.0f)});
  glUseProgram(0);
  glDisable(GL_BLEND);
  EXPECT_THROW(renderer_->draw(buffer_.get(), 3, viewProjection(), style_), GlError);
  EXPECT_THROW(renderer_->draw(0, 1, viewProjection(), style_), GlError);
  GLint program = -1;
  glGetIntegerv(GL_CURRENT_PROGRAM, &program);
  EXPECT_EQ(program, 0);
  EXPECT_FALSE(glIsEnabled(GL_BLEND));
  glCheck("after rejected draws");
}

INSTANTIATE_TEST_SUITE_P(Drawing, ParticleRender,
                         ::testing::Values(ParticleDrawing::PointSprites, ParticleDrawing::ComputeSplat),
                         [](const ::testing::TestParamInfo<ParticleDrawing>& info) {
                           return info.param == ParticleDrawing::PointSprites ? "PointSprites" : "ComputeSplat";
                         });

// A renderer made after another on the same GL (the N-body scene of a device switch) takes the
// first one's calibration over: the switch's frame drew the calibration pictures again (issue 22).
TEST(ParticleSplatCalibration, IsDrawnOncePerGl) {
  KS_NEED("gl", glEnvironment().skipReason);
  const Framebuffer target(kWidth, kHeight);
  glBindFramebuffer(GL_FRAMEBUFFER, target.get());
  glViewport(0, 0, kWidth, kHeight);
  GLuint name = 0;
  glGenBuffers(1, &name);
  const GlBuffer buffer(name);
  const glm::vec4 particle(0.0f, 0.0f, 0.0f, 0.5f);
  glBindBuffer(GL_ARRAY_BUFFER, name);
  glBufferData(GL_ARRAY_BUFFER, sizeof particle, &particle, GL_STATIC_DRAW);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  ParticleStyle style;
  style.drawing = ParticleDrawing::ComputeSplat;

  ParticleRenderer first;
  first.draw(name, 1, glm::mat4(1.0f), style);
  ASSERT_NE(first.splat(), nullptr) << first.splatNotUsedReason();
  const int drawn = ParticleRenderer::splatCalibrationsDrawn();
  EXPECT_GE(drawn, 1);
  ParticleRenderer second;
  second.draw(name, 1, glm::mat4(1.0f), style);
  ASSERT_NE(second.splat(), nullptr) << second.splatNotUsedReason();
  EXPECT_EQ(ParticleRenderer::splatCalibrationsDrawn(), drawn) << "the second renderer drew the calibration again";
  EXPECT_EQ(second.splat()->rules.subpixelStep, first.splat()->rules.subpixelStep);
  EXPECT_EQ(second.splat()->rules.edgeRule, first.splat()->rules.edgeRule);
  EXPECT_EQ(second.splatCalibrationMismatches(), first.splatCalibrationMismatches());
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glCheck("after the calibration test");
}

// The compute splat draws what the point sprites draw: random particles of several sizes (with
// and without distance attenuation, so sizes fall between whole pixels and below one), every
// colour map, brightness past saturation, particles piled on one spot, off the screen and behind
// the eye. Pixels may differ where a sprite's edge passes a pixel centre within GL's sub-pixel
// rounding of the point's position; anywhere else they must agree within one level.
class ParticleSplatMatch : public ParticleRender {};

TEST_P(ParticleSplatMatch, DrawsWhatThePointSpritesDraw) {
  std::mt19937 random(2024);
  std::uniform_real_distribution<float> coordinate(-4.5f, 4.5f), speed(0.0f, 1.2f);
  std::vector<glm::vec4> particles;
  for (int i = 0; i < 3000; ++i) {
    // One draw per statement: the order in which a call's arguments are evaluated differs between
    // compilers (gcc and clang drew different particles).
    const float x = coordinate(random), y = coordinate(random), z = coordinate(random), v = speed(random);
    particles.emplace_back(x, y, z, v);
  }
  for (int i = 0; i < 300; ++i) particles.emplace_back(1.0f, -0.5f, 0.25f, 0.7f);  // one spot, saturating
  particles.emplace_back(100.0f, 0.0f, 0.0f, 0.5f);   // off the screen
  particles.emplace_back(0.0f, 0.0f, 30.0f, 0.5f);    // behind the eye (the camera is at z = 10)
  struct Case {
    float pointSize, attenuation, brightness;
    int colorMap;
  };
  const Case cases[] = {{3.0f, 0.0f, 1.0f, 0}, {1.0f, 0.0f, 0.6f, 1}, {2.5f, 0.0f, 2.0f, 2},
                        {6.0f, 10.0f, 0.4f, 0}, {0.6f, 10.0f, 1.0f, 1}, {16.0f, 0.0f, 0.15f, 0}};
  // The rules the renderer calibrated for this GL are checked; the other candidates are printed.
  style_.drawing = GetParam();
  render({glm::vec4(0.0f)});
  ASSERT_NE(renderer_->splat(), nullptr);
  const ParticleSplat::PointRules own = renderer_->splat()->rules;
  std::printf("calibrated: sub-pixel step %g, edge rule %d (%d calibration pixels differ)\n", own.subpixelStep,
              own.edgeRule, renderer_->splatCalibrationMismatches());
  // Where the calibration reproduced the sprites (llvmpipe: 1 pixel of 16384), pixel by pixel; where
  // it did not (NVIDIA's H200, driver 580: 31 pixels, and up to half of the lit pixels of soft
  // attenuated sprites, for reasons not found), the same picture in kind.
  const bool exactHere = renderer_->splatCalibrationMismatches() <= 8;
  if (!exactHere)
    std::printf("this GL's point sprites are not reproduced pixel for pixel: %d calibration pixels differ\n",
                renderer_->splatCalibrationMismatches());
  std::vector<ParticleSplat::PointRules> tried = {own};
  for (const auto& r : ParticleSplat::candidateRules()) tried.push_back(r);
  for (const ParticleSplat::PointRules& rules : tried)
  for (const Case& c : cases) {
    renderer_->splat()->rules = rules;
    const bool checked = &rules == &tried[0];
    style_.pointSize = c.pointSize;
    style_.attenuationDistance = c.attenuation;
    style_.brightness = c.brightness;
    style_.colorMap = c.colorMap;
    style_.drawing = ParticleDrawing::PointSprites;
    const Image sprites = render(particles);
    style_.drawing = GetParam();
    const Image splat = render(particles);
    int lit = 0, litSplat = 0, apart = 0, farApart = 0, largest = 0;
    double total = 0.0, totalSplat = 0.0;
    for (size_t i = 0; i < sprites.pixels.size(); ++i) {
      const Rgba& a = sprites.pixels[i];
      const Rgba& b = splat.pixels[i];
      lit += a.sum() > 0;
      litSplat += b.sum() > 0;
      total += a.sum();
      totalSplat += b.sum();
      const int d = std::max({std::abs(a.r - b.r), std::abs(a.g - b.g), std::abs(a.b - b.b), std::abs(a.a - b.a)});
      largest = std::max(largest, d);
      apart += d > 1;
      farApart += d > 16;
    }
    const std::string what = "rules " + std::to_string(rules.subpixelStep) + "/" + std::to_string(rules.edgeRule) +
                             ", point size " + std::to_string(c.pointSize) + ", attenuation " +
                             std::to_string(c.attenuation) + ", brightness " + std::to_string(c.brightness) +
                             ", colour map " + std::to_string(c.colorMap);
    std::printf("%s%s: %d lit pixels (splat %d), brightness %.0f (splat %.0f), %d differ by more than one level, "
                "largest difference %d\n",
                checked ? "" : "  (not checked) ", what.c_str(), lit, litSplat, total, totalSplat, apart, largest);
    if (!checked) continue;
    EXPECT_GT(lit, 1000) << what;
    if (exactHere) {
      EXPECT_LE(apart, lit / 200) << what << ": " << apart << " of " << lit
                                  << " lit pixels differ by more than one level (largest " << largest << ")";
      // A whole fragment more or less only where a sprite's edge passes a pixel centre within the
      // rasterizer's rounding: a handful of pixels (the sanitizer build's particles gave one, 54-94 levels).
      EXPECT_LE(farApart, lit / 500) << what << ": " << farApart << " pixels differ by more than 16 levels (largest "
                                     << largest << ")";
    } else {
      // The same picture in kind: as many pixels lit, as bright in all.
      EXPECT_NEAR(litSplat, lit, lit / 50) << what;
      EXPECT_NEAR(totalSplat, total, total * 0.03) << what;
    }
  }
}

// Automatic draws a few frames each way, timed on the GPU, then keeps the faster; a new particle
// count is measured again.
TEST_P(ParticleSplatMatch, AutomaticTimesBothWaysAndKeepsTheFaster) {
  std::vector<glm::vec4> particles(20000);
  std::mt19937 random(7);
  std::uniform_real_distribution<float> coordinate(-4.0f, 4.0f);
  for (glm::vec4& p : particles) p = glm::vec4(coordinate(random), coordinate(random), coordinate(random), 0.5f);
  upload(buffer_.get(), particles);
  style_.drawing = ParticleDrawing::Automatic;
  int sprites = 0, splats = 0;
  for (int frame = 0; frame < 60 && !renderer_->trial().decided(); ++frame) {
    clear();
    renderer_->draw(buffer_.get(), particles.size(), viewProjection(), style_);
    (renderer_->lastDrawing() == ParticleDrawing::ComputeSplat ? splats : sprites)++;
    glFinish();  // results come back by the next frame
  }
  ASSERT_TRUE(renderer_->trial().decided()) << "no choice after 60 draws";
  EXPECT_GE(sprites, ParticleDrawingTrial::kDrawsEach);
  EXPECT_GE(splats, ParticleDrawingTrial::kDrawsEach);
  const double spritesMs = renderer_->trial().medianMs(ParticleDrawing::PointSprites);
  const double splatMs = renderer_->trial().medianMs(ParticleDrawing::ComputeSplat);
  std::printf("point sprites %.3f ms, compute splat %.3f ms (median GPU time)\n", spritesMs, splatMs);
  EXPECT_GT(spritesMs, 0.0);
  EXPECT_GT(splatMs, 0.0);
  const ParticleDrawing faster = splatMs < spritesMs ? ParticleDrawing::ComputeSplat : ParticleDrawing::PointSprites;
  EXPECT_EQ(renderer_->trial().chosen(), faster);
  clear();
  renderer_->draw(buffer_.get(), particles.size(), viewProjection(), style_);
  EXPECT_EQ(renderer_->lastDrawing(), faster);
  // Half the particles: measured again, so both ways are drawn once more.
  renderer_->draw(buffer_.get(), particles.size() / 2, viewProjection(), style_);
  EXPECT_FALSE(renderer_->trial().decided());
  glCheck("automatic drawing");
}

INSTANTIATE_TEST_SUITE_P(Drawing, ParticleSplatMatch, ::testing::Values(ParticleDrawing::ComputeSplat),
                         [](const ::testing::TestParamInfo<ParticleDrawing>&) { return std::string("ComputeSplat"); });

// ---- screenshots ------------------------------------------------------------------

TEST_P(ParticleRender, ScreenshotReadsTopRowFirstAndKeepsThePackAlignment) {
  glClearColor(0.0f, 1.0f, 0.0f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  glEnable(GL_SCISSOR_TEST);
  glScissor(0, 0, kWidth, 1);  // GL's bottom row: the image's last
  glClearColor(1.0f, 0.0f, 0.0f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  glDisable(GL_SCISSOR_TEST);
  glPixelStorei(GL_PACK_ALIGNMENT, 8);  // what a caller may have chosen for its own reads
  const RgbaImage image = readFramebuffer(kWidth, kHeight);
  GLint alignment = 0;
  glGetIntegerv(GL_PACK_ALIGNMENT, &alignment);
  glPixelStorei(GL_PACK_ALIGNMENT, 4);
  glCheck("screenshot read-back");
  EXPECT_EQ(alignment, 8) << "readFramebuffer must put GL_PACK_ALIGNMENT back";
  ASSERT_EQ(image.pixels.size(), static_cast<size_t>(kWidth) * kHeight * 4);
  const unsigned char* top = image.pixels.data();
  const unsigned char* bottom = image.pixels.data() + static_cast<size_t>(kWidth) * (kHeight - 1) * 4;
  EXPECT_EQ(std::vector<int>(top, top + 4), (std::vector<int>{0, 255, 0, 255}));
  EXPECT_EQ(std::vector<int>(bottom, bottom + 4), (std::vector<int>{255, 0, 0, 255}));
}

RgbaImage smallTestImage() {
  RgbaImage image;
  image.width = 5;
  image.height = 3;
  for (int i = 0; i < image.width * image.height * 4; ++i) image.pixels.push_back(static_cast<unsigned char>(i * 17));
  return image;
}

// The reason the screenshot could not be written, or "" when savePng returned.
std::string saveFailure(const RgbaImage& image, const std::filesystem::path& file) {
  try {
    savePng(image, file);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

TEST(Screenshot, SavesAPngThatReadsBack) {
  test::TempDir dir("ks-screenshot");
  const RgbaImage image = smallTestImage();
  ASSERT_EQ(saveFailure(image, dir / "shot.png"), "");
  int w = 0, h = 0, n = 0;
  unsigned char* data = stbi_load((dir / "shot.png").c_str(), &w, &h, &n, 4);
  ASSERT_NE(data, nullptr) << stbi_failure_reason();
  EXPECT_EQ(std::pair(w, h), std::pair(image.width, image.height));
  EXPECT_EQ(std::vector<unsigned char>(data, data + image.pixels.size()), image.pixels);
  stbi_image_free(data);
}

TEST(Screenshot, AFullDiskIsAnErrorNamingTheFileAndTheReason) {
  // /dev/full takes the open and refuses every write with ENOSPC, as a full disk does.
  if (access("/dev/full", W_OK) != 0) GTEST_SKIP() << "no writable /dev/full";
  const std::string why = saveFailure(smallTestImage(), "/dev/full");
  EXPECT_NE(why.find("'/dev/full'"), std::string::npos) << why;
  EXPECT_NE(why.find(std::strerror(ENOSPC)), std::string::npos) << why;
}

TEST(Screenshot, UnwritablePathsAndBadImagesAreErrors) {
  test::TempDir dir("ks-screenshot");
  const std::string missing = saveFailure(smallTestImage(), dir / "no-such-dir/shot.png");
  EXPECT_NE(missing.find("no-such-dir/shot.png"), std::string::npos) << missing;
  EXPECT_NE(missing.find(std::strerror(ENOENT)), std::string::npos) << missing;
  EXPECT_NE(saveFailure(RgbaImage{}, dir / "empty.png").find("empty"), std::string::npos);
  RgbaImage short_ = smallTestImage();
  short_.pixels.pop_back();
  EXPECT_NE(saveFailure(short_, dir / "short.png").find("bytes of pixels"), std::string::npos);
  RgbaImage huge;
  huge.width = 16384;
  huge.height = 16384;  // 1 GiB: refused before a byte is allocated
  EXPECT_NE(saveFailure(huge, dir / "huge.png").find("more than the PNG encoder takes"), std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(dir / "huge.png"));
}

}  // namespace
}  // namespace ks
