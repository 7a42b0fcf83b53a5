#pragma once
// One run of device work at a time, enqueued from a worker thread of its own and
// waited for there, so that the frame loop only polls. Needed on CPU devices
// (issue 22: a 3000x2000 picture spinning held every frame for a whole run, about
// 1 FPS): PoCL's default (pthread) device runs commands on its own threads, but the
// frame then waited for the previous run's events; its "basic" device runs a
// kernel inside clEnqueueNDRangeKernel, on the thread that enqueues it. Only
// another thread keeps the frame free on both.
//
// The worker has its own in-order queue on the device (profiling on, as the
// context's), so the run's events carry kernel times. A run is a function that
// enqueues commands on that queue; the worker then waits for all of them
// (clFinish) before the run counts as finished. While a run is busy the objects
// it uses (kernels, whose arguments it sets, and buffers it writes) belong to it:
// the caller does not touch them until poll() has returned the run's outcome.
// There is no cancelling a command once enqueued: a run that is no longer wanted
// is finished and its outcome dropped by the caller (the newest wins).
#include <CL/cl.h>

#include <condition_variable>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>

#include "compute/cl_objects.h"

namespace ks {

class BackgroundRuns {
 public:
  // Enqueues a run's commands on the worker's queue; may throw (the run fails).
  using Run = std::function<void(Queue& queue)>;
  // Creates the worker's queue (throws ClError) and starts the thread.
  BackgroundRuns(cl_context context, cl_device_id device);
  // Waits for the run in flight (its commands write memory that goes away with
  // the caller), then stops and joins the thread.
  ~BackgroundRuns();
  BackgroundRuns(const BackgroundRuns&) = delete;
  BackgroundRuns& operator=(const BackgroundRuns&) = delete;

  // The worker's queue, for making what runs will enqueue on it (a sweep's trial
  // is made on the caller's thread, then driven by a run). Commands go on it only
  // from runs, on the worker's thread.
  Queue& queue() { return queue_; }
  // Hands a run to the worker. Only while !busy() (throws std::logic_error else).
  void start(Run run);
  // True from start() until poll() has given the run's outcome.
  bool busy() const { return busy_; }
  // Never blocks. False while the run is still going (or none was started); true
  // once it has finished and all its commands completed: the run's objects are the
  // caller's again. A run that failed throws its error here, once.
  bool poll();
  // Blocks until the run in flight has finished, then as poll() (device switches,
  // kernel reloads, closing the scene: what the run uses is about to change).
  void wait();

 private:
  void work();
  bool takeOutcome();  // with mutex_ held and finished_ true

  Queue queue_;
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  Run pending_;              // handed over, not yet taken by the worker
  bool finished_ = false;    // the worker finished the run; its outcome is not yet taken
  std::exception_ptr error_;
  bool stopping_ = false;
  bool busy_ = false;        // only the caller's thread reads and writes it
  std::thread thread_;       // last: started when everything above exists
};

}  // namespace ks
