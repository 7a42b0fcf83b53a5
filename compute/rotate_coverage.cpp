#include "compute/rotate_coverage.h"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "compute/rotate_coverage_reference.h"

namespace ks {

namespace {

// floor(v / 2^k), as kernels/rotate.cl computes it.
int64_t floorShift(int64_t v, int k) { return v >= 0 ? v >> k : ~((~v) >> k); }

// The source point of output pixel (x, y) in 2^-17 pixel units, kernels/rotate.cl's source_point.
struct Point {
  int64_t x, y;
};
Point sourcePoint(int64_t x, int64_t y, const ImageLayout& in, const ImageLayout& out, const RotationFixedPoint& r) {
  const int64_t px = 2 * x + 1 - out.width, py = 2 * y + 1 - out.height;
  return {r.cosQ16 * px + r.sinQ16 * py + (static_cast<int64_t>(in.width) << 16),
          -static_cast<int64_t>(r.sinQ16) * px + r.cosQ16 * py + (static_cast<int64_t>(in.height) << 16)};
}

// Whether the kernels take anything from the picture at source point q. Nearest: the
// pixel containing q. Bilinear: the taps x0 = floor(q - 1/2) and x0 + 1 (likewise in
// y); one of them is inside exactly when -1 <= x0 <= width - 1.
struct CoverageTest {
  int64_t shift;     // 2^-17 units taken off q before the floor
  int64_t low;       // the smallest floor that reaches the picture
  int64_t highX, highY;
  bool xInside(int64_t qx) const {
    const int64_t f = floorShift(qx - shift, 17);
    return f >= low && f <= highX;
  }
  bool yInside(int64_t qy) const {
    const int64_t f = floorShift(qy - shift, 17);
    return f >= low && f <= highY;
  }
};
CoverageTest coverageTest(const ImageLayout& in, RotateSampling sampling) {
  if (sampling == RotateSampling::Bilinear) return {65536, -1, in.width - 1, in.height - 1};
  return {0, 0, in.width - 1, in.height - 1};
}

// The forward (seed) mapping's hits: 1 where some source pixel lands. The float
// steps are those of rotateForwardReference, each rounded on its own (this file is
// built with -ffp-contract=off, see CMakeLists.txt).
std::vector<uint8_t> forwardHits(const ImageLayout& in, const ImageLayout& out, const RotateParams& params) {
  std::vector<uint8_t> hit(out.pixels(), 0);
  const RotationFloat r = rotationFloat(params.degrees);
  const int xc = in.width / 2, yc = in.height / 2, outXc = out.width / 2, outYc = out.height / 2;
  for (int i = 0; i < in.height; ++i) {
    const float dy = static_cast<float>(i - yc);
    for (int j = 0; j < in.width; ++j) {
      const float dx = static_cast<float>(j - xc);
      const float xf = dx * r.cosTheta - dy * r.sinTheta + static_cast<float>(outXc);
      const float yf = dx * r.sinTheta + dy * r.cosTheta + static_cast<float>(outYc);
      const int xpos = static_cast<int>(xf), ypos = static_cast<int>(yf);
      if (xpos >= 0 && ypos >= 0 && xpos < out.width && ypos < out.height)
        hit[static_cast<size_t>(ypos) * static_cast<size_t>(out.width) + static_cast<size_t>(xpos)] = 1;
    }
  }
  return hit;
}

int64_t floorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if (a % b != 0 && ((a % b < 0) != (b < 0))) --q;
  return q;
}

// floor(n(y) / divisor) for n(y) = n0 + y * step, y = 0, 1, 2, ...: one division
// to start, then additions (a row's bounds move by the same amount from row to row).
class FloorDivisionSteps {
 public:
  FloorDivisionSteps(int64_t n0, int64_t step, int64_t divisor)
      : divisor_(divisor), q_(floorDiv(n0, divisor)), r_(n0 - q_ * divisor),
        stepQ_(floorDiv(step, divisor)), stepR_(step - stepQ_ * divisor) {}
  int64_t quotient() const { return q_; }
  void next() {
    q_ += stepQ_;
    r_ += stepR_;  // both in [0, divisor): one carry at most
    if (r_ >= divisor_) {
      r_ -= divisor_;
      ++q_;
    }
  }

