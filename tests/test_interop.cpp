// The interop layer on a real OpenCL device and GL context: PoCL + Mesa
// llvmpipe (headless EGL) in CI, NVIDIA on the GPU machine. Every path that is
// available is checked bit-exact through GL; the others skip with the reason.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <chrono>
#include <memory>
#include <thread>
#include <optional>

#include "compute/compute_context.h"
#include "compute/device_catalog.h"
#include "compute/interop/interop.h"
#include "compute/nbody_simulation.h"
#include "compute/nbody_tuning.h"
#include "compute/interop/interop_check.h"
#include "compute/interop/histogram_display.h"
#include "compute/interop/picture_levels.h"
#include "compute/image_reference.h"
#include "render/histogram_plot.h"
#include "compute/kernel_files.h"
#include "render/egl_headless.h"
#include "render/image_quad.h"
#include "render/gl_check.h"
#include "test_devices.h"
#include "test_require.h"

namespace ks {
namespace {

// One GL context and one compute context for the whole suite: EGL and PoCL
// start-up is the slow part. `missing` says what is missing, `capability`
// which one ("gl" or "opencl", for KS_NEED); an exception while listing or
// opening the device is not "missing": it fails every test.
struct Environment {
  std::unique_ptr<EglHeadlessContext> egl;
  std::unique_ptr<ComputeContext> compute;
  std::string missing, capability;
};

Environment& environment() {
  static Environment env = [] {
    Environment e;
    try {
      e.egl = std::make_unique<EglHeadlessContext>();
    } catch (const std::exception& ex) {
      e.missing = std::string("no headless GL context: ") + ex.what();
      e.capability = "gl";
      return e;
    }
    if (std::string why = test::openClMissing(); !why.empty()) {
      e.missing = why;
      e.capability = "opencl";
      return e;
    }
    DeviceCatalog catalog = enumerateDevices();
    const GlContextHandles gl{GlContextHandles::Api::Egl, e.egl->context(), e.egl->display()};
    probeGlSharing(catalog.devices, gl);
    // Prefer a GPU (the GPU machine also lists PoCL); else the first device.
    size_t pick = 0;
    for (size_t i = 0; i < catalog.devices.size(); ++i)
      if (catalog.devices[i].kind == DeviceKind::Gpu) {
        pick = i;
        break;
      }
    e.compute = std::make_unique<ComputeContext>(catalog.devices[pick], test::testKernelsDir(), gl);
    return e;
  }();
  return env;
}

class InteropTest : public ::testing::Test {
 protected:
  void SetUp() override {
    KS_NEED(environment().capability, environment().missing);
    compute_ = environment().compute.get();
    checker_ = std::make_unique<InteropChecker>(*compute_);
    levels_ = std::make_unique<PictureLevels>(*compute_);
    statuses_ = probeInteropPaths(*compute_);
  }
  std::optional<InteropPathStatus> status(InteropPath path) const {
    for (const auto& s : statuses_)
      if (s.path == path) return s;
    return std::nullopt;
  }
  // Null when the path is not offered here (an extension not listed: the test
  // skips with the reason); a path whose probe failed (an exception or a CL error
  // after the extensions were listed) is broken, and fails the test.
  std::unique_ptr<InteropBackend> backendOrNull(InteropPath path) {
    const auto s = status(path);
    if (!s) {
      ADD_FAILURE() << "the probe does not list " << interopPathName(path);
      return nullptr;
    }
    if (s->failed) ADD_FAILURE() << interopPathName(path) << " is broken: " << s->reason;
    if (!s->available) return nullptr;
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
      // Written again after GL read it: GL must see the new words, not what it read before.
      // Not on the external path: NVIDIA's GL (driver 580) answers a second
      // glGetBufferSubData of imported memory from what it read the first time, with or
      // without shared semaphores, while drawing sees the new words (the pictures below
      // are checked as drawn, after several writes).
      if (backend.path() == InteropPath::External) continue;
      checker_->fill(*buffer, seed + 1);
      EXPECT_EQ(checker_->countBufferMismatches(*buffer, seed + 1), 0u)
          << interopPathName(backend.path()) << ", " << words << " words, written again";
    }
  }
  // Pictures as the scenes use them: several updates in flight, the shown one
  // always whole (the previous update's until the next has finished).
  void checkImages(InteropBackend& backend) {
    const std::pair<int, int> sizes[] = {{1, 1}, {1, 37}, {37, 1}, {17, 13}, {256, 256}, {1000, 777}};
    for (auto [w, h] : sizes) {
      auto image = backend.createImage(w, h, TextureView::Pixels);  // with its level chain, as the image lab's
      const std::string what = std::string(interopPathName(backend.path())) + ", " + std::to_string(w) + "x" +
                               std::to_string(h);
      const uint32_t seed = static_cast<uint32_t>(w * 7919 + h);
      EXPECT_FALSE(image->hasPicture()) << what;
      checker_->update(*image, seed, levels_.get());
      EXPECT_EQ(checker_->countImageMismatches(*image, seed), 0u) << what;
      checker_->update(*image, seed + 1, levels_.get());  // done on the device, not yet seen: the first stays shown
      ASSERT_TRUE(image->hasPicture());
      EXPECT_EQ(checker_->countShownMismatches(*image, seed), 0u) << what << ": update in flight";
      checker_->update(*image, seed + 2, levels_.get());  // shows the second before writing over the first's buffer
      EXPECT_EQ(checker_->countShownMismatches(*image, seed + 1), 0u) << what << ": next update";
      EXPECT_EQ(checker_->countImageMismatches(*image, seed + 2), 0u) << what << ": the last update";
    }
  }

