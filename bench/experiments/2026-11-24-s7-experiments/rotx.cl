// Experiments: gray bilinear rotation through the texture unit with less ALU work
// per pixel, lane layouts, and a texture + ALU hybrid. Same arguments as
// rotate_bilinear_image plus the source as a buffer (last argument).
// -DPX -DPY: pixels per item; -DSTRIDED: the item's pixels are a group-size apart
// (each texture instruction of a warp covers neighbouring pixels) instead of a block.
// -DALU_ROWS=k: of the PY rows of an item, the last k are blended on the ALUs from
// the buffer (hybrid); 0: all through the sampler.
#ifndef PX
#define PX 1
#endif
#ifndef PY
#define PY 1
#endif
#ifndef ALU_ROWS
#define ALU_ROWS 0
#endif
#define MAGIC 12582912.0f

#ifdef FILTER_NEAREST
__constant sampler_t kLinear = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;
#else
__constant sampler_t kLinear = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_LINEAR;
#endif

inline uchar to_byte(const float v01) { return (uchar)as_uint(fma(v01, 255.0f, MAGIC)); }

// Slow path: as the project's kernel (background 0 here).
inline uchar edge_pixel(read_only image2d_t src, const float u, const float w, const int inW, const int inH) {
  const float f = read_imagef(src, kLinear, (float2)(u, w)).x;
  if (u >= 0.5f && w >= 0.5f && u <= (float)inW - 0.5f && w <= (float)inH - 0.5f) return to_byte(f);
  return to_byte(clamp(f, 0.0f, 1.0f));
}

inline uchar alu_pixel(__global const uchar* restrict buf, const float u, const float w, const int inW) {
  const float ux = u - 0.5f, uy = w - 0.5f;
  const float x0 = floor(ux), y0 = floor(uy);
  const float fx = ux - x0, fy = uy - y0;
  __global const uchar* p = buf + (int)y0 * inW + (int)x0;
  const float a = (float)p[0], b = (float)p[1], c = (float)p[inW], d = (float)p[inW + 1];
  const float top = fma(b - a, fx, a), bot = fma(d - c, fx, c);
  return (uchar)as_uint(fma(bot - top, fy, top) + MAGIC);
}

__kernel void rot_lean(read_only image2d_t src, __global uchar* restrict out, const int inW, const int inH,
                       const int outW, const int outH, const int cosQ, const int sinQ, const uchar background,
                       __global const uchar* restrict buf) {
#ifdef STRIDED
  const int tileX = get_group_id(0) * get_local_size(0) * PX, tileY = get_group_id(1) * get_local_size(1) * PY;
  const int x = tileX + get_local_id(0), y = tileY + get_local_id(1);
  const int sx = get_local_size(0), sy = get_local_size(1);  // pixel steps inside the item
  const int lastX = tileX + sx * PX - 1, lastY = tileY + sy * PY - 1;
#else
  const int x = get_global_id(0) * PX, y = get_global_id(1) * PY;
  const int sx = 1, sy = 1;
  const int lastX = x + PX - 1, lastY = y + PY - 1;
#endif
  const float c = (float)cosQ * (1.0f / 65536.0f), s = (float)sinQ * (1.0f / 65536.0f);
  const float px = (float)x + 0.5f - 0.5f * (float)outW, py = (float)y + 0.5f - 0.5f * (float)outH;
  const float u0 = fma(c, px, fma(s, py, 0.5f * (float)inW));
  const float w0 = fma(-s, px, fma(c, py, 0.5f * (float)inH));
  // Steps between the item's pixels: along x (sx pixels) and along y (sy rows).
  const float dux = c * sx, dwx = -s * sx, duy = s * sy, dwy = c * sy;
  // The block's extent in source space: the map is affine, so its corners bound it.
  const float ex = (float)(lastX - x), ey = (float)(lastY - y);
  const float ua = u0 + c * ex, wa = w0 - s * ex;  // top right
  const float ub = u0 + s * ey, wb = w0 + c * ey;  // bottom left
  const float uc = ua + s * ey, wc = wa + c * ey;  // bottom right
  const float umin = fmin(fmin(u0, ua), fmin(ub, uc)), umax = fmax(fmax(u0, ua), fmax(ub, uc));
  const float wmin = fmin(fmin(w0, wa), fmin(wb, wc)), wmax = fmax(fmax(w0, wa), fmax(wb, wc));
  const bool inside = umin >= 0.5f && wmin >= 0.5f && umax <= (float)inW - 0.5f && wmax <= (float)inH - 0.5f &&
                      lastX < outW && lastY < outH;
  if (inside) {
#pragma unroll
    for (int j = 0; j < PY; ++j) {
      float u = u0 + duy * j, w = w0 + dwy * j;
#ifdef STRIDED
#pragma unroll
      for (int i = 0; i < PX; ++i, u += dux, w += dwx) {
#if ALU_ROWS > 0
        if (j >= PY - ALU_ROWS)
          out[(y + j * sy) * outW + x + i * sx] = alu_pixel(buf, u, w, inW);
        else
#endif
          out[(y + j * sy) * outW + x + i * sx] = to_byte(read_imagef(src, kLinear, (float2)(u, w)).x);
      }
#else
      uchar v[PX];
#pragma unroll
      for (int i = 0; i < PX; ++i, u += dux, w += dwx) {
#if ALU_ROWS > 0
        if (j >= PY - ALU_ROWS)
          v[i] = alu_pixel(buf, u, w, inW);
        else
#endif
          v[i] = to_byte(read_imagef(src, kLinear, (float2)(u, w)).x);
      }
#if PX == 1
      out[(y + j) * outW + x] = v[0];
#elif PX == 2
      vstore2(vload2(0, v), 0, out + (y + j) * outW + x);
#elif PX == 4
      *(__global uchar4*)(out + (y + j) * outW + x) = vload4(0, v);
#elif PX == 8
      *(__global uchar8*)(out + (y + j) * outW + x) = vload8(0, v);
#endif
#endif
    }
  } else {
    for (int j = 0; j < PY; ++j) {
      float u = u0 + duy * j, w = w0 + dwy * j;
      const int yy = y + j * sy;
      for (int i = 0; i < PX; ++i, u += dux, w += dwx) {
        const int xx = x + i * sx;
        if (xx < outW && yy < outH) out[yy * outW + xx] = edge_pixel(src, u, w, inW, inH);
      }
    }
  }
}
