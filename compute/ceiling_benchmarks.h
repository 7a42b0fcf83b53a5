#pragma once
// Measures a device's ceilings (compute/ceilings.h) with the micro-kernels of
// kernels/ceilings.cl and the copy of kernels/copy.cl, a piece of a micro-benchmark
// per step(), so the viewer can run one piece per frame and stay responsive. The
// global-memory benchmarks are cut into pieces of one launch each (the input
// written a quarter at a time, the warm-up, each timed launch, the check): done in
// one step, the 32 MiB copy held a CPU device's frame for 229 ms (issue 23). The
// local-memory ones take a piece per shape measured; the others one piece of a few
// short launches each. Sizes come from the device; the iterations of each
// kernel are scaled until one launch takes a set time, then the fastest of a
// few timed launches counts. Every kernel's output is checked against what the CPU
// computes: a wrong result gives an error, not a figure.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "compute/ceilings.h"
#include "compute/cl_objects.h"

namespace ks {

class ComputeContext;
struct DeviceDescriptor;
class ImageCopier;
struct ProgramBuild;

// How big and how long, from the device.
struct CeilingPlan {
  size_t workGroup = 256;     // work-items per group (a power of two)
  size_t groups = 0;          // work-groups per launch of the compute kernels
  size_t bufferBytes = 0;     // each of the two global buffers (copy, read)
  double targetMs = 0.0;      // one timed launch should take about this long
  int runs = 5;               // timed launches; the fastest counts
};
CeilingPlan ceilingPlanFor(const DeviceDescriptor& device);

// The inverse square root benchmark's check: what kernels/ceilings.cl's 16 chains
// x <- rsqrt(x) (from 5, 5.25, ..., 8.75) sum to after `iterations` (16 only once
// they have converged: a launch scaled down to a few iterations is not there yet),
// and empty when a work-item's `result` is that within native_rsqrt's accuracy,
// else the error to show.
double expectedRsqrtSum(int iterations);
std::string rsqrtResultProblem(float result, int iterations);

constexpr const char* kCeilingsKernelFile = "ceilings.cl";

class CeilingMeasurement {
 public:
  // Starts compiling the kernels on a worker thread (nothing blocks here).
  explicit CeilingMeasurement(ComputeContext& compute);
  ~CeilingMeasurement();
  CeilingMeasurement(const CeilingMeasurement&) = delete;
  CeilingMeasurement& operator=(const CeilingMeasurement&) = delete;

  // Runs the next piece of the current micro-benchmark on the context's queue;
  // while the kernels still compile it runs nothing and returns at once (`wait`:
  // block until they are built instead). Returns done().
  bool step(bool wait = false);
  // The same in two halves, for a worker thread with a queue of its own (the
  // viewer: a piece waits for its launches, and must not do so in a frame).
  // readyForPiece() on the thread that owns the context's program cache: false
  // while the kernels still compile (or when done), else it takes them from the
  // cache. Then runPiece(queue) on any one thread; nothing else touches the
  // measurement until it has returned.
  bool readyForPiece(bool wait = false);
  void runPiece(Queue& queue);
  bool done() const { return next_ >= kCeilingCount; }
  void runToEnd() {
    while (!step(true)) {
    }
  }
  // "FP32 multiply-add rate (3 of 8)", "global memory copy (1 of 8), part 4 of 11",
  // or "compiling the kernels".
  std::string progress() const;
  const MeasuredCeilings& result() const { return result_; }
  const CeilingPlan& plan() const { return plan_; }

 private:
  ComputeContext& compute_;
  CeilingPlan plan_;
  std::string buildOptions_;
  std::shared_ptr<const ProgramBuild> program_;
  std::unique_ptr<ImageCopier> copier_;
  std::string copierError_;  // why the copy kernel could not be made
  Queue* queue_ = nullptr;   // the queue of the piece running now
  Queue& queue() { return *queue_; }
  Buffer input_, output_;  // the global buffers, made by the copy step
  size_t next_ = 0;
  MeasuredCeilings result_;
  // The current micro-benchmark's pieces (empty between benchmarks), the next one
  // to run, and the figure they fill in.
  using Piece = std::function<void()>;
  std::vector<Piece> pieces_;
  size_t nextPiece_ = 0;
  CeilingFigure pending_;
  std::vector<Piece> piecesOf(Ceiling c);
  std::vector<Piece> copyPieces();
  std::vector<Piece> readPieces();
  void allocateBuffers();
  void writeInputPart(size_t part, size_t parts);
  bool kernelsReady() const;
  CeilingFigure measure(Ceiling c);
  CeilingFigure measureMad(bool fp64);
  CeilingFigure measureRsqrt(bool native);
  // One shape of the local-memory benchmarks: its rate, iterations and work-group size.
  struct LocalRate {
    double rate = 0.0;
    int amount = 0;
    size_t wg = 0;
  };
  LocalRate measureLocalBandwidth(int lanes);  // 1: 4-byte words, 4: 16-byte words
  LocalRate measureLocalAtomics(bool spread);  // random bins, or bins no two work-items share at once
  CeilingFigure localBandwidthFigure(const LocalRate& narrow, const LocalRate& wide) const;
  CeilingFigure localAtomicsFigure(const LocalRate& random, const LocalRate& spread) const;
  void makeBuffers();
};

// Convenience for headless runs and tests: every ceiling, blocking.
MeasuredCeilings measureCeilings(ComputeContext& compute);

}  // namespace ks