  ComputeContext* compute_ = nullptr;
  std::unique_ptr<InteropChecker> checker_;
  std::unique_ptr<PictureLevels> levels_;
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
  // lowbias32 (C. Wellons' hash prospector: x ^= x >> 16; x *= 0x7FEB352D;
  // x ^= x >> 15; x *= 0x846CA68B; x ^= x >> 16) of index * 0x9E3779B9 ^ seed,
  // worked out by a separate transcription (Python, 32-bit wrap-around), not by
  // this code. lowbias32(0) = 0.
  EXPECT_EQ(interopPattern(0, 0), 0u);
  EXPECT_EQ(interopPattern(0, 1), 0x688990C0u);   // lowbias32(1)
  EXPECT_EQ(interopPattern(1, 0), 0x01FCE552u);   // lowbias32(0x9E3779B9)
  EXPECT_EQ(interopPattern(123, 456), 0x4B4CFD88u);  // lowbias32(0x04A77A2B)
  EXPECT_EQ(interopPattern(0xFFFFFFFFu, 0xFFFFFFFFu), 0xA4F7896Cu);  // the product wraps
}

TEST_F(InteropTest, ProbeListsEveryPathWithAReason) {
  ASSERT_EQ(statuses_.size(), 3u);
  for (const auto& s : statuses_) {
    EXPECT_FALSE(s.reason.empty()) << interopPathName(s.path);
    EXPECT_FALSE(s.available && s.failed) << interopPathName(s.path);
  }
  EXPECT_FALSE(status(InteropPath::Host)->failed);
  EXPECT_TRUE(status(InteropPath::Host)->available);
}

// ---- drawing a picture straight from its buffer ----------------------------------------

// The pattern's texel (x, y) of a W-wide picture, channel c.
int patternTexel(int x, int y, int c, int w, uint32_t seed) {
  return static_cast<int>((interopPattern(static_cast<uint32_t>(y * w + x), seed) >> (8 * c)) & 0xFFu);
}

TEST_F(InteropTest, PicturesDrawnFromTheirBuffersMatchTheTexturePathPixelForPixel) {
  auto backend = createInteropBackend(InteropPath::Host, *compute_);
  const int w = 37, h = 23;
  const uint32_t seed = 4242;
  auto image = backend->createImage(w, h, TextureView::Pixels);
  checker_->update(*image, seed);
  image->finishUpdates();
  // 1:1 and 3x magnified (nearest): every pixel is its texel, bit for bit.
  for (int scale : {1, 3}) {
    const std::vector<uint8_t> got = drawSharedImage(*image, false, w * scale, h * scale);
    size_t bad = 0;
    for (int y = 0; y < h * scale; ++y)
      for (int x = 0; x < w * scale; ++x)
        for (int c = 0; c < 4; ++c)
          bad += got[(static_cast<size_t>(y) * w * scale + x) * 4 + c] != patternTexel(x / scale, y / scale, c, w, seed);
    EXPECT_EQ(bad, 0u) << "scale " << scale;
  }
}

// The filter of a picture drawn over a rectangle, chosen once per draw as the
// fragment shader once chose it per fragment: every branch.
TEST(PictureFilterChoice, LevelAndFilterFollowTheFootprint) {
  // 1:1 and magnified: level 0, nearest (Pixels) or bilinear (Smooth).
  PictureFilter f = choosePictureFilter(pictureLevels(64, 48, true), false, 64, 48);
  EXPECT_EQ(f.level, 0);
  EXPECT_EQ(f.mode, PictureFilter::Nearest);
  EXPECT_EQ(choosePictureFilter(pictureLevels(9, 7, false), true, 36, 28).mode, PictureFilter::Bilinear);
  // Shrunk by 2: level 1 exactly covers a fragment, drawn nearest (the mipmap level itself).
  f = choosePictureFilter(pictureLevels(64, 48, true), true, 32, 24);
  EXPECT_EQ(f.level, 1);
  EXPECT_EQ(f.levelWidth, 32);
  EXPECT_EQ(f.levelHeight, 24);
  EXPECT_EQ(f.levelOffset, size_t{64 * 48});
  EXPECT_EQ(f.mode, PictureFilter::Nearest);
  // Shrunk by 3: level 1, 1.5 of its texels a fragment, the mean of 2 x 2 samples.
  f = choosePictureFilter(pictureLevels(60, 48, true), false, 20, 16);
  EXPECT_EQ(f.level, 1);
  EXPECT_EQ(f.mode, PictureFilter::Box);
  EXPECT_FLOAT_EQ(f.boxWidth, 1.5f);
  EXPECT_FLOAT_EQ(f.boxHeight, 1.5f);
  EXPECT_EQ(f.samplesX, 2);
  EXPECT_EQ(f.samplesY, 2);
  // Shrunk along one axis only: the level follows the wider footprint (8 texels down
  // = one of level 3; across, an eighth of one: nearest).
  f = choosePictureFilter(pictureLevels(64, 48, true), false, 64, 6);
  EXPECT_EQ(f.level, 3);
  EXPECT_EQ(f.levelOffset, size_t{64 * 48 + 32 * 24 + 16 * 12});
  EXPECT_EQ(f.mode, PictureFilter::Nearest);
  // ... and 12 down: level 3, 1.5 of its texels down, one sample across.
  f = choosePictureFilter(pictureLevels(64, 48, true), false, 64, 4);
  EXPECT_EQ(f.level, 3);
  EXPECT_EQ(f.mode, PictureFilter::Box);
  EXPECT_FLOAT_EQ(f.boxWidth, 1.0f);
  EXPECT_FLOAT_EQ(f.boxHeight, 1.5f);
  EXPECT_EQ(f.samplesX, 1);
  EXPECT_EQ(f.samplesY, 2);
  // No smaller level (a Smooth picture): level 0, at most 16 x 16 samples.
  f = choosePictureFilter(pictureLevels(4000, 100, false), true, 100, 100);
  EXPECT_EQ(f.level, 0);
  EXPECT_EQ(f.mode, PictureFilter::Box);
  EXPECT_FLOAT_EQ(f.boxWidth, 40.0f);
  EXPECT_EQ(f.samplesX, 16);
  EXPECT_EQ(f.samplesY, 1);
  // The smallest level is as far as it goes.
  f = choosePictureFilter(pictureLevels(64, 48, true), false, 0.25, 0.25);
  EXPECT_EQ(f.level, 6);
  EXPECT_EQ(f.wantedLevel, 6);
  EXPECT_EQ(f.levelWidth, 1);
  EXPECT_EQ(f.levelHeight, 1);
}

// A picture whose buffer holds only some levels (a spinning result writes the one
// it is drawn from): drawn from the nearest larger level written, box-filtered,
// while the level that fits is named for the next update.
TEST(PictureFilterChoice, AMissingLevelIsDrawnFromTheNearestLargerOneWritten) {
  const PictureLevelMask levels0And1 = 0b11, levels0And3 = 0b1001;
  // Shrunk by 4 (level 2 fits), level 1 written: 2 of its texels a fragment.
  PictureFilter f = choosePictureFilter(pictureLevels(64, 48, true), false, 16, 12, levels0And1);
  EXPECT_EQ(f.wantedLevel, 2);
  EXPECT_EQ(f.level, 1);
  EXPECT_EQ(f.levelOffset, size_t{64 * 48});
  EXPECT_EQ(f.mode, PictureFilter::Box);
  EXPECT_FLOAT_EQ(f.boxWidth, 2.0f);
  EXPECT_EQ(f.samplesX, 2);
  // A smaller level written is never used for a larger view: level 0 instead.
  f = choosePictureFilter(pictureLevels(64, 48, true), false, 16, 12, levels0And3);
  EXPECT_EQ(f.wantedLevel, 2);
  EXPECT_EQ(f.level, 0);
  EXPECT_FLOAT_EQ(f.boxWidth, 4.0f);
  // The level that fits, written: as with every level.
  f = choosePictureFilter(pictureLevels(64, 48, true), false, 8, 6, levels0And3);
  EXPECT_EQ(f.level, 3);
  EXPECT_EQ(f.mode, PictureFilter::Nearest);
  // No larger level written (a shrunk picture's update writes no level 0): the
  // nearest smaller one, magnified.
  const PictureLevelMask level3 = 0b1000;
  f = choosePictureFilter(pictureLevels(64, 48, true), false, 32, 24, level3);
  EXPECT_EQ(f.wantedLevel, 1);
  EXPECT_EQ(f.level, 3);
  EXPECT_EQ(f.mode, PictureFilter::Nearest);
  f = choosePictureFilter(pictureLevels(64, 48, true), false, 64, 48, level3);
  EXPECT_EQ(f.wantedLevel, 0);
  EXPECT_EQ(f.level, 3);
}

// The launches that write some levels: each from the nearest written level above
// it, at most three levels a launch.
TEST(PictureLevelSteps, EachWantedLevelFromTheLastOneWrittenThreeAtMost) {
  using S = std::vector<LevelStep>;
  EXPECT_EQ(levelSteps(0b1, 7), S{}) << "level 0 alone: nothing to launch";
  EXPECT_EQ(levelSteps(0b100, 7), (S{{0, 2}}));
  EXPECT_EQ(levelSteps(0b1000, 7), (S{{0, 3}}));
  EXPECT_EQ(levelSteps(0b100000, 7), (S{{0, 3}, {3, 5}}));
  EXPECT_EQ(levelSteps(0b10010100, 13), (S{{0, 2}, {2, 4}, {4, 7}}));
  EXPECT_EQ(levelSteps(PictureLevelMask{1} << 10, 13), (S{{0, 3}, {3, 6}, {6, 9}, {9, 10}}));
  EXPECT_EQ(levelSteps(allPictureLevels, 4), (S{{0, 1}, {1, 2}, {2, 3}})) << "every level: one at a time";
  EXPECT_EQ(levelSteps(0b110000, 5), (S{{0, 3}, {3, 4}})) << "levels past the chain's end are left out";
}

// What each update of a picture writes: every level until it has been drawn, then
// those its draws asked for; the levels the shown picture holds.
TEST_F(InteropTest, APictureWritesTheLevelsItIsDrawnFrom) {
  auto backend = createInteropBackend(InteropPath::Host, *compute_);
  auto image = backend->createImage(64, 48, TextureView::Pixels);
  EXPECT_EQ(image->shownLevels(), PictureLevelMask{0}) << "nothing shown yet";
  EXPECT_EQ(image->takeLevelsToWrite(), allPictureLevels) << "not drawn yet: every level";
  image->drawnAtLevel(2);
  image->drawnAtLevel(40);  // past the chain: ignored
  EXPECT_TRUE(image->drawnLevelMissing());
  const PictureLevelMask drawn = image->takeLevelsToWrite();
  EXPECT_EQ(drawn, PictureLevelMask{0b100}) << "level 2 alone: no level 0 where none is drawn";
  EXPECT_FALSE(image->drawnLevelMissing()) << "taken: the update writes it";
  EXPECT_EQ(image->takeLevelsToWrite(), drawn) << "not drawn since: the same levels again";
  PictureLevels levels(*compute_);
  SharedBuffer& pixels = image->beginUpdate(compute_->queue(), drawn);
  checker_->fill(pixels, 3);
  EXPECT_EQ(image->levelsBeingWritten(), drawn) << "what the levels' kernels read";
  levels.enqueue(compute_->queue(), *image, pixels);
  image->endUpdate(compute_->queue());
  EXPECT_EQ(image->levelsBeingWritten(), PictureLevelMask{0}) << "no update under way";
  image->finishUpdates();
  EXPECT_EQ(image->shownLevels(), PictureLevelMask{0b100});
  image->drawnAtLevel(4);
  EXPECT_TRUE(image->drawnLevelMissing()) << "level 4 drawn from level 2 meanwhile";
  image->drawnAtLevel(0);
  EXPECT_EQ(image->takeLevelsToWrite(), PictureLevelMask{0b10001});
}

TEST_F(InteropTest, ShrunkPicturesAreBoxFilteredLikeTheMipmapsTheyReplace) {
  // What the texture path showed when shrinking by 2 and 4: mipmap levels 1 and 2
  // (GL's glGenerateMipmap of the same texels). The picture drawn from the buffer
  // must be within one level of 255 of level 1 at every pixel, within two of level
  // 2 (built from level 1's rounded values), and within one of the exact means.
  auto backend = createInteropBackend(InteropPath::Host, *compute_);
  const int w = 64, h = 48;
  const uint32_t seed = 77;
  auto image = backend->createImage(w, h, TextureView::Pixels);
  ASSERT_EQ(image->levelCount(), 7) << "64x48 down to 1x1";
  EXPECT_EQ(image->levelWidth(6), 1);
  EXPECT_EQ(image->levelHeight(5), 1);
  EXPECT_EQ(image->levelOffset(2), size_t{64 * 48 + 32 * 24});
  PictureLevels levels(*compute_);
  checker_->update(*image, seed, &levels);
  image->finishUpdates();
  std::vector<uint8_t> texels(static_cast<size_t>(w) * h * 4);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      for (int c = 0; c < 4; ++c) texels[(static_cast<size_t>(y) * w + x) * 4 + c] = static_cast<uint8_t>(patternTexel(x, y, c, w, seed));
  GLuint texture = 0;
  glGenTextures(1, &texture);
  glBindTexture(GL_TEXTURE_2D, texture);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, w, h, 0, GL_RGBA, GL_UNSIGNED_BYTE, texels.data());
  glGenerateMipmap(GL_TEXTURE_2D);
  for (int level : {1, 2}) {
    const int lw = w >> level, lh = h >> level;
    std::vector<uint8_t> mip(static_cast<size_t>(lw) * lh * 4);
    glBindTexture(GL_TEXTURE_2D, texture);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glGetTexImage(GL_TEXTURE_2D, level, GL_RGBA, GL_UNSIGNED_BYTE, mip.data());
    const std::vector<uint8_t> got = drawSharedImage(*image, false, lw, lh);
    int worst = 0;
    for (size_t i = 0; i < mip.size(); ++i) worst = std::max(worst, std::abs(int(got[i]) - int(mip[i])));
    EXPECT_LE(worst, level) << "shrunk " << (1 << level) << "x";
    // And against the mean of each block, computed here.
    const int n = 1 << level;
    int worstMean = 0;
    for (int y = 0; y < lh; ++y)
      for (int x = 0; x < lw; ++x)
        for (int c = 0; c < 4; ++c) {
          int sum = 0;
          for (int dy = 0; dy < n; ++dy)
            for (int dx = 0; dx < n; ++dx) sum += patternTexel(x * n + dx, y * n + dy, c, w, seed);
          const double mean = double(sum) / (n * n);
          worstMean = std::max(worstMean, int(std::lround(std::abs(got[(static_cast<size_t>(y) * lw + x) * 4 + c] - mean) + 0.49)));
        }
    EXPECT_LE(worstMean, 1) << "shrunk " << n << "x, against the block means";
  }
  glBindTexture(GL_TEXTURE_2D, 0);
  glDeleteTextures(1, &texture);
  glCheck("mipmap comparison");
}

