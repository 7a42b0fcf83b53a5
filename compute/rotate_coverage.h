#pragma once
// Which pixels of a rotation's output come from the picture, and which are fill
// (the background colour where the rotated picture does not reach). The histogram
// of a rotated picture leaves the fill out: counted, it is a tall spike at the
// background value that says nothing about the picture (issue 22).
//
// A pixel is fill exactly where the rotate kernels write nothing but the background:
//   forward   no source pixel lands on it (the corners and the holes the seed's
//             forward mapping leaves);
//   nearest   the source pixel of its centre lies outside the picture;
//   bilinear  all four taps around the source point of its centre lie outside
//             (every other pixel blends at least a little of the picture).
// Every such pixel holds exactly the background value (the bilinear weights sum to
// 2^24, the image kernel tests the taps in the same integers), so removing
// fill x background from the bins leaves exactly the picture's pixels.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "compute/image_histogram.h"
#include "compute/image_layout.h"
#include "compute/image_rotate.h"

namespace ks {

// The number of fill pixels of rotating an `in`-sized picture. Nearest and bilinear
// find each output row's covered span by bisection (the tests are monotone along a
// row: the mapping is affine), so this is cheap for any size; forward repeats the
// scatter (a pass over the source pixels).
uint64_t rotateFillPixelCount(const ImageLayout& in, const RotateParams& params, RotateSampling sampling);

// The CPU reference: one byte per output pixel, 1 where it comes from the picture,
// each pixel tested on its own as compute/image_reference.cpp samples it.
std::vector<uint8_t> rotateCoverageReference(const ImageLayout& in, const RotateParams& params,
                                             RotateSampling sampling);
// (coveredHistogramReference: compute/rotate_coverage_reference.h, for tests.)

// Takes `fillPixels` pixels of value `background` (rotateBackgroundPixel) out of the
// bins of every counted channel and works the statistics out again from the bins
// (the same integers and nearest ranks as the device's statistics kernel). Throws
// std::runtime_error where a counted channel has fewer pixels of that value.
void leaveOutFillPixels(ImageHistogramResult& result, uint64_t fillPixels, const std::array<uint8_t, 4>& background);

// The bin of each histogram channel that the background (rotateBackgroundPixel)
// falls in: gray [0]; RGBA R, G, B, A, luminance.
std::array<uint8_t, 5> backgroundBins(const std::array<uint8_t, 4>& background);

// "12 345 pixels outside the rotated picture are not counted"; empty for none.
std::string describeLeftOutPixels(uint64_t fillPixels);

}  // namespace ks
