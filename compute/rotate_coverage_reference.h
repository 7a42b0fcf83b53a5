#pragma once
// The CPU reference's side of compute/rotate_coverage.h, apart because it works on
// compute/image_reference.h's HostImage (io/image_file.h has another of that name).
#include <cstdint>
#include <vector>

#include "compute/image_histogram.h"
#include "compute/image_reference.h"
#include "compute/rotate_coverage.h"

namespace ks {

// histogramReference of the pixels whose `covered` byte (rotateCoverageReference) is 1 only.
ImageHistogram coveredHistogramReference(const HostImage& image, const std::vector<uint8_t>& covered);

}  // namespace ks
