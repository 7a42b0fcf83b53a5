// Image rotation about the centre by any angle, gray or RGBA. Variants (kernel
// name + build options; see compute/image_rotate.cpp):
//   rotate_forward_scatter   the seed's forward mapping: every source pixel goes to its
//   + rotate_forward_resolve rotated spot, holes keep the background. Several source
//                            pixels can land on one spot; the seed's kernel lets the
//                            writes race. Here the scatter keeps the LAST source pixel
//                            in row-major order (atomic_max of its index + 1), which is
//                            what the seed's CPU loop leaves, and the resolve pass
//                            copies it: deterministic, equal to the CPU function.
//                            The spot is the seed's float arithmetic, bit for bit
//                            (see the forward section below).
//   rotate_nearest           inverse mapping (each output pixel fetches its source),
//   rotate_bilinear          nearest or bilinear; PIXELS_PER_ITEM consecutive pixels
//                            of a row per work-item (one vector store)
//   rotate_nearest_local     the same sampling, but the work-group first copies the source
//   rotate_bilinear_local    region its output tile maps to (a rotated rectangle's bounding
//                            box, background outside the image) into local memory with
//                            coalesced loads, then samples there without bounds tests
//                            (-DSTAGED -DWG_X -DWG_Y -DBOX_AREA: see compute/image_rotate.cpp)
//   rotate_nearest_image     the same through image2d_t + sampler (-DUSE_IMAGES):
//   rotate_bilinear_image    nearest reads at integer coordinates (bit-exact), bilinear
//                            uses the sampler's filtering (within a level or two)
// Build options: -DCHANNELS=1|4 -DPIXELS_PER_ITEM=1|2|4 [-DUSE_IMAGES [-DROWS_PER_ITEM=1|2|4]] [-DSTAGED ...]
// The image kernels can take a block of PIXELS_PER_ITEM x ROWS_PER_ITEM output pixels
// per work-item: a 2x2 block maps to a compact source footprint, which the texture
// cache serves better than 4 pixels of one row (measured: see docs/BENCHMARKS.md).
//
// Geometry:
//   forward (seed): in float, as the seed's cpu_rotate:
//     xpos = (int)((float)(j - W/2) * cos - (float)(i - H/2) * sin + (float)(W'/2)),
//     ypos likewise with sin, cos and H'/2 (integer halves; cos and sin floats from
//     the host; see the forward section for why this is bit-exact).
//   inverse, all in integers (the host passes cos and sin as Q16 integers, and the
//   CPU reference in compute/image_reference.cpp does the same arithmetic): output pixel centre p = (x + 0.5 - W'/2, y + 0.5 - H'/2), source point
//     q = R(-angle) p + (W/2, H/2), kept in units of 2^-17 pixel (2p is an integer).
//     nearest takes the pixel containing q; bilinear the 4 pixel centres around q
//     with 12-bit weights. Source pixels outside the image read as the background.

#ifndef CHANNELS
#define CHANNELS 1
#endif
#ifndef PIXELS_PER_ITEM
#define PIXELS_PER_ITEM 1
#endif
#if PIXELS_PER_ITEM != 1 && PIXELS_PER_ITEM != 2 && PIXELS_PER_ITEM != 4
#error "PIXELS_PER_ITEM must be 1, 2 or 4"
#endif
#ifndef ROWS_PER_ITEM
#define ROWS_PER_ITEM 1
#endif
#if ROWS_PER_ITEM != 1 && ROWS_PER_ITEM != 2 && ROWS_PER_ITEM != 4
#error "ROWS_PER_ITEM must be 1, 2 or 4"
#endif
#if ROWS_PER_ITEM != 1 && !defined(USE_IMAGES)
#error "ROWS_PER_ITEM is offered by the image kernels only"
#endif

#if CHANNELS == 1
typedef uchar pixel_t;
typedef uint acc_t;
#define TO_ACC(p) ((uint)(p))
#define FROM_ACC(a) ((uchar)(a))
#define PIXELS4(a, b, c, d) ((uchar4)((a), (b), (c), (d)))
typedef uchar4 pixels4_t;
#define PIXELS2(a, b) ((uchar2)((a), (b)))
typedef uchar2 pixels2_t;
#elif CHANNELS == 4
typedef uchar4 pixel_t;
typedef uint4 acc_t;
#define TO_ACC(p) convert_uint4(p)
#define FROM_ACC(a) convert_uchar4(a)
#define PIXELS4(a, b, c, d) ((uchar16)((a), (b), (c), (d)))
typedef uchar16 pixels4_t;
#define PIXELS2(a, b) ((uchar8)((a), (b)))
typedef uchar8 pixels2_t;
#else
#error "CHANNELS must be 1 or 4"
#endif

