// Experiment (ninth session): gray bilinear rotation, part of each work-group's
// pixels through the sampler (texture units), the rest blended on the ALUs from a
// source box staged in local memory. The two run on different units, so the
// texture unit's fetch cap (~0.72 T fetches/s on the H200) no longer bounds the whole image.
// Arguments: rotate_bilinear_image's, plus the source as a buffer (last).
//
// Layout: group NX x NY items, each item 4 pixels of a row (one 32-bit store) in PY rows
// ly, ly + NY, ... The first PY - ALU_ROWS rows go through the sampler, the last
// ALU_ROWS rows (a band of the tile ALU_ROWS * NY rows tall) on the ALUs.
// Tile: (4 NX) x (NY PY) output pixels.
#ifndef NX
#define NX 16
#endif
#ifndef NY
#define NY 16
#endif
#ifndef PY
#define PY 4
#endif
#ifndef ALU_ROWS
#define ALU_ROWS 2
#endif
#ifndef DBG
#define DBG 0  // timing diagnostics, wrong output when not 0: see the blend
#endif
#define TILE_W (4 * NX)
#define ALU_H (ALU_ROWS * NY)
#define TEX_ROWS (PY - ALU_ROWS)
// Box bound for any angle: extent <= diagonal of the band < TILE_W + ALU_H, plus taps,
// 16-byte alignment and the pitch's odd-16 padding.
#define BOX_PITCH_MAX (((TILE_W + ALU_H + 4 + 15) & ~15) + 32)
#define BOX_ROWS_MAX (TILE_W + ALU_H + 4)
#define BOX_BYTES (BOX_PITCH_MAX * BOX_ROWS_MAX)

__constant sampler_t kLinear = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_LINEAR;
#define BYTE_MAGIC 12582912.0f

inline long floor_shift(const long v, const int k) { return v >= 0 ? v >> k : ~((~v) >> k); }

inline uint tex_pixel(read_only image2d_t src, const float u, const float w, const int inW, const int inH,
                      const float bg) {
  const float f = read_imagef(src, kLinear, (float2)(u, w)).x;
  if (u >= 0.5f && w >= 0.5f && u <= (float)inW - 0.5f && w <= (float)inH - 0.5f)
    return as_uint(fma(f, 255.0f, BYTE_MAGIC)) & 255u;
  const float ux = u - 0.5f, uy = w - 0.5f;
  const float x0 = floor(ux), y0 = floor(uy), fx = ux - x0, fy = uy - y0;
  const float wx = (x0 >= 0.0f && x0 < (float)inW ? 1.0f - fx : 0.0f) + (x0 + 1.0f >= 0.0f && x0 + 1.0f < (float)inW ? fx : 0.0f);
  const float wy = (y0 >= 0.0f && y0 < (float)inH ? 1.0f - fy : 0.0f) + (y0 + 1.0f >= 0.0f && y0 + 1.0f < (float)inH ? fy : 0.0f);
  return as_uint(clamp(f * 255.0f + (1.0f - wx * wy) * bg, 0.0f, 255.0f) + BYTE_MAGIC) & 255u;
}

inline void store4(__global uchar* restrict out, const int x, const int y, const int outW, const int outH,
                   const uint v) {
  if (y >= outH || x >= outW) return;
  if ((outW & 3) == 0) {
    *(__global uint*)(out + y * outW + x) = v;
  } else {
    for (int k = 0; k < 4 && x + k < outW; ++k) out[y * outW + x + k] = (uchar)(v >> (8 * k));
  }
}

