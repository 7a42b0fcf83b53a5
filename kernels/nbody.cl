// Gravitational N-body, O(N^2), one step per launch. Variants (the same file,
// chosen by kernel name and build options; see compute/nbody_variants.cpp):
//   nbody_naive  every work-item reads every body from global memory
//   nbody_tiled  a tile of TILE bodies is staged in local memory per work-group;
//                UNROLL unrolls the loop over the tile; BODIES_PER_ITEM (register
//                blocking) lets each work-item integrate several bodies, so each
//                local-memory read feeds that many interactions.
//                SPLIT shares each body between several work-items (small N).
// Build options: -DTILE=<work-group size> -DUNROLL=<1..32> -DBODIES_PER_ITEM=<1,2,4>
//                -DSPLIT=<1,2,4> -DUSE_FP64 -DUSE_NATIVE_RSQRT (plus -cl-fast-relaxed-math etc.)
// Bodies are padded to a multiple of TILE * BODIES_PER_ITEM with zero-mass
// bodies, so no work-item ever reads out of bounds and no bounds test is needed
// in the inner loop. Softening eps2 > 0 makes the self-interaction 0, not NaN.
// firstBody: the first body this launch integrates (0 on one device). With the
// bodies split over several devices (compute/nbody_multi_device.h) each launch
// covers a slice starting there, a multiple of the bodies per work-group, and
// still reads all `count` positions; it is added once per work-item, outside
// the loops, so one device runs exactly as fast as without it.

#ifdef USE_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
typedef double real;
typedef double3 real3;
typedef double4 real4;
#else
typedef float real;
typedef float3 real3;
typedef float4 real4;
#endif

#ifndef TILE
#define TILE 256
#endif
#ifndef UNROLL
#define UNROLL 1
#endif
#ifndef BODIES_PER_ITEM
#define BODIES_PER_ITEM 1
#endif
#ifndef SPLIT
#define SPLIT 1
#endif

#if defined(USE_NATIVE_RSQRT) && !defined(USE_FP64)
// On NVIDIA (driver 580) native_rsqrt becomes rsqrt.approx.f32 even with
// -cl-denorms-are-zero, and its denormal handling costs throughput (see
// docs/BENCHMARKS.md); rsqrt() with -cl-denorms-are-zero becomes rsqrt.approx.ftz.f32.
#define RSQRT(x) native_rsqrt(x)
#else
#define RSQRT(x) rsqrt(x)
#endif

// Acceleration on the body at p from body q (xyz, mass in w), without G:
// m_q * d / (|d|^2 + eps2)^(3/2). Counted as 20 flops (30 in fp64), the
// convention of NVIDIA's CUDA nbody sample.
inline real3 interact(real3 acc, const real4 p, const real4 q, const real eps2) {
  const real3 d = q.xyz - p.xyz;
  const real r2 = fma(d.x, d.x, fma(d.y, d.y, fma(d.z, d.z, eps2)));
  const real inv = RSQRT(r2);
  const real s = q.w * (inv * inv * inv);
  return fma((real3)(s), d, acc);
}

// Kick-drift leapfrog with damping: the stored velocity is half a step behind the
// position, v_{n+1/2} = (v_{n-1/2} + a dt) d, p_{n+1} = p_n + v_{n+1/2} dt. Second
// order and symplectic, so the energy error stays bounded (issue 23); the same
// loads and stores as the seed's first-order step. Also writes the display copy
// (float xyz, w = speed) into the GL vertex buffer.
inline void integrate(const int i, const real4 p, real3 acc, __global real4* vel, __global real4* posOut,
                      __global float4* display, const real dt, const real gravity, const real damping) {
  acc *= gravity;
  const real4 v = vel[i];
  const real3 nv = (v.xyz + acc * dt) * damping;
  const real3 np = p.xyz + nv * dt;
  posOut[i] = (real4)(np, p.w);
  vel[i] = (real4)(nv, (real)0);
  display[i] = (float4)(convert_float3(np), (float)length(nv));
}

__kernel void nbody_naive(__global const real4* posIn, __global real4* posOut, __global real4* vel,
                          __global float4* display, const int count, const real dt, const real eps2,
                          const real gravity, const real damping, const int firstBody) {
  const int i = firstBody + get_global_id(0);
  if (i >= count) return;
  const real4 p = posIn[i];
  real3 acc = (real3)(0);
  for (int j = 0; j < count; ++j) acc = interact(acc, p, posIn[j], eps2);
  integrate(i, p, acc, vel, posOut, display, dt, gravity, damping);
}

