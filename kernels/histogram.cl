// 256-bin histograms of gray or RGBA images, merged and reduced on the device.
// Per pixel: gray counts its value; RGBA counts R, G, B, A and the luminance
// (77 R + 150 G + 29 B + 128) >> 8 (the same integers as the CPU reference), so
// the result has HIST_CHANNELS x 256 bins, channel-major.
// Kernels (see compute/image_ops.cpp):
//   histogram_subhist       the seed's design: every work-item counts into its own
//                           uchar sub-histogram in local memory, then the group sums
//                           them into one partial histogram. A uchar counts to 255, so
//                           a work-item never takes more than PIXELS_PER_ITEM <= 255
//                           pixels (the seed's 256 per item wraps to 0 on an image of
//                           one value); bigger images just use more work-groups.
//   histogram_local_atomic  one histogram per work-group in local memory (COPIES
//                           interleaved copies), atomic increments, 16-byte loads in a
//                           grid-stride loop over the whole image
//   histogram_merge         sums the groups' partial histograms (no host loop)
//   histogram_stats         one 256-item work-group per channel: tree reduction of the
//                           bins (the seed's reduction) to count, sum, sum of squares,
//                           min and max
// Build options: -DCHANNELS=1|4 and -DSUBHIST -DWG=.. -DPIXELS_PER_ITEM=..  or
//                -DLOCAL_ATOMIC -DWG=.. -DCOPIES=..

#ifndef CHANNELS
#define CHANNELS 1
#endif
#if CHANNELS == 1
#define HIST_CHANNELS 1
#elif CHANNELS == 4
#define HIST_CHANNELS 5
#else
#error "CHANNELS must be 1 or 4"
#endif
#define BINS 256
#define HIST_BINS (HIST_CHANNELS * BINS)
#define LUMA(r, g, b) ((77u * (r) + 150u * (g) + 29u * (b) + 128u) >> 8)

#if !defined(SUBHIST) && !defined(LOCAL_ATOMIC)
#define SUBHIST
#define LOCAL_ATOMIC
#endif
#ifndef WG
#if CHANNELS == 4
#define WG 32  // keeps a plain build's RGBA sub-histograms within 48 KB of local memory
#else
#define WG 128
#endif
#endif

// ---- per-work-item uchar sub-histograms (the seed) --------------------------------------
#ifdef SUBHIST
#ifndef PIXELS_PER_ITEM
#define PIXELS_PER_ITEM 255
#endif
#if PIXELS_PER_ITEM > 255
#error "PIXELS_PER_ITEM above 255 would overflow the uchar bins"
#endif
#if WG % 4 != 0 || WG > 512
#error "WG must be a multiple of 4, at most 512"
#endif
#define WORDS (WG / 4)  // 32-bit words per bin row

// Counter of item i for bin b is byte b * WG + i (the seed used i * 256 + b): the
// items of a group increment bytes of the same row, and the merge reads a row as
// WG / 4 consecutive words.
__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void histogram_subhist(__global const uchar* restrict in,
                                                                               const uint pixels,
                                                                               __global uint* restrict partials) {
  __local uint sub32[HIST_BINS * WORDS];
  __local uchar* sub = (__local uchar*)sub32;
  const uint lid = get_local_id(0), group = get_group_id(0);
  for (uint i = lid; i < HIST_BINS * WORDS; i += WG) sub32[i] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);

  // Pixel k of this item is first + k * WG: the group reads consecutive pixels.
  const uint first = group * (WG * PIXELS_PER_ITEM) + lid;
  for (uint k = 0; k < PIXELS_PER_ITEM; ++k) {
    const uint p = first + k * WG;
    if (p >= pixels) break;
#if CHANNELS == 1
    sub[in[p] * WG + lid]++;
#else
    const uchar4 c = ((__global const uchar4*)in)[p];
    sub[(0 * BINS + c.x) * WG + lid]++;
    sub[(1 * BINS + c.y) * WG + lid]++;
    sub[(2 * BINS + c.z) * WG + lid]++;
    sub[(3 * BINS + c.w) * WG + lid]++;
    sub[(4 * BINS + LUMA(c.x, c.y, c.z)) * WG + lid]++;
#endif
  }
  barrier(CLK_LOCAL_MEM_FENCE);

  // Sum each bin over the items: 4 byte counters per word, added pairwise into
  // two 16-bit lanes (at most 2 x 255 per word, WORDS <= 128 words: < 65536).
  // Item lid starts at word lid so that items reading different rows at the same
  // step hit different banks.
  for (uint bin = lid; bin < HIST_BINS; bin += WG) {
    __local const uint* row = sub32 + bin * WORDS;
    uint acc = 0;
    for (uint j = 0; j < WORDS; ++j) {
      const uint w = row[(j + lid) & (WORDS - 1)];
      acc += (w & 0x00ff00ffu) + ((w >> 8) & 0x00ff00ffu);
    }
    partials[group * HIST_BINS + bin] = (acc & 0xffffu) + (acc >> 16);
  }
}
#endif

// ---- local-memory atomics per work-group -------------------------------------------------
#ifdef LOCAL_ATOMIC
#ifndef COPIES
#define COPIES 1
#endif
// Copy c of bin b lives at b * COPIES + c: items of a warp that hit the same bin
// (flat images) use COPIES different words in different banks.
#define COUNT(bin) atomic_inc(&hist[(bin)*COPIES + copy])