// floor(v / 2^k) without relying on >> of negative values.
inline long floor_shift(const long v, const int k) { return v >= 0 ? v >> k : ~((~v) >> k); }

// ---- forward mapping (the seed) --------------------------------------------------------
// owner[] (output size, zeroed by the host) receives the largest source index + 1
// that maps to each output pixel.
//
// The spot is the seed's cpu_rotate expression evaluated the same way in float:
// (j - xc) * cos, (i - yc) * sin, their difference, then + xc', each one IEEE
// operation rounded to float in this order, then truncation toward zero ((int) of
// a float, as in C). OpenCL C rounds +, - and * correctly, like the host, and
// cos/sin arrive as the host computed them, so the spot is bit-identical to the
// CPU function's. What could still differ is contraction: OpenCL C's default
// (FP_CONTRACT ON) lets the compiler fuse a * b - c into one fma with a single
// rounding (PoCL does on CPUs with FMA, GPUs do as a rule), which moves spots
// that lie within a rounding of an integer. Contraction is off for this kernel
// only; the other kernels keep the default.
#pragma OPENCL FP_CONTRACT OFF
__kernel void rotate_forward_scatter(__global uint* restrict owner, const int inW, const int inH, const int outW,
                                     const int outH, const float cosTheta, const float sinTheta) {
  const int j = get_global_id(0), i = get_global_id(1);
  if (j >= inW || i >= inH) return;
  const float dx = (float)(j - inW / 2), dy = (float)(i - inH / 2);
  const int xpos = (int)(dx * cosTheta - dy * sinTheta + (float)(outW / 2));
  const int ypos = (int)(dx * sinTheta + dy * cosTheta + (float)(outH / 2));
  if (xpos >= 0 && ypos >= 0 && xpos < outW && ypos < outH)
    atomic_max(&owner[ypos * outW + xpos], (uint)(i * inW + j + 1));
}
#pragma OPENCL FP_CONTRACT DEFAULT

__kernel void rotate_forward_resolve(__global const pixel_t* restrict in, __global pixel_t* restrict out,
                                     __global const uint* restrict owner, const int outW, const int outH,
                                     const pixel_t background) {
  const int x = get_global_id(0), y = get_global_id(1);
  if (x >= outW || y >= outH) return;
  const int o = y * outW + x;
  const uint src = owner[o];
  out[o] = src ? in[src - 1] : background;
}

// ---- inverse mapping -------------------------------------------------------------------
// Source point of output pixel (x, y) in 2^-17 pixel units.
inline long2 source_point(const int x, const int y, const int inW, const int inH, const int outW, const int outH,
                          const int cosQ, const int sinQ) {
  const long px = 2 * x + 1 - outW, py = 2 * y + 1 - outH;  // 2 (pixel centre - output centre)
  return (long2)(cosQ * px + sinQ * py + ((long)inW << 16), -sinQ * px + cosQ * py + ((long)inH << 16));
}

inline pixel_t fetch(__global const pixel_t* restrict in, const int x, const int y, const int inW, const int inH,
                     const pixel_t background) {
  return (x >= 0 && y >= 0 && x < inW && y < inH) ? in[y * inW + x] : background;
}

// The per-pixel samplers take the source point with a bias of BIAS pixels added
// (a multiple of 2^17 units far beyond any image), so the coordinates are always
// positive: floor is a plain shift, the fraction a mask, no branches.
#define BIAS_PIXELS (1L << 24)
#define BIAS (BIAS_PIXELS << 17)

inline pixel_t sample_nearest(__global const pixel_t* restrict in, const long2 q, const int inW, const int inH,
                              const pixel_t background) {
  const int x = (int)((q.x >> 17) - BIAS_PIXELS), y = (int)((q.y >> 17) - BIAS_PIXELS);
  return ((uint)x < (uint)inW && (uint)y < (uint)inH) ? in[y * inW + x] : background;
}

