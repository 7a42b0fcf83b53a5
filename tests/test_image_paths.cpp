// Paths typed into File > Open (tidyTypedPath) and the recent list (addRecentImage).
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "io/image_paths.h"

namespace ks {
namespace {
namespace fs = std::filesystem;

TEST(ImagePaths, TypedPathLosesSurroundingWhitespace) {
  EXPECT_EQ(tidyTypedPath("/tmp/imgs/rgb8.png ", "/home/u"), "/tmp/imgs/rgb8.png");
  EXPECT_EQ(tidyTypedPath(" \t/tmp/imgs/rgb8.png\r\n", "/home/u"), "/tmp/imgs/rgb8.png");
  EXPECT_EQ(tidyTypedPath("my photos/a b.png", "/home/u"), "my photos/a b.png") << "inner spaces stay";
  EXPECT_EQ(tidyTypedPath(" \t\n", "/home/u"), "");
  EXPECT_EQ(tidyTypedPath("", "/home/u"), "");
}

TEST(ImagePaths, LeadingTildeIsHome) {
  EXPECT_EQ(tidyTypedPath("~/x.png", "/home/u"), "/home/u/x.png");
  EXPECT_EQ(tidyTypedPath("  ~/pics/x.png ", "/home/u/"), "/home/u/pics/x.png");
  EXPECT_EQ(tidyTypedPath("~", "/home/u"), "/home/u");
  EXPECT_EQ(tidyTypedPath("~/", "/home/u"), "/home/u");
  // only a leading "~" that a shell would expand to $HOME
  EXPECT_EQ(tidyTypedPath("~other/x.png", "/home/u"), "~other/x.png");
  EXPECT_EQ(tidyTypedPath("a/~/x.png", "/home/u"), "a/~/x.png");
  EXPECT_EQ(tidyTypedPath("~x.png", "/home/u"), "~x.png");
  // no $HOME: left as typed
  EXPECT_EQ(tidyTypedPath("~/x.png", nullptr), "~/x.png");
  EXPECT_EQ(tidyTypedPath("~/x.png", ""), "~/x.png");
}

TEST(ImagePaths, RecentEntriesAreAbsoluteAndNormal) {
  const fs::path cwd = fs::current_path();
  std::vector<std::string> recent;
  addRecentImage(recent, "python.png", 10);
  ASSERT_EQ(recent.size(), 1u);
  EXPECT_EQ(recent[0], (cwd / "python.png").lexically_normal().string());
  addRecentImage(recent, "/tmp/a/./b/../c.png", 10);
  EXPECT_EQ(recent[0], "/tmp/a/c.png");
  EXPECT_EQ(recent[1], (cwd / "python.png").lexically_normal().string());
}

TEST(ImagePaths, RecentListHasNoDuplicatesAndIsCapped) {
  std::vector<std::string> recent;
  for (const char* file : {"/i/1.png", "/i/2.png", "/i/3.png"}) addRecentImage(recent, file, 3);
  EXPECT_EQ(recent, (std::vector<std::string>{"/i/3.png", "/i/2.png", "/i/1.png"}));
  addRecentImage(recent, "/i/x/../1.png", 3);  // the same file, written differently: moves to the front
  EXPECT_EQ(recent, (std::vector<std::string>{"/i/1.png", "/i/3.png", "/i/2.png"}));
  addRecentImage(recent, "/i/4.png", 3);
  EXPECT_EQ(recent, (std::vector<std::string>{"/i/4.png", "/i/1.png", "/i/3.png"}));
}

}  // namespace
}  // namespace ks
