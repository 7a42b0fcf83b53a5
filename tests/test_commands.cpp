// The command queue (app/commands.h): order kept, each consumer takes only its own
// kind, and a command nobody takes stays.
#include <gtest/gtest.h>

#include <type_traits>

#include "app/commands.h"

namespace ks {
namespace {

TEST(CommandQueue, TakesOneKindInTheOrderPushed) {
  CommandQueue queue;
  queue.push(SwitchDevice{2});
  queue.push(Quit{});
  queue.push(SwitchDevice{0});
  queue.push(SwitchDevice{1});
  const std::vector<SwitchDevice> devices = queue.take<SwitchDevice>();
  ASSERT_EQ(devices.size(), 3u);
  EXPECT_EQ(devices[0].device, 2u);
  EXPECT_EQ(devices[1].device, 0u);
  EXPECT_EQ(devices[2].device, 1u);
  EXPECT_TRUE(queue.take<SwitchDevice>().empty()) << "taken twice";
}

TEST(CommandQueue, EachConsumerTakesOnlyItsOwnAndTheOthersKeepTheirOrder) {
  CommandQueue queue;
  queue.push(OpenScene{SceneKind::Image});
  queue.push(SwitchInterop{InteropPath::Host});
  queue.push(ResetNBody{});
  queue.push(SwitchInterop{InteropPath::GlSharing});
  queue.push(OpenScene{SceneKind::Julia});
  queue.push(SaveImageResult{});
  EXPECT_EQ(queue.take<OpenScene>().size(), 2u);
  EXPECT_EQ(queue.size(), 4u);
  EXPECT_TRUE(queue.has<ResetNBody>());
  EXPECT_TRUE(queue.has<SaveImageResult>());
  EXPECT_FALSE(queue.has<OpenScene>());
  const std::vector<SwitchInterop> paths = queue.take<SwitchInterop>();
  ASSERT_EQ(paths.size(), 2u);
  EXPECT_EQ(paths[0].path, InteropPath::Host);
  EXPECT_EQ(paths[1].path, InteropPath::GlSharing);
  EXPECT_EQ(queue.size(), 2u);
}

// The N-body scene is not running: its commands wait for it, while the image lab
// takes its own.
TEST(CommandQueue, ACommandWhoseConsumerIsAbsentStays) {
  CommandQueue queue;
  queue.push(ResetNBody{});
  queue.push(SaveImageResult{});
  queue.push(VerifyNBody{});
  EXPECT_TRUE(queue.takeAny<SaveImageResult>());
  EXPECT_FALSE(queue.takeAny<SaveImageResult>());
  EXPECT_EQ(queue.size(), 2u);
  EXPECT_TRUE(queue.takeAny<ResetNBody>());
  EXPECT_TRUE(queue.takeAny<VerifyNBody>());
  EXPECT_TRUE(queue.empty());
}

// Pressing R twice in one frame resets once: takeAny takes every command of its kind.
TEST(CommandQueue, SeveralOfOneKindInAFrameActOnce) {
  CommandQueue queue;
  queue.push(ResetNBody{});
  queue.push(ToggleFullscreen{});
  queue.push(ResetNBody{});
  EXPECT_TRUE(queue.takeAny<ResetNBody>());
  EXPECT_FALSE(queue.has<ResetNBody>());
  EXPECT_TRUE(queue.has<ToggleFullscreen>());
}

// An OpenImages names at least one path, so that its consumer has no empty request
// to pass over: the list is refused where the command is made.
TEST(CommandQueue, AnOpenImagesCommandNamesAtLeastOnePath) {
  EXPECT_FALSE(OpenImages::of({}).has_value()) << "an empty list made a command";
  const std::optional<OpenImages> two = OpenImages::of({"a.png", "b.png"});
  ASSERT_TRUE(two.has_value());
  EXPECT_EQ(two->paths(), (std::vector<std::string>{"a.png", "b.png"}));
  EXPECT_EQ(OpenImages("").paths(), std::vector<std::string>{""}) << "the built-in test image";
  static_assert(!std::is_default_constructible_v<OpenImages>);
  static_assert(!std::is_constructible_v<OpenImages, std::vector<std::string>>);
}

}  // namespace
}  // namespace ks
