#pragma once
// Encodes and writes PNG files on a worker thread: stb_image_write takes about
// 11 s for an 8192x8192 RGBA result on two cores, and the window keeps drawing
// meanwhile. One save at a time; a save under way is finished before the saver
// is destroyed (quitting never leaves half a file).
#include <atomic>
#include <chrono>
#include <optional>
#include <string>
#include <thread>

#include "io/image_file.h"

namespace ks {

class ResultSaver {
 public:
  ResultSaver() = default;
  ResultSaver(const ResultSaver&) = delete;
  ResultSaver& operator=(const ResultSaver&) = delete;
  ~ResultSaver();

  // Starts writing `image` to `path` (savePngFile). False when a save is under way.
  bool start(HostImage image, const std::string& path);
  // When the save has finished: what it did ("saved ... to ...", or why not), once.
  std::optional<std::string> poll();

  bool busy() const { return worker_.joinable(); }
  const std::string& busyPath() const { return path_; }  // valid while busy()
  double busySeconds() const;

 private:
  std::thread worker_;
  std::atomic<bool> done_{false};
  HostImage image_;             // the worker's while busy()
  std::string path_, message_;  // message_: written by the worker before done_
  std::chrono::steady_clock::time_point since_;
};

}  // namespace ks