__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void histogram_local_atomic(
    __global const uchar* restrict in, const uint pixels, __global uint* restrict partials) {
  __local uint hist[HIST_BINS * COPIES];
  const uint lid = get_local_id(0);
  for (uint i = lid; i < HIST_BINS * COPIES; i += WG) hist[i] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  const uint copy = lid % COPIES;
  const uint gid = get_global_id(0), stride = get_global_size(0);
  __global const uchar16* in16 = (__global const uchar16*)in;
#if CHANNELS == 1
  const uint vectors = pixels / 16;  // 16 gray pixels per load
  for (uint i = gid; i < vectors; i += stride) {
    const uchar16 v = in16[i];
    COUNT(v.s0); COUNT(v.s1); COUNT(v.s2); COUNT(v.s3);
    COUNT(v.s4); COUNT(v.s5); COUNT(v.s6); COUNT(v.s7);
    COUNT(v.s8); COUNT(v.s9); COUNT(v.sa); COUNT(v.sb);
    COUNT(v.sc); COUNT(v.sd); COUNT(v.se); COUNT(v.sf);
  }
  for (uint p = vectors * 16 + gid; p < pixels; p += stride) COUNT(in[p]);
#else
#define COUNT_RGBA(r, g, b, a)                                           \
  {                                                                      \
    COUNT(r); COUNT(BINS + (g)); COUNT(2 * BINS + (b)); COUNT(3 * BINS + (a)); \
    COUNT(4 * BINS + LUMA((uint)(r), (uint)(g), (uint)(b)));             \
  }
  const uint vectors = pixels / 4;  // 4 RGBA pixels per load
  for (uint i = gid; i < vectors; i += stride) {
    const uchar16 v = in16[i];
    COUNT_RGBA(v.s0, v.s1, v.s2, v.s3);
    COUNT_RGBA(v.s4, v.s5, v.s6, v.s7);
    COUNT_RGBA(v.s8, v.s9, v.sa, v.sb);
    COUNT_RGBA(v.sc, v.sd, v.se, v.sf);
  }
  __global const uchar4* in4 = (__global const uchar4*)in;
  for (uint p = vectors * 4 + gid; p < pixels; p += stride) {
    const uchar4 c = in4[p];
    COUNT_RGBA(c.x, c.y, c.z, c.w);
  }
#endif
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint bin = lid; bin < HIST_BINS; bin += WG) {
    uint sum = 0;
    for (uint c = 0; c < COPIES; ++c) sum += hist[bin * COPIES + c];
    partials[get_group_id(0) * HIST_BINS + bin] = sum;
  }
}
#endif

// ---- merge: bins[b] = sum over groups of partials[g][b] -------------------------------------
// Work-group (32, rows): 32 consecutive bins per group, the rows stride over the
// partial histograms (coalesced 128-byte reads), four loads in flight per item,
// then the rows' sums are added through local memory. rows <= 32.
__kernel void histogram_merge(__global const uint* restrict partials, const uint count, const uint binCount,
                              __global uint* restrict bins) {
  __local uint sums[32 * 32];
  const uint lx = get_local_id(0), ly = get_local_id(1), rows = get_local_size(1);
  const uint bin = get_group_id(0) * 32 + lx;
  uint s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  uint g = ly;
  for (; g + 3 * rows < count; g += 4 * rows) {
    s0 += partials[g * binCount + bin];
    s1 += partials[(g + rows) * binCount + bin];
    s2 += partials[(g + 2 * rows) * binCount + bin];
    s3 += partials[(g + 3 * rows) * binCount + bin];
  }
  for (; g < count; g += rows) s0 += partials[g * binCount + bin];
  sums[ly * 32 + lx] = s0 + s1 + s2 + s3;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (ly == 0) {
    uint total = 0;
    for (uint r = 0; r < rows; ++r) total += sums[r * 32 + lx];
    bins[bin] = total;
  }
}

// ---- statistics: a tree reduction over the 256 bins of each channel ------------------------
// moments[channel * 5 + ...] = count, sum, sum of squares, min, max (exact integers;
// the host derives mean and standard deviation, median and percentiles).
__kernel __attribute__((reqd_work_group_size(BINS, 1, 1))) void histogram_stats(__global const uint* restrict bins,
                                                                               __global ulong* restrict moments) {
  __local ulong count[BINS], sum[BINS], squares[BINS];
  __local int lo[BINS], hi[BINS];
  const uint b = get_local_id(0), channel = get_group_id(0);
  const ulong n = bins[channel * BINS + b];
  count[b] = n;
  sum[b] = n * b;
  squares[b] = n * b * b;
  lo[b] = n ? (int)b : BINS;
  hi[b] = n ? (int)b : -1;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = BINS / 2; s > 0; s >>= 1) {
    if (b < s) {
      count[b] += count[b + s];
      sum[b] += sum[b + s];
      squares[b] += squares[b + s];
      lo[b] = min(lo[b], lo[b + s]);
      hi[b] = max(hi[b], hi[b + s]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (b == 0) {
    __global ulong* m = moments + channel * 5;
    m[0] = count[0];
    m[1] = sum[0];
    m[2] = squares[0];
    m[3] = count[0] ? (ulong)lo[0] : 0;
    m[4] = count[0] ? (ulong)hi[0] : 0;
  }
}
