#include "compute/background_runs.h"

#include <stdexcept>
#include <utility>

namespace ks {

BackgroundRuns::BackgroundRuns(cl_context context, cl_device_id device)
    : queue_(context, device), thread_([this] { work(); }) {}

BackgroundRuns::~BackgroundRuns() {
  {
    std::unique_lock lock(mutex_);
    // The run in flight first: its commands read and write the caller's memory.
    done_.wait(lock, [this] { return !busy_ || finished_; });
    stopping_ = true;
  }
  wake_.notify_one();
  thread_.join();
}

void BackgroundRuns::start(Run run) {
  if (busy_) throw std::logic_error("BackgroundRuns::start while a run is busy");
  {
    std::lock_guard lock(mutex_);
    pending_ = std::move(run);
  }
  busy_ = true;
  wake_.notify_one();
}

bool BackgroundRuns::takeOutcome() {
  finished_ = false;
  busy_ = false;
  if (std::exception_ptr error = std::exchange(error_, nullptr)) std::rethrow_exception(error);
  return true;
}

bool BackgroundRuns::poll() {
  if (!busy_) return false;
  std::lock_guard lock(mutex_);
  if (!finished_) return false;
  return takeOutcome();
}

void BackgroundRuns::wait() {
  if (!busy_) return;
  std::unique_lock lock(mutex_);
  done_.wait(lock, [this] { return finished_; });
  takeOutcome();
}

void BackgroundRuns::work() {
  for (;;) {
    Run run;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [this] { return stopping_ || pending_; });
      if (stopping_) return;
      run = std::move(pending_);
      pending_ = nullptr;
    }
    std::exception_ptr error;
    try {
      run(queue_);
    } catch (...) {
      error = std::current_exception();
    }
    // Whatever was enqueued must be done before the caller may touch its objects
    // again, the commands of a run that failed part way included.
    try {
      queue_.finish();
    } catch (...) {
      if (!error) error = std::current_exception();
    }
    run = nullptr;  // what the run captured goes here, on this thread, before it counts as finished
    {
      std::lock_guard lock(mutex_);
      error_ = error;
      finished_ = true;
    }
    done_.notify_all();
  }
}

}  // namespace ks
