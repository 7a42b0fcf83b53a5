// Experiment (twelfth session, not part of kernelscope): gray bilinear rotation blended on the
// ALUs from a source box staged in local memory as PAIR WORDS, two outputs per f16x2 instruction.
// Arguments: rotate_bilinear_image's (the image is unused), plus the source as a buffer (last).
//
// Layout: work-group NX x NY items; item (lx, ly) owns PX consecutive pixels (one store) in each
// of the PY rows ly, ly + NY, ... of the tile (TW = NX PX) x (TH = NY PY).
// Box word (x, y) = bytes p(x,y), p(x+1,y), p(x,y+1), p(x+1,y+1) (background outside the image):
// one 32-bit local read gives all 4 taps. Built from 16-byte global loads (+ the 17th byte) of
// two source rows with byte permutes; each thread walks a column strip so each row is loaded once.
// Coordinates: Q16.16 relative to the box, +1/512 px so byte 1 is the fraction rounded to 8 bits
// (carry into the integer part), and 0x44 in byte 3 so that prmt(qx0, qx1, 0x7531) is directly the
// half2 (4 + fx0/256, 4 + fx1/256).
// Blend of outputs (k, k+1) in half2 lanes, taps as half 0x6400|b = 1024 + b:
//   top = (fx - 4) * (TR - TL) + (TL - 1024), bot likewise, V = (fy - 4) * (bot - top) + top,
//   V + 1024 rounds to an integer whose low byte is the result.
// __NV_CL_C_VERSION (NVIDIA's compiler) selects inline PTX; otherwise the same operations are
// emulated in OpenCL C (half rounding through vstore_half_rte), so PoCL checks the algorithm.
#ifndef NX
#define NX 32
#endif
#ifndef NY
#define NY 8
#endif
#ifndef PX
#define PX 4
#endif
#ifndef PY
#define PY 4
#endif
#ifndef PMOD  // box pitch (words) mod 32; a multiple of 4 (16-byte row alignment)
#define PMOD 8
#endif
#ifndef SR  // staging rows per batch of loads
#define SR 4
#endif
#ifndef ADDR  // 0: shifts + mad; 1: prmt + dp2a (PTX only)
#define ADDR 0
#endif
#ifndef DBG
#define DBG 0  // timing only, wrong output: 3 no staging loads, 4 staging only (no blend), 5 blend only (no staging)
#endif
#if PX != 2 && PX != 4 && PX != 8 && PX != 16
#error "PX must be 2, 4, 8 or 16"
#endif
#if defined(REQUIRE_PTX) && !defined(__NV_CL_C_VERSION)
#error "REQUIRE_PTX: not NVIDIA's OpenCL compiler"
#endif
#define NT (NX * NY)
#define TW (NX * PX)
#define TH (NY * PY)
// S >= sqrt(TW^2 + TH^2) (bounds the box's extent at any angle), in steps of 8.
#define SQ (TW * TW + TH * TH)
#define S_(k) ((k) * (k) >= SQ)
#define SB (S_(48) ? 48 : S_(56) ? 56 : S_(64) ? 64 : S_(72) ? 72 : S_(80) ? 80 : S_(88) ? 88 : S_(96) ? 96 : \
            S_(104) ? 104 : S_(112) ? 112 : S_(120) ? 120 : S_(128) ? 128 : S_(136) ? 136 : S_(144) ? 144 : 184)
// Words: (xmax - xmin) <= S, +2 (rounding carry, last word), +15 (16-byte alignment), rounded to
// 16, + pitch padding (< 32); rows: S + 2. Capped at the 48 KiB a work-group may have.
#define PITCH_MAX ((SB + 2 + 15 + 15) / 16 * 16 + 28)
#define ROWS_MAX (SB + 2)
#define BOX_WORDS_BOUND (PITCH_MAX * ROWS_MAX)
#ifdef BOXW  // a tighter allocation for one angle (more work-groups per SM); rows are cut if it does not fit
#define BOX_WORDS BOXW
#else
#define BOX_WORDS (BOX_WORDS_BOUND < 12224 ? BOX_WORDS_BOUND : 12224)
#endif
#if BOX_WORDS_BOUND > 12224 && !defined(ALLOW_CLAMP) && !defined(BOXW)
#error "tile too large: the box may not fit in 48 KiB at some angle (-DALLOW_CLAMP: rows are cut, check the output)"
#endif

