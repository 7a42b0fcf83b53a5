// Known data for interop checks and benchmarks: every 32-bit word is a hash of
// its index and a seed, so a misplaced, stale or partial copy shows up.
uint interop_pattern(uint index, uint seed) {
  uint x = index * 0x9E3779B9u ^ seed;
  x ^= x >> 16;
  x *= 0x7FEB352Du;
  x ^= x >> 15;
  x *= 0x846CA68Bu;
  x ^= x >> 16;
  return x;
}

__kernel void fill_pattern(__global uint* words, const uint count, const uint seed) {
  const uint i = get_global_id(0);
  if (i < count) words[i] = interop_pattern(i, seed);
}