// Every level of the chain bit for bit as the CPU reference makes it (the other
// level tests compare what is drawn, within a level or two): odd halves, one row,
// one column, one pixel, long thin chains and a picture of a thousand-odd pixels.
TEST_F(InteropTest, EveryLevelOfAPictureIsTheCpuReferenceBitForBit) {
  auto backend = createInteropBackend(InteropPath::Host, *compute_);
  const std::pair<int, int> sizes[] = {{1, 1},    {1, 37},   {37, 1},   {17, 13},    {64, 48},
                                       {129, 65}, {8194, 2}, {4099, 3}, {1000, 777}, {256, 256}};
  for (auto [w, h] : sizes) {
    const std::string what = std::to_string(w) + "x" + std::to_string(h);
    auto image = backend->createImage(w, h, TextureView::Pixels);  // the picture whose levels are written
    const size_t texels = image->levelOffset(image->levelCount() - 1) +
                          static_cast<size_t>(image->levelWidth(image->levelCount() - 1)) *
                              static_cast<size_t>(image->levelHeight(image->levelCount() - 1));
    const HostImage level0 = randomHostImage({w, h, 4}, static_cast<uint32_t>(w * 31 + h));
    const std::vector<uint8_t> wantRgba = rgbaLevelChainReference(level0.data, w, h);
    ASSERT_EQ(wantRgba.size(), texels * 4) << what;
    // The same picture as a gray kernel output would give it (g g g 255): level 0
    // read from the kernels' buffer of one or four channels, not from the levels'.
    const HostImage gray = randomHostImage({w, h, 1}, static_cast<uint32_t>(w * 17 + h));
    std::vector<uint8_t> grayRgba(static_cast<size_t>(w) * h * 4);
    for (size_t i = 0; i < gray.data.size(); ++i)
      for (int c = 0; c < 4; ++c) grayRgba[i * 4 + c] = c == 3 ? 255 : gray.data[i];
    const std::vector<uint8_t> wantGray = rgbaLevelChainReference(grayRgba, w, h);
    Buffer rgbaSource(compute_->context(), CL_MEM_READ_ONLY, level0.data.size());
    Buffer graySource(compute_->context(), CL_MEM_READ_ONLY, gray.data.size());
    compute_->queue().writeBuffer(rgbaSource, 0, level0.data.size(), level0.data.data());
    compute_->queue().writeBuffer(graySource, 0, gray.data.size(), gray.data.data());
    // Every level (one step at a time), each level alone (a step of one, two and
    // three levels, and chains of steps), and a few levels far apart.
    std::vector<PictureLevelMask> masks = {allPictureLevels, 0b100100110, 0b1001000};
    for (int k = 1; k < image->levelCount(); ++k) masks.push_back(PictureLevelMask{1} << k);
    for (PictureLevelMask wanted : masks) {
      for (int from : {0, 4, 1}) {  // level 0 read from the levels' buffer, an RGBA source, a gray one
        const std::vector<uint8_t>& want = from == 1 ? wantGray : wantRgba;
        const std::string label =
            what + (from == 0 ? "" : from == 4 ? ", from an RGBA source" : ", from a gray source");
        Queue& queue = compute_->queue();
        // The levels written are those the update was begun with: given once.
        SharedBuffer& buffer = image->beginUpdate(queue, wanted);
        std::vector<uint8_t> chain(texels * 4, 0xCD);
        if (from == 0) std::copy(level0.data.begin(), level0.data.end(), chain.begin());
        clCheck(clEnqueueWriteBuffer(queue.get(), buffer.clMem(), CL_TRUE, 0, chain.size(), chain.data(), 0,
                                     nullptr, nullptr),
                "clEnqueueWriteBuffer");
        const PictureSource source{from == 0 ? nullptr : from == 4 ? rgbaSource.get() : graySource.get(), from};
        levels_->enqueue(queue, *image, buffer, source);
        clCheck(clEnqueueReadBuffer(queue.get(), buffer.clMem(), CL_TRUE, 0, chain.size(), chain.data(), 0, nullptr,
                                    nullptr),
                "clEnqueueReadBuffer");
        image->endUpdate(queue);
        image->finishUpdates();
        for (int k = 0; k < image->levelCount(); ++k) {
          const size_t begin = image->levelOffset(k) * 4;
          const size_t end = begin + static_cast<size_t>(image->levelWidth(k)) * image->levelHeight(k) * 4;
          // Levels not asked for are left alone, unless a step passed through them;
          // level 0 is never written here.
          if (k == 0 && from != 0) {
            EXPECT_TRUE(std::all_of(chain.begin() + begin, chain.begin() + end, [](uint8_t b) { return b == 0xCD; }))
                << label << ": level 0 written";
            continue;
          }
          if (k > 0 && !((wanted >> k) & 1u)) {
            bool passedThrough = false;
            for (const LevelStep& step : levelSteps(wanted, image->levelCount())) passedThrough |= step.to == k;
            if (!passedThrough) {
              EXPECT_TRUE(std::all_of(chain.begin() + begin, chain.begin() + end, [](uint8_t b) { return b == 0xCD; }))
                  << label << ", level " << k << " written, not asked for (levels 0x" << std::hex << wanted << ")";
              continue;
            }
          }
          size_t bad = 0;
          for (size_t i = begin; i < end; ++i) bad += chain[i] != want[i];
          EXPECT_EQ(bad, 0u) << label << ", level " << k << " (" << image->levelWidth(k) << "x"
                             << image->levelHeight(k) << "), levels 0x" << std::hex << wanted;
        }
      }
    }
  }
}