__kernel __attribute__((reqd_work_group_size(NX, NY, 1))) void rot_hybrid(
    read_only image2d_t src, __global uchar* restrict out, const int inW, const int inH, const int outW,
    const int outH, const int cosQ, const int sinQ, const uchar background, __global const uchar* restrict in) {
  const int lx = get_local_id(0), ly = get_local_id(1);
  const int tileX = get_group_id(0) * TILE_W, tileY = get_group_id(1) * (NY * PY);
  const int x = tileX + 4 * lx;

#if TEX_ROWS > 0
  // ---- sampler rows: issued first, they do not wait for the staging ----
  uint texOut[TEX_ROWS];
  {
    const float c = (float)cosQ * (1.0f / 65536.0f), s = (float)sinQ * (1.0f / 65536.0f);
    const float bg = (float)background;
#pragma unroll
    for (int j = 0; j < TEX_ROWS; ++j) {
      const int y = tileY + ly + NY * j;
      const float px = (float)x + 0.5f - 0.5f * (float)outW, py = (float)y + 0.5f - 0.5f * (float)outH;
      float u = fma(c, px, fma(s, py, 0.5f * (float)inW));
      float w = fma(-s, px, fma(c, py, 0.5f * (float)inH));
      uint v = 0;
#pragma unroll
      for (int k = 0; k < 4; ++k, u += c, w -= s) v |= tex_pixel(src, u, w, inW, inH, bg) << (8 * k);
      texOut[j] = v;
    }
  }
#endif

#if ALU_ROWS > 0
  // ---- stage the ALU band's source box ----
  __local uint4 box4[BOX_BYTES / 16];
  __local uchar* box = (__local uchar*)box4;
  const int bandY = tileY + NY * TEX_ROWS;  // first output row of the band
  // Source point (2^-17 px, relative to pixel centres) of the band's first pixel; the
  // band's corners bound the box (affine map).
  const long qx0 = (long)cosQ * (2 * tileX + 1 - outW) + (long)sinQ * (2 * bandY + 1 - outH) + ((long)inW << 16) - 65536;
  const long qy0 = -(long)sinQ * (2 * tileX + 1 - outW) + (long)cosQ * (2 * bandY + 1 - outH) + ((long)inH << 16) - 65536;
  const int c2 = 2 * cosQ, s2 = 2 * sinQ;
  const int ax = (TILE_W - 1) * c2, bxs = (ALU_H - 1) * s2, ay = -(TILE_W - 1) * s2, bys = (ALU_H - 1) * c2;
  const int xmin = (int)floor_shift(qx0 + min(ax, 0) + min(bxs, 0), 17);
  const int xmax = (int)floor_shift(qx0 + max(ax, 0) + max(bxs, 0), 17) + 2;  // +1: the rounded fraction
  const int ymin = (int)floor_shift(qy0 + min(ay, 0) + min(bys, 0), 17);
  const int ymax = (int)floor_shift(qy0 + max(ay, 0) + max(bys, 0), 17) + 2;
  const int bx0 = xmin & ~15;
  int pitch = (xmax + 1 - bx0 + 15) & ~15;
  const int chunks = pitch >> 4;
  if (((pitch >> 4) & 1) == 0) pitch += 16;  // rows start 4 banks (mod 32) apart
  const int rows = min(ymax + 1 - ymin, BOX_BYTES / pitch);
  {
    const int tid = ly * NX + lx;
    const uint bgw = background * 0x01010101u;
    const bool fastRows = (inW & 15) == 0;
    for (int u = tid; u < (DBG == 3 ? 0 : rows * chunks); u += NX * NY) {
      const int r = u / chunks, cidx = u - r * chunks;
      const int yy = ymin + r, xx = bx0 + 16 * cidx;
      uint4 v = (uint4)(bgw);
      if (yy >= 0 && yy < inH) {
        if (fastRows && xx >= 0 && xx + 16 <= inW) {
          v = *(__global const uint4*)(in + yy * inW + xx);
        } else {
          uint t[4];
          for (int i = 0; i < 4; ++i) {
            uint wv = 0;
            for (int b = 0; b < 4; ++b) {
              const int xb = xx + 4 * i + b;
              wv |= (xb >= 0 && xb < inW ? (uint)in[yy * inW + xb] : (uint)background) << (8 * b);
            }
            t[i] = wv;
          }
          v = (uint4)(t[0], t[1], t[2], t[3]);
        }
      }
      box4[(r * pitch >> 4) + cidx] = v;
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  // ---- blend ----
  // Coordinates relative to the box in 2^-17 px, with +256 so that >> 9 rounds the
  // fraction to 8 bits (fx in 0..255, the carry goes to the integer part).
  const int relx0 = (int)(qx0 - ((long)bx0 << 17)) + 256, rely0 = (int)(qy0 - ((long)ymin << 17)) + 256;
#pragma unroll
  for (int j = 0; j < ALU_ROWS; ++j) {
    const int oy = ly + NY * j;  // row inside the band
    int qx = relx0 + 4 * lx * c2 + oy * s2, qy = rely0 - 4 * lx * s2 + oy * c2;
    uint v = 0;
#pragma unroll
    for (int k = 0; k < 4; ++k, qx += c2, qy -= s2) {
      const int at = (qy >> 17) * pitch + (qx >> 17);
      const uint fx = (uint)(qx >> 9) & 255u, fy = (uint)(qy >> 9) & 255u;
#if DBG == 1  // timing only: conflict-free local addresses (32 lanes, 32 banks)
      const int at2 = (ly & 1) * 64 + 4 * lx + k;
      const uint a = box[at2], b = box[at2 + 1], cc = box[at2 + 128], d = box[at2 + 129];
#elif DBG == 2  // timing only: no local reads at all
      const uint a = (uint)at & 255u, b = ((uint)at >> 3) & 255u, cc = ((uint)at >> 5) & 255u, d = ((uint)at >> 7) & 255u;
#else
      const uint a = box[at], b = box[at + 1], cc = box[at + pitch], d = box[at + pitch + 1];
#endif
      // Both rows' horizontal lerps at once in 16-bit lanes: sums stay below 255 * 256.
      const uint lr = a | (cc << 16), rr = b | (d << 16);
      const uint h = lr * (256u - fx) + rr * fx;
      const uint val = (h & 0xFFFFu) * (256u - fy) + (h >> 16) * fy + 32768u;  // 8.16 fixed point
      v |= ((val >> 16) & 255u) << (8 * k);
    }
    store4(out, x, bandY + oy, outW, outH, v);
  }
#endif
#if TEX_ROWS > 0
#pragma unroll
  for (int j = 0; j < TEX_ROWS; ++j) store4(out, x, tileY + ly + NY * j, outW, outH, texOut[j]);
#endif
}
