#pragma once
// What measuring one configuration of an image operation (rotate, transpose,
// histogram) comes to, whatever the operation (review D2/D4 of issue 21): the
// runner built (a build error is the measurement's problem, never an exception),
// 3 untimed runs, then the timed ones, each timed on the device as the sum of its
// commands (the rotate's forward variant runs clear, scatter, resolve; the
// histogram counts, then merges), the rate in GB/s from the median.
//
// PacedImageTrial enqueues the runs a few at a time (PacedLaunches) and is polled,
// for the UI's sweeps, where no frame may wait for a whole measurement;
// measureImageRuns waits for them, for the command line's benches.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "compute/cl_objects.h"
#include "compute/compute_context.h"
#include "compute/image_layout.h"

namespace ks {

// What every image operation's measurement holds besides its configuration.
struct ImageRunTimes {
  std::string problem;  // empty when it ran
  uint64_t sourceHash = 0;
  std::vector<double> runMs;        // one sample per timed run, device clock
  double gigabytesPerSecond = 0.0;  // bytes moved by one run over the median run time
};

// An operation's measurement: its configuration, the input image and the times
// (bytes of imageOpBytes over the median run). RotateMeasurement adds the angle.
template <class Config>
struct ImageOpMeasurement : ImageRunTimes {
  Config config;
  ImageLayout layout;  // the input
};

// A measurement of `config` on `layout` before it has run: what every
// operation's measure and trial start from.
template <class Measurement, class Config>
Measurement unmeasured(const ImageLayout& layout, const Config& config) {
  Measurement r;
  r.config = config;
  r.layout = layout;
  return r;
}

// Enqueues one run of the operation on `queue`, its commands' events in `events`.
using ImageOpLaunch = std::function<void(Queue& queue, ImageOpEvents& events)>;
// Makes the operation's runner and builds its programs (it may throw), and returns its launch.
using ImageOpPrepare = std::function<ImageOpLaunch()>;

class PacedImageTrial {
 public:
  static constexpr int kWarmups = 3;
  // `kernelFile`: in the context's kernels folder, hashed into the measurement.
  // `bytesPerRun`: what one run reads and writes (imageOpBytes). The launches
  // go on `queue`, the first one in the first poll(). What the launches use
  // must outlive them. Never throws.
  PacedImageTrial(ComputeContext& compute, Queue& queue, const std::string& kernelFile, const ImageOpPrepare& prepare,
                  size_t bytesPerRun, int iterations, double batchBudgetMs);
  ~PacedImageTrial();
  PacedImageTrial(const PacedImageTrial&) = delete;
  PacedImageTrial& operator=(const PacedImageTrial&) = delete;
  // Never waits. True once the times (or the problem) are ready.
  bool poll();
  const ImageRunTimes& times() const { return times_; }
  double longestRunMs() const;

 private:
  struct Running;
  size_t bytesPerRun_;
  ImageRunTimes times_;
  std::unique_ptr<Running> running_;
};

// A PacedImageTrial that fills an operation's measurement (RotateMeasurement, ...:
// its configuration and image, and the times): what RotateTrial, TransposeTrial
// and HistogramTrial are, each with a constructor of its own.
template <class Measurement>
class ImageOpTrial {
 public:
  bool poll() {  // true once the result is ready
    if (!trial_.poll()) return false;
    static_cast<ImageRunTimes&>(result_) = trial_.times();
    return true;
  }
  const Measurement& result() const { return result_; }
  double longestRunMs() const { return trial_.longestRunMs(); }

 protected:
  ImageOpTrial(Measurement measurement, ComputeContext& compute, Queue& queue, const std::string& kernelFile,
               const ImageOpPrepare& prepare, size_t bytesPerRun, int iterations, double batchBudgetMs)
      : result_(std::move(measurement)),
        trial_(compute, queue, kernelFile, prepare, bytesPerRun, iterations, batchBudgetMs) {}

 private:
  Measurement result_;
  PacedImageTrial trial_;
};

// The same runs on the context's queue, waited for. Never throws.
ImageRunTimes measureImageRuns(ComputeContext& compute, const std::string& kernelFile, const ImageOpPrepare& prepare,
                               size_t bytesPerRun, int iterations);

}  // namespace ks
