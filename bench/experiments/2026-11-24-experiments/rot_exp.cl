// Experimental bilinear rotation through image2d_t. -DCHANNELS=1|4 -DPPX -DPPY [-DSWIZZLE=rows]
#ifndef CHANNELS
#define CHANNELS 4
#endif
#ifndef PPX
#define PPX 4
#endif
#ifndef PPY
#define PPY 1
#endif
__constant sampler_t kLinear = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_LINEAR;
#define BYTE_MAGIC 12582912.0f
#if CHANNELS == 1
typedef uchar pixel_t;
#define TO_PIXEL(f) ((uchar)as_uint(fma((f).x, 255.0f, BYTE_MAGIC)))
#define TO_PIXEL_BG(f) ((uchar)as_uint(fma((f).x, 1.0f, BYTE_MAGIC)))
#define BG_FLOAT(b) ((float4)((float)(b), 0.0f, 0.0f, 0.0f))
#else
typedef uint pixel_t;
inline uint to_pixel4(const float4 f) { const uint4 b = as_uint4(f) & 0xFFu; return b.x | (b.y << 8) | (b.z << 16) | (b.w << 24); }
#define TO_PIXEL(f) to_pixel4(fma((f), (float4)(255.0f), (float4)(BYTE_MAGIC)))
#define TO_PIXEL_BG(f) to_pixel4((f) + (float4)(BYTE_MAGIC))
#define BG_FLOAT(b) convert_float4(as_uchar4(b))
#endif

__kernel void rot_exp(read_only image2d_t src, __global pixel_t* restrict out, const int inW, const int inH,
                      const int outW, const int outH, const int cosQ, const int sinQ, const pixel_t background) {
#ifdef SWIZZLE
  // Groups taken in strips of SWIZZLE group-rows, column by column inside a strip.
  const uint ngx = get_num_groups(0), ngy = get_num_groups(1);
  const uint g = get_group_id(1) * ngx + get_group_id(0);
  const uint strip = g / (SWIZZLE * ngx), rows = min((uint)SWIZZLE, ngy - strip * SWIZZLE);
  const uint idx = g - strip * SWIZZLE * ngx;
  const uint gx = idx / rows, gy = strip * SWIZZLE + idx % rows;
  const int x = (gx * get_local_size(0) + get_local_id(0)) * PPX, y0 = (gy * get_local_size(1) + get_local_id(1)) * PPY;
#else
  const int x = get_global_id(0) * PPX, y0 = get_global_id(1) * PPY;
#endif
  if (x >= outW || y0 >= outH) return;
  const float c = (float)cosQ * (1.0f / 65536.0f), s = (float)sinQ * (1.0f / 65536.0f);
  const float4 bg = BG_FLOAT(background);
#pragma unroll
  for (int r = 0; r < PPY; ++r) {
    const int y = y0 + r;
    const float px = (float)x + 0.5f - 0.5f * (float)outW, py = (float)y + 0.5f - 0.5f * (float)outH;
    float u = fma(c, px, fma(s, py, 0.5f * (float)inW));
    float w = fma(-s, px, fma(c, py, 0.5f * (float)inH));
    pixel_t v[PPX];
#pragma unroll
    for (int k = 0; k < PPX; ++k, u += c, w -= s) {
      const float4 f = read_imagef(src, kLinear, (float2)(u, w));
      if (u >= 0.5f && w >= 0.5f && u <= (float)inW - 0.5f && w <= (float)inH - 0.5f) {
        v[k] = TO_PIXEL(f);
      } else {
        const float ux = u - 0.5f, uy = w - 0.5f;
        const float x0 = floor(ux), y0f = floor(uy), fx = ux - x0, fy = uy - y0f;
        const float wx = (x0 >= 0.0f && x0 < (float)inW ? 1.0f - fx : 0.0f) + (x0 + 1.0f >= 0.0f && x0 + 1.0f < (float)inW ? fx : 0.0f);
        const float wy = (y0f >= 0.0f && y0f < (float)inH ? 1.0f - fy : 0.0f) + (y0f + 1.0f >= 0.0f && y0f + 1.0f < (float)inH ? fy : 0.0f);
        v[k] = TO_PIXEL_BG(clamp(f * 255.0f + (1.0f - wx * wy) * bg, 0.0f, 255.0f));
      }
    }
    __global pixel_t* o = out + (size_t)y * outW + x;
#if CHANNELS == 4
#if PPX == 1
    o[0] = v[0];
#elif PPX == 2
    vstore2((uint2)(v[0], v[1]), 0, o);
#elif PPX == 4
    vstore4((uint4)(v[0], v[1], v[2], v[3]), 0, o);
#else
    for (int k = 0; k < PPX; k += 4) vstore4((uint4)(v[k], v[k + 1], v[k + 2], v[k + 3]), 0, o + k);
#endif
#else
#if PPX == 4
    vstore4((uchar4)(v[0], v[1], v[2], v[3]), 0, o);
#elif PPX == 8
    vstore8((uchar8)(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7]), 0, o);
#else
    for (int k = 0; k < PPX; ++k) o[k] = v[k];
#endif
#endif
  }
}