 private:
  int64_t divisor_, q_, r_, stepQ_, stepR_;
};

// One of the four bounds on a row's covered pixels: x in [0, n) with
// slope * x >= bound(y), bound(y) = bound0 + y * boundStep (linear in x and in y).
struct RowBound {
  int64_t slope, bound0, boundStep;
};

// Where the pixels that pass two bounds of opposite slopes (one axis of the picture)
// begin and end, row after row: x >= ceil(bound / slope) for the positive slope,
// x <= floor(bound / slope) for the negative one. A zero slope (a quarter turn)
// passes all of a row or none of it.
class AxisSpanSteps {
 public:
  AxisSpanSteps(const RowBound& a, const RowBound& b)
      : moving_(a.slope != 0),
        first_(a.slope >= 0 ? a : b),
        second_(a.slope >= 0 ? b : a),
        // ceil(bound / s) = -floor(-bound / s) for s > 0; floor(bound / s) = floor(-bound / -s) for s < 0.
        begin_(-first_.bound0, -first_.boundStep, moving_ ? first_.slope : 1),
        end_(-second_.bound0, -second_.boundStep, moving_ ? -second_.slope : 1),
        still0_(first_.bound0), still1_(second_.bound0) {}
  // Narrows [begin, end) to this row's pixels, then steps to the next row.
  void narrow(int64_t& begin, int64_t& end) {
    if (moving_) {
      begin = std::max(begin, -begin_.quotient());
      end = std::min(end, end_.quotient() + 1);
      begin_.next();
      end_.next();
    } else {
      if (still0_ > 0 || still1_ > 0) end = begin;
      still0_ += first_.boundStep;
      still1_ += second_.boundStep;
    }
  }

 private:
  bool moving_;
  RowBound first_, second_;  // the positive slope (where the span begins), the negative one
  FloorDivisionSteps begin_, end_;
  int64_t still0_, still1_;  // the bounds themselves, for a zero slope
};

void requireLayout(const ImageLayout& in) {
  if (std::string p = imageLayoutProblem(in); !p.empty()) throw std::invalid_argument(p);
}

}  // namespace

uint64_t rotateFillPixelCount(const ImageLayout& in, const RotateParams& params, RotateSampling sampling) {
  requireLayout(in);
  const ImageLayout out = rotatedLayout(in, params);
  if (sampling == RotateSampling::Forward) {
    const std::vector<uint8_t> hit = forwardHits(in, out, params);
    return static_cast<uint64_t>(std::count(hit.begin(), hit.end(), uint8_t{0}));
  }
  const RotationFixedPoint r = rotationFixedPoint(params.degrees);
  const CoverageTest test = coverageTest(in, sampling);
  // Along a row the source point moves linearly: qx = ax * x + bx, qy = ay * x + by (see
  // sourcePoint). floor((q - shift) / 2^17) >= low exactly when q - shift >= low * 2^17, and
  // <= high exactly when q - shift <= (high + 1) * 2^17 - 1: four linear bounds on x, so the
  // covered pixels are one span, found in constant time per row.
  constexpr int64_t kUnit = int64_t{1} << 17;
  const int64_t ax = 2 * static_cast<int64_t>(r.cosQ16), ay = -2 * static_cast<int64_t>(r.sinQ16);
  // Row y's first source point is q0 + y * (2 sin, 2 cos) (sourcePoint is linear in y).
  const Point q0 = sourcePoint(0, 0, in, out, r);
  const int64_t bx = q0.x - test.shift, by = q0.y - test.shift;
  const int64_t dbx = 2 * static_cast<int64_t>(r.sinQ16), dby = 2 * static_cast<int64_t>(r.cosQ16);
  AxisSpanSteps xSpan({ax, test.low * kUnit - bx, -dbx}, {-ax, bx - ((test.highX + 1) * kUnit - 1), dbx});
  AxisSpanSteps ySpan({ay, test.low * kUnit - by, -dby}, {-ay, by - ((test.highY + 1) * kUnit - 1), dby});
  uint64_t covered = 0;
  for (int y = 0; y < out.height; ++y) {
    int64_t begin = 0, end = out.width;
    xSpan.narrow(begin, end);
    ySpan.narrow(begin, end);
    if (end > begin) covered += static_cast<uint64_t>(end - begin);
  }
  return static_cast<uint64_t>(out.pixels()) - covered;
}