// q already holds the half-pixel shift (relative to pixel centres).
inline pixel_t sample_bilinear(__global const pixel_t* restrict in, const long2 q, const int inW, const int inH,
                               const pixel_t background) {
  const int x0 = (int)((q.x >> 17) - BIAS_PIXELS), y0 = (int)((q.y >> 17) - BIAS_PIXELS);
  const uint fx = ((uint)q.x >> 5) & 4095, fy = ((uint)q.y >> 5) & 4095;  // 12-bit fractions
  acc_t p00, p10, p01, p11;
  if ((uint)x0 < (uint)(inW - 1) && (uint)y0 < (uint)(inH - 1)) {
    // The 2x2 footprint lies inside the image (nearly every pixel): no tests.
    __global const pixel_t* p = in + y0 * inW + x0;
    p00 = TO_ACC(p[0]);
    p10 = TO_ACC(p[1]);
    p01 = TO_ACC(p[inW]);
    p11 = TO_ACC(p[inW + 1]);
  } else {
    p00 = TO_ACC(fetch(in, x0, y0, inW, inH, background));
    p10 = TO_ACC(fetch(in, x0 + 1, y0, inW, inH, background));
    p01 = TO_ACC(fetch(in, x0, y0 + 1, inW, inH, background));
    p11 = TO_ACC(fetch(in, x0 + 1, y0 + 1, inW, inH, background));
  }
  const acc_t top = p00 * (4096 - fx) + p10 * fx;
  const acc_t bottom = p01 * (4096 - fx) + p11 * fx;
  // At most 255 * 4096 * 4096 + 2^23 < 2^32: no overflow in 32 bits.
  return FROM_ACC((top * (4096 - fy) + bottom * fy + (1u << 23)) >> 24);
}

// PIXELS_PER_ITEM consecutive pixels of a row, stored as one vector where rows
// start on PIXELS_PER_ITEM-pixel boundaries (x is a multiple of it), else one by one.
#if PIXELS_PER_ITEM == 1
#define STORE_PIXELS(v) out[y * outW + x] = v[0];
#else
#if PIXELS_PER_ITEM == 2
#define STORE_VECTOR(o, v) ((__global pixels2_t*)out)[(o) >> 1] = PIXELS2(v[0], v[1])
#else
#define STORE_VECTOR(o, v) ((__global pixels4_t*)out)[(o) >> 2] = PIXELS4(v[0], v[1], v[2], v[3])
#endif
#define STORE_PIXELS(v)                                                                    \
  {                                                                                        \
    const int o = y * outW + x;                                                            \
    if ((outW & (PIXELS_PER_ITEM - 1)) == 0) {                                             \
      STORE_VECTOR(o, v);                                                                  \
    } else {                                                                               \
      for (int k = 0; k < PIXELS_PER_ITEM && x + k < outW; ++k) out[o + k] = v[k];         \
    }                                                                                      \
  }
#endif

#define INVERSE_KERNEL(name, sample, shift)                                                                  \
  __kernel void name(__global const pixel_t* restrict in, __global pixel_t* restrict out, const int inW,      \
                     const int inH, const int outW, const int outH, const int cosQ, const int sinQ,           \
                     const pixel_t background) {                                                             \
    const int x = get_global_id(0) * PIXELS_PER_ITEM, y = get_global_id(1);                                  \
    if (x >= outW || y >= outH) return;                                                                      \
    long2 q = source_point(x, y, inW, inH, outW, outH, cosQ, sinQ) + (long2)(BIAS - (shift));                 \
    /* one pixel to the right: p.x + 2 */                                                                    \
    const long2 step = (long2)(2 * (long)cosQ, -2 * (long)sinQ);                                             \
    pixel_t v[PIXELS_PER_ITEM];                                                                              \
    for (int k = 0; k < PIXELS_PER_ITEM; ++k, q += step) v[k] = sample(in, q, inW, inH, background);         \
    STORE_PIXELS(v)                                                                                          \
  }

INVERSE_KERNEL(rotate_nearest, sample_nearest, 0)
INVERSE_KERNEL(rotate_bilinear, sample_bilinear, 65536)

// ---- inverse mapping from a staged source region ------------------------------------------
#ifdef STAGED
#ifndef WG_X
#define WG_X 16
#endif
#ifndef WG_Y
#define WG_Y 16
#endif
#define TILE_W (WG_X * PIXELS_PER_ITEM)  // output pixels of a work-group: TILE_W x WG_Y
#ifndef BOX_AREA
#error "BOX_AREA (pixels of local memory for the source region) must be given"
#endif

