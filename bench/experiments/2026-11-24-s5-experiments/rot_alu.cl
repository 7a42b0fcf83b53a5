// EXPERIMENTAL: bilinear rotation of an 8-bit gray image without texture units.
//
// Idea: the texture path is limited to ~2.4 filtered fetches/clk/SM.  Here each
// work-group stages the source region its output tile maps to into local
// memory as "quads" (one 32-bit word per source position holding the 4 bilinear
// taps), so every output pixel costs ONE 32-bit local read + a handful of ALU ops.
//
// Geometry (must match the CPU reference in rotb.cpp): output pixel (x,y),
// px = 2x+1-outW, py = 2y+1-outH; source point in 2^-17 px units, relative to
// pixel centres:
//   qx = cosQ*px + sinQ*py + (inW<<16) - 65536,  qy = -sinQ*px + cosQ*py + (inH<<16) - 65536
//   x0 = floor(qx/2^17), fx = frac; taps p(x0..x0+1, y0..y0+1), outside = background.
//
// Compile-time options (-D):
//   TW, TH   output tile (pixels) per work-group
//   PX       consecutive output pixels per item in a row (4, 8 or 16 -> uint/uint2/uint4 store)
//   PY       output rows per item (rows ly, ly+TH/PY, ...)
//   CW       quads per staging chunk (4, 8 or 16): one item builds CW quads of a row per step
//   PAD      local pitch = staged width + PAD (quads)
//   PMOD     if >= 0: pitch additionally rounded up so that pitch % 32 == PMOD
//   RB       staging rows whose global loads are issued together (1 = no overlap)
//   COORD    1: float coordinates (magic-number floor, FP32 pipe)
//            0: 9.23 fixed-point coordinates (integer pipe)
//   USE_PRMT 1: byte permutes via inline PTX prmt.b32 (NVIDIA only); 0: portable C
// Work-group size is (TW/PX, TH/PY); global size (ceil(outW/TW)*TW/PX, ceil(outH/TH)*TH/PY).
// Assumes |cosQ|, |sinQ| <= 65536 (a rotation); anything else still gives correct
// results through the slow per-pixel fallback if the staged box would not fit.

#ifndef TW
#define TW 64
#endif
#ifndef TH
#define TH 32
#endif
#ifndef PX
#define PX 8
#endif
#ifndef PY
#define PY 2
#endif
#ifndef CW
#define CW 8
#endif
#ifndef PAD
#define PAD 1
#endif
#ifndef PMOD
#define PMOD -1
#endif
#ifndef RB
#define RB 4       // staging: source rows loaded per batch (latency hiding)
#endif
#ifndef COORD
#define COORD 1
#endif
#ifndef USE_PRMT
#define USE_PRMT 0
#endif
// DBG (timing diagnostics only, output is WRONG when != 0):
//   1 = staging only (blend replaced by a constant), 2 = no staging (blend reads
//   uninitialised local memory), 3 = full work but conflict-free local read addresses
#ifndef DBG
#define DBG 0
#endif

#define NX (TW / PX)
#define NY (TH / PY)
#define NITEMS (NX * NY)

#if (TW % PX) || (TH % PY) || !(PX == 4 || PX == 8 || PX == 16) || !(CW == 4 || CW == 8 || CW == 16)
#error "bad TW/TH/PX/PY/CW"
#endif

// Margin (in quads) around the exact footprint: float coordinates may round a
// floor down/up by one at exact pixel boundaries (harmless, blend is continuous).
#if COORD
#define MARGIN 1
#else
#define MARGIN 0
#endif