inline long floor_shift(const long v, const int k) { return v >= 0 ? v >> k : ~((~v) >> k); }

#ifdef __NV_CL_C_VERSION
inline uint prmt(const uint a, const uint b, const uint s) {
  uint d;
  asm("prmt.b32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(s));
  return d;
}
inline uint hsub2(const uint a, const uint b) {
  uint d;
  asm("sub.rn.f16x2 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
  return d;
}
inline uint hadd2(const uint a, const uint b) {
  uint d;
  asm("add.rn.f16x2 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
  return d;
}
inline uint dp2a(const uint a, const uint b) {
  uint d;
  asm("dp2a.lo.u32.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(0));
  return d;
}
inline uint hfma2(const uint a, const uint b, const uint c) {
  uint d;
  asm("fma.rn.f16x2 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
  return d;
}
#else
inline uint prmt(const uint a, const uint b, const uint s) {
  const ulong v = ((ulong)b << 32) | a;
  uint d = 0;
  for (int i = 0; i < 4; ++i) {
    const uint n = (s >> (4 * i)) & 15u;
    uint byte = (uint)(v >> (8 * (n & 7u))) & 255u;
    if (n & 8u) byte = (byte & 128u) ? 255u : 0u;
    d |= byte << (8 * i);
  }
  return d;
}
inline float h2f(const uint h) {
  const ushort t = (ushort)h;
  return vload_half(0, (const __private half*)&t);
}
inline uint f2h(const float f) {
  ushort t;
  vstore_half_rte(f, 0, (__private half*)&t);
  return t;
}
inline uint hsub2(const uint a, const uint b) {
  return f2h(h2f(a) - h2f(b)) | (f2h(h2f(a >> 16) - h2f(b >> 16)) << 16);
}
inline uint hadd2(const uint a, const uint b) {
  return f2h(h2f(a) + h2f(b)) | (f2h(h2f(a >> 16) + h2f(b >> 16)) << 16);
}
inline uint hfma2(const uint a, const uint b, const uint c) {
  return f2h(fma(h2f(a), h2f(b), h2f(c))) | (f2h(fma(h2f(a >> 16), h2f(b >> 16), h2f(c >> 16))) << 16);
}
#endif

// 17 bytes of source row yy from column xx (16-aligned): v = bytes xx..xx+15, e = byte xx+16.
inline void load_row(__global const uchar* restrict in, const int yy, const int xx, const int inW, const int inH,
                     const uint bg, uint4* v, uint* e) {
  const uint bgw = bg * 0x01010101u;
  if (yy < 0 || yy >= inH) {
    *v = (uint4)(bgw);
    *e = bg;
    return;
  }
  __global const uchar* row = in + (size_t)yy * inW;
  if ((inW & 15) == 0 && xx >= 0 && xx + 16 < inW) {
    *v = *(__global const uint4*)(row + xx);
    *e = row[xx + 16];
    return;
  }
  uint t[4];
  for (int i = 0; i < 4; ++i) {
    uint w = 0;
    for (int b = 0; b < 4; ++b) {
      const int x = xx + 4 * i + b;
      w |= (x >= 0 && x < inW ? (uint)row[x] : bg) << (8 * b);
    }
    t[i] = w;
  }
  *v = (uint4)(t[0], t[1], t[2], t[3]);
  *e = (xx + 16 >= 0 && xx + 16 < inW) ? (uint)row[xx + 16] : bg;
}

// Shifted copy: bytes 1..4 of the 17-byte run, per dword.
inline uint4 shifted(const uint4 v, const uint e) {
  return (uint4)(prmt(v.x, v.y, 0x4321), prmt(v.y, v.z, 0x4321), prmt(v.z, v.w, 0x4321), prmt(v.w, e, 0x4321));
}

// Words of one dword position from rows a (top) and b (bottom) and their shifted copies.
inline uint4 pair_words(const uint a, const uint as, const uint b, const uint bs) {
  return (uint4)(prmt(a, b, 0x5410), prmt(a, b, 0x6521), prmt(a, b, 0x7632), prmt(as, bs, 0x7632));
}

inline void store_px(__global uchar* restrict out, const int x, const int y, const int outW, const int outH,
                     const uint* v) {
  if (y >= outH || x >= outW) return;
  __global uchar* p = out + (size_t)y * outW + x;
  if ((outW & (PX - 1)) == 0) {
#if PX == 2
    *(__global ushort*)p = (ushort)v[0];
#elif PX == 4
    *(__global uint*)p = v[0];
#elif PX == 8
    *(__global uint2*)p = (uint2)(v[0], v[1]);
#else
    *(__global uint4*)p = (uint4)(v[0], v[1], v[2], v[3]);
#endif
  } else {
    for (int k = 0; k < PX && x + k < outW; ++k) p[k] = (uchar)(v[k >> 2] >> (8 * (k & 3)));
  }
}

__kernel __attribute__((reqd_work_group_size(NX, NY, 1))) void rot_pair(
    read_only image2d_t src, __global uchar* restrict out, const int inW, const int inH, const int outW,
    const int outH, const int cosQ, const int sinQ, const uchar background, __global const uchar* restrict in) {
  __local uint4 box4[BOX_WORDS / 4];
  __local uint* box = (__local uint*)box4;
  const int lx = get_local_id(0), ly = get_local_id(1), tid = ly * NX + lx;
  const int tileX = get_group_id(0) * TW, tileY = get_group_id(1) * TH;

  // Source point of the tile's first pixel in 2^-17 px relative to pixel centres; the corners of the
  // tile bound the box (affine map).
  const long qx0 = (long)cosQ * (2 * tileX + 1 - outW) + (long)sinQ * (2 * tileY + 1 - outH) + ((long)inW << 16) - 65536;
  const long qy0 = -(long)sinQ * (2 * tileX + 1 - outW) + (long)cosQ * (2 * tileY + 1 - outH) + ((long)inH << 16) - 65536;
  const int c2 = 2 * cosQ, s2 = 2 * sinQ;
  const int ax = (TW - 1) * c2, bxs = (TH - 1) * s2, ay = -(TW - 1) * s2, bys = (TH - 1) * c2;
  const int xmin = (int)floor_shift(qx0 + min(ax, 0) + min(bxs, 0), 17);
  const int xlast = (int)floor_shift(qx0 + max(ax, 0) + max(bxs, 0), 17) + 1;  // last word column
  const int ymin = (int)floor_shift(qy0 + min(ay, 0) + min(bys, 0), 17);
  const int ylast = (int)floor_shift(qy0 + max(ay, 0) + max(bys, 0), 17) + 1;
  const int bx0 = xmin & ~15;
  const int chunks = (xlast + 1 - bx0 + 15) >> 4;
  const int pitch = 16 * chunks + ((PMOD - 16 * chunks) & 31);
  const int rows = min(ylast + 1 - ymin, BOX_WORDS / pitch);

  // ---- stage: thread = (chunk, strip of consecutive rows); rows in batches of SR, each batch's
  // SR + 1 row loads issued before any is used (one memory latency per batch, not per row) ----
  {
    const int strips = NT / chunks;
    const int chunk = tid % chunks, strip = tid / chunks;
    const int per = (rows + strips - 1) / strips;
    const int r0 = strip * per, r1 = min(r0 + per, rows);
    const int xx = bx0 + 16 * chunk;
    const bool fast = (inW & 15) == 0 && xx >= 0 && xx + 16 < inW;
    const uint bgw = background * 0x01010101u;
    for (int rb = (strip < strips && DBG != 5 ? r0 : r1); rb < r1; rb += SR) {
      const int n = min(SR, r1 - rb);
      uint4 v[SR + 1], vs[SR + 1];
      uint e[SR + 1];
#pragma unroll
      for (int i = 0; i <= SR; ++i) {
        const int yy = ymin + rb + i;
#if DBG == 3
        v[i] = (uint4)(tid + i);
        e[i] = i;
#else
        if (fast) {
          const bool ok = i <= n && yy >= 0 && yy < inH;
          __global const uchar* p = in + (size_t)(ok ? yy : 0) * inW + xx;
          v[i] = ok ? *(__global const uint4*)p : (uint4)(bgw);
          e[i] = ok ? (uint)p[16] : (uint)background;
        } else if (i <= n) {
          load_row(in, yy, xx, inW, inH, background, &v[i], &e[i]);
        }
#endif
      }
#pragma unroll
      for (int i = 0; i <= SR; ++i) vs[i] = shifted(v[i], e[i]);
#pragma unroll
      for (int i = 0; i < SR; ++i) {
        if (i < n) {
          __local uint4* dst = box4 + (((rb + i) * pitch) >> 2) + 4 * chunk;
          dst[0] = pair_words(v[i].x, vs[i].x, v[i + 1].x, vs[i + 1].x);
          dst[1] = pair_words(v[i].y, vs[i].y, v[i + 1].y, vs[i + 1].y);
          dst[2] = pair_words(v[i].z, vs[i].z, v[i + 1].z, vs[i + 1].z);
          dst[3] = pair_words(v[i].w, vs[i].w, v[i + 1].w, vs[i + 1].w);
        }
      }
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);

  // ---- blend ----
  const int relx = (int)((qx0 - ((long)bx0 << 17)) >> 1) + 128 + 0x44000000;
  const int rely = (int)((qy0 - ((long)ymin << 17)) >> 1) + 128 + 0x44000000;
  const uint K64 = 0x64646464u, C1024 = 0x64006400u, C4 = 0x44004400u;
  const int x = tileX + PX * lx;
  const uint pb = 1u | ((uint)pitch << 8);
#if DBG == 4
  for (int j = 0; j < PY; ++j) {
    uint v[(PX + 3) / 4];
    for (int i = 0; i < (PX + 3) / 4; ++i) v[i] = box[(tid * 5 + 7 * j + i) % (BOX_WORDS - 1)];
    store_px(out, x, tileY + ly + NY * j, outW, outH, v);
  }
  return;
#endif
#pragma unroll
  for (int j = 0; j < PY; ++j) {
    const int oy = ly + NY * j;
    const int bqx = relx + PX * lx * cosQ + oy * sinQ, bqy = rely - PX * lx * sinQ + oy * cosQ;
    uint vb[PX / 2];
#pragma unroll
    for (int k = 0; k < PX; k += 2) {
      const uint qxa = (uint)(bqx + k * cosQ), qya = (uint)(bqy - k * sinQ);
      const uint qxb = (uint)(bqx + (k + 1) * cosQ), qyb = (uint)(bqy - (k + 1) * sinQ);
#if ADDR == 1 && defined(__NV_CL_C_VERSION)
      const uint w0 = box[dp2a(prmt(qxa, qya, 0xE6A2), pb)];  // (ix, 0, iy, 0) . (1, pitch)
      const uint w1 = box[dp2a(prmt(qxb, qyb, 0xE6A2), pb)];
#else
      const uint w0 = box[((qya >> 16) & 255u) * pitch + ((qxa >> 16) & 255u)];
      const uint w1 = box[((qyb >> 16) & 255u) * pitch + ((qxb >> 16) & 255u)];
#endif
      const uint X = prmt(w0, w1, 0x5140), Y = prmt(w0, w1, 0x7362);  // (a0 a1 b0 b1), (c0 c1 d0 d1)
      const uint TL = prmt(X, K64, 0x4140), TR = prmt(X, K64, 0x4342);
      const uint BL = prmt(Y, K64, 0x4140), BR = prmt(Y, K64, 0x4342);
      const uint fx = hsub2(prmt(qxa, qxb, 0x7531), C4), fy = hsub2(prmt(qya, qyb, 0x7531), C4);
      const uint top = hfma2(fx, hsub2(TR, TL), hsub2(TL, C1024));
      const uint bot = hfma2(fx, hsub2(BR, BL), hsub2(BL, C1024));
      vb[k / 2] = hadd2(hfma2(fy, hsub2(bot, top), top), C1024);
    }
    uint v[(PX + 3) / 4];
#if PX == 2
    v[0] = prmt(vb[0], 0, 0x4420);
#else
#pragma unroll
    for (int i = 0; i < PX / 4; ++i) v[i] = prmt(vb[2 * i], vb[2 * i + 1], 0x6420);
#endif
    store_px(out, x, tileY + oy, outW, outH, v);
  }
}
