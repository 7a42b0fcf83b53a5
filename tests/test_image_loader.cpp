// Image files off the frame loop. The loader (io/image_loader.h): the newest
// request wins, a cancelled decode is never handed out; its decoder is held by a
// gate the test opens, so every order of events is deterministic. The result
// saver (io/result_saver.h): one save at a time, finished before it goes.
#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <set>
#include <thread>

#include "io/image_loader.h"
#include "io/result_saver.h"
#include "test_support.h"

namespace ks {
namespace {
namespace fs = std::filesystem;

const ImageLimits kLimits{1024, uint64_t{1} << 20};

// A decoder that makes a 1x1 gray image whose value is the path's length, once
// the test lets the path through; "bad" paths fail as a damaged file would.
class GatedDecoder {
 public:
  ImageLoader::Decoder decoder() {
    return [this](const std::string& path, const ImageLimits&) {
      std::unique_lock<std::mutex> lock(mutex_);
      started_.insert(path);
      changed_.notify_all();
      changed_.wait(lock, [&] { return open_.count(path) > 0; });
      if (path.rfind("bad", 0) == 0) throw ImageFileError("'" + path + "' is damaged");
      HostImage image;
      image.width = image.height = image.channels = 1;
      image.pixels = {static_cast<uint8_t>(path.size())};
      image.description = path;
      return image;
    };
  }
  void let(const std::string& path) {
    std::lock_guard<std::mutex> lock(mutex_);
    open_.insert(path);
    changed_.notify_all();
  }
  bool waitStarted(const std::string& path) {
    std::unique_lock<std::mutex> lock(mutex_);
    return changed_.wait_for(lock, std::chrono::seconds(10), [&] { return started_.count(path) > 0; });
  }
  bool started(const std::string& path) {
    std::lock_guard<std::mutex> lock(mutex_);
    return started_.count(path) > 0;
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::set<std::string> open_, started_;
};

// Polls until the loader hands something out (or 10 s pass).
std::optional<DecodedImage> pollUntilDone(ImageLoader& loader) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (std::chrono::steady_clock::now() < deadline) {
    if (auto decoded = loader.poll()) return decoded;
    if (!loader.busy()) return std::nullopt;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return std::nullopt;
}

TEST(ImageLoader, DecodesOffTheCallersThreadAndHandsTheImageOutOnce) {
  GatedDecoder gate;
  ImageLoader loader(gate.decoder());
  EXPECT_FALSE(loader.busy());
  loader.request("first.png", kLimits);
  ASSERT_TRUE(gate.waitStarted("first.png"));
  // The decode is held: the caller goes on, and sees it under way.
  EXPECT_TRUE(loader.busy());
  EXPECT_EQ(loader.busyPath(), "first.png");
  EXPECT_FALSE(loader.poll());
  EXPECT_GE(loader.busySeconds(), 0.0);
  gate.let("first.png");
  const std::optional<DecodedImage> decoded = pollUntilDone(loader);
  ASSERT_TRUE(decoded);
  EXPECT_EQ(decoded->path, "first.png");
  ASSERT_TRUE(decoded->image);
  EXPECT_EQ(decoded->image->pixels, std::vector<uint8_t>{9});
  EXPECT_TRUE(decoded->error.empty());
  EXPECT_FALSE(loader.busy());
  EXPECT_FALSE(loader.poll()) << "handed out once";
}

TEST(ImageLoader, AFailedDecodeComesBackAsItsMessage) {
  GatedDecoder gate;
  ImageLoader loader(gate.decoder());
  gate.let("bad.png");
  loader.request("bad.png", kLimits);
  const std::optional<DecodedImage> decoded = pollUntilDone(loader);
  ASSERT_TRUE(decoded);
  EXPECT_FALSE(decoded->image);
  EXPECT_EQ(decoded->error, "'bad.png' is damaged");
}

TEST(ImageLoader, TheNewestRequestWins) {
  GatedDecoder gate;
  ImageLoader loader(gate.decoder());
  loader.request("a.png", kLimits);
  ASSERT_TRUE(gate.waitStarted("a.png"));
  loader.request("bb.png", kLimits);   // waits for a.png, which is then dropped
  loader.request("ccc.png", kLimits);  // replaces bb.png, which never starts
  EXPECT_EQ(loader.busyPath(), "ccc.png");
  EXPECT_EQ(loader.waitingFor(), "a.png");  // what the panel says the newest request waits for
  gate.let("a.png");
  gate.let("ccc.png");
  const std::optional<DecodedImage> decoded = pollUntilDone(loader);
  ASSERT_TRUE(decoded);
  EXPECT_EQ(decoded->path, "ccc.png");
  EXPECT_FALSE(gate.started("bb.png"));
  EXPECT_FALSE(loader.busy());
  EXPECT_EQ(loader.waitingFor(), "");
}

TEST(ImageLoader, ACancelledDecodeIsNeverHandedOut) {
  GatedDecoder gate;
  ImageLoader loader(gate.decoder());
  loader.request("slow.png", kLimits);
  ASSERT_TRUE(gate.waitStarted("slow.png"));
  loader.cancel();
  EXPECT_FALSE(loader.busy());
  EXPECT_EQ(loader.waitingFor(), "");  // nothing waits: the panel says nothing more
  gate.let("slow.png");
  EXPECT_FALSE(pollUntilDone(loader));
  // The loader takes the next request after the dropped decode has finished.
  gate.let("next.png");
  loader.request("next.png", kLimits);
  const std::optional<DecodedImage> decoded = pollUntilDone(loader);
  ASSERT_TRUE(decoded);
  EXPECT_EQ(decoded->path, "next.png");
}

// Stop, then a new file: the new one waits for the stopped decode, and the panel
// says which (loadingWaitsFor) instead of a spinner that seems to do nothing.
TEST(ImageLoader, ARequestAfterStopSaysWhichDecodeItWaitsFor) {
  GatedDecoder gate;
  ImageLoader loader(gate.decoder());
  loader.request("huge.png", kLimits);
  ASSERT_TRUE(gate.waitStarted("huge.png"));
  loader.cancel();
  loader.request("small.png", kLimits);
  EXPECT_TRUE(loader.busy());
  EXPECT_EQ(loader.busyPath(), "small.png");
  EXPECT_EQ(loader.waitingFor(), "huge.png");
  EXPECT_FALSE(gate.started("small.png"));
  gate.let("huge.png");
  gate.let("small.png");
  const std::optional<DecodedImage> decoded = pollUntilDone(loader);
  ASSERT_TRUE(decoded);
  EXPECT_EQ(decoded->path, "small.png");
  EXPECT_EQ(loader.waitingFor(), "");
}

TEST(ImageLoader, DestroyedWhileDecodingDoesNotWait) {
  auto gate = std::make_shared<GatedDecoder>();
  {
    // The decoder keeps the gate alive for the thread that outlives the loader.
    ImageLoader loader([gate, decode = gate->decoder()](const std::string& path, const ImageLimits& limits) {
      return decode(path, limits);
    });
    loader.request("held.png", kLimits);
    ASSERT_TRUE(gate->waitStarted("held.png"));
  }                       // the loader is gone; its decode is still held
  gate->let("held.png");  // and finishes into nothing
}

TEST(ImageLoader, DecodesRealFilesWithLoadImageFile) {
  test::TempDir dir("ks-image-loader");
  const fs::path file = dir / "g.pgm";
  test::writeFile(file, "P5\n2 1\n255\n\x10\x20");
  ImageLoader loader;
  loader.request(file.string(), kLimits);
  const std::optional<DecodedImage> decoded = pollUntilDone(loader);
  ASSERT_TRUE(decoded);
  ASSERT_TRUE(decoded->image) << decoded->error;
  EXPECT_EQ(decoded->image->pixels, (std::vector<uint8_t>{0x10, 0x20}));
  loader.request((dir / "missing.png").string(), kLimits);
  const std::optional<DecodedImage> missing = pollUntilDone(loader);
  ASSERT_TRUE(missing);
  EXPECT_NE(missing->error.find("does not exist"), std::string::npos) << missing->error;
}

HostImage grayImage(int width, int height) {
  HostImage image;
  image.width = width;
  image.height = height;
  image.channels = 1;
  for (int i = 0; i < width * height; ++i) image.pixels.push_back(static_cast<uint8_t>(i * 13));
  return image;
}

std::optional<std::string> pollUntilSaved(ResultSaver& saver) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (std::chrono::steady_clock::now() < deadline) {
    if (auto message = saver.poll()) return message;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return std::nullopt;
}

TEST(ResultSaver, WritesOneSaveAtATimeAndSaysWhatItDid) {
  test::TempDir dir("ks-result-saver");
  const HostImage image = grayImage(33, 7);
  ResultSaver saver;
  const std::string file = (dir / "out.png").string();
  ASSERT_TRUE(saver.start(image, file));
  // Busy until its outcome is taken, whether or not the thread is done yet.
  EXPECT_TRUE(saver.busy());
  EXPECT_EQ(saver.busyPath(), file);
  EXPECT_FALSE(saver.start(image, (dir / "second.png").string())) << "one save at a time";
  EXPECT_EQ(pollUntilSaved(saver), "saved the result to " + file);
  EXPECT_FALSE(saver.busy());
  EXPECT_FALSE(saver.poll()) << "said once";
  EXPECT_EQ(loadImageFile(file, kLimits).pixels, image.pixels);
  EXPECT_FALSE(fs::exists(dir / "second.png"));

  const std::string nowhere = (dir / "no-such-dir" / "out.png").string();
  ASSERT_TRUE(saver.start(image, nowhere));
  const std::optional<std::string> failed = pollUntilSaved(saver);
  ASSERT_TRUE(failed);
  EXPECT_EQ(failed->rfind("cannot write PNG '" + nowhere + "': ", 0), 0u) << *failed;
}

// A name without a folder is saved in the working directory, and the message says which.
TEST(ResultSaver, ARelativeNameIsReportedWithItsFolder) {
  test::TempDir dir("ks-result-saver-relative");
  const fs::path before = fs::current_path();
  fs::current_path(dir.path());
  const fs::path here = fs::current_path();
  ResultSaver saver;
  ASSERT_TRUE(saver.start(grayImage(5, 3), "rel.png"));
  const std::optional<std::string> message = pollUntilSaved(saver);
  fs::current_path(before);
  EXPECT_EQ(message, "saved the result to " + (here / "rel.png").string());
  EXPECT_TRUE(fs::exists(dir / "rel.png"));
}

TEST(ResultSaver, ASaveUnderWayIsFinishedBeforeTheSaverGoes) {
  test::TempDir dir("ks-result-saver-end");
  const HostImage image = grayImage(640, 480);
  const std::string file = (dir / "last.png").string();
  {
    ResultSaver saver;
    ASSERT_TRUE(saver.start(image, file));
  }
  EXPECT_EQ(loadImageFile(file, kLimits).pixels, image.pixels);
}

}  // namespace
}  // namespace ks