// Upper bound of staged quads (pitch * rows) over all rotation angles.
// Footprint extents a = (TW-1)|c| + (TH-1)|s|, b = (TW-1)|s| + (TH-1)|c| (pixels) with
// a*b <= (TW+TH-2)^2/2 and a, b <= sqrt((TW-1)^2+(TH-1)^2) <= DMAX.
// Width adds 2 (floors) + 2*MARGIN + 2*(CW-1) (alignment) + pitch extra; height 2 + 2*MARGIN.
#define MAXT (TW > TH ? TW : TH)
#define MINT (TW > TH ? TH : TW)
#define DMAX (MAXT + (MINT - 1) / 2 + 1)
#if PMOD >= 0
#define PEXTRA (PAD + 31)
#else
#define PEXTRA (PAD)
#endif
#define E1 (2 + 2 * MARGIN + 2 * (CW - 1) + PEXTRA)
#define E2 (2 + 2 * MARGIN)
#define QMAX ((TW + TH - 2) * (TW + TH - 2) / 2 + 1 + (E1 + E2) * DMAX + E1 * E2)

// 128-bit local stores of 4 quads need pitch % 4 == 0 (bw is a multiple of CW >= 4).
#if (PAD % 4 == 0) && (PMOD < 0 || PMOD % 4 == 0)
#define VEC_STS 1
#else
#define VEC_STS 0
#endif

