#include "io/image_loader.h"

#include <exception>
#include <new>
#include <system_error>
#include <thread>

namespace ks {

void ImageLoader::request(const std::string& path, const ImageLimits& limits) {
  newestSince_ = std::chrono::steady_clock::now();
  if (running_) {
    // stb_image cannot be interrupted: the newest request waits, and replaces any
    // request waiting before it.
    pending_.emplace(path, limits);
    dropRunning_ = true;
    return;
  }
  start(path, limits);
}

void ImageLoader::cancel() {
  pending_.reset();
  if (running_) dropRunning_ = true;
}

std::optional<DecodedImage> ImageLoader::poll() {
  if (!running_ || !running_->done.load(std::memory_order_acquire)) return std::nullopt;
  const std::shared_ptr<Job> finished = std::move(running_);
  const bool dropped = dropRunning_;
  dropRunning_ = false;
  if (pending_) {
    const auto next = std::move(*pending_);
    pending_.reset();
    start(next.first, next.second);
  }
  if (dropped) return std::nullopt;
  return std::move(finished->result);
}

double ImageLoader::busySeconds() const {
  if (!busy()) return 0.0;
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - newestSince_).count();
}

void ImageLoader::start(const std::string& path, const ImageLimits& limits) {
  auto job = std::make_shared<Job>();
  job->decoder = decoder_;
  job->limits = limits;
  job->result.path = path;
  running_ = job;
  try {
    // Detached: the job is all the thread touches, and the thread keeps it alive.
    std::thread([job] { decode(*job); }).detach();
  } catch (const std::system_error&) {
    decode(*job);  // no thread to be had: decode here, the window waits
  }
}

void ImageLoader::decode(Job& job) {
  const auto begin = std::chrono::steady_clock::now();
  try {
    job.result.image = job.decoder(job.result.path, job.limits);
  } catch (const ImageFileError& e) {
    job.result.error = e.what();
  } catch (const std::bad_alloc&) {
    job.result.error = "'" + job.result.path + "' does not fit in this computer's memory while it decodes";
  } catch (const std::exception& e) {
    job.result.error = "'" + job.result.path + "' cannot be read: " + e.what();
  }
  job.result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  job.done.store(true, std::memory_order_release);
}

}  // namespace ks