// The source region of this group's output tile: the bounding box of the source
// points of the tile's four corner pixels (the map is affine), widened for the
// bilinear taps; for gray, widened to whole 32-bit words. Uniform in the group.
inline int4 source_box(const int tx0, const int ty0, const int inW, const int inH, const int outW, const int outH,
                       const int cosQ, const int sinQ, const bool bilinear) {
  long minX = LONG_MAX, maxX = LONG_MIN, minY = LONG_MAX, maxY = LONG_MIN;
  for (int k = 0; k < 4; ++k) {
    const long2 q = source_point(tx0 + (k & 1) * (TILE_W - 1), ty0 + (k >> 1) * (WG_Y - 1), inW, inH, outW, outH,
                                 cosQ, sinQ) - (bilinear ? (long2)(65536) : (long2)(0));
    minX = min(minX, floor_shift(q.x, 17));
    maxX = max(maxX, floor_shift(q.x, 17));
    minY = min(minY, floor_shift(q.y, 17));
    maxY = max(maxY, floor_shift(q.y, 17));
  }
  int x0 = (int)minX, y0 = (int)minY;
  int w = (int)(maxX - minX) + (bilinear ? 2 : 1), h = (int)(maxY - minY) + (bilinear ? 2 : 1);
#if CHANNELS == 1
  const int aligned = x0 & ~3;  // floor to a multiple of 4, negative values too
  w = (x0 - aligned + w + 3) & ~3;
  x0 = aligned;
#endif
  return (int4)(x0, y0, w, h);
}

// Copies the region into local memory, row by row (gray: 4 pixels per 32-bit
// word), background outside the image.
inline void stage_box(__global const pixel_t* restrict in, __local pixel_t* box, const int4 b, const int inW,
                      const int inH, const pixel_t background) {
  const int lx = get_local_id(0), ly = get_local_id(1);
#if CHANNELS == 1
  __local uchar4* box4 = (__local uchar4*)box;
  const int words = b.z / 4;
  const uchar4 bg4 = (uchar4)(background);
  const int rows = min(b.w, BOX_AREA / b.z);  // never past the array (the host's bound makes this b.w)
  for (int r = ly; r < rows; r += WG_Y) {
    const int y = b.y + r;
    const bool rowInside = y >= 0 && y < inH;
    for (int c = lx; c < words; c += WG_X) {
      const int x = b.x + 4 * c;
      uchar4 v = bg4;
      if (rowInside) {
        if ((inW & 3) == 0 && x >= 0 && x + 3 < inW) {
          v = ((__global const uchar4*)in)[(y * inW + x) >> 2];
        } else {
          const int i = y * inW + x;
          if (x >= 0 && x < inW) v.s0 = in[i];
          if (x + 1 >= 0 && x + 1 < inW) v.s1 = in[i + 1];
          if (x + 2 >= 0 && x + 2 < inW) v.s2 = in[i + 2];
          if (x + 3 >= 0 && x + 3 < inW) v.s3 = in[i + 3];
        }
      }
      box4[r * words + c] = v;
    }
  }
#else
  const int rows = min(b.w, BOX_AREA / b.z);  // never past the array (the host's bound makes this b.w)
  for (int r = ly; r < rows; r += WG_Y) {
    const int y = b.y + r;
    const bool rowInside = y >= 0 && y < inH;
    for (int c = lx; c < b.z; c += WG_X) {
      const int x = b.x + c;
      box[r * b.z + c] = rowInside && x >= 0 && x < inW ? in[y * inW + x] : background;
    }
  }
#endif
}

