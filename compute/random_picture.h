#pragma once
// The picture the image benches and sweeps time their kernels on: random bytes,
// the same on every run (seed 1234), so that a histogram's counts and a
// transpose's caches see the same data each time. One helper for the command
// line's benches and the Sweep panel (review D5 of issue 21).
#include <cstddef>
#include <cstdint>
#include <vector>

namespace ks {

std::vector<uint8_t> randomPictureBytes(size_t count);

}  // namespace ks
