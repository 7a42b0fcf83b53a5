#pragma once
// CPU references for the image lab's kernels (compute/image_layout.h). They use the
// same arithmetic as kernels/rotate.cl, transpose.cl and histogram.cl (integers;
// for the forward rotation the seed's float operations), so
// the buffer kernels must match them bit for bit (the image-sampler bilinear
// variant within a level or two: the sampler's own filtering).
#include <cstdint>
#include <vector>

#include "compute/image_histogram.h"
#include "compute/image_layout.h"
#include "compute/image_rotate.h"

namespace ks {

// Pixels in host memory, in the device layout (row-major, no padding).
struct HostImage {
  ImageLayout layout;
  std::vector<uint8_t> data;  // layout.bytes()

  HostImage() = default;
  explicit HostImage(const ImageLayout& l, uint8_t fill = 0) : layout(l), data(l.bytes(), fill) {}
  const uint8_t* pixel(int x, int y) const { return data.data() + index(x, y); }
  uint8_t* pixel(int x, int y) { return data.data() + index(x, y); }
  size_t index(int x, int y) const {
    return (static_cast<size_t>(y) * static_cast<size_t>(layout.width) + static_cast<size_t>(x)) *
           static_cast<size_t>(layout.channels);
  }
  bool operator==(const HostImage&) const = default;
};

// Pseudo-random pixels (a fixed generator: the same seed gives the same image everywhere).
HostImage randomHostImage(const ImageLayout& layout, uint32_t seed);

// ---- rotation (outputs have rotatedLayout(in.layout, params)) --------------------------------
// The seed's cpu_rotate, generalised to RGBA and to the expanded canvas: every
// source pixel (j, i) is written to
//   xpos = (int)((j - W/2) cos - (i - H/2) sin + W'/2),  ypos = (int)((j - W/2) sin + (i - H/2) cos + H'/2)
// evaluated as the seed does, in float: cos and sin from rotationFloat, each
// product, the difference or sum and the added centre rounded to float in that
// order (no fused multiply-add), truncation toward zero; integer halves. In
// row-major order, so where several land on one spot the last one stays; spots
// nobody lands on (holes) keep the background. The forward kernel equals it bit
// for bit.
HostImage rotateForwardReference(const HostImage& in, const RotateParams& params);
// Inverse mapping: the source point of an output pixel's centre, nearest pixel.
HostImage rotateNearestReference(const HostImage& in, const RotateParams& params);
// Inverse mapping, bilinear between the 4 source pixel centres around the point,
// 12-bit weights, taps outside the image read the background.
HostImage rotateBilinearReference(const HostImage& in, const RotateParams& params);
HostImage rotateReference(const HostImage& in, const RotateParams& params, RotateSampling sampling);

// ---- transpose ---------------------------------------------------------------------------------
HostImage transposeReference(const HostImage& in);

// ---- histogram and statistics ---------------------------------------------------------------------
// 256 bins per channel: gray, or R, G, B, A and luminance (imageLuminance).
ImageHistogram histogramReference(const HostImage& in);
// From the pixels themselves (not from the bins): integer moments, mean and
// standard deviation in two passes, median and percentiles by nearest rank on
// the sorted values.
ImageStatistics statisticsReference(const HostImage& in);

// kernels/display.cl shrink_rgba, launched by PictureLevels: an RGBA8 picture's level chain
// as SharedImage lays it out (level 0, then each level half the one above, rounded
// down, down to 1x1), each texel the rounded mean of the 2x2 it covers (an odd last
// row or column left out, a side of 1 read twice). `level0` holds width x height
// RGBA texels; the result holds every level, level 0 first.
std::vector<uint8_t> rgbaLevelChainReference(const std::vector<uint8_t>& level0, int width, int height);

}  // namespace ks
