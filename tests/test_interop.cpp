// The interop layer on a real OpenCL device and GL context: PoCL + Mesa
// llvmpipe (headless EGL) in CI, NVIDIA on the GPU machine. Every path that is
// available is checked bit-exact through GL; the others skip with the reason.
#include <gtest/gtest.h>

#include <memory>
#include <optional>

#include "compute/compute_context.h"
#include "compute/device_catalog.h"
#include "compute/interop/interop.h"
#include "compute/interop/interop_check.h"
#include "compute/kernel_files.h"
#include "render/egl_headless.h"
#include "render/gl_check.h"

namespace ks {
namespace {

// One GL context and one compute context for the whole suite: EGL and PoCL
// start-up is the slow part.
struct Environment {
  std::unique_ptr<EglHeadlessContext> egl;
  std::unique_ptr<ComputeContext> compute;
  std::string skipReason;
};

Environment& environment() {
  static Environment env = [] {
    Environment e;
    try {
      e.egl = std::make_unique<EglHeadlessContext>();
    } catch (const std::exception& ex) {
      e.skipReason = std::string("no headless GL context: ") + ex.what();
      return e;
    }
    DeviceCatalog catalog = enumerateDevices();
    if (catalog.devices.empty()) {
      e.skipReason = "no OpenCL device";
      return e;
    }
    const GlContextHandles gl{GlContextHandles::Api::Egl, e.egl->context(), e.egl->display()};
    probeGlSharing(catalog.devices, gl);
    // Prefer a GPU (the GPU machine also lists PoCL); else the first device.
    size_t pick = 0;
    for (size_t i = 0; i < catalog.devices.size(); ++i)
      if (catalog.devices[i].kind == DeviceKind::Gpu) {
        pick = i;
        break;
      }
    e.compute = std::make_unique<ComputeContext>(catalog.devices[pick], KERNELSCOPE_SOURCE_KERNELS_DIR, gl);
    return e;
  }();
  return env;
}

class InteropTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!environment().skipReason.empty()) GTEST_SKIP() << environment().skipReason;
    compute_ = environment().compute.get();
    checker_ = std::make_unique<InteropChecker>(*compute_);
    statuses_ = probeInteropPaths(*compute_);
  }
  std::optional<InteropPathStatus> status(InteropPath path) const {
    for (const auto& s : statuses_)
      if (s.path == path) return s;
    return std::nullopt;
  }
  // Skips (with the reason) when the path is not available on this machine.
  std::unique_ptr<InteropBackend> backendOrSkip(InteropPath path) {
    const auto s = status(path);
    if (!s || !s->available) return nullptr;
    return createInteropBackend(path, *compute_);
  }
  void checkBuffers(InteropBackend& backend) {
    // Awkward sizes: one word, an odd count, not a multiple of the 64-item
    // work-group, and a megabyte.
    for (size_t words : {size_t{1}, size_t{7}, size_t{1001}, size_t{4099}, size_t{1} << 18}) {
      auto buffer = backend.createBuffer(words * 4);
      const uint32_t seed = static_cast<uint32_t>(words * 31 + 5);
      checker_->fill(*buffer, seed);
      EXPECT_EQ(checker_->countBufferMismatches(*buffer, seed), 0u)
          << interopPathName(backend.path()) << ", " << words << " words";
    }
  }
  void checkTextures(InteropBackend& backend) {
    const std::pair<int, int> sizes[] = {{1, 1}, {1, 37}, {37, 1}, {17, 13}, {256, 256}, {1000, 777}};
    for (auto [w, h] : sizes) {
      auto texture = backend.createTexture(w, h);
      const uint32_t seed = static_cast<uint32_t>(w * 7919 + h);
      EXPECT_EQ(checker_->countTextureMismatches(*texture, seed), 0u)
          << interopPathName(backend.path()) << ", " << w << "x" << h;
    }
  }

  ComputeContext* compute_ = nullptr;
  std::unique_ptr<InteropChecker> checker_;
  std::vector<InteropPathStatus> statuses_;
};

TEST(InteropPathNames, RoundTrip) {
  for (InteropPath p : kInteropPaths) EXPECT_EQ(parseInteropPath(interopPathName(p)), p);
  EXPECT_FALSE(parseInteropPath("auto"));
  EXPECT_FALSE(parseInteropPath("GL-SHARING"));
  EXPECT_EQ(preferredInteropPath({{InteropPath::GlSharing, false, "x"},
                                  {InteropPath::External, true, "y"},
                                  {InteropPath::Host, true, "z"}}),
            InteropPath::External);
  EXPECT_EQ(preferredInteropPath({}), InteropPath::Host);
}

TEST(PatternKernelCpuTwin, MatchesKnownValues) {
  // The CPU twin must be a real hash: different indices and seeds differ.
  EXPECT_NE(interopPattern(0, 1), interopPattern(1, 1));
  EXPECT_NE(interopPattern(5, 1), interopPattern(5, 2));
  EXPECT_EQ(interopPattern(123, 456), interopPattern(123, 456));
}