TEST_F(InteropTest, SmoothPicturesAreBilinearWhenMagnified) {
  auto backend = createInteropBackend(InteropPath::Host, *compute_);
  const int w = 9, h = 7, scale = 4;
  const uint32_t seed = 5;
  auto image = backend->createImage(w, h, TextureView::Smooth);
  checker_->update(*image, seed);
  image->finishUpdates();
  const std::vector<uint8_t> got = drawSharedImage(*image, true, w * scale, h * scale);
  int worst = 0;
  for (int y = 0; y < h * scale; ++y)
    for (int x = 0; x < w * scale; ++x) {
      // The pixel's centre in texels, texel centres at +0.5, edges clamped.
      const double px = (x + 0.5) / scale - 0.5, py = (y + 0.5) / scale - 0.5;
      const int x0 = static_cast<int>(std::floor(px)), y0 = static_cast<int>(std::floor(py));
      const double fx = px - x0, fy = py - y0;
      auto at = [&](int tx, int ty, int c) {
        return patternTexel(std::clamp(tx, 0, w - 1), std::clamp(ty, 0, h - 1), c, w, seed);
      };
      for (int c = 0; c < 4; ++c) {
        const double top = at(x0, y0, c) * (1 - fx) + at(x0 + 1, y0, c) * fx;
        const double bottom = at(x0, y0 + 1, c) * (1 - fx) + at(x0 + 1, y0 + 1, c) * fx;
        const double want = top * (1 - fy) + bottom * fy;
        worst = std::max(worst, int(std::ceil(std::abs(got[(static_cast<size_t>(y) * w * scale + x) * 4 + c] - want) - 0.5)));
      }
    }
  EXPECT_LE(worst, 1);
}

