#include "compute/random_picture.h"

#include <algorithm>
#include <cstring>
#include <random>

namespace ks {

std::vector<uint8_t> randomPictureBytes(size_t count) {
  std::vector<uint8_t> bytes(count);
  std::mt19937_64 rng(1234);
  // Eight bytes a draw: an 8192x8192 RGBA picture (256 MiB) took seconds a byte at a time.
  for (size_t i = 0; i < count; i += 8) {
    const uint64_t bits = rng();
    std::memcpy(bytes.data() + i, &bits, std::min<size_t>(8, count - i));
  }
  return bytes;
}

}  // namespace ks
