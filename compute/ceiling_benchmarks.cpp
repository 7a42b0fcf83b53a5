#include "compute/ceiling_benchmarks.h"

#include <algorithm>
#include <limits>
#include <array>
#include <cmath>
#include <cstdio>
#include <functional>
#include <vector>

#include "compute/compute_context.h"
#include "compute/device_catalog.h"
#include "compute/image_copy.h"
#include "compute/image_layout.h"
#include "compute/iso_time.h"
#include "compute/program_cache.h"
#include "compute/sample_stats.h"

namespace ks {
namespace {

size_t powerOfTwoAtMost(size_t n) {
  size_t p = 1;
  while (p * 2 <= n) p *= 2;
  return p;
}

std::string format(const char* pattern, auto... values) {
  char text[320];
  std::snprintf(text, sizeof text, pattern, values...);
  return text;
}

// Grows the amount of work (iterations) from `start` until one launch takes about
// plan.targetMs, then times plan.runs launches of that amount. `launch(amount, event)`
// enqueues one launch. Returns the amount and the fastest launch's time: a
// ceiling is the best the device does; other programs on the machine only ever
// make a launch slower.
struct Timing {
  int amount = 0;
  double bestMs = 0.0;
};
constexpr int kMaxIterations = 1 << 22;  // keeps the multiply-add chains exact (kernels/ceilings.cl)

Timing timeScaled(Queue& queue, const CeilingPlan& plan, int start,
                  const std::function<void(int amount, Event* event)>& launch) {
  int amount = start;
  for (int attempt = 0; attempt < 6; ++attempt) {
    Event event;
    launch(amount, &event);
    queue.finish();
    const double ms = std::max(event.elapsedMs(), 1e-3);
    const double scale = plan.targetMs / ms;
    // Never below 2: a kernel whose loop runs once whatever it is told gives the
    // expected result for 1, and its check would pass (seen when a slow first launch
    // on a loaded machine scaled 16 down to 1).
    const int scaled = static_cast<int>(std::clamp(amount * scale, 2.0, static_cast<double>(kMaxIterations)));
    // Close enough, or as far as it may grow: that amount is timed.
    if (scale < 1.5 || amount >= kMaxIterations) {
      amount = scaled;
      break;
    }
    // A short launch is mostly overhead: grow at most 64-fold and time it again.
    amount = std::min(scaled, amount * 64);
  }
  Timing t;
  t.amount = std::max(amount, 2);
  std::vector<Event> events(static_cast<size_t>(plan.runs));
  for (Event& e : events) launch(t.amount, &e);
  queue.finish();
  std::vector<double> ms;
  for (const Event& e : events) ms.push_back(e.elapsedMs());
  t.bestMs = summarize(ms).min;
  return t;
}

double perSecond(double count, double ms) { return ms > 0.0 ? count / (ms * 1e-3) * 1e-9 : 0.0; }

// What kernels/ceilings.cl's multiply-add chains sum to after `iterations`: lane
// c of chain j (W lanes each) ends at j * W + c + iterations * step, exactly;
// summed in the kernel's order (8 chains, then float8 halves, then pairs).
template <typename T, int W>
T expectedMadSum(int iterations, T step) {
  T s[W];
  for (int c = 0; c < W; ++c) {
    auto a = [&](int chain) { return static_cast<T>(chain * W + c) + static_cast<T>(iterations) * step; };
    s[c] = ((a(0) + a(1)) + (a(2) + a(3))) + ((a(4) + a(5)) + (a(6) + a(7)));
  }
  if constexpr (W == 8)
    for (int c = 0; c < 4; ++c) s[c] += s[c + 4];
  return (s[0] + s[1]) + (s[2] + s[3]);
}

// kernels/ceilings.cl's local_bandwidth (lanes 1) or local_bandwidth_wide (lanes 4)
// for one work-group, replayed: each work-item's output word.
std::vector<uint32_t> replayLocalBandwidth(size_t items, int iterations, int lanes) {
  using Word = std::array<uint32_t, 4>;
  std::vector<Word> words(4 * items), sums(items, Word{});
  for (size_t i = 0; i < words.size(); ++i)
    for (int c = 0; c < lanes; ++c) words[i][c] = static_cast<uint32_t>(i) + static_cast<uint32_t>(c);
  const size_t mask = 4 * items - 1;
  for (int it = 0; it < iterations; ++it) {
    for (size_t lid = 0; lid < items; ++lid)
      for (uint32_t k = 0; k < 32; ++k) {
        const Word& w = words[(lid + (static_cast<uint32_t>(it) * 32 + k) * 33u) & mask];
        for (int c = 0; c < lanes; ++c) sums[lid][c] += w[c];
      }
    for (size_t lid = 0; lid < items; ++lid) words[lid + (static_cast<size_t>(it) & 3) * items] = sums[lid];
  }
  std::vector<uint32_t> out(items);
  for (size_t lid = 0; lid < items; ++lid) {
    const Word& s = sums[lid];
    out[lid] = lanes == 1 ? s[0] : s[0] ^ (s[1] * 3u) ^ (s[2] * 5u) ^ (s[3] * 7u);
  }
  return out;
}

// kernels/ceilings.cl's local_atomics bins for work-group `group`, replayed:
// `spread` 0 the random bins, 1 each item's run of neighbouring bins from its own.
std::vector<uint32_t> replayLocalAtomics(size_t group, size_t items, int iterations, uint32_t seed, bool spread) {
  std::vector<uint32_t> bins(256, 0);
  for (size_t lid = 0; lid < items; ++lid) {
    if (spread) {
      // Every bin once per 256 increments, then the rest from the item's own bin on.
      for (uint32_t& b : bins) b += static_cast<uint32_t>(iterations / 256);
      for (int r = 0; r < iterations % 256; ++r) ++bins[(lid + static_cast<size_t>(r)) & 255];
      continue;
    }
    uint32_t x = seed ^ (static_cast<uint32_t>(group * items + lid) * 0x9E3779B9u);
    for (int i = 0; i < iterations; ++i) {
      x = x * 1664525u + 1013904223u;
      ++bins[x >> 24];
    }
  }
  return bins;
}

// The input buffer's float4 number `index`: small whole numbers (sums stay exact)
// that differ from float4 to float4, so a kernel reading the wrong ones sums wrong.
float inputValue(size_t index) { return static_cast<float>((static_cast<uint32_t>(index) * 2654435761u) >> 29); }

template <typename T>
std::vector<T> readAll(Queue& queue, const Buffer& buffer, size_t count) {
  std::vector<T> values(count);
  queue.readBuffer(buffer, 0, count * sizeof(T), values.data());
  return values;
}

std::string runsText(const CeilingPlan& plan) { return "fastest of " + std::to_string(plan.runs) + " launches"; }

// Of two ways to measure one local-memory ceiling, the faster is the figure; `method`
// says how it was measured from (whether the second won, the faster, the slower).
template <class Rate, class Method>
CeilingFigure fasterOf(const Rate& first, const Rate& second, const Method& method) {
  const bool secondWins = second.rate > first.rate;
  CeilingFigure f;
  f.value = (secondWins ? second : first).rate;
  f.method = method(secondWins, secondWins ? second : first, secondWins ? first : second);
  return f;
}

}  // namespace

CeilingPlan ceilingPlanFor(const DeviceDescriptor& device) {
  CeilingPlan plan;
  const bool gpu = device.kind == DeviceKind::Gpu;
  plan.workGroup = powerOfTwoAtMost(std::clamp<size_t>(device.maxWorkGroupSize, 1, 256));
  const size_t units = std::max<cl_uint>(device.computeUnits, 1);
  // GPUs: enough groups to fill every compute unit several times over; CPUs
  // (PoCL): a few per core, each group a loop over its work-items.
  plan.groups = units * (gpu ? 16 : 4);
  // Buffers well beyond any cache, within a quarter of the largest allocation.
  const size_t wanted = gpu ? (size_t{256} << 20) : (size_t{32} << 20);
  plan.bufferBytes = std::min<size_t>(wanted, static_cast<size_t>(device.maxAllocBytes / 4)) & ~size_t{4095};
  plan.targetMs = gpu ? 2.0 : 8.0;
  plan.runs = gpu ? 7 : 5;
  return plan;
}

CeilingMeasurement::CeilingMeasurement(ComputeContext& compute)
    : compute_(compute), plan_(ceilingPlanFor(compute.device())) {
  if (compute.device().hasExtension("cl_khr_fp64")) buildOptions_ = "-DHAVE_FP64";
  compute_.prefetchKernelFile(kCeilingsKernelFile, buildOptions_);
  compute_.prefetchKernelFile(kCopyKernelFile);
}

CeilingMeasurement::~CeilingMeasurement() = default;

bool CeilingMeasurement::kernelsReady() const {
  return compute_.kernelFileReady(kCeilingsKernelFile, buildOptions_) && compute_.kernelFileReady(kCopyKernelFile);
}

std::string CeilingMeasurement::progress() const {
  if (done()) return "done";
  if (!program_ && !kernelsReady()) return "compiling the kernels";
  std::string text = std::string(ceilingName(ceilingAt(next_)).label) + " (" + std::to_string(next_ + 1) + " of " +
                     std::to_string(kCeilingCount) + ")";
  if (pieces_.size() > 1)
    text += ", part " + std::to_string(nextPiece_ + 1) + " of " + std::to_string(pieces_.size());
  return text;
}

bool CeilingMeasurement::step(bool wait) {
  if (done()) return true;
  if (!readyForPiece(wait)) return false;
  runPiece(compute_.queue());
  return done();
}

bool CeilingMeasurement::readyForPiece(bool wait) {
  if (done()) return false;
  if (!program_) {
    if (!wait && !kernelsReady()) return false;
    program_ = compute_.buildKernelFile(kCeilingsKernelFile, buildOptions_);
  }
  // The copy's kernel comes from the program cache too: made here, not in a piece.
  if (ceilingAt(next_) == Ceiling::Copy && !copier_ && copierError_.empty()) try {
      copier_ = std::make_unique<ImageCopier>(compute_, static_cast<int>(plan_.workGroup));
    } catch (const std::exception& e) {
      copierError_ = e.what();
    }
  return true;
}

void CeilingMeasurement::runPiece(Queue& queue) {
  queue_ = &queue;
  const Ceiling c = ceilingAt(next_);
  try {
    if (pieces_.empty()) {
      pieces_ = piecesOf(c);
      nextPiece_ = 0;
      pending_ = CeilingFigure{};
    }
    pieces_[nextPiece_++]();
    if (nextPiece_ < pieces_.size()) return;  // more of this benchmark next step
    result_[c] = pending_;
  } catch (const std::exception& e) {
    result_[c] = CeilingFigure{};
    result_[c].error = e.what();
  }
  pieces_.clear();
  nextPiece_ = 0;
  if (++next_ == kCeilingCount) {
    result_.time = isoTimeNow();
    input_ = Buffer();
    output_ = Buffer();
    copier_.reset();
  }
}

std::vector<CeilingMeasurement::Piece> CeilingMeasurement::piecesOf(Ceiling c) {
  if (c == Ceiling::Copy) return copyPieces();
  if (c == Ceiling::Read && program_->ok()) return readPieces();
  // Two shapes, one piece each, then the faster.
  if ((c == Ceiling::LocalBandwidth || c == Ceiling::LocalAtomics) && program_->ok()) {
    auto first = std::make_shared<LocalRate>();
    if (c == Ceiling::LocalBandwidth)
      return {[this, first] { *first = measureLocalBandwidth(1); },
              [this, first] { pending_ = localBandwidthFigure(*first, measureLocalBandwidth(4)); }};
    return {[this, first] { *first = measureLocalAtomics(false); },
            [this, first] { pending_ = localAtomicsFigure(*first, measureLocalAtomics(true)); }};
  }
  return {[this, c] { pending_ = measure(c); }};
}

CeilingFigure CeilingMeasurement::measure(Ceiling c) {
  if (c != Ceiling::Copy && !program_->ok()) {
    CeilingFigure f;
    f.error = "kernels/ceilings.cl did not build: " + program_->error;
    return f;
  }
  switch (c) {
    case Ceiling::Copy:
    case Ceiling::Read: break;  // in pieces: copyPieces(), readPieces()
    case Ceiling::Fp32Mad: return measureMad(false);
    case Ceiling::Fp64Mad: return measureMad(true);
    case Ceiling::Rsqrt: return measureRsqrt(false);
    case Ceiling::NativeRsqrt: return measureRsqrt(true);
    case Ceiling::LocalBandwidth:
    case Ceiling::LocalAtomics: break;  // in pieces: two shapes each
    case Ceiling::Count: break;
  }
  return {};
}

// The input's known values are written a quarter at a time: on a CPU device
// making and writing 32 MiB takes tens of milliseconds.
constexpr size_t kInputParts = 4;

void CeilingMeasurement::allocateBuffers() {
  if (plan_.bufferBytes < (size_t{1} << 20)) throw std::runtime_error("the device's largest allocation is too small");
  input_ = Buffer(compute_.context(), CL_MEM_READ_WRITE, plan_.bufferBytes);
  output_ = Buffer(compute_.context(), CL_MEM_READ_WRITE, plan_.bufferBytes);
}

void CeilingMeasurement::writeInputPart(size_t part, size_t parts) {
  // Known values (all four floats of a float4 alike): the host can redo the read kernel's sums.
  const size_t float4s = plan_.bufferBytes / 16;
  const size_t begin = float4s * part / parts, end = float4s * (part + 1) / parts;
  std::vector<float> values(4 * (end - begin));
  for (size_t i = 0; i < values.size(); ++i) values[i] = inputValue(begin + i / 4);
  queue().writeBuffer(input_, begin * 16, values.size() * sizeof(float), values.data());
}

void CeilingMeasurement::makeBuffers() {
  if (input_.get()) return;
  allocateBuffers();
  for (size_t part = 0; part < kInputParts; ++part) writeInputPart(part, kInputParts);
}

std::vector<CeilingMeasurement::Piece> CeilingMeasurement::copyPieces() {
  std::vector<Piece> pieces;
  pieces.push_back([this] {
    if (!copier_) throw std::runtime_error(copierError_);
    allocateBuffers();
  });
  for (size_t part = 0; part < kInputParts; ++part) pieces.push_back([this, part] { writeInputPart(part, kInputParts); });
  // Untouched output may not be backed by memory yet: the first copy is a warm-up.
  pieces.push_back([this] {
    copier_->run(queue(), input_.get(), output_.get(), plan_.bufferBytes);
    queue().finish();
  });
  auto ms = std::make_shared<std::vector<double>>();
  for (int run = 0; run < plan_.runs; ++run)
    pieces.push_back([this, ms] {
      ImageOpEvents e;
      copier_->run(queue(), input_.get(), output_.get(), plan_.bufferBytes, &e);
      queue().finish();
      ms->push_back(e.elapsedMs());
    });
  pieces.push_back([this, ms] {
    const size_t bytes = plan_.bufferBytes;
    // The copy must have copied: the output's last float is the input's.
    float last = -1.0f;
    queue().readBuffer(output_, bytes - sizeof(float), sizeof(float), &last);
    if (last != inputValue(bytes / 16 - 1)) throw std::runtime_error("the copy kernel's output is not its input");
    pending_.value = perSecond(2.0 * static_cast<double>(bytes), summarize(*ms).min);
    pending_.method =
        format("copy.cl: %zu MiB read and written (both counted), 16 bytes per work-item, groups of %zu, %s",
               bytes >> 20, plan_.workGroup, runsText(plan_).c_str());
  });
  return pieces;
}

std::vector<CeilingMeasurement::Piece> CeilingMeasurement::readPieces() {
  // What the pieces share: made by the first, used by the others.
  struct Read {
    Kernel kernel;
    Buffer sums;
    size_t items = 0;
    cl_uint perItem = 0;
    bool gpu = false;
    std::vector<double> ms;
  };
  auto r = std::make_shared<Read>();
  std::vector<Piece> pieces;
  pieces.push_back([this, r] {
    makeBuffers();  // made by the copy's pieces unless they failed
    r->kernel = Kernel(program_->program.get(), "read_sum");
    const size_t count = plan_.bufferBytes / 16;  // float4s
    // Each work-item reads at least 64 float4s: its one written sum is then under 1/256 of its traffic.
    r->items = std::min(plan_.groups * plan_.workGroup * 4, std::max<size_t>(count / 64, plan_.workGroup)) /
               plan_.workGroup * plan_.workGroup;
    r->perItem = static_cast<cl_uint>(count / r->items) & ~cl_uint{1};  // the kernel reads pairs
    // GPUs: neighbours read neighbours (coalesced); CPUs: each work-item its own block (a stream per core).
    r->gpu = compute_.device().kind == DeviceKind::Gpu;
    r->sums = Buffer(compute_.context(), CL_MEM_WRITE_ONLY, r->items * sizeof(float));
    r->kernel.setArg(0, input_);
    r->kernel.setArg(1, r->sums);
    r->kernel.setArg(2, r->perItem);
    r->kernel.setArg(3, static_cast<cl_uint>(r->gpu ? 1 : r->perItem));
    r->kernel.setArg(4, static_cast<cl_uint>(r->gpu ? r->items : 1));
    queue().enqueueKernel(r->kernel, {r->items}, {plan_.workGroup});  // warm-up
    queue().finish();
  });
  for (int run = 0; run < plan_.runs; ++run)
    pieces.push_back([this, r] {
      Event e;
      queue().enqueueKernel(r->kernel, {r->items}, {plan_.workGroup}, &e);
      queue().finish();
      r->ms.push_back(e.elapsedMs());
    });
  pieces.push_back([this, r] {
    const std::vector<float> got = readAll<float>(queue(), r->sums, r->items);
    // Each work-item's sum, redone (whole numbers: exact in any order).
    for (size_t i = 0; i < r->items; ++i) {
      double expected = 0.0;
      for (size_t k = 0; k < r->perItem; ++k)
        expected += 4.0 * inputValue(r->gpu ? i + k * r->items : i * r->perItem + k);
      if (got[i] != expected)
        throw std::runtime_error(
            format("the read kernel's sum for work-item %zu is %g, expected %g", i, got[i], expected));
    }
    const double bytes = static_cast<double>(r->items) * r->perItem * 16.0;
    pending_.value = perSecond(bytes, summarize(r->ms).min);
    pending_.method = format("%.0f MiB summed as float4 by %zu work-items in groups of %zu, %u float4s each (%s), %s",
                             bytes / 1048576.0, r->items, plan_.workGroup, r->perItem,
                             r->gpu ? "neighbours read neighbours" : "each its own block", runsText(plan_).c_str());
  });
  return pieces;
}

CeilingFigure CeilingMeasurement::measureMad(bool fp64) {
  CeilingFigure f;
  if (fp64 && buildOptions_.empty()) {
    f.error = "not available: no fp64 (the device lacks cl_khr_fp64)";
    return f;
  }
  Kernel kernel(program_->program.get(), fp64 ? "mad_rate_f64" : "mad_rate_f32");
  Queue& queue = this->queue();
  const size_t items = plan_.groups * plan_.workGroup;
  const size_t valueBytes = fp64 ? sizeof(double) : sizeof(float);
  Buffer out(compute_.context(), CL_MEM_WRITE_ONLY, items * valueBytes);
  kernel.setArg(0, out);
  const double step = 1.0 / 1024.0;
  if (fp64) kernel.setArg(2, 1.0), kernel.setArg(3, step);
  else kernel.setArg(2, 1.0f), kernel.setArg(3, static_cast<float>(step));
  const Timing t = timeScaled(queue, plan_, 16, [&](int iterations, Event* event) {
    kernel.setArg(1, static_cast<cl_int>(iterations));
    queue.enqueueKernel(kernel, {items}, {plan_.workGroup}, event);
  });
  // Every work-item must have done every iteration (a kernel that skipped the work fails here).
  const double expected = fp64 ? expectedMadSum<double, 4>(t.amount, step)
                               : static_cast<double>(expectedMadSum<float, 8>(t.amount, static_cast<float>(step)));
  if (fp64) {
    const auto all = readAll<double>(queue, out, items);
    if (const auto wrong = std::find_if(all.begin(), all.end(), [&](double v) { return v != expected; }); wrong != all.end())
      throw std::runtime_error(format("the multiply-add kernel's result is %.17g, expected %.17g", *wrong, expected));
  } else {
    const auto all = readAll<float>(queue, out, items);
    if (const auto wrong = std::find_if(all.begin(), all.end(), [&](float v) { return static_cast<double>(v) != expected; });
        wrong != all.end())
      throw std::runtime_error(format("the multiply-add kernel's result is %.9g, expected %.9g", *wrong, expected));
  }
  const int lanes = fp64 ? 32 : 64;
  const double flops = 2.0 * lanes * static_cast<double>(t.amount) * static_cast<double>(items);
  f.value = perSecond(flops, t.bestMs);
  f.method = format("8 independent %s multiply-add chains (%d lanes, 2 flops each) x %d iterations per work-item, "
                    "%zu work-groups of %zu, %s",
                    fp64 ? "double4" : "float8", lanes, t.amount, plan_.groups, plan_.workGroup, runsText(plan_).c_str());
  return f;
}

double expectedRsqrtSum(int iterations) {
  // kernels/ceilings.cl's RSQRT_CHAINS with seed 5: lanes start at 5, 5.25, ..., 8.75.
  double sum = 0.0;
  for (int lane = 0; lane < 16; ++lane) {
    double x = 5.0 + 0.25 * lane;
    // x = 1 is the fixed point, reached within about 60 steps (each halves log x): stop
    // there (or after 1000, far past it), as a GPU's launch may run millions of iterations.
    for (int i = 0; i < std::min(iterations, 1000); ++i) {
      const double next = 1.0 / std::sqrt(x);
      if (next == x) break;
      x = next;
    }
    sum += x;
  }
  return sum;
}

std::string rsqrtResultProblem(float result, int iterations) {
  const double expected = expectedRsqrtSum(iterations);
  // native_rsqrt's accuracy is the device's own (a few units in 2^-12 on CPUs'
  // approximations, about 2^-11 in half precision); in logarithms each step halves
  // the error it is handed (log x -> -log x / 2), so a lane ends within twice one
  // operation's error. A skipped iteration moves the sum by tens of percent.
  if (std::isfinite(result) && std::fabs(result - expected) <= expected / 256.0) return {};
  return format("the inverse square root kernel's result is %g, expected %g after %d iterations", result, expected,
                iterations);
}

CeilingFigure CeilingMeasurement::measureRsqrt(bool native) {
  Kernel kernel(program_->program.get(), native ? "native_rsqrt_rate" : "rsqrt_rate");
  Queue& queue = this->queue();
  const size_t items = plan_.groups * plan_.workGroup;
  Buffer out(compute_.context(), CL_MEM_WRITE_ONLY, items * sizeof(float));
  kernel.setArg(0, out);
  kernel.setArg(2, 5.0f);
  const Timing t = timeScaled(queue, plan_, 16, [&](int iterations, Event* event) {
    kernel.setArg(1, static_cast<cl_int>(iterations));
    queue.enqueueKernel(kernel, {items}, {plan_.workGroup}, event);
  });
  // Every work-item must have done every iteration: its sum is what the same chains
  // give on the host (not 16: on a loaded machine the launch may be scaled down to a
  // few iterations, short of converging).
  // A result equal to the one checked before needs no second check: the work-items agree
  // unless something is wrong, and a million of them must not each recompute the sum.
  float checked = std::numeric_limits<float>::quiet_NaN();  // equal to nothing
  for (float v : readAll<float>(queue, out, items)) {
    if (v == checked) continue;
    if (std::string problem = rsqrtResultProblem(v, t.amount); !problem.empty()) throw std::runtime_error(problem);
    checked = v;
  }
  CeilingFigure f;
  f.value = perSecond(16.0 * t.amount * static_cast<double>(items), t.bestMs);
  f.method = format("%s: 4 independent float4 chains x <- %s(x) (16 lanes) x %d iterations per work-item, "
                    "%zu work-groups of %zu, %s",
                    native ? "native_rsqrt" : "rsqrt", native ? "native_rsqrt" : "rsqrt", t.amount, plan_.groups,
                    plan_.workGroup, runsText(plan_).c_str());
  return f;
}

CeilingMeasurement::LocalRate CeilingMeasurement::measureLocalBandwidth(int lanes) {
  const char* name = lanes == 1 ? "local_bandwidth" : "local_bandwidth_wide";
  Queue& queue = this->queue();
  Kernel kernel(program_->program.get(), name);
  LocalRate r;
  r.wg = std::min(plan_.workGroup, powerOfTwoAtMost(kernel.workGroupSize(compute_.device().id)));
  const size_t items = plan_.groups * r.wg;
  Buffer out(compute_.context(), CL_MEM_WRITE_ONLY, items * sizeof(cl_uint));
  kernel.setArg(0, out);
  clCheck(clSetKernelArg(kernel.get(), 2, 4 * r.wg * static_cast<size_t>(lanes) * sizeof(cl_uint), nullptr),
          "clSetKernelArg");
  // A short launch first, replayed on the CPU: the kernel must do what it claims.
  const int checkIterations = 3;
  kernel.setArg(1, static_cast<cl_int>(checkIterations));
  queue.enqueueKernel(kernel, {items}, {r.wg});
  const auto got = readAll<cl_uint>(queue, out, items);
  const auto expected = replayLocalBandwidth(r.wg, checkIterations, lanes);
  for (size_t i = 0; i < items; ++i)
    if (got[i] != expected[i % r.wg])
      throw std::runtime_error(format("the local memory kernel (%s) gives %u for work-item %zu, expected %u", name,
                                      got[i], i, expected[i % r.wg]));
  const Timing t = timeScaled(queue, plan_, 8, [&](int iterations, Event* event) {
    kernel.setArg(1, static_cast<cl_int>(iterations));
    queue.enqueueKernel(kernel, {items}, {r.wg}, event);
  });
  r.amount = t.amount;
  r.rate = perSecond(33.0 * 4.0 * lanes * t.amount * static_cast<double>(items), t.bestMs);
  return r;
}

// 4-byte and 16-byte words: the faster is the ceiling (kernels that stage float4s
// read 16 bytes at a time, and went past a 4-byte-word ceiling: issue 23).
CeilingFigure CeilingMeasurement::localBandwidthFigure(const LocalRate& narrow, const LocalRate& wide) const {
  return fasterOf(narrow, wide, [&](bool wideWins, const LocalRate& best, const LocalRate& other) {
    return format("32 reads and 1 write of %d-byte words per iteration (2 barriers) x %d iterations per work-item, "
                  "%zu work-groups of %zu, %s; the faster of 4- and 16-byte words (%d-byte: %.1f GB/s)",
                  wideWins ? 16 : 4, best.amount, plan_.groups, best.wg, runsText(plan_).c_str(), wideWins ? 4 : 16,
                  other.rate);
  });
}

CeilingMeasurement::LocalRate CeilingMeasurement::measureLocalAtomics(bool spread) {
  Kernel kernel(program_->program.get(), "local_atomics");
  Queue& queue = this->queue();
  LocalRate r;
  r.wg = std::min(plan_.workGroup, powerOfTwoAtMost(kernel.workGroupSize(compute_.device().id)));
  const size_t wg = r.wg, items = plan_.groups * wg;
  const uint32_t seed = 12345u;
  Buffer out(compute_.context(), CL_MEM_WRITE_ONLY, plan_.groups * 256 * sizeof(cl_uint));
  kernel.setArg(0, out);
  kernel.setArg(2, static_cast<cl_uint>(seed));
  kernel.setArg(3, static_cast<cl_int>(spread ? 1 : 0));
  const Timing t = timeScaled(queue, plan_, 16, [&](int iterations, Event* event) {
    kernel.setArg(1, static_cast<cl_int>(iterations));
    queue.enqueueKernel(kernel, {items}, {wg}, event);
  });
  // Every group's bins must hold every increment; the last group's, bin by bin, the CPU's replay.
  const auto bins = readAll<cl_uint>(queue, out, plan_.groups * 256);
  for (size_t g = 0; g < plan_.groups; ++g) {
    uint64_t total = 0;
    for (size_t b = 0; b < 256; ++b) total += bins[g * 256 + b];
    if (total != static_cast<uint64_t>(wg) * static_cast<uint64_t>(t.amount))
      throw std::runtime_error(format("work-group %zu's bins hold %llu increments, expected %llu", g,
                                      static_cast<unsigned long long>(total),
                                      static_cast<unsigned long long>(wg) * static_cast<unsigned long long>(t.amount)));
  }
  const size_t last = plan_.groups - 1;
  if (!std::equal(bins.begin() + static_cast<std::ptrdiff_t>(last * 256), bins.end(),
                  replayLocalAtomics(last, wg, t.amount, seed, spread).begin()))
    throw std::runtime_error(std::string("the local atomics kernel's bins (") + (spread ? "spread" : "random") +
                             ") differ from the CPU's replay");
  r.amount = t.amount;
  r.rate = perSecond(static_cast<double>(t.amount) * static_cast<double>(items), t.bestMs);
  return r;
}

// Random bins (neighbours collide by chance) and spread bins (never two work-items on
// one bin at once): the faster is the ceiling. A histogram with a copy of its bins
// per lane went past the random bins' rate (issue 23).
CeilingFigure CeilingMeasurement::localAtomicsFigure(const LocalRate& random, const LocalRate& spread) const {
  return fasterOf(random, spread, [&](bool spreadWins, const LocalRate& best, const LocalRate& other) {
    return format("atomic_inc on 256 local bins, %s x %d per work-item, %zu work-groups of %zu, %s; the faster of "
                  "random bins and bins spread so that no two work-items meet (%s: %.2f G/s)",
                  spreadWins ? "neighbouring work-items on neighbouring bins" : "bins drawn at random (uniform)",
                  best.amount, plan_.groups, best.wg, runsText(plan_).c_str(), spreadWins ? "random" : "spread",
                  other.rate);
  });
}

MeasuredCeilings measureCeilings(ComputeContext& compute) {
  CeilingMeasurement measurement(compute);
  measurement.runToEnd();
  return measurement.result();
}

}  // namespace ks