#define STAGED_KERNEL(name, bilinear)                                                                       \
  __kernel __attribute__((reqd_work_group_size(WG_X, WG_Y, 1))) void name(                                  \
      __global const pixel_t* restrict in, __global pixel_t* restrict out, const int inW, const int inH,     \
      const int outW, const int outH, const int cosQ, const int sinQ, const pixel_t background) {            \
    /* declared as words: the gray path stores 4 pixels at a time, which needs 4-byte alignment */          \
    __local uint boxWords[(BOX_AREA * sizeof(pixel_t) + 3) / 4];                                            \
    __local pixel_t* box = (__local pixel_t*)boxWords;                                                      \
    const int tx0 = get_group_id(0) * TILE_W, ty0 = get_group_id(1) * WG_Y;                                  \
    const int4 b = source_box(tx0, ty0, inW, inH, outW, outH, cosQ, sinQ, bilinear);                        \
    stage_box(in, box, b, inW, inH, background);                                                            \
    barrier(CLK_LOCAL_MEM_FENCE);                                                                           \
    const int x = tx0 + get_local_id(0) * PIXELS_PER_ITEM, y = ty0 + get_local_id(1);                       \
    if (x >= outW || y >= outH) return;                                                                     \
    /* the source point relative to the box, in 2^-17 pixel: small and >= 0, so 32-bit */                   \
    const long2 q64 = source_point(x, y, inW, inH, outW, outH, cosQ, sinQ) -                                \
                      (long2)((long)b.x << 17, (long)b.y << 17) - (bilinear ? (long2)(65536) : (long2)(0));  \
    int qx = (int)q64.x, qy = (int)q64.y;                                                                   \
    pixel_t v[PIXELS_PER_ITEM];                                                                             \
    for (int k = 0; k < PIXELS_PER_ITEM; ++k, qx += 2 * cosQ, qy -= 2 * sinQ) {                             \
      const int at = (qy >> 17) * b.z + (qx >> 17);                                                         \
      if (!bilinear) {                                                                                      \
        v[k] = box[at];                                                                                     \
      } else {                                                                                              \
        const uint fx = (qx >> 5) & 4095, fy = (qy >> 5) & 4095;                                            \
        const acc_t top = TO_ACC(box[at]) * (4096 - fx) + TO_ACC(box[at + 1]) * fx;                          \
        const acc_t bottom = TO_ACC(box[at + b.z]) * (4096 - fx) + TO_ACC(box[at + b.z + 1]) * fx;           \
        v[k] = FROM_ACC((top * (4096 - fy) + bottom * fy + (1u << 23)) >> 24);                              \
      }                                                                                                     \
    }                                                                                                       \
    STORE_PIXELS(v)                                                                                         \
  }

STAGED_KERNEL(rotate_nearest_local, false)
STAGED_KERNEL(rotate_bilinear_local, true)
#endif

// ---- image2d_t + sampler -----------------------------------------------------------------
#ifdef USE_IMAGES
// The source is CL_R (gray) or CL_RGBA, CL_UNORM_INT8: reads return value / 255.
// The host keeps the image between runs (uploaded when the source changes), so a
// run is this kernel alone.
__constant sampler_t kNearest = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;
__constant sampler_t kLinear = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_LINEAR;

// 0..255 floats to bytes, rounded to nearest even by the float adder (adding
// 1.5 * 2^23 leaves the rounded integer in the low mantissa bits): cheaper than
// convert_uchar_sat_rte, whose float-to-int conversion runs at a quarter rate on
// NVIDIA. The values never leave 0..255 here (weights sum to at most one).
#define BYTE_MAGIC 12582912.0f
// TO_PIXEL takes what read_imagef returned (0..1) scaled by `scale` plus `offset`.
#if CHANNELS == 1
#define TO_PIXEL(f, scale, offset) ((uchar)as_uint(fma((f).x, (scale), (offset).x + BYTE_MAGIC)))
#define BG_FLOAT(b) ((float4)((float)(b), 0.0f, 0.0f, 0.0f))
#else
inline uchar4 to_pixel4(const float4 f) {
  const uint4 b = as_uint4(f) & 0xFFu;
  return as_uchar4(b.x | (b.y << 8) | (b.z << 16) | (b.w << 24));
}
#define TO_PIXEL(f, scale, offset) to_pixel4(fma((f), (float4)(scale), (offset) + (float4)(BYTE_MAGIC)))
#define BG_FLOAT(b) convert_float4(b)
#endif

__kernel void rotate_nearest_image(read_only image2d_t src, __global pixel_t* restrict out, const int inW,
                                   const int inH, const int outW, const int outH, const int cosQ, const int sinQ,
                                   const pixel_t background) {
  const int x = get_global_id(0) * PIXELS_PER_ITEM, firstRow = get_global_id(1) * ROWS_PER_ITEM;
  if (x >= outW || firstRow >= outH) return;
  const long2 step = (long2)(2 * (long)cosQ, -2 * (long)sinQ);
#pragma unroll
  for (int r = 0; r < ROWS_PER_ITEM; ++r) {
    const int y = firstRow + r;
    if (y >= outH) break;
    // The pixel is chosen in integers (exact, like the buffer kernel); the image only serves the read.
    long2 q = source_point(x, y, inW, inH, outW, outH, cosQ, sinQ) + (long2)(BIAS);
    pixel_t v[PIXELS_PER_ITEM];
    for (int k = 0; k < PIXELS_PER_ITEM; ++k, q += step) {
      const int sx = (int)((q.x >> 17) - BIAS_PIXELS), sy = (int)((q.y >> 17) - BIAS_PIXELS);
      v[k] = ((uint)sx < (uint)inW && (uint)sy < (uint)inH)
                 ? TO_PIXEL(read_imagef(src, kNearest, (int2)(sx, sy)), 255.0f, (float4)(0.0f))
                 : background;
    }
    STORE_PIXELS(v)
  }
}