TEST_F(InteropTest, PicturesLargerThanGlDrawsFromABufferAreRefusedWithTheReason) {
  auto backend = createInteropBackend(InteropPath::Host, *compute_);
  const int64_t limit = maxSharedImagePixels();
  ASSERT_GT(limit, 0);
  const int side = static_cast<int>(std::sqrt(static_cast<double>(limit))) + 2;
  try {
    backend->createImage(side, side);
    ADD_FAILURE() << side << "x" << side << " was accepted; the limit is " << limit << " pixels";
  } catch (const InteropError& e) {
    EXPECT_NE(std::string(e.what()).find("GL_MAX_TEXTURE_BUFFER_SIZE"), std::string::npos) << e.what();
  }
}

// The histogram's bars are drawn from the bins the kernels wrote: each bin's column
// is as tall as its count against the channel's largest bin (the kernel finds it),
// on a linear or a log scale.
TEST_F(InteropTest, HistogramBarsAreDrawnFromTheBinsOnTheDevice) {
  auto backend = createInteropBackend(InteropPath::Host, *compute_);
  std::vector<cl_uint> bins(2 * 256, 0);
  for (int i = 0; i < 256; ++i) bins[static_cast<size_t>(i)] = static_cast<cl_uint>(i);  // a ramp, largest 255
  bins[256 + 10] = 1000;  // the second channel: one bin
  bins[256 + 200] = 9;
  Buffer device(compute_->context(), CL_MEM_READ_ONLY, bins.size() * sizeof(cl_uint));
  compute_->queue().writeBuffer(device, 0, bins.size() * sizeof(cl_uint), bins.data());
  HistogramDisplay display(*compute_, *backend);
  EXPECT_EQ(display.texture(), 0u) << "nothing to draw before the first update";
  display.update(compute_->queue(), device.get(), 2);
  display.finishUpdates();
  ASSERT_NE(display.texture(), 0u);
  EXPECT_EQ(display.channels(), 2);
  const HistogramPlot plot;
  const int w = 256, h = 100;
  auto columnHeights = [&](int channel, bool logScale, float top = 0.0f) {
    const std::vector<uint8_t> drawn = drawOffscreen(w, h, [&] {
      plot.draw(display.texture(), display.channels(), channel, logScale, {1, 1, 1, 1}, {0, 0, 0, 1},
                {0.0f, 0.0f, float(w), float(h), w, h}, top);
    });
    std::vector<int> heights(w, 0);
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) heights[static_cast<size_t>(x)] += drawn[(static_cast<size_t>(y) * w + x) * 4] > 128;
    return heights;
  };
  const std::vector<int> ramp = columnHeights(0, false);
  for (int x = 0; x < w; ++x) EXPECT_NEAR(ramp[static_cast<size_t>(x)], x * h / 255.0, 1.0) << "bin " << x;
  const std::vector<int> one = columnHeights(1, false);
  EXPECT_EQ(one[10], h);
  EXPECT_NEAR(one[200], 9 * h / 1000.0, 1.0);
  EXPECT_EQ(one[11], 0);
  const std::vector<int> logged = columnHeights(1, true);
  EXPECT_EQ(logged[10], h);
  EXPECT_NEAR(logged[200], std::log(10.0) / std::log(1001.0) * h, 1.0);
  EXPECT_EQ(logged[0], 0) << "an empty bin draws nothing on a log scale either";
  // Overlaid with another channel, the bars share a full height (issue 22: the
  // image lab's R, G and B in one plot): 1000 of 2000 is half the plot.
  const std::vector<int> shared = columnHeights(1, false, 2000.0f);
  EXPECT_NEAR(shared[10], h / 2.0, 1.0);
  EXPECT_NEAR(columnHeights(0, false, 510.0f)[255], h / 2.0, 1.0);
}

