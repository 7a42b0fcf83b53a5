#include "io/image_loader.h"

#include <exception>
#include <new>
#include <system_error>
#include <thread>

namespace ks {

void ImageLoader::request(const std::string& path, const ImageLimits& limits) {
  newestSince_ = std::chrono::steady_clock::now();
  // The request this one replaces, if one is still wanted: it goes on should this one fail.
  std::optional<std::pair<std::string, ImageLimits>> replaced;
  if (ready_) {
    replaced.emplace(ready_->path, readyLimits_);
    supersededDecode_ = std::move(ready_);
    ready_.reset();
  } else if (pending_) {
    replaced = pending_;
  } else if (running_ && !dropRunning_) {
    replaced.emplace(running_->result.path, running_->limits);
  }
  if (replaced && replaced->first != path) superseded_.push_back(std::move(*replaced));
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
  ready_.reset();
  superseded_.clear();
  supersededDecode_.reset();
  if (running_) dropRunning_ = true;
}

std::optional<DecodedImage> ImageLoader::poll() {
  if (ready_) {
    std::optional<DecodedImage> outcome = std::move(ready_);
    ready_.reset();
    settle(*outcome);
    return outcome;
  }
  if (!running_ || !running_->done.load(std::memory_order_acquire)) return std::nullopt;
  const std::shared_ptr<Job> finished = std::move(running_);
  const bool dropped = dropRunning_;
  dropRunning_ = false;
  // A superseded request's picture, decoded after all: kept in case the newest fails.
  if (dropped && finished->result.image && !superseded_.empty() && superseded_.back().first == finished->result.path)
    supersededDecode_ = std::move(finished->result);
  if (pending_) {
    const auto next = std::move(*pending_);
    pending_.reset();
    start(next.first, next.second);
  }
  if (dropped) return std::nullopt;
  std::optional<DecodedImage> outcome = std::move(finished->result);
  settle(*outcome);
  return outcome;
}

void ImageLoader::settle(const DecodedImage& outcome) {
  if (outcome.image || superseded_.empty()) {
    superseded_.clear();
    supersededDecode_.reset();
    return;
  }
  auto [path, limits] = std::move(superseded_.back());
  superseded_.pop_back();
  newestSince_ = std::chrono::steady_clock::now();
  if (supersededDecode_ && supersededDecode_->path == path) {
    ready_ = std::move(supersededDecode_);
    readyLimits_ = limits;
    supersededDecode_.reset();
    return;
  }
  // The failed request was the newest, so nothing waits behind it and nothing
  // wanted runs; should a decode run all the same, this one waits for it as a new
  // request would.
  if (running_) {
    pending_.emplace(path, limits);
    dropRunning_ = true;
  } else {
    start(path, limits);
  }
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
