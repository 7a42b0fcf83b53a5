// Micro-benchmarks that measure what a device can do (compute/ceiling_benchmarks.h):
// the rates the profiler compares kernels against. Each kernel writes one result
// per work-item (or per work-group) that the host can check against a CPU
// computation, so a compiler cannot drop the work and a broken kernel is caught.
// The global copy uses kernels/copy.cl, the image lab's bandwidth reference.
//
// Built with -DHAVE_FP64 where the device has cl_khr_fp64.

// ---- multiply-add rate -----------------------------------------------------------
// Eight independent chains per work-item, of float8 (64 lanes) or double4 (32
// lanes, the same 256 bits): enough independent work to hide the multiply-add
// latency on GPUs and to fill a CPU's vector units.
// `one` is 1 at run time, which the compiler cannot know: every lane gains `step`
// per iteration, exactly (step = 2^-10, values < 2^13), so the host knows the sum.
// Lane k of chain j starts at j * W + k (W lanes per chain).
#define MAD_CHAINS(T, W, FIRST)                                                     \
  T a0 = FIRST, a1 = a0 + (T)(W), a2 = a0 + (T)(2 * W), a3 = a0 + (T)(3 * W);       \
  T a4 = a0 + (T)(4 * W), a5 = a0 + (T)(5 * W), a6 = a0 + (T)(6 * W), a7 = a0 + (T)(7 * W); \
  for (int i = 0; i < iterations; ++i) {                                          \
    a0 = mad(a0, one, step);                                                      \
    a1 = mad(a1, one, step);                                                      \
    a2 = mad(a2, one, step);                                                      \
    a3 = mad(a3, one, step);                                                      \
    a4 = mad(a4, one, step);                                                      \
    a5 = mad(a5, one, step);                                                      \
    a6 = mad(a6, one, step);                                                      \
    a7 = mad(a7, one, step);                                                      \
  }                                                                               \
  const T s = ((a0 + a1) + (a2 + a3)) + ((a4 + a5) + (a6 + a7));

__kernel void mad_rate_f32(__global float* out, const int iterations, const float one, const float step) {
  MAD_CHAINS(float8, 8, (float8)(0.0f, 1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f, 7.0f))
  const float4 h = s.lo + s.hi;
  out[get_global_id(0)] = (h.x + h.y) + (h.z + h.w);
}

#ifdef HAVE_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void mad_rate_f64(__global double* out, const int iterations, const double one, const double step) {
  MAD_CHAINS(double4, 4, (double4)(0.0, 1.0, 2.0, 3.0))
  out[get_global_id(0)] = (s.x + s.y) + (s.z + s.w);
}
#endif

// ---- inverse square root rate ------------------------------------------------------
// Sixteen independent chains x <- rsqrt(x): each op waits for its own chain's
// previous one, the chains overlap. x converges to 1 and stays finite.
#define RSQRT_CHAINS(F)                                                        \
  float4 x0 = (float4)(seed) + (float4)(0.0f, 0.25f, 0.5f, 0.75f);             \
  float4 x1 = x0 + 1.0f, x2 = x0 + 2.0f, x3 = x0 + 3.0f;                       \
  for (int i = 0; i < iterations; ++i) {                                       \
    x0 = F(x0);                                                                \
    x1 = F(x1);                                                                \
    x2 = F(x2);                                                                \
    x3 = F(x3);                                                                \
  }                                                                            \
  const float4 s = (x0 + x1) + (x2 + x3);                                      \
  out[get_global_id(0)] = (s.x + s.y) + (s.z + s.w);

__kernel void rsqrt_rate(__global float* out, const int iterations, const float seed) { RSQRT_CHAINS(rsqrt) }

__kernel void native_rsqrt_rate(__global float* out, const int iterations, const float seed) {
  RSQRT_CHAINS(native_rsqrt)
}

// ---- global memory read ----------------------------------------------------------------
// A reduction's first pass: each work-item sums `perItem` float4s and writes its
// one sum (a few bytes per kilobyte read). Work-item i reads i * itemStep +
// k * loopStep: on GPUs (1, items) neighbours read neighbouring float4s, on CPUs
// (perItem, 1) each work-item streams through its own block.
__kernel void read_sum(__global const float4* restrict in, __global float* restrict out, const uint perItem,
                       const uint itemStep, const uint loopStep) {
  const uint first = (uint)get_global_id(0) * itemStep;
  float4 even = (float4)(0.0f), odd = (float4)(0.0f);  // two sums: half the add latency
  for (uint k = 0; k < perItem; k += 2) {
    even += in[first + k * loopStep];
    odd += in[first + (k + 1) * loopStep];
  }
  const float4 sum = even + odd;
  out[get_global_id(0)] = (sum.x + sum.y) + (sum.z + sum.w);
}