// Issue 22: a level among empty ones (File > Examples' fine checkerboard: 0 and 255;
// one colour) is a bar at least minBarPixels wide, inside the span the bins are given
// (clear of the plot's edges), on linear and log scales; where no bin is empty, each
// pixel still shows the bin under it. At 350 pixels (the plot at 1024 wide) a bin is
// 1.34 pixels: without this, the two levels were a column or two at the plot's edges.
TEST_F(InteropTest, HistogramLevelsAmongEmptyOnesAreBarsOfTheLeastWidth) {
  auto backend = createInteropBackend(InteropPath::Host, *compute_);
  std::vector<cl_uint> bins(2 * 256, 0);
  bins[0] = bins[255] = 500;  // the checkerboard
  bins[256 + 128] = 700;      // one colour
  Buffer device(compute_->context(), CL_MEM_READ_ONLY, bins.size() * sizeof(cl_uint));
  compute_->queue().writeBuffer(device, 0, bins.size() * sizeof(cl_uint), bins.data());
  HistogramDisplay display(*compute_, *backend);
  display.update(compute_->queue(), device.get(), 2);
  display.finishUpdates();
  ASSERT_NE(display.texture(), 0u);
  const HistogramPlot plot;
  const int w = 350, h = 40;
  const float inset = 3.0f, minBar = 3.0f;
  for (const bool logScale : {false, true}) {
    SCOPED_TRACE(logScale ? "log" : "linear");
    auto columnHeights = [&](int channel) {
      const std::vector<uint8_t> drawn = drawOffscreen(w, h, [&] {
        plot.draw(display.texture(), display.channels(), channel, logScale, {1, 1, 1, 1}, {0, 0, 0, 1},
                  {0.0f, 0.0f, float(w), float(h), w, h}, 0.0f, inset / w, 1.0f - inset / w, minBar);
      });
      std::vector<int> heights(w, 0);
      for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) heights[static_cast<size_t>(x)] += drawn[(static_cast<size_t>(y) * w + x) * 4] > 128;
      return heights;
    };
    auto fullColumns = [&](const std::vector<int>& heights, int from, int to) {
      std::vector<int> full;
      for (int x = from; x < to; ++x)
        if (heights[static_cast<size_t>(x)] == h) full.push_back(x);
        else EXPECT_EQ(heights[static_cast<size_t>(x)], 0) << "column " << x << ": part of a bar";
      return full;
    };
    const std::vector<int> checkerboard = columnHeights(0);
    const std::vector<int> left = fullColumns(checkerboard, 0, w / 2), right = fullColumns(checkerboard, w / 2, w);
    ASSERT_GE(left.size(), size_t(minBar)) << "level 0 is narrower than " << minBar << " pixels";
    ASSERT_GE(right.size(), size_t(minBar)) << "level 255 is narrower than " << minBar << " pixels";
    EXPECT_LE(left.size(), size_t(minBar) + 1);
    EXPECT_LE(right.size(), size_t(minBar) + 1);
    EXPECT_GE(left.front(), 1) << "level 0 at the plot's edge";
    EXPECT_LE(right.back(), w - 2) << "level 255 at the plot's edge";
    EXPECT_EQ(left.back() - left.front() + 1, int(left.size())) << "a bar with a gap";
    const std::vector<int> oneColour = fullColumns(columnHeights(1), 0, w);
    ASSERT_GE(oneColour.size(), size_t(minBar)) << "the one level is narrower than " << minBar << " pixels";
    const float middle = inset + (128.5f / 256.0f) * (w - 2.0f * inset);
    EXPECT_NEAR(0.5f * float(oneColour.front() + oneColour.back() + 1), middle, 1.0f) << "not about level 128";
  }
}

