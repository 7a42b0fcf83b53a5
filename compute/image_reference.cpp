#include "compute/image_reference.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "compute/image_transpose.h"

namespace ks {

namespace {

// floor(v / 2^k), as kernels/rotate.cl computes it.
int64_t floorShift(int64_t v, int k) { return v >= 0 ? v >> k : ~((~v) >> k); }

void requireUsable(const HostImage& in) {
  if (std::string p = imageLayoutProblem(in.layout); !p.empty()) throw std::invalid_argument(p);
  if (in.data.size() != in.layout.bytes()) throw std::invalid_argument("image data does not match its layout");
}

HostImage filledCanvas(const ImageLayout& layout, const std::array<uint8_t, 4>& background) {
  HostImage out(layout);
  const int c = layout.channels;
  for (size_t p = 0; p < layout.pixels(); ++p)
    for (int k = 0; k < c; ++k) out.data[p * c + k] = background[k];
  return out;
}

// Source point of output pixel (x, y) in 2^-17 pixel units (see kernels/rotate.cl).
struct SourcePoint {
  int64_t x, y;
};
SourcePoint sourcePoint(int x, int y, const ImageLayout& in, const ImageLayout& out, const RotationFixedPoint& r) {
  const int64_t px = 2 * static_cast<int64_t>(x) + 1 - out.width, py = 2 * static_cast<int64_t>(y) + 1 - out.height;
  return {r.cosQ16 * px + r.sinQ16 * py + (static_cast<int64_t>(in.width) << 16),
          -static_cast<int64_t>(r.sinQ16) * px + r.cosQ16 * py + (static_cast<int64_t>(in.height) << 16)};
}

}  // namespace

HostImage randomHostImage(const ImageLayout& layout, uint32_t seed) {
  HostImage image(layout);
  uint64_t state = 0x9E3779B97F4A7C15ull ^ seed;
  for (auto& byte : image.data) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;  // 64-bit LCG, high bits
    byte = static_cast<uint8_t>(state >> 56);
  }
  return image;
}

HostImage rotateForwardReference(const HostImage& in, const RotateParams& params) {
  requireUsable(in);
  const ImageLayout outLayout = rotatedLayout(in.layout, params);
  HostImage out = filledCanvas(outLayout, rotateBackgroundPixel(params, in.layout.channels));
  const RotationFloat r = rotationFloat(params.degrees);
  const int w = in.layout.width, h = in.layout.height, c = in.layout.channels;
  const int outW = outLayout.width, outH = outLayout.height;
  // Source centre and the centre it is moved to, both integer halves.
  const int xc = w / 2, yc = h / 2, outXc = outW / 2, outYc = outH / 2;
  // Row-major, each pixel written over whatever an earlier one left there: the
  // last source pixel to land on a spot keeps it (the kernel's atomic_max rule).
  for (int i = 0; i < h; ++i) {
    const float dy = static_cast<float>(i - yc);
    for (int j = 0; j < w; ++j) {
      const float dx = static_cast<float>(j - xc);
      // Every step one float operation, rounded on its own, in the seed's order:
      // two products, their difference (sum), then the centre; this file is built
      // with -ffp-contract=off so that no step is fused with the next.
      const float xf = dx * r.cosTheta - dy * r.sinTheta + static_cast<float>(outXc);
      const float yf = dx * r.sinTheta + dy * r.cosTheta + static_cast<float>(outYc);
      const int xpos = static_cast<int>(xf), ypos = static_cast<int>(yf);  // toward zero, as in C
      if (xpos >= 0 && ypos >= 0 && xpos < outW && ypos < outH) std::copy_n(in.pixel(j, i), c, out.pixel(xpos, ypos));
    }
  }
  return out;
}

HostImage rotateNearestReference(const HostImage& in, const RotateParams& params) {
  requireUsable(in);
  const ImageLayout outLayout = rotatedLayout(in.layout, params);
  const std::array<uint8_t, 4> bg = rotateBackgroundPixel(params, in.layout.channels);
  HostImage out = filledCanvas(outLayout, bg);
  const RotationFixedPoint r = rotationFixedPoint(params.degrees);
  const int c = in.layout.channels;
  for (int y = 0; y < outLayout.height; ++y)
    for (int x = 0; x < outLayout.width; ++x) {
      const SourcePoint q = sourcePoint(x, y, in.layout, outLayout, r);
      const int64_t sx = floorShift(q.x, 17), sy = floorShift(q.y, 17);
      if (sx >= 0 && sy >= 0 && sx < in.layout.width && sy < in.layout.height)
        std::copy_n(in.pixel(static_cast<int>(sx), static_cast<int>(sy)), c, out.pixel(x, y));
    }
  return out;
}

