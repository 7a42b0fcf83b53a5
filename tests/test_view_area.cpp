// Where the image lab fits its pictures: the free part of the window.
#include <gtest/gtest.h>

#include "app/view_area.h"

namespace ks {
namespace {

void expectRect(const std::optional<ScreenRect>& r, ScreenRect want) {
  ASSERT_TRUE(r.has_value());
  EXPECT_FLOAT_EQ(r->x0, want.x0);
  EXPECT_FLOAT_EQ(r->y0, want.y0);
  EXPECT_FLOAT_EQ(r->x1, want.x1);
  EXPECT_FLOAT_EQ(r->y1, want.y1);
}

TEST(ViewArea, NoPanelsGiveTheWholeArea) {
  expectRect(largestFreeRect({0, 20, 1280, 776}, {}, 640, 480, 100), {0, 20, 1280, 776});
}

// The first-start layout at 1280x800: two columns of panels and the profiler under
// the middle. The picture goes above the profiler, between the columns.
TEST(ViewArea, DefaultLayoutLeavesTheMiddleAboveTheProfiler) {
  const std::vector<ScreenRect> panels = {
      {0, 20, 320, 180},      // Devices
      {0, 185, 320, 530},     // Device info
      {0, 535, 320, 776},     // Interop
      {934, 20, 1280, 575},   // Image lab
      {934, 580, 1280, 776},  // Log
      {320, 475, 934, 776},   // Profiler
  };
  expectRect(largestFreeRect({0, 20, 1280, 776}, panels, 640, 480, 100), {320, 20, 934, 475});
}

// A tall picture prefers a tall free strip to a wider but low one.
TEST(ViewArea, TheShapeOfThePictureChoosesTheRectangle) {
  const std::vector<ScreenRect> panels = {{0, 300, 1000, 1000}};  // bottom left
  const ScreenRect area{0, 0, 1200, 1000};
  expectRect(largestFreeRect(area, panels, 100, 1000, 50), {1000, 0, 1200, 1000});  // right strip, whole height
  expectRect(largestFreeRect(area, panels, 1000, 100, 50), {0, 0, 1200, 300});      // top strip, whole width
}

TEST(ViewArea, PanelsOutsideTheAreaDoNotCount) {
  const std::vector<ScreenRect> panels = {{0, 0, 1280, 20}, {0, 776, 1280, 800}, {-50, 100, -10, 200}};
  expectRect(largestFreeRect({0, 20, 1280, 776}, panels, 4, 3, 10), {0, 20, 1280, 776});
}

TEST(ViewArea, PanelsOverlappingEachOtherAndTheEdges) {
  const std::vector<ScreenRect> panels = {{-20, -20, 300, 900}, {200, 500, 900, 900}, {250, 550, 700, 700}};
  expectRect(largestFreeRect({0, 0, 1000, 800}, panels, 1, 1, 10), {300, 0, 1000, 500});
}

TEST(ViewArea, NoRoomGivesNothing) {
  EXPECT_FALSE(largestFreeRect({0, 0, 800, 600}, {{0, 0, 800, 600}}, 10, 10, 1).has_value());
  // Free strips thinner than minSide do not count.
  EXPECT_FALSE(largestFreeRect({0, 0, 800, 600}, {{0, 0, 760, 600}}, 10, 10, 50).has_value());
  expectRect(largestFreeRect({0, 0, 800, 600}, {{0, 0, 760, 600}}, 10, 10, 40), {760, 0, 800, 600});
}

}  // namespace
}  // namespace ks