TEST_F(InteropTest, HostPathBuffersAreBitExact) {
  auto backend = createInteropBackend(InteropPath::Host, *compute_);
  checkBuffers(*backend);
}

TEST_F(InteropTest, HostPathPicturesAreBitExact) {
  auto backend = createInteropBackend(InteropPath::Host, *compute_);
  checkImages(*backend);
}

TEST_F(InteropTest, ExternalPathBuffersAndPicturesAreBitExact) {
  auto backend = backendOrNull(InteropPath::External);
  if (HasFailure()) return;
  if (!backend) GTEST_SKIP() << "external memory path unavailable: " << status(InteropPath::External)->reason;
  checkBuffers(*backend);
  checkImages(*backend);
}

TEST_F(InteropTest, GlSharingPathBuffersAndPicturesAreBitExact) {
  auto backend = backendOrNull(InteropPath::GlSharing);
  if (HasFailure()) return;
  if (!backend) GTEST_SKIP() << "gl-sharing path unavailable: " << status(InteropPath::GlSharing)->reason;
  checkBuffers(*backend);
  checkImages(*backend);
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
      auto image = backend->createImage(13 + round, 7 + 2 * round);
      const uint32_t seed = static_cast<uint32_t>(round);
      checker_->fill(*buffer, seed);
      ASSERT_EQ(checker_->countBufferMismatches(*buffer, seed), 0u) << interopPathName(s.path) << " round " << round;
      checker_->update(*image, seed + 1);
      ASSERT_EQ(checker_->countImageMismatches(*image, seed + 1), 0u)
          << interopPathName(s.path) << " round " << round;
    }
  }
}

