#pragma once
// Decodes image files on a worker thread, so that the window keeps drawing while
// a large file decodes (a 16384x16384 RGB PNG takes about 40 s on two cores).
// One decode at a time; the newest request wins: a file asked for while another
// decodes waits for it, and the older one's result is dropped. Unless the newest
// fails: then the request it superseded goes on (a file dropped while the start
// image decodes, and damaged, must not cost the start image).
#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "io/image_file.h"

namespace ks {

struct DecodedImage {
  std::string path;
  std::optional<HostImage> image;  // empty: `error` says why
  std::string error;               // names the file (ImageFileError's message)
  double seconds = 0.0;            // reading and decoding
};

class ImageLoader {
 public:
  using Decoder = std::function<HostImage(const std::string& path, const ImageLimits& limits)>;
  // `decoder`: loadImageFile; tests give their own, to hold a decode under way.
  explicit ImageLoader(Decoder decoder = loadImageFile) : decoder_(std::move(decoder)) {}
  ImageLoader(const ImageLoader&) = delete;
  ImageLoader& operator=(const ImageLoader&) = delete;
  // Does not wait: a decode under way finishes on its own thread into nothing, so
  // quitting or switching device never waits for a large file.
  ~ImageLoader() = default;

  // Decodes `path` (loadImageFile), at once or after the decode under way.
  void request(const std::string& path, const ImageLimits& limits);
  // Drops whatever was asked for: nothing that is decoding now will be handed out.
  void cancel();
  // The newest request's outcome, once, when it is decoded; else nothing. A failure
  // is handed out, and then the request it superseded is the newest again: its
  // decode, kept if it finished meanwhile, comes next (else it is decoded again).
  // A success, or cancel(), forgets the superseded requests.
  std::optional<DecodedImage> poll();

  bool busy() const { return ready_.has_value() || pending_.has_value() || (running_ && !dropRunning_); }
  // The newest request's file: the one waiting, else the one decoding. Valid while busy().
  const std::string& busyPath() const {
    return ready_ ? ready_->path : pending_ ? pending_->first : running_->result.path;
  }
  double busySeconds() const;
  // The file of a stopped or superseded decode that is still running while the
  // newest request waits for it (stb_image cannot be interrupted); else empty.
  std::string waitingFor() const { return pending_ && running_ ? running_->result.path : std::string(); }

 private:
  struct Job {
    Decoder decoder;
    ImageLimits limits;
    DecodedImage result;  // its path is set before the worker starts; the rest is written before `done`
    std::atomic<bool> done{false};
  };
  void start(const std::string& path, const ImageLimits& limits);
  static void decode(Job& job);
  // After the newest request's outcome: a success forgets the superseded requests,
  // a failure takes the last of them up again.
  void settle(const DecodedImage& outcome);

  Decoder decoder_;
  std::shared_ptr<Job> running_;                                // shared with its worker thread
  bool dropRunning_ = false;                                    // the running decode was superseded or cancelled
  std::optional<std::pair<std::string, ImageLimits>> pending_;  // the newest request, behind running_
  std::chrono::steady_clock::time_point newestSince_;
  // Requests a newer one replaced, oldest first, each with its limits: the last goes
  // on if the newest fails.
  std::vector<std::pair<std::string, ImageLimits>> superseded_;
  std::optional<DecodedImage> supersededDecode_;  // a superseded request's decode that finished meanwhile
  std::optional<DecodedImage> ready_;             // handed out by the next poll (a superseded request's decode)
  ImageLimits readyLimits_{};
};

}  // namespace ks