// ---- local memory bandwidth ---------------------------------------------------------------
// Each work-group keeps 4 words per work-item in local memory. Per iteration every
// item reads 32 words (neighbouring items, neighbouring words: no bank conflicts)
// and writes one, between barriers, so each read sees the previous iteration's
// writes. Unsigned sums wrap exactly: the host can replay it. WORD is uint (4-byte
// accesses) in local_bandwidth and uint4 (16-byte, as kernels that stage float4s
// read) in local_bandwidth_wide: the host takes the faster, since one width alone
// understated what real kernels reach (issue 23).
#define LOCAL_READS 32
#define LOCAL_BANDWIDTH(WORD, INIT)                                                                        \
  const uint lid = (uint)get_local_id(0), items = (uint)get_local_size(0);                                 \
  const uint mask = 4 * items - 1; /* items is a power of two */                                           \
  for (uint j = 0; j < 4; ++j) words[lid + j * items] = INIT(lid + j * items);                             \
  barrier(CLK_LOCAL_MEM_FENCE);                                                                            \
  WORD sum = (WORD)(0);                                                                                    \
  for (int i = 0; i < iterations; ++i) {                                                                   \
    _Pragma("unroll")                                                                                      \
    for (uint k = 0; k < LOCAL_READS; ++k) sum += words[(lid + ((uint)i * LOCAL_READS + k) * 33u) & mask]; \
    barrier(CLK_LOCAL_MEM_FENCE);                                                                          \
    words[lid + ((uint)i & 3u) * items] = sum;                                                             \
    barrier(CLK_LOCAL_MEM_FENCE);                                                                          \
  }

#define NARROW_WORD(v) (v)
#define WIDE_WORD(v) ((uint4)((v), (v) + 1u, (v) + 2u, (v) + 3u))
__kernel void local_bandwidth(__global uint* out, const int iterations, __local uint* words) {
  LOCAL_BANDWIDTH(uint, NARROW_WORD)
  out[get_global_id(0)] = sum;
}

__kernel void local_bandwidth_wide(__global uint* out, const int iterations, __local uint4* words) {
  LOCAL_BANDWIDTH(uint4, WIDE_WORD)
  // The four lanes differ (lane c of a word starts at the word's number + c): all four must be right.
  out[get_global_id(0)] = sum.x ^ (sum.y * 3u) ^ (sum.z * 5u) ^ (sum.w * 7u);
}

// ---- local atomics ----------------------------------------------------------------------------
// What bounds a histogram: atomic_inc on 256 local bins. `spread` 0: each work-item's
// bins drawn by a linear congruential generator (uniform, so neighbours collide as
// often as chance has it); 1: neighbouring work-items on neighbouring bins, each
// moving on by one bin per increment, so no two items of a 256-item group hit one
// bin at once (what a histogram with a copy of its bins per lane reaches; random
// bins alone understated it, issue 23). Each group writes its bins; the host can
// replay them.
#define ATOMIC_BINS 256
__kernel void local_atomics(__global uint* out, const int iterations, const uint seed, const int spread) {
  __local uint bins[ATOMIC_BINS];
  const uint lid = (uint)get_local_id(0), items = (uint)get_local_size(0);
  for (uint b = lid; b < ATOMIC_BINS; b += items) bins[b] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (spread) {
#pragma unroll 8
    for (int i = 0; i < iterations; ++i) atomic_inc(&bins[(lid + (uint)i) & (ATOMIC_BINS - 1)]);
  } else {
    uint x = seed ^ ((uint)get_global_id(0) * 0x9E3779B9u);
#pragma unroll 8
    for (int i = 0; i < iterations; ++i) {
      x = x * 1664525u + 1013904223u;
      atomic_inc(&bins[x >> 24]);
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint b = lid; b < ATOMIC_BINS; b += items) out[get_group_id(0) * ATOMIC_BINS + b] = bins[b];
}