std::vector<uint8_t> rotateCoverageReference(const ImageLayout& in, const RotateParams& params,
                                             RotateSampling sampling) {
  requireLayout(in);
  const ImageLayout out = rotatedLayout(in, params);
  if (sampling == RotateSampling::Forward) return forwardHits(in, out, params);
  std::vector<uint8_t> covered(out.pixels(), 0);
  const RotationFixedPoint r = rotationFixedPoint(params.degrees);
  const CoverageTest test = coverageTest(in, sampling);
  for (int y = 0; y < out.height; ++y)
    for (int x = 0; x < out.width; ++x) {
      const Point q = sourcePoint(x, y, in, out, r);
      covered[static_cast<size_t>(y) * static_cast<size_t>(out.width) + static_cast<size_t>(x)] =
          test.xInside(q.x) && test.yInside(q.y) ? 1 : 0;
    }
  return covered;
}

ImageHistogram coveredHistogramReference(const HostImage& image, const std::vector<uint8_t>& covered) {
  if (covered.size() != image.layout.pixels()) throw std::invalid_argument("the coverage does not match the image");
  ImageHistogram hist;
  hist.imageChannels = image.layout.channels;
  hist.bins.assign(histogramBinCount(image.layout), 0);
  for (size_t p = 0; p < covered.size(); ++p) {
    if (!covered[p]) continue;
    const uint8_t* px = image.data.data() + p * static_cast<size_t>(image.layout.channels);
    if (image.layout.channels == 1) {
      ++hist.bins[px[0]];
      continue;
    }
    for (int k = 0; k < 4; ++k) ++hist.bins[static_cast<size_t>(k * kHistogramBins + px[k])];
    ++hist.bins[static_cast<size_t>(4 * kHistogramBins + imageLuminance(px[0], px[1], px[2]))];
  }
  return hist;
}

void leaveOutFillPixels(ImageHistogramResult& result, uint64_t fillPixels, const std::array<uint8_t, 4>& background) {
  if (fillPixels == 0) return;
  ImageHistogram& h = result.histogram;
  const int channels = h.channelCount();
  if (h.bins.size() != static_cast<size_t>(channels) * kHistogramBins)
    throw std::runtime_error("the histogram has " + std::to_string(h.bins.size()) + " bins, not " +
                             std::to_string(channels * kHistogramBins));
  const std::array<uint8_t, 5> value = backgroundBins(background);
  result.statistics.imageChannels = h.imageChannels;
  result.statistics.channels.resize(static_cast<size_t>(channels));
  for (int c = 0; c < channels; ++c) {
    if (h.total(c) == 0) continue;  // a channel the kernel was not asked to count
    uint32_t& bin = h.bins[static_cast<size_t>(c) * kHistogramBins + value[static_cast<size_t>(c)]];
    if (bin < fillPixels)
      throw std::runtime_error("the histogram's " + std::string(histogramChannelName(h.imageChannels, c)) + " channel has " +
                               std::to_string(bin) + " pixels of the background value " +
                               std::to_string(value[static_cast<size_t>(c)]) + ", fewer than the " +
                               std::to_string(fillPixels) + " outside the rotated picture");
    bin -= static_cast<uint32_t>(fillPixels);
    // The statistics kernel's moments from the bins, then its nearest ranks.
    const uint32_t* bins = h.channel(c);
    uint64_t moments[kMomentsPerChannel] = {};
    int lowest = -1, highest = -1;
    for (int b = 0; b < kHistogramBins; ++b) {
      const uint64_t n = bins[b], v = static_cast<uint64_t>(b);
      moments[0] += n;
      moments[1] += n * v;
      moments[2] += n * v * v;
      if (n && lowest < 0) lowest = b;
      if (n) highest = b;
    }
    moments[3] = static_cast<uint64_t>(std::max(lowest, 0));
    moments[4] = static_cast<uint64_t>(std::max(highest, 0));
    for (size_t i = 0; i < kImagePercentiles.size(); ++i)
      moments[5 + i] = static_cast<uint64_t>(histogramPercentile(bins, kImagePercentiles[i]));
    result.statistics.channels[static_cast<size_t>(c)] = channelStatistics(moments);
  }
}

std::array<uint8_t, 5> backgroundBins(const std::array<uint8_t, 4>& background) {
  return {background[0], background[1], background[2], background[3],
          imageLuminance(background[0], background[1], background[2])};
}

std::string describeLeftOutPixels(uint64_t fillPixels) {
  if (fillPixels == 0) return {};
  // Digits in groups of three, a space between: "12 345".
  std::string digits = std::to_string(fillPixels), grouped;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0) grouped += ' ';
    grouped += digits[i];
  }
  return grouped + (fillPixels == 1 ? " pixel outside the rotated picture is" : " pixels outside the rotated picture are") +
         " not counted";
}

}  // namespace ks