// ---- byte permute with CUDA __byte_perm / PTX prmt semantics ----------------
// result byte i = byte (sel >> 4i) & 7 of the 8-byte value {b:a}.
#if USE_PRMT
inline uint perm(uint a, uint b, uint s)
{
    uint r;
    asm("prmt.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(s));
    return r;
}
#else
// Portable; with a constant selector the compiler folds this to shifts/masks.
inline uint perm(uint a, uint b, uint s)
{
    ulong v = ((ulong)b << 32) | a;
    uint r = 0;
    for (int i = 0; i < 4; ++i)
        r |= (uint)((v >> (((s >> (4 * i)) & 7) * 8)) & 0xff) << (8 * i);
    return r;
}
#endif

// ---- staging helpers ---------------------------------------------------------
// Row words of source row y, bytes gx .. gx+CW+3 (we need gx .. gx+CW).
inline void load_row_words(uint w[CW / 4 + 1], __global const uchar* restrict in,
                           int inW, int inH, int gx, int y, bool colFast, uint bgw, uint bg)
{
    if (y < 0 || y >= inH) {
        for (int i = 0; i <= CW / 4; ++i) w[i] = bgw;
        return;
    }
    __global const uchar* row = in + (size_t)y * (size_t)inW;
    if (colFast) {
        // gx % CW == 0, inW % 4 == 0 (and inW % CW == 0 for the vector part, see caller)
        __global const uint* p = (__global const uint*)(row + gx);
#if CW == 4
        w[0] = p[0];
#elif CW == 8
        uint2 v = *(__global const uint2*)p;
        w[0] = v.x; w[1] = v.y;
#else
        uint4 v = *(__global const uint4*)p;
        w[0] = v.x; w[1] = v.y; w[2] = v.z; w[3] = v.w;
#endif
        w[CW / 4] = p[CW / 4];
    } else {
        // slow exact path: image borders, odd widths
        for (int i = 0; i <= CW / 4; ++i) {
            uint v = 0;
            for (int b = 0; b < 4; ++b) {
                int x = gx + 4 * i + b;
                uint px = (x >= 0 && x < inW) ? (uint)row[x] : bg;
                v |= px << (8 * b);
            }
            w[i] = v;
        }
    }
}

// "Pair words" of a row: pw[j] = (R[2j], R[2j+1], R[2j+1], R[2j+2]) = horizontal
// tap pairs for quads 2j and 2j+1.  Computed once per row and reused by the quad
// rows above and below it.
inline void row_pairs(uint pw[CW / 2], const uint w[CW / 4 + 1])
{
    for (int i = 0; i < CW / 4; ++i) {
        pw[2 * i] = perm(w[i], 0u, 0x2110);
        pw[2 * i + 1] = perm(w[i], w[i + 1], 0x4332);
    }
}

// Exact reference pixel from global memory (fallback only).
inline uchar slow_pixel(__global const uchar* restrict in, int inW, int inH, uint bg, long qx, long qy)
{
    long x0 = qx >> 17, y0 = qy >> 17;
    int fx = (int)((qx >> 5) & 4095), fy = (int)((qy >> 5) & 4095);
    uint p[4];
    for (int t = 0; t < 4; ++t) {
        long xx = x0 + (t & 1), yy = y0 + (t >> 1);
        p[t] = (xx >= 0 && xx < inW && yy >= 0 && yy < inH) ? (uint)in[yy * (long)inW + xx] : bg;
    }
    long top = (long)p[0] * (4096 - fx) + (long)p[1] * fx;
    long bot = (long)p[2] * (4096 - fx) + (long)p[3] * fx;
    return (uchar)((top * (4096 - fy) + bot * fy + (1L << 23)) >> 24);
}

__kernel __attribute__((reqd_work_group_size(NX, NY, 1)))
void rotate_gray_quads(__global const uchar* restrict in, __global uchar* restrict out,
                       const int inW, const int inH, const int outW, const int outH,
                       const int cosQ, const int sinQ, const uchar background)
{
    // 16-byte aligned so that 4 quads can be stored with one 128-bit store.
    __local uint4 quads4[(QMAX + 3) / 4];
    __local uint* quads = (__local uint*)quads4;

    const int lx = get_local_id(0), ly = get_local_id(1);
    const int tid = ly * NX + lx;
    const int tileX = get_group_id(0) * TW, tileY = get_group_id(1) * TH;
    const uint bg = background;

    // Source point of the tile's first pixel (exact, 64-bit; once per item).
    const int px0 = 2 * tileX + 1 - outW, py0 = 2 * tileY + 1 - outH;
    const long qx0 = (long)cosQ * px0 + (long)sinQ * py0 + ((long)inW << 16) - 65536;
    const long qy0 = -(long)sinQ * px0 + (long)cosQ * py0 + ((long)inH << 16) - 65536;
    // Per output pixel the source moves by (c2, -s2) along x and (s2, c2) along y.
    const int c2 = 2 * cosQ, s2 = 2 * sinQ;
    // Split into integer pixel + remainder so everything after is 32-bit.
    const int rx = (int)(qx0 >> 17), ry = (int)(qy0 >> 17);
    const int remx = (int)(qx0 & 131071), remy = (int)(qy0 & 131071);
    // Footprint of the whole tile = bounding box of its 4 corner pixels (affine map).
    const int ax = (TW - 1) * c2, bx = (TH - 1) * s2, ay = -(TW - 1) * s2, by = (TH - 1) * c2;
    const int xmin = rx + ((remx + min(ax, 0) + min(bx, 0)) >> 17) - MARGIN;
    const int xmax = rx + ((remx + max(ax, 0) + max(bx, 0)) >> 17) + MARGIN;
    const int ymin = ry + ((remy + min(ay, 0) + min(by, 0)) >> 17) - MARGIN;
    const int ymax = ry + ((remy + max(ay, 0) + max(by, 0)) >> 17) + MARGIN;
    // Staged quads: x in [bx0, bx0+bw), y in [by0, by0+bh); quad (x,y) = taps at x..x+1, y..y+1.
    const int bx0 = xmin & ~(CW - 1);                       // aligned chunks -> aligned loads
    const int bw = (xmax + 1 - bx0 + CW - 1) & ~(CW - 1);
    const int by0 = ymin, bh = ymax + 1 - ymin;
    int pitch = bw + PAD;
#if PMOD >= 0
    pitch += (PMOD - pitch) & 31;   // choose pitch % 32 to spread rotated reads over banks
#endif
    const bool fast = bw <= 400 && bh <= 400 && pitch * bh <= QMAX;   // uniform per group

    if (fast) {
        // ---------------- stage quads ----------------
        // Work unit = one column of CW quads x a segment of consecutive quad rows;
        // consecutive items take consecutive columns -> coalesced row loads.
        const int ncol = bw / CW;
        const int nseg = max(1, NITEMS / ncol);
        const int rowsPer = (bh + nseg - 1) / nseg;
        const uint bgw = bg * 0x01010101u;
        const bool rowsAligned = (inW % (CW < 4 ? 4 : CW)) == 0;  // vector loads aligned
        for (int u = tid; u < (DBG == 2 ? 0 : ncol * nseg); u += NITEMS) {
            const int col = u % ncol, seg = u / ncol;
            const int r0 = seg * rowsPer, r1 = min(bh, r0 + rowsPer);
            if (r0 >= r1) continue;
            const int gx = bx0 + col * CW;
            const bool colFast = rowsAligned && gx >= 0 && gx + CW + 4 <= inW;
            uint w[CW / 4 + 1], prev[CW / 2], cur[CW / 2];
            load_row_words(w, in, inW, inH, gx, by0 + r0, colFast, bgw, bg);
            row_pairs(prev, w);
            __local uint* dst = quads + r0 * pitch + col * CW;
            // Rows are processed in batches of RB: all RB row loads are issued before
            // any is used, so their global-memory latencies overlap (a load -> use
            // chain per row made staging latency-bound).
            for (int rb = r0; rb < r1; rb += RB) {
                uint wb[RB][CW / 4 + 1];
#pragma unroll
                for (int i = 0; i < RB; ++i)
                    if (rb + i < r1)
                        load_row_words(wb[i], in, inW, inH, gx, by0 + rb + i + 1, colFast, bgw, bg);
#pragma unroll
                for (int i = 0; i < RB; ++i) {
                    if (rb + i >= r1) break;
                    row_pairs(cur, wb[i]);
                    // quad byte order: [p00, p10, p01, p11] (top row pair, bottom row pair)
                    uint q[CW];
                    for (int j = 0; j < CW / 2; ++j) {
                        q[2 * j] = perm(prev[j], cur[j], 0x5410);
                        q[2 * j + 1] = perm(prev[j], cur[j], 0x7632);
                        prev[j] = cur[j];
                    }
#if VEC_STS
                    for (int j = 0; j < CW / 4; ++j)
                        ((__local uint4*)dst)[j] = (uint4)(q[4 * j], q[4 * j + 1], q[4 * j + 2], q[4 * j + 3]);
#else
                    for (int j = 0; j < CW; ++j) dst[j] = q[j];
#endif
                    dst += pitch;
                }
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);

        // ---------------- blend ----------------
        // Tap -> float without int->float conversion: prmt the tap byte into byte 1 of
        // 0x4B000080, i.e. f = 2^23 + 256*p + 128.  Differences of taps are exact, the
        // lerps keep the +128 offset, and the final float (in [2^23, 2^24), ulp 1)
        // is rounded to nearest by the FPU, so byte 1 of its bits is round(value).
#if COORD
        // |cosQ| < 2^22: int -> float via magic number (no I2F).
        const float MAGIC = 12582912.0f;   // 1.5 * 2^23: x + MAGIC rounds x to an integer
        const int MAGICI = 0x4B400000;
        const float dsx = (as_float(MAGICI + cosQ) - MAGIC) * (1.0f / 65536.0f);
        const float dsy = -(as_float(MAGICI + sinQ) - MAGIC) * (1.0f / 65536.0f);
#endif
        for (int r = 0; r < PY; ++r) {
            const int iy = ly + r * NY, ix = lx * PX;
            const int oy = tileY + iy, ox = tileX + ix;
            if (oy >= outH || ox >= outW) continue;
            // first pixel relative to the staged box, 2^-17 px units, in [0, 2^26)
            const int relx = remx + ((rx - bx0) << 17) + ix * c2 + iy * s2;
            const int rely = remy + ((ry - by0) << 17) - ix * s2 + iy * c2;
            uint res[PX];
#if COORD
            // float(relx)/2^17 - 0.5 via exponent 2^9 (ulp 2^-14 px, plenty), no I2F.
            // sx is the coordinate minus 0.5, so round(sx) == floor(coordinate).
            float sx = as_float(0x44000000 | (relx >> 3)) - 512.5f;
            float sy = as_float(0x44000000 | (rely >> 3)) - 512.5f;
#pragma unroll
            for (int k = 0; k < PX; ++k) {
                const float tx = sx + MAGIC, ty = sy + MAGIC;      // integer in low bits
                const int idx = (as_int(ty) - MAGICI) * pitch + (as_int(tx) - MAGICI);
                const float fx = (sx - (tx - MAGIC)) + 0.5f;       // exact, in [0,1]
                const float fy = (sy - (ty - MAGIC)) + 0.5f;
                sx += dsx; sy += dsy;
#else
            // 9.23 fixed point: integer part in bits 23..31, fraction in 0..22, so the
            // fraction becomes a float in [1,2) with a single OR.
            uint qax = (uint)relx << 6, qay = (uint)rely << 6;
            const uint dqx = (uint)cosQ << 7, dqy = (uint)(-sinQ) << 7;
#pragma unroll
            for (int k = 0; k < PX; ++k) {
                const int idx = (int)(qay >> 23) * pitch + (int)(qax >> 23);
                const float fx = as_float((qax & 0x7fffffu) | 0x3f800000u) - 1.0f;
                const float fy = as_float((qay & 0x7fffffu) | 0x3f800000u) - 1.0f;
                qax += dqx; qay += dqy;
#endif
#if DBG == 3
                const uint w = quads[ly * pitch + lx * PX + k + (idx & 0x40000000)];
#elif DBG == 1
                const uint w = (uint)idx & 0x3f3f3f3fu;
#else
                const uint w = quads[idx];
#endif
                const float f00 = as_float(perm(w, 0x4B000080u, 0x7604));
                const float f10 = as_float(perm(w, 0x4B000080u, 0x7614));
                const float f01 = as_float(perm(w, 0x4B000080u, 0x7624));
                const float f11 = as_float(perm(w, 0x4B000080u, 0x7634));
                const float top = mad(fx, f10 - f00, f00);
                const float bot = mad(fx, f11 - f01, f01);
                res[k] = as_uint(mad(fy, bot - top, top));
            }
            // pack byte 1 of 4 results into one word: 3 permutes per 4 pixels
            uint o[PX / 4];
            for (int j = 0; j < PX / 4; ++j) {
                const uint lo = perm(res[4 * j], res[4 * j + 1], 0x0051);
                const uint hi = perm(res[4 * j + 2], res[4 * j + 3], 0x0051);
                o[j] = perm(lo, hi, 0x5410);
            }
            __global uchar* dst = out + (size_t)oy * (size_t)outW + ox;
            if (ox + PX <= outW && (outW % PX) == 0) {
#if PX == 4
                *(__global uint*)dst = o[0];
#elif PX == 8
                *(__global uint2*)dst = (uint2)(o[0], o[1]);
#else
                *(__global uint4*)dst = (uint4)(o[0], o[1], o[2], o[3]);
#endif
            } else {
                for (int k = 0; k < PX; ++k)
                    if (ox + k < outW) dst[k] = (uchar)(o[k >> 2] >> (8 * (k & 3)));
            }
        }
    } else {
        // ---------------- fallback: footprint too big for local memory ----------------
        for (int r = 0; r < PY; ++r) {
            const int oy = tileY + ly + r * NY;
            if (oy >= outH) continue;
            for (int k = 0; k < PX; ++k) {
                const int ox = tileX + lx * PX + k;
                if (ox >= outW) break;
                const long px = 2 * ox + 1 - outW, py = 2 * oy + 1 - outH;
                const long qx = cosQ * px + sinQ * py + ((long)inW << 16) - 65536;
                const long qy = -sinQ * px + cosQ * py + ((long)inH << 16) - 65536;
#ifdef FALLBACK_MARK
                out[(size_t)oy * outW + ox] = 0x55;   // test aid: shows where the fallback ran
#else
                out[(size_t)oy * outW + ox] = slow_pixel(in, inW, inH, bg, qx, qy);
#endif
            }
        }
    }
}
