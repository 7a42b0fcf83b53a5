// Image rotation about the centre by any angle, gray or RGBA. Variants (kernel
// name + build options; see compute/image_ops.cpp):
//   rotate_forward_scatter   the seed's forward mapping: every source pixel goes to its
//   + rotate_forward_resolve rotated spot, holes keep the background. Several source
//                            pixels can land on one spot; the seed's kernel lets the
//                            writes race. Here the scatter keeps the LAST source pixel
//                            in row-major order (atomic_max of its index + 1), which is
//                            what the seed's CPU loop leaves, and the resolve pass
//                            copies it: deterministic, equal to the CPU function.
//   rotate_nearest           inverse mapping (each output pixel fetches its source),
//   rotate_bilinear          nearest or bilinear; PIXELS_PER_ITEM consecutive pixels
//                            of a row per work-item (one vector store)
//   rotate_nearest_image     the same through image2d_t + sampler (-DUSE_IMAGES):
//   rotate_bilinear_image    nearest reads at integer coordinates (bit-exact), bilinear
//                            uses the sampler's filtering (within a level or two)
// Build options: -DCHANNELS=1|4 -DPIXELS_PER_ITEM=1|4 [-DUSE_IMAGES]
//
// Geometry, all in integers (the host passes cos and sin as Q16 integers, and the
// CPU reference in compute/image_reference.cpp does the same arithmetic):
//   forward (seed): xpos = trunc(dx cos - dy sin) + W'/2 with dx = x - W/2 (integer
//     halves), truncated toward zero like the seed's float-to-int conversion.
//   inverse: output pixel centre p = (x + 0.5 - W'/2, y + 0.5 - H'/2), source point
//     q = R(-angle) p + (W/2, H/2), kept in units of 2^-17 pixel (2p is an integer).
//     nearest takes the pixel containing q; bilinear the 4 pixel centres around q
//     with 12-bit weights. Source pixels outside the image read as the background.

#ifndef CHANNELS
#define CHANNELS 1
#endif
#ifndef PIXELS_PER_ITEM
#define PIXELS_PER_ITEM 1
#endif
#if PIXELS_PER_ITEM != 1 && PIXELS_PER_ITEM != 4
#error "PIXELS_PER_ITEM must be 1 or 4"
#endif

#if CHANNELS == 1
typedef uchar pixel_t;
typedef uint acc_t;
#define TO_ACC(p) ((uint)(p))
#define FROM_ACC(a) ((uchar)(a))
#define PIXELS4(a, b, c, d) ((uchar4)((a), (b), (c), (d)))
typedef uchar4 pixels4_t;
#elif CHANNELS == 4
typedef uchar4 pixel_t;
typedef uint4 acc_t;
#define TO_ACC(p) convert_uint4(p)
#define FROM_ACC(a) convert_uchar4(a)
#define PIXELS4(a, b, c, d) ((uchar16)((a), (b), (c), (d)))
typedef uchar16 pixels4_t;
#else
#error "CHANNELS must be 1 or 4"
#endif

// floor(v / 2^k) and trunc(v / 2^k) without relying on >> of negative values.
inline long floor_shift(const long v, const int k) { return v >= 0 ? v >> k : ~((~v) >> k); }
inline long trunc_shift(const long v, const int k) { return v >= 0 ? v >> k : -((-v) >> k); }

// ---- forward mapping (the seed) --------------------------------------------------------
// owner[] (output size, zeroed by the host) receives the largest source index + 1
// that maps to each output pixel.
__kernel void rotate_forward_scatter(__global uint* restrict owner, const int inW, const int inH, const int outW,
                                     const int outH, const int cosQ, const int sinQ) {
  const int j = get_global_id(0), i = get_global_id(1);
  if (j >= inW || i >= inH) return;
  const long dx = j - inW / 2, dy = i - inH / 2;
  const long xpos = trunc_shift(dx * cosQ - dy * sinQ + ((long)(outW / 2) << 16), 16);
  const long ypos = trunc_shift(dx * sinQ + dy * cosQ + ((long)(outH / 2) << 16), 16);
  if (xpos >= 0 && ypos >= 0 && xpos < outW && ypos < outH)
    atomic_max(&owner[(int)ypos * outW + (int)xpos], (uint)(i * inW + j + 1));
}

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

inline pixel_t sample_nearest(__global const pixel_t* restrict in, const long2 q, const int inW, const int inH,
                              const pixel_t background) {
  return fetch(in, (int)floor_shift(q.x, 17), (int)floor_shift(q.y, 17), inW, inH, background);
}

inline pixel_t sample_bilinear(__global const pixel_t* restrict in, const long2 q, const int inW, const int inH,
                               const pixel_t background) {
  const long ux = q.x - 65536, uy = q.y - 65536;  // minus half a pixel: relative to pixel centres
  const int x0 = (int)floor_shift(ux, 17), y0 = (int)floor_shift(uy, 17);
  const uint fx = (uint)((ux & 0x1FFFF) >> 5), fy = (uint)((uy & 0x1FFFF) >> 5);  // 12-bit fractions
  const acc_t top = TO_ACC(fetch(in, x0, y0, inW, inH, background)) * (4096 - fx) +
                    TO_ACC(fetch(in, x0 + 1, y0, inW, inH, background)) * fx;
  const acc_t bottom = TO_ACC(fetch(in, x0, y0 + 1, inW, inH, background)) * (4096 - fx) +
                       TO_ACC(fetch(in, x0 + 1, y0 + 1, inW, inH, background)) * fx;
  // At most 255 * 4096 * 4096 + 2^23 < 2^32: no overflow in 32 bits.
  return FROM_ACC((top * (4096 - fy) + bottom * fy + (1u << 23)) >> 24);
}