HostImage rotateBilinearReference(const HostImage& in, const RotateParams& params) {
  requireUsable(in);
  const ImageLayout outLayout = rotatedLayout(in.layout, params);
  const std::array<uint8_t, 4> bg = rotateBackgroundPixel(params, in.layout.channels);
  HostImage out(outLayout);
  const RotationFixedPoint r = rotationFixedPoint(params.degrees);
  const int c = in.layout.channels, w = in.layout.width, h = in.layout.height;
  auto tap = [&](int64_t x, int64_t y, int k) -> uint32_t {
    return (x >= 0 && y >= 0 && x < w && y < h) ? in.pixel(static_cast<int>(x), static_cast<int>(y))[k] : bg[k];
  };
  for (int y = 0; y < outLayout.height; ++y)
    for (int x = 0; x < outLayout.width; ++x) {
      const SourcePoint q = sourcePoint(x, y, in.layout, outLayout, r);
      const int64_t ux = q.x - 65536, uy = q.y - 65536;  // relative to pixel centres
      const int64_t x0 = floorShift(ux, 17), y0 = floorShift(uy, 17);
      const uint32_t fx = static_cast<uint32_t>((ux & 0x1FFFF) >> 5), fy = static_cast<uint32_t>((uy & 0x1FFFF) >> 5);
      for (int k = 0; k < c; ++k) {
        const uint32_t top = tap(x0, y0, k) * (4096 - fx) + tap(x0 + 1, y0, k) * fx;
        const uint32_t bottom = tap(x0, y0 + 1, k) * (4096 - fx) + tap(x0 + 1, y0 + 1, k) * fx;
        out.pixel(x, y)[k] = static_cast<uint8_t>((top * (4096 - fy) + bottom * fy + (1u << 23)) >> 24);
      }
    }
  return out;
}

HostImage rotateReference(const HostImage& in, const RotateParams& params, RotateSampling sampling) {
  switch (sampling) {
    case RotateSampling::Forward: return rotateForwardReference(in, params);
    case RotateSampling::Nearest: return rotateNearestReference(in, params);
    case RotateSampling::Bilinear: return rotateBilinearReference(in, params);
  }
  return {};
}

HostImage transposeReference(const HostImage& in) {
  requireUsable(in);
  HostImage out(transposedLayout(in.layout));
  const int c = in.layout.channels;
  for (int y = 0; y < in.layout.height; ++y)
    for (int x = 0; x < in.layout.width; ++x) std::copy_n(in.pixel(x, y), c, out.pixel(y, x));
  return out;
}

ImageHistogram histogramReference(const HostImage& in) {
  requireUsable(in);
  ImageHistogram hist;
  hist.imageChannels = in.layout.channels;
  hist.bins.assign(histogramBinCount(in.layout), 0);
  const size_t pixels = in.layout.pixels();
  if (in.layout.channels == 1) {
    for (size_t p = 0; p < pixels; ++p) ++hist.bins[in.data[p]];
  } else {
    for (size_t p = 0; p < pixels; ++p) {
      const uint8_t* px = in.data.data() + p * 4;
      for (int k = 0; k < 4; ++k) ++hist.bins[k * kHistogramBins + px[k]];
      ++hist.bins[4 * kHistogramBins + imageLuminance(px[0], px[1], px[2])];
    }
  }
  return hist;
}

ImageStatistics statisticsReference(const HostImage& in) {
  requireUsable(in);
  ImageStatistics stats;
  stats.imageChannels = in.layout.channels;
  const int channels = histogramChannelCount(in.layout.channels);
  const size_t pixels = in.layout.pixels();
  std::vector<uint8_t> values(pixels);
  for (int ch = 0; ch < channels; ++ch) {
    for (size_t p = 0; p < pixels; ++p) {
      const uint8_t* px = in.data.data() + p * in.layout.channels;
      values[p] = in.layout.channels == 1 ? px[0] : ch < 4 ? px[ch] : imageLuminance(px[0], px[1], px[2]);
    }
    ChannelStatistics s;
    s.count = pixels;
    for (uint8_t v : values) {
      s.sum += v;
      s.sumSquares += static_cast<uint64_t>(v) * v;
    }
    s.mean = static_cast<double>(s.sum) / static_cast<double>(pixels);
    double squares = 0.0;
    for (uint8_t v : values) squares += (v - s.mean) * (v - s.mean);
    s.stddev = std::sqrt(squares / static_cast<double>(pixels));
    std::sort(values.begin(), values.end());
    s.min = values.front();
    s.max = values.back();
    auto percentile = [&](double p) {
      const uint64_t rank =
          std::max<uint64_t>(1, static_cast<uint64_t>(std::ceil(p * static_cast<double>(pixels) / 100.0)));
      return static_cast<int>(values[rank - 1]);
    };
    for (size_t i = 0; i < kImagePercentiles.size(); ++i) s.percentiles[i] = percentile(kImagePercentiles[i]);
    s.median = percentile(50.0);
    stats.channels.push_back(s);
  }
  return stats;
}

std::vector<uint8_t> rgbaLevelChainReference(const std::vector<uint8_t>& level0, int width, int height) {
  std::vector<uint8_t> chain(level0);
  size_t from = 0;
  int w = width, h = height;
  while (w > 1 || h > 1) {
    const int tw = std::max(w / 2, 1), th = std::max(h / 2, 1);
    const size_t to = from + static_cast<size_t>(w) * static_cast<size_t>(h) * 4;
    chain.resize(to + static_cast<size_t>(tw) * static_cast<size_t>(th) * 4);
    for (int y = 0; y < th; ++y)
      for (int x = 0; x < tw; ++x) {
        const int x0 = std::min(2 * x, w - 1), x1 = std::min(2 * x + 1, w - 1);
        const int y0 = std::min(2 * y, h - 1), y1 = std::min(2 * y + 1, h - 1);
        for (int c = 0; c < 4; ++c) {
          auto at = [&](int xx, int yy) { return unsigned{chain[from + (static_cast<size_t>(yy) * w + xx) * 4 + c]}; };
          const unsigned sum = at(x0, y0) + at(x1, y0) + at(x0, y1) + at(x1, y1);
          chain[to + (static_cast<size_t>(y) * tw + x) * 4 + c] = static_cast<uint8_t>((sum + 2) / 4);
        }
      }
    from = to;
    w = tw;
    h = th;
  }
  return chain;
}

}  // namespace ks