// ---- the split viewer's display copy (issue 24) ----------------------------------

// The positions gathered from the split's devices go to the display device's
// buffer without the frame waiting for the copy (NBodySimulation::showDisplayValues):
// the update is only released, GL draws the previous positions until the copy is
// done (held back here behind a user event on the in-order queue), then the new
// ones, bit for bit.
TEST_F(InteropTest, SplitPositionsAreCopiedWithoutWaitingAndDrawnOnceDone) {
  auto backend = createInteropBackend(InteropPath::Host, *compute_);
  const NBodyConfig config = tunedNBodyConfig(compute_->device(), 1001);
  NBodySimulation sim(*compute_, *backend, makeNBodyPreset(NBodyPreset::DiskGalaxy, 1001, 5), config);
  const size_t count = nbodyPaddedCount(sim.bodies(), config) * 4;
  auto pattern = [&](float scale) {
    std::vector<float> v(count);
    for (size_t i = 0; i < count; ++i) v[i] = scale * static_cast<float>(i % 977) - 3.0f;
    return v;
  };
  auto drawnValues = [&](GLuint buffer) {
    std::vector<float> v(count);
    glBindBuffer(GL_ARRAY_BUFFER, buffer);
    glGetBufferSubData(GL_ARRAY_BUFFER, 0, static_cast<GLsizeiptr>(count * sizeof(float)), v.data());
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    glCheck("glGetBufferSubData");
    return v;
  };
  auto drawnOnceDone = [&](GLuint notThis) {  // the buffer drawn once the update in flight is shown
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    GLuint drawn = sim.displayBufferForDrawing();
    while (drawn == notThis && std::chrono::steady_clock::now() < until) {
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
      drawn = sim.displayBufferForDrawing();
    }
    return drawn;
  };
  const GLuint start = sim.displayBufferForDrawing();
  sim.drawnByGl();

  const std::vector<float> first = pattern(0.25f);
  sim.showDisplayValues(first.data(), first.size());
  ASSERT_TRUE(sim.displayUpdatePending()) << "the copy was waited for in the frame";
  sim.waitForDisplayWrite();
  EXPECT_TRUE(sim.displayWriteDone());
  const GLuint afterFirst = drawnOnceDone(start);
  ASSERT_NE(afterFirst, start);
  EXPECT_EQ(drawnValues(afterFirst), first);
  sim.drawnByGl();

  cl_int status = CL_SUCCESS;
  cl_event gate = clCreateUserEvent(compute_->context(), &status);
  ASSERT_EQ(status, CL_SUCCESS);
  ASSERT_EQ(clEnqueueMarkerWithWaitList(compute_->queue().get(), 1, &gate, nullptr), CL_SUCCESS);
  const std::vector<float> second = pattern(-0.5f);
  sim.showDisplayValues(second.data(), second.size());
  EXPECT_FALSE(sim.displayWriteDone()) << "the copy ran ahead of the event it waits behind";
  for (int frame = 0; frame < 3; ++frame) {
    EXPECT_EQ(sim.displayBufferForDrawing(), afterFirst) << "the previous positions are drawn until the copy is done";
    sim.drawnByGl();
  }
  ASSERT_EQ(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
  clReleaseEvent(gate);
  sim.waitForDisplayWrite();
  const GLuint afterSecond = drawnOnceDone(afterFirst);
  ASSERT_NE(afterSecond, afterFirst);
  EXPECT_EQ(drawnValues(afterSecond), second);
}

}  // namespace
}  // namespace ks