#define INVERSE_KERNEL(name, sample)                                                                         \
  __kernel void name(__global const pixel_t* restrict in, __global pixel_t* restrict out, const int inW,      \
                     const int inH, const int outW, const int outH, const int cosQ, const int sinQ,           \
                     const pixel_t background) {                                                             \
    const int x = get_global_id(0) * PIXELS_PER_ITEM, y = get_global_id(1);                                  \
    if (x >= outW || y >= outH) return;                                                                      \
    long2 q = source_point(x, y, inW, inH, outW, outH, cosQ, sinQ);                                          \
    if (PIXELS_PER_ITEM == 1) {                                                                              \
      out[y * outW + x] = sample(in, q, inW, inH, background);                                               \
      return;                                                                                                \
    }                                                                                                        \
    /* one pixel to the right: p.x + 2 */                                                                    \
    const long2 step = (long2)(2 * (long)cosQ, -2 * (long)sinQ);                                             \
    pixel_t v[4];                                                                                            \
    for (int k = 0; k < 4; ++k, q += step) v[k] = sample(in, q, inW, inH, background);                       \
    const int o = y * outW + x;                                                                              \
    if ((outW & 3) == 0) { /* rows start on 4-pixel boundaries: one vector store */                          \
      ((__global pixels4_t*)out)[o >> 2] = PIXELS4(v[0], v[1], v[2], v[3]);                                  \
    } else {                                                                                                 \
      for (int k = 0; k < 4 && x + k < outW; ++k) out[o + k] = v[k];                                         \
    }                                                                                                        \
  }

INVERSE_KERNEL(rotate_nearest, sample_nearest)
INVERSE_KERNEL(rotate_bilinear, sample_bilinear)

// ---- image2d_t + sampler -----------------------------------------------------------------
#ifdef USE_IMAGES
// The source is CL_R (gray) or CL_RGBA, CL_UNORM_INT8: reads return value / 255.
__constant sampler_t kNearest = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;
__constant sampler_t kLinear = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_LINEAR;

#if CHANNELS == 1
#define FROM_FLOAT(f) convert_uchar_sat_rte((f).x * 255.0f)
#define BG_FLOAT(b) ((float4)((float)(b), 0.0f, 0.0f, 0.0f))
#else
#define FROM_FLOAT(f) convert_uchar4_sat_rte((f) * 255.0f)
#define BG_FLOAT(b) convert_float4(b)
#endif

__kernel void rotate_nearest_image(read_only image2d_t src, __global pixel_t* restrict out, const int inW,
                                   const int inH, const int outW, const int outH, const int cosQ, const int sinQ,
                                   const pixel_t background) {
  const int x = get_global_id(0), y = get_global_id(1);
  if (x >= outW || y >= outH) return;
  const long2 q = source_point(x, y, inW, inH, outW, outH, cosQ, sinQ);
  const int sx = (int)floor_shift(q.x, 17), sy = (int)floor_shift(q.y, 17);
  // The pixel is chosen in integers (exact); the image only serves the read.
  out[y * outW + x] = (sx >= 0 && sy >= 0 && sx < inW && sy < inH)
                          ? FROM_FLOAT(read_imagef(src, kNearest, (int2)(sx, sy)))
                          : background;
}

__kernel void rotate_bilinear_image(read_only image2d_t src, __global pixel_t* restrict out, const int inW,
                                    const int inH, const int outW, const int outH, const int cosQ, const int sinQ,
                                    const pixel_t background) {
  const int x = get_global_id(0), y = get_global_id(1);
  if (x >= outW || y >= outH) return;
  const long2 q = source_point(x, y, inW, inH, outW, outH, cosQ, sinQ);
  // The sampler interpolates between pixel centres itself; outside the image it
  // reads the border colour 0 (CLK_ADDRESS_CLAMP). The background then fills the
  // weight of the taps that fell outside, like the buffer kernel's background taps.
  const float4 f = read_imagef(src, kLinear, (float2)((float)q.x, (float)q.y) * (1.0f / 131072.0f));
  const long ux = q.x - 65536, uy = q.y - 65536;
  const int x0 = (int)floor_shift(ux, 17), y0 = (int)floor_shift(uy, 17);
  const float fx = (float)(ux & 0x1FFFF) * (1.0f / 131072.0f), fy = (float)(uy & 0x1FFFF) * (1.0f / 131072.0f);
  const float wx = (x0 >= 0 && x0 < inW ? 1.0f - fx : 0.0f) + (x0 + 1 >= 0 && x0 + 1 < inW ? fx : 0.0f);
  const float wy = (y0 >= 0 && y0 < inH ? 1.0f - fy : 0.0f) + (y0 + 1 >= 0 && y0 + 1 < inH ? fy : 0.0f);
  const float4 value = f * 255.0f + (1.0f - wx * wy) * BG_FLOAT(background);
#if CHANNELS == 1
  out[y * outW + x] = convert_uchar_sat_rte(value.x);
#else
  out[y * outW + x] = convert_uchar4_sat_rte(value);
#endif
}
#endif
