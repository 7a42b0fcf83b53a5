// resources/ (issue 22): the example pictures show what File > Examples says they
// show, the window icon loads, and the UI's fonts load with real glyph coverage at
// the monitor's scale, falling back to ImGui's own font with a reason.
#include <gtest/gtest.h>
#include <imgui.h>

#include <array>
#include <cmath>
#include <limits>
#include <string>

#include "compute/kernel_files.h"
#include "io/image_file.h"
#include "io/resources.h"
#include "ui/fonts.h"

namespace ks {
namespace {
namespace fs = std::filesystem;

const ImageLimits kLimits{4096, 64u << 20};

fs::path resourcesDir() {
  const auto dir = findResourcesDir(executableDir());
  if (!dir) ADD_FAILURE() << "resources/ not found";
  return dir.value_or(fs::path());
}

HostImage example(const char* file) { return loadImageFile(resourcesDir() / "examples" / file, kLimits); }

std::array<size_t, 256> histogramOf(const HostImage& image, int channel) {
  std::array<size_t, 256> bins{};
  for (size_t i = channel; i < image.pixels.size(); i += image.channels) ++bins[image.pixels[i]];
  return bins;
}

TEST(Resources, EveryExampleOpens) {
  ASSERT_EQ(exampleImages().size(), 4u);
  for (const ExampleImage& e : exampleImages()) {
    SCOPED_TRACE(e.file);
    const HostImage image = example(e.file);
    EXPECT_GE(image.width, 256);
    EXPECT_FALSE(std::string(e.title).empty());
    EXPECT_GT(std::string(e.shows).size(), 40u) << "the tooltip should say what to look for";
  }
}

// Rings from the centre out to the finest a pixel grid holds: neighbours agree in the
// middle and alternate (nearly black beside nearly white) at the middle of an edge.
TEST(Resources, TheZonePlateReachesTheNyquistLimitAtItsEdges) {
  const HostImage z = example("zone_plate.png");
  ASSERT_EQ(z.channels, 1);
  const int w = z.width, h = z.height;
  auto at = [&](int x, int y) { return static_cast<int>(z.pixels[static_cast<size_t>(y) * w + x]); };
  EXPECT_GT(at(w / 2, h / 2), 250) << "white at the centre";
  EXPECT_LE(std::abs(at(w / 2, h / 2) - at(w / 2 + 1, h / 2)), 2) << "slow in the middle";
  // Near the Nyquist limit neighbours differ by most of the range, with beats; in the
  // middle no two neighbours do.
  auto steepPairs = [&](int x0, int y0) {
    int steep = 0;
    for (int y = y0; y < y0 + 24; ++y)
      for (int x = x0 + 1; x < x0 + 16; ++x) steep += std::abs(at(x, y) - at(x - 1, y)) > 100;
    return steep;
  };
  EXPECT_GE(steepPairs(0, h / 2 - 12), 120) << "the left edge's middle";
  EXPECT_EQ(steepPairs(w / 2 - 8, h / 2 - 12), 0) << "the centre";
}

TEST(Resources, TheCheckerboardHasTwoPixelCells) {
  const HostImage c = example("checkerboard.png");
  ASSERT_EQ(c.channels, 1);
  for (int y = 0; y < 8; ++y)
    for (int x = 0; x < 8; ++x)
      EXPECT_EQ(c.pixels[static_cast<size_t>(y) * c.width + x], ((x / 2 + y / 2) % 2) ? 0 : 255) << x << "," << y;
  const auto bins = histogramOf(c, 0);
  EXPECT_EQ(bins[0], bins[255]);
  EXPECT_EQ(bins[0] + bins[255], static_cast<size_t>(c.width) * c.height);
}

// The tooltip's promise: red and green flat, 4096 in every bin; blue one bar at 128.
TEST(Resources, TheGradientsHistogramsAreFlatAndOneBar) {
  const HostImage g = example("gradient.png");
  ASSERT_EQ(g.channels, 4);
  for (int channel : {0, 1}) {
    const auto bins = histogramOf(g, channel);
    for (int v = 0; v < 256; ++v) ASSERT_EQ(bins[v], 4096u) << "channel " << channel << " level " << v;
  }
  EXPECT_EQ(histogramOf(g, 2)[128], static_cast<size_t>(g.width) * g.height);
}

TEST(Resources, TheOneColourPictureIsOneColour) {
  const HostImage o = example("one_colour.png");
  const size_t pixels = static_cast<size_t>(o.width) * o.height;
  for (int channel : {0, 1, 2}) {
    const auto bins = histogramOf(o, channel);
    size_t full = 0;
    for (size_t b : bins) full += b == pixels;
    EXPECT_EQ(full, 1u) << "channel " << channel;
  }
}

TEST(Resources, TheIconsAreSquareRgbaWithTransparentCorners) {
  for (const fs::path& file : iconFiles(resourcesDir())) {
    SCOPED_TRACE(file.string());
    const HostImage icon = loadImageFile(file, kLimits);
    EXPECT_EQ(icon.width, icon.height);
    EXPECT_EQ(icon.channels, 4);
    EXPECT_EQ(icon.pixels[3], 0) << "a rounded tile: the corner is transparent";
    const size_t middle = (static_cast<size_t>(icon.height / 2) * icon.width + icon.width / 2) * 4;
    EXPECT_EQ(icon.pixels[middle + 3], 255);
  }
}

TEST(Fonts, TheScaleFollowsTheMonitorWithinSensibleBounds) {
  EXPECT_EQ(uiScaleFor(1.0f, 1.0f), 1.0f);
  EXPECT_EQ(uiScaleFor(2.0f, 2.0f), 2.0f);
  EXPECT_EQ(uiScaleFor(1.25f, 1.5f), 1.5f);
  EXPECT_EQ(uiScaleFor(0.0f, 0.0f), 1.0f);
  EXPECT_EQ(uiScaleFor(0.5f, 0.75f), 1.0f) << "never smaller than the font was made for";
  EXPECT_EQ(uiScaleFor(std::nanf(""), 1.0f), 1.0f);
  EXPECT_EQ(uiScaleFor(std::numeric_limits<float>::infinity(), 2.0f), 2.0f);
  EXPECT_EQ(uiScaleFor(9.0f, 9.0f), 4.0f);
}

class FontsUi : public ::testing::Test {
 protected:
  void SetUp() override { ImGui::CreateContext(); }
  void TearDown() override { ImGui::DestroyContext(); }
};

// DejaVu Sans at twice the size on a 2x monitor, with Greek, Cyrillic and the
// mathematical signs file names and units use; DejaVu Sans Mono for build logs.
TEST_F(FontsUi, DejaVuLoadsAtTheMonitorsScaleWithRealGlyphCoverage) {
  const ImVec2 padding = ImGui::GetStyle().WindowPadding;
  const UiFonts fonts = loadUiFonts(2.0f);
  ASSERT_NE(fonts.text, nullptr) << fonts.message;
  ASSERT_TRUE(ImGui::GetIO().Fonts->Build());
  EXPECT_EQ(fonts.text->FontSize, 2.0f * kUiFontPixels);
  EXPECT_EQ(ImGui::GetStyle().WindowPadding.x, 2.0f * padding.x) << "spacings scale with the text";
  for (ImWchar c : {ImWchar(u'A'), ImWchar(u'é'), ImWchar(u'Ж'), ImWchar(u'λ'), ImWchar(u'×'), ImWchar(u'≤'), ImWchar(u'→')})
    EXPECT_NE(fonts.text->FindGlyphNoFallback(c), nullptr) << "no glyph for U+" << std::hex << static_cast<int>(c);
  ASSERT_NE(fonts.mono, nullptr);
  EXPECT_EQ(monoFont(), fonts.mono);
  EXPECT_EQ(fonts.mono->FindGlyph(u'i')->AdvanceX, fonts.mono->FindGlyph(u'W')->AdvanceX) << "fixed width";
  EXPECT_NE(fonts.text->FindGlyph(u'i')->AdvanceX, fonts.text->FindGlyph(u'W')->AdvanceX);
  EXPECT_NE(fonts.message.find("DejaVuSans.ttf"), std::string::npos) << fonts.message;
}

TEST_F(FontsUi, WithoutTheFontFilesImGuisOwnFontIsScaledAndTheReasonGiven) {
  const UiFonts fonts = loadUiFonts(2.0f, {"/nonexistent/DejaVuSans.ttf"}, {"/nonexistent/DejaVuSansMono.ttf"});
  EXPECT_EQ(fonts.text, nullptr);
  EXPECT_EQ(fonts.mono, nullptr);
  EXPECT_EQ(monoFont(), nullptr);
  ASSERT_EQ(ImGui::GetIO().Fonts->Fonts.Size, 1);
  ASSERT_TRUE(ImGui::GetIO().Fonts->Build());
  EXPECT_EQ(ImGui::GetIO().Fonts->Fonts[0]->FontSize, 26.0f);
  EXPECT_NE(fonts.message.find("/nonexistent/DejaVuSans.ttf"), std::string::npos) << fonts.message;
  EXPECT_NE(fonts.message.find("fonts-dejavu-core"), std::string::npos) << fonts.message;
}

}  // namespace
}  // namespace ks