// Whether all 4 bilinear taps around source point q (2^-17 pixel units) lie outside
// the picture: the taps x0 = floor(q - 1/2) and x0 + 1 miss it when x0 < -1 or
// x0 > inW - 1 (likewise in y). Those pixels are pure background in every variant.
inline bool all_taps_outside(const long2 q, const int inW, const int inH) {
  const long x0 = floor_shift(q.x - 65536, 17), y0 = floor_shift(q.y - 65536, 17);
  return x0 < -1 || x0 > inW - 1 || y0 < -1 || y0 > inH - 1;
}

__kernel void rotate_bilinear_image(read_only image2d_t src, __global pixel_t* restrict out, const int inW,
                                    const int inH, const int outW, const int outH, const int cosQ, const int sinQ,
                                    const pixel_t background) {
  const int x = get_global_id(0) * PIXELS_PER_ITEM, firstRow = get_global_id(1) * ROWS_PER_ITEM;
  if (x >= outW || firstRow >= outH) return;
  const float c = (float)cosQ * (1.0f / 65536.0f), s = (float)sinQ * (1.0f / 65536.0f);
  const float4 bg = BG_FLOAT(background);
#pragma unroll
  for (int r = 0; r < ROWS_PER_ITEM; ++r) {
    const int y = firstRow + r;
    if (y >= outH) break;
    // Source point of the pixel centre in float (the sampler quantises the
    // position to 1/256 pixel anyway): R(-angle) (p - output centre) + input centre.
    const float px = (float)x + 0.5f - 0.5f * (float)outW, py = (float)y + 0.5f - 0.5f * (float)outH;
    float u = fma(c, px, fma(s, py, 0.5f * (float)inW));
    float w = fma(-s, px, fma(c, py, 0.5f * (float)inH));
    pixel_t v[PIXELS_PER_ITEM];
    for (int k = 0; k < PIXELS_PER_ITEM; ++k, u += c, w -= s) {
      const float4 f = read_imagef(src, kLinear, (float2)(u, w));
      // Inside the band of pixel centres all four taps are image pixels; outside,
      // the sampler reads the border colour 0 (CLK_ADDRESS_CLAMP) and the background
      // fills the weight of the taps that fell outside, like the buffer kernel.
      if (u >= 0.5f && w >= 0.5f && u <= (float)inW - 0.5f && w <= (float)inH - 0.5f) {
        v[k] = TO_PIXEL(f, 255.0f, (float4)(0.0f));
      } else if (all_taps_outside(source_point(x + k, y, inW, inH, outW, outH, cosQ, sinQ), inW, inH)) {
        // Fill, decided in the buffer kernel's integers: the histogram leaves out
        // exactly these pixels (compute/rotate_coverage.h), so they must hold the
        // background itself, not whatever the sampler's rounding makes of an edge.
        v[k] = background;
      } else {
        const float ux = u - 0.5f, uy = w - 0.5f;
        const float x0 = floor(ux), y0 = floor(uy), fx = ux - x0, fy = uy - y0;
        const float wx = (x0 >= 0.0f && x0 < (float)inW ? 1.0f - fx : 0.0f) + (x0 + 1.0f >= 0.0f && x0 + 1.0f < (float)inW ? fx : 0.0f);
        const float wy = (y0 >= 0.0f && y0 < (float)inH ? 1.0f - fy : 0.0f) + (y0 + 1.0f >= 0.0f && y0 + 1.0f < (float)inH ? fy : 0.0f);
        v[k] = TO_PIXEL(clamp(f * 255.0f + (1.0f - wx * wy) * bg, 0.0f, 255.0f), 1.0f, (float4)(0.0f));
      }
    }
    STORE_PIXELS(v)
  }
}
#endif