// One interaction of the tile's body j+u with each of this work-item's bodies.
#define STEP(u)                                                                  \
  {                                                                              \
    const real4 q = tile[j + (u)];                                               \
    for (int k = 0; k < BODIES_PER_ITEM; ++k) acc[k] = interact(acc[k], p[k], q, eps2); \
  }
#define UNROLL_2(b) STEP(b) STEP((b) + 1)
#define UNROLL_4(b) UNROLL_2(b) UNROLL_2((b) + 2)
#define UNROLL_8(b) UNROLL_4(b) UNROLL_4((b) + 4)
#define UNROLL_16(b) UNROLL_8(b) UNROLL_8((b) + 8)
#define UNROLL_32(b) UNROLL_16(b) UNROLL_16((b) + 16)
#if UNROLL == 1
#define UNROLLED_STEPS STEP(0)
#elif UNROLL == 2
#define UNROLLED_STEPS UNROLL_2(0)
#elif UNROLL == 4
#define UNROLLED_STEPS UNROLL_4(0)
#elif UNROLL == 8
#define UNROLLED_STEPS UNROLL_8(0)
#elif UNROLL == 16
#define UNROLLED_STEPS UNROLL_16(0)
#elif UNROLL == 32
#define UNROLLED_STEPS UNROLL_32(0)
#else
#error "UNROLL must be 1, 2, 4, 8, 16 or 32"
#endif
#if TILE % UNROLL != 0
#error "UNROLL must divide TILE"
#endif

// SPLIT work-items share each body: each covers 1/SPLIT of every tile, and the
// partial accelerations are summed through local memory at the end. More
// work-items for the same N: what keeps a big GPU busy when N is small.
#define SLICE (TILE / SPLIT)
#if TILE % SPLIT != 0 || SLICE % UNROLL != 0
#error "SPLIT must divide TILE, and UNROLL must divide TILE / SPLIT"
#endif

__kernel __attribute__((reqd_work_group_size(TILE, 1, 1))) void nbody_tiled(
    __global const real4* posIn, __global real4* posOut, __global real4* vel, __global float4* display,
    const int count, const real dt, const real eps2, const real gravity, const real damping,
    const int firstBody) {
  __local real4 tile[TILE];
  const int lid = get_local_id(0);
  const int slice = lid / SLICE;  // which part of each tile this work-item covers
  const int sub = lid % SLICE;
  // Bodies of this work-item: sub, sub + SLICE, ... within the group's block, so
  // neighbouring work-items touch neighbouring bodies (coalesced).
  const int first = firstBody + get_group_id(0) * (SLICE * BODIES_PER_ITEM) + sub;
  real4 p[BODIES_PER_ITEM];
  real3 acc[BODIES_PER_ITEM];
  for (int k = 0; k < BODIES_PER_ITEM; ++k) {
    p[k] = posIn[first + k * SLICE];
    acc[k] = (real3)(0);
  }
  // The next tile is fetched into a register while this one is computed, so the
  // global-memory latency hides behind the arithmetic.
  real4 next = posIn[lid];
  for (int t = 0; t < count; t += TILE) {
    tile[lid] = next;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (t + TILE < count) next = posIn[t + TILE + lid];
    // UNROLL is the unrolling: without this, compilers that know TILE unroll the
    // whole tile, and the register pressure of that limits occupancy.
#ifndef LET_COMPILER_UNROLL
#pragma unroll 1
#endif
    for (int j = slice * SLICE; j < (slice + 1) * SLICE; j += UNROLL) {
      UNROLLED_STEPS
    }
    barrier(CLK_LOCAL_MEM_FENCE);  // the tile is consumed before the next load
  }
#if SPLIT > 1
  for (int k = 0; k < BODIES_PER_ITEM; ++k) {
    tile[lid] = (real4)(acc[k], (real)0);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (slice == 0)
      for (int s = 1; s < SPLIT; ++s) acc[k] += tile[sub + s * SLICE].xyz;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (slice != 0) return;
#endif
  for (int k = 0; k < BODIES_PER_ITEM; ++k)
    integrate(first + k * SLICE, p[k], acc[k], vel, posOut, display, dt, gravity, damping);
}