TEST_F(InteropTest, ProbeListsEveryPathWithAReason) {
  ASSERT_EQ(statuses_.size(), 3u);
  for (const auto& s : statuses_) EXPECT_FALSE(s.reason.empty()) << interopPathName(s.path);
  EXPECT_TRUE(status(InteropPath::Host)->available);
}

TEST_F(InteropTest, PixelViewTexturesKeepLevelZeroAndRebuildTheirMipmaps) {
  // The image lab's textures: sharp pixels when magnified, mipmaps when shrunk.
  auto backend = createInteropBackend(InteropPath::Host, *compute_);
  auto texture = backend->createTexture(17, 13, TextureView::Pixels);
  EXPECT_EQ(checker_->countTextureMismatches(*texture, 99), 0u) << "level 0 is what the kernel wrote";
  glBindTexture(GL_TEXTURE_2D, texture->texture());
  GLint mag = 0, min = 0, w1 = 0, h1 = 0, w4 = 0, h4 = 0;
  glGetTexParameteriv(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, &mag);
  glGetTexParameteriv(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, &min);
  glGetTexLevelParameteriv(GL_TEXTURE_2D, 1, GL_TEXTURE_WIDTH, &w1);
  glGetTexLevelParameteriv(GL_TEXTURE_2D, 1, GL_TEXTURE_HEIGHT, &h1);
  glGetTexLevelParameteriv(GL_TEXTURE_2D, 4, GL_TEXTURE_WIDTH, &w4);
  glGetTexLevelParameteriv(GL_TEXTURE_2D, 4, GL_TEXTURE_HEIGHT, &h4);
  glBindTexture(GL_TEXTURE_2D, 0);
  EXPECT_EQ(mag, GL_NEAREST);
  EXPECT_EQ(min, GL_LINEAR_MIPMAP_LINEAR);
  EXPECT_EQ(w1, 8);
  EXPECT_EQ(h1, 6);
  EXPECT_EQ(w4, 1) << "the chain goes down to 1x1";
  EXPECT_EQ(h4, 1);
  EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));
  auto smooth = backend->createTexture(17, 13);  // the default: linear, one level
  glBindTexture(GL_TEXTURE_2D, smooth->texture());
  glGetTexParameteriv(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, &mag);
  glBindTexture(GL_TEXTURE_2D, 0);
  EXPECT_EQ(mag, GL_LINEAR);
}

TEST_F(InteropTest, HostPathBuffersAreBitExact) {
  auto backend = createInteropBackend(InteropPath::Host, *compute_);
  checkBuffers(*backend);
}

TEST_F(InteropTest, HostPathTexturesAreBitExact) {
  auto backend = createInteropBackend(InteropPath::Host, *compute_);
  checkTextures(*backend);
}

TEST_F(InteropTest, ExternalPathBuffersAndTexturesAreBitExact) {
  auto backend = backendOrSkip(InteropPath::External);
  if (!backend) GTEST_SKIP() << "external memory path unavailable: " << status(InteropPath::External)->reason;
  checkBuffers(*backend);
  checkTextures(*backend);
}

TEST_F(InteropTest, GlSharingPathBuffersAndTexturesAreBitExact) {
  auto backend = backendOrSkip(InteropPath::GlSharing);
  if (!backend) GTEST_SKIP() << "gl-sharing path unavailable: " << status(InteropPath::GlSharing)->reason;
  checkBuffers(*backend);
  checkTextures(*backend);
}

TEST_F(InteropTest, ForcingAnUnavailablePathFailsCleanly) {
  bool checked = false;
  for (const auto& s : statuses_) {
    if (s.available) continue;
    checked = true;
    try {
      createInteropBackend(s.path, *compute_);
      ADD_FAILURE() << interopPathName(s.path) << " was created although the probe said: " << s.reason;
    } catch (const InteropError& e) {
      EXPECT_NE(std::string(e.what()).find(interopPathName(s.path)), std::string::npos) << e.what();
    }
  }
  if (!checked) GTEST_SKIP() << "every interop path is available on this machine";
}

TEST_F(InteropTest, BuffersSurviveRepeatedPathAndSizeChanges) {
  // What the app does when the user switches path, N or image size: objects of
  // one path are dropped while those of the next are made. Run under ASan (and
  // valgrind on the GPU machine) this is the leak check.
  for (int round = 0; round < 12; ++round) {
    for (const auto& s : statuses_) {
      if (!s.available) continue;
      auto backend = createInteropBackend(s.path, *compute_);
      const size_t words = 1000 + 977 * static_cast<size_t>(round);
      auto buffer = backend->createBuffer(words * 4);
      auto texture = backend->createTexture(13 + round, 7 + 2 * round);
      const uint32_t seed = static_cast<uint32_t>(round);
      checker_->fill(*buffer, seed);
      ASSERT_EQ(checker_->countBufferMismatches(*buffer, seed), 0u) << interopPathName(s.path) << " round " << round;
      ASSERT_EQ(checker_->countTextureMismatches(*texture, seed + 1), 0u)
          << interopPathName(s.path) << " round " << round;
    }
  }
}

}  // namespace
}  // namespace ks
