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
#include <vector>

#include "io/image_loader.h"
#include "io/result_saver.h"
#include "test_support.h"

namespace ks {
namespace {
namespace fs = std::filesystem;

const ImageLimits kLimits{1024, uint64_t{1} << 20};

// A decoder that makes a 1x1 gray image whose value is the path's length, once
// the test lets the path through; "bad" paths fail as a damaged file would.
// Its state is shared with the decodes: a decode the loader dropped may still be
// held when the test ends, and must not touch a gate that is gone (under ASan the
// use after free was reported from the worker while the test exited, and the
// process hung). The gate's end lets every held decode through, and no decode
// waits longer than kGateTimeout: it then fails, saying which path was never let through.
class GatedDecoder {
 public:
  static constexpr std::chrono::seconds kGateTimeout{20};

  GatedDecoder() = default;
  GatedDecoder(const GatedDecoder&) = delete;
  GatedDecoder& operator=(const GatedDecoder&) = delete;
  ~GatedDecoder() {
    std::lock_guard<std::mutex> lock(state_->mutex);
    state_->ended = true;
    state_->changed.notify_all();
  }

  ImageLoader::Decoder decoder() {
    return [state = state_](const std::string& path, const ImageLimits&) {
      std::unique_lock<std::mutex> lock(state->mutex);
      state->started.insert(path);
      state->changed.notify_all();
      const bool let = state->changed.wait_for(lock, kGateTimeout, [&] { return state->open.count(path) > 0 || state->ended; });
      state->finished.insert(path);
      state->changed.notify_all();
      if (!let) throw ImageFileError("the test never let '" + path + "' through");
      if (path.rfind("bad", 0) == 0) throw ImageFileError("'" + path + "' is damaged");
      HostImage image;
      image.width = image.height = image.channels = 1;
      image.pixels = {static_cast<uint8_t>(path.size())};
      image.description = path;
      return image;
    };
  }
  void let(const std::string& path) {
    std::lock_guard<std::mutex> lock(state_->mutex);
    state_->open.insert(path);
    state_->changed.notify_all();
  }
  bool waitStarted(const std::string& path) { return waitFor(state_->started, path); }
  // Until the decoder has returned for `path` (the loader may not have seen it yet).
  bool waitFinished(const std::string& path) { return waitFor(state_->finished, path); }
  bool started(const std::string& path) {
    std::lock_guard<std::mutex> lock(state_->mutex);
    return state_->started.count(path) > 0;
  }

 private:
  struct State {
    std::mutex mutex;
    std::condition_variable changed;
    std::set<std::string> open, started, finished;
    bool ended = false;
  };
  bool waitFor(const std::set<std::string>& paths, const std::string& path) {
    std::unique_lock<std::mutex> lock(state_->mutex);
    return state_->changed.wait_for(lock, std::chrono::seconds(10), [&] { return paths.count(path) > 0; });
  }
  std::shared_ptr<State> state_ = std::make_shared<State>();
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

// A file dropped while the start image decodes supersedes it; if the dropped file
// then fails, the start image must still open (issue 22: the built-in picture
// stayed, and the start image never came). Its decode finished while it waited
// for nothing: it is handed out right after the failure, without decoding again.
TEST(ImageLoader, AFailedRequestGivesWayToTheDecodeItSuperseded) {
  GatedDecoder gate;
  ImageLoader loader(gate.decoder());
  loader.request("start.png", kLimits);
  ASSERT_TRUE(gate.waitStarted("start.png"));
  loader.request("bad-drop.png", kLimits);
  gate.let("start.png");
  gate.let("bad-drop.png");
  const std::optional<DecodedImage> failed = pollUntilDone(loader);
  ASSERT_TRUE(failed);
  EXPECT_EQ(failed->path, "bad-drop.png");
  EXPECT_FALSE(failed->image);
  ASSERT_TRUE(loader.busy()) << "the start image is wanted again";
  EXPECT_EQ(loader.busyPath(), "start.png");
  const std::optional<DecodedImage> start = pollUntilDone(loader);
  ASSERT_TRUE(start);
  EXPECT_EQ(start->path, "start.png");
  ASSERT_TRUE(start->image);
  EXPECT_EQ(start->image->pixels[0], std::string("start.png").size());
  EXPECT_FALSE(loader.busy());
}

// The superseded request had not started (it waited behind another): it is decoded
// after the failure. Requests superseded one after another go back one at a time.
TEST(ImageLoader, AFailedRequestGivesWayToAWaitingRequestItReplaced) {
  GatedDecoder gate;
  ImageLoader loader(gate.decoder());
  loader.request("a.png", kLimits);
  ASSERT_TRUE(gate.waitStarted("a.png"));
  loader.request("waiting.png", kLimits);
  loader.request("bad1.png", kLimits);
  loader.request("bad2.png", kLimits);
  for (const char* f : {"a.png", "bad1.png", "bad2.png", "waiting.png"}) gate.let(f);
  std::vector<std::string> outcomes;
  while (std::optional<DecodedImage> d = pollUntilDone(loader)) outcomes.push_back(d->path + (d->image ? " ok" : " failed"));
  EXPECT_EQ(outcomes, (std::vector<std::string>{"bad2.png failed", "bad1.png failed", "waiting.png ok"}));
}

// A success forgets what it superseded, and so does a stop: nothing comes back later.
TEST(ImageLoader, ASuccessOrAStopForgetsTheSupersededRequests) {
  GatedDecoder gate;
  ImageLoader loader(gate.decoder());
  loader.request("first.png", kLimits);
  ASSERT_TRUE(gate.waitStarted("first.png"));
  loader.request("second.png", kLimits);
  gate.let("first.png");
  gate.let("second.png");
  std::optional<DecodedImage> d = pollUntilDone(loader);
  ASSERT_TRUE(d && d->image);
  EXPECT_EQ(d->path, "second.png");
  gate.let("bad.png");
  loader.request("bad.png", kLimits);
  d = pollUntilDone(loader);
  ASSERT_TRUE(d);
  EXPECT_FALSE(d->image);
  EXPECT_FALSE(loader.busy()) << "first.png came back after second.png had opened";

  loader.request("third.png", kLimits);
  ASSERT_TRUE(gate.waitStarted("third.png"));
  loader.request("bad.png", kLimits);
  loader.cancel();
  gate.let("third.png");
  // Its decode done, third.png is still never handed out (and no decode outlives the test).
  ASSERT_TRUE(gate.waitFinished("third.png"));
  EXPECT_FALSE(pollUntilDone(loader));
  EXPECT_FALSE(loader.poll());
  EXPECT_FALSE(loader.busy());
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
