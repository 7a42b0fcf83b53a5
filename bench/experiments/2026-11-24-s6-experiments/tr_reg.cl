// Experiment: gray transpose with no local memory. Each work-item moves one 16x16
// byte block: 16 row loads of 16 bytes, a register transpose (16 4x4 byte
// transposes), 16 row stores of 16 bytes. Lanes of a warp: BRW block rows (fastest)
// x GX = 32 / BRW block columns, so a warp's store writes GX output rows x 16*BRW bytes.
#ifndef GR_WG
#define GR_WG 256
#endif
#ifndef BRW
#define BRW 2
#endif
#define GX (32 / BRW)
#define GY (GR_WG / GX)

inline void t4(uint* a, uint* b, uint* c, uint* d) {
  const uchar4 lo = (uchar4)(0, 4, 1, 5), hi = (uchar4)(2, 6, 3, 7);
  const uchar4 lo2 = (uchar4)(0, 1, 4, 5), hi2 = (uchar4)(2, 3, 6, 7);
  const uchar4 A = as_uchar4(*a), B = as_uchar4(*b), C = as_uchar4(*c), D = as_uchar4(*d);
  const uchar4 t0 = shuffle2(A, B, lo), t1 = shuffle2(C, D, lo), t2 = shuffle2(A, B, hi), t3 = shuffle2(C, D, hi);
  *a = as_uint(shuffle2(t0, t1, lo2));
  *b = as_uint(shuffle2(t0, t1, hi2));
  *c = as_uint(shuffle2(t2, t3, lo2));
  *d = as_uint(shuffle2(t2, t3, hi2));
}

#ifdef PRMT
inline uint prmt(uint a, uint b, uint s) {
  uint d;
  asm("prmt.b32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(s));
  return d;
}
inline void t4p(uint* a, uint* b, uint* c, uint* d) {
  const uint t0 = prmt(*a, *b, 0x5140), t1 = prmt(*c, *d, 0x5140), t2 = prmt(*a, *b, 0x7362), t3 = prmt(*c, *d, 0x7362);
  *a = prmt(t0, t1, 0x5410);
  *b = prmt(t0, t1, 0x7632);
  *c = prmt(t2, t3, 0x5410);
  *d = prmt(t2, t3, 0x7632);
}
#define T4 t4p
#else
#define T4 t4
#endif

__kernel __attribute__((reqd_work_group_size(GR_WG, 1, 1))) void transpose_gray_reg(__global const uchar* restrict in,
                                                                                     __global uchar* restrict out,
                                                                                     const int width, const int height) {
  const int l = get_local_id(0);
  const int bc = get_group_id(0) * GX + (l / BRW) % GX;
  const int br = get_group_id(1) * GY + (l / (BRW * GX)) * BRW + l % BRW;
  const int x0 = bc * 16, y0 = br * 16;
  if (x0 >= width || y0 >= height) return;
  const bool full = (width & 15) == 0 && (height & 15) == 0;
  uint w[16][4];
  if (full) {
    __global const uint4* in16 = (__global const uint4*)in;
#pragma unroll
    for (int i = 0; i < 16; ++i) {
      const uint4 v = in16[((y0 + i) * width + x0) / 16];
      w[i][0] = v.x;
      w[i][1] = v.y;
      w[i][2] = v.z;
      w[i][3] = v.w;
    }
  } else {
    for (int i = 0; i < 16; ++i)
      for (int m = 0; m < 4; ++m) {
        uint v = 0;
        for (int j = 0; j < 4; ++j) {
          const int x = x0 + 4 * m + j, y = y0 + i;
          if (x < width && y < height) v |= (uint)in[y * width + x] << (8 * j);
        }
        w[i][m] = v;
      }
  }
  // Output row 4m + j, word k = byte j of word m of input rows 4k .. 4k + 3.
#pragma unroll
  for (int k = 0; k < 4; ++k)
#pragma unroll
    for (int m = 0; m < 4; ++m) T4(&w[4 * k][m], &w[4 * k + 1][m], &w[4 * k + 2][m], &w[4 * k + 3][m]);
  // now w[4k + j][m] = output row 4m + j, word k
  if (full) {
    __global uint4* out16 = (__global uint4*)out;
#pragma unroll
    for (int m = 0; m < 4; ++m)
#pragma unroll
      for (int j = 0; j < 4; ++j)
        out16[((x0 + 4 * m + j) * height + y0) / 16] = (uint4)(w[j][m], w[4 + j][m], w[8 + j][m], w[12 + j][m]);
  } else {
    for (int m = 0; m < 4; ++m)
      for (int j = 0; j < 4; ++j) {
        const int oy = x0 + 4 * m + j;
        if (oy >= width) continue;
        for (int k = 0; k < 4; ++k) {
          const uint v = w[4 * k + j][m];
          for (int b = 0; b < 4; ++b) {
            const int ox = y0 + 4 * k + b;
            if (ox < height) out[oy * height + ox] = (uchar)(v >> (8 * b));
          }
        }
      }
  }
}
