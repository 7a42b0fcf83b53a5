// 256-bin histograms of gray or RGBA images, merged and reduced on the device.
// Per pixel: gray counts its value; RGBA counts R, G, B, A and the luminance
// (77 R + 150 G + 29 B + 128) >> 8 (the same integers as the CPU reference), so
// the result has HIST_CHANNELS x 256 bins, channel-major.
// Kernels (see compute/image_histogram.cpp):
//   histogram_subhist       the seed's design: every work-item counts into its own
//                           uchar sub-histogram in local memory, then the group sums
//                           them into one partial histogram. A uchar counts to 255, so
//                           a work-item never takes more than PIXELS_PER_ITEM <= 255
//                           pixels (the seed's 256 per item wraps to 0 on an image of
//                           one value); bigger images just use more work-groups.
//   histogram_local_atomic  one histogram per work-group in local memory (COPIES
//                           interleaved copies: 32 gives every lane its own bank),
//                           atomic increments, 16-byte loads in a grid-stride loop
//   histogram_subhist_flush the seed's uchar counters without its limits: a fixed number
//                           of groups loops over the image; each item's 256 counters sit
//                           one bank per lane (no conflicts, no atomics) and are summed
//                           into the group's histogram every <= 255 pixels of the item
//                           With -DFUSED (variant local_atomic_fused) it is the only kernel:
//                           the groups add into device-wide sums with global atomics and the
//                           last group to finish moves the sums to the result and zeroes them
//                           (no partials, no merge kernel, no clearing command: the merge
//                           and its launch were a large part of a gray histogram's time,
//                           see docs/BENCHMARKS.md)
//   histogram_merge         sums the groups' partial histograms (no host loop)
//   histogram_stats         one 256-item work-group per channel: tree reduction of the
//                           bins (the seed's reduction) to count, sum, sum of squares,
//                           min and max; a scan of the bins for the median and percentiles
// Build options: -DCHANNELS=1|4 [-DCOUNT_MASK=1..31 (RGBA)] and -DSUBHIST -DWG=.. -DPIXELS_PER_ITEM=..  or
//                -DLOCAL_ATOMIC -DWG=.. -DCOPIES=..  or  -DSUBHIST_FLUSH -DWG=..

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
// RGBA: which of R, G, B, A, luminance (bits 0..4) are counted; the others stay
// zero. Counting fewer channels is less work (the UI counts what it shows).
#ifndef COUNT_MASK
#define COUNT_MASK 0x1F
#endif
#define COUNTED(channel) ((COUNT_MASK) & (1 << (channel)))
#define LUMA(r, g, b) ((77u * (r) + 150u * (g) + 29u * (b) + 128u) >> 8)

#if !defined(SUBHIST) && !defined(LOCAL_ATOMIC) && !defined(SUBHIST_FLUSH)
#define SUBHIST
#define LOCAL_ATOMIC
#define SUBHIST_FLUSH
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
#if (WG & (WG - 1)) != 0
#error "WG must be a power of two: the sum reads a bin row's words in a rotated order masked with WORDS - 1"
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
    if (COUNTED(0)) sub[(0 * BINS + c.x) * WG + lid]++;
    if (COUNTED(1)) sub[(1 * BINS + c.y) * WG + lid]++;
    if (COUNTED(2)) sub[(2 * BINS + c.z) * WG + lid]++;
    if (COUNTED(3)) sub[(3 * BINS + c.w) * WG + lid]++;
    if (COUNTED(4)) sub[(4 * BINS + LUMA(c.x, c.y, c.z)) * WG + lid]++;
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
// Copy c of bin b lives at b * COPIES + c, and item i counts into copy i % COPIES.
// With COPIES = 32 every lane of a warp (32 wide on NVIDIA) owns a bank: no bank
// conflicts whatever the data (random pixels collide on banks otherwise, flat
// images on one word); fewer copies trade that for local memory.
// Local memory holds only the counted channels (LOCAL_CHANNELS; channel c at slot
// SLOT(c)): counting R, G, B takes 3 KB per copy instead of 5, so 16 copies fit
// in 48 KB (faster for R, G, B: see docs/BENCHMARKS.md).
#define COUNT(bin) atomic_inc(&hist[(bin)*COPIES + copy])
#if CHANNELS == 1
#define LOCAL_CHANNELS 1
#define SLOT(c) 0
#else
#define MASK_BIT(c) (((COUNT_MASK) >> (c)) & 1)
#define LOCAL_CHANNELS (MASK_BIT(0) + MASK_BIT(1) + MASK_BIT(2) + MASK_BIT(3) + MASK_BIT(4))
// The number of counted channels below channel c.
#define SLOT(c) \
  (((c) > 0 ? MASK_BIT(0) : 0) + ((c) > 1 ? MASK_BIT(1) : 0) + ((c) > 2 ? MASK_BIT(2) : 0) + ((c) > 3 ? MASK_BIT(3) : 0))
#endif
#define LOCAL_BINS (LOCAL_CHANNELS * BINS)

#ifdef FUSED
#if __OPENCL_C_VERSION__ < 200
#error "local_atomic_fused needs OpenCL C 2.0 or later (-cl-std=CL2.0 or CL3.0) for its device-scope fence"
#endif
// Orders this work-item's global atomics against those of every other group
// (CUDA's __threadfence; NVIDIA compiles it to membar.gl).
#define DEVICE_FENCE() atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_acq_rel, memory_scope_device)
#endif

// partials: one histogram per group for the merge kernel; with FUSED, the
// device-wide sums (HIST_BINS words and a counter of finished groups, all zero
// between runs) and `bins` the result.
__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void histogram_local_atomic(
    __global const uchar* restrict in, const uint pixels, __global uint* restrict partials
#ifdef FUSED
    , __global uint* restrict bins
#endif
) {
  __local uint hist[LOCAL_BINS * COPIES];
  const uint lid = get_local_id(0);
  for (uint i = lid; i < LOCAL_BINS * COPIES; i += WG) hist[i] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  const uint copy = lid % COPIES;
  const uint gid = get_global_id(0), stride = get_global_size(0);
  __global const uchar16* in16 = (__global const uchar16*)in;
#if CHANNELS == 1
  const uint vectors = pixels / 16;  // 16 gray pixels per load
#define ATOMIC16(v)                                 \
  COUNT(v.s0); COUNT(v.s1); COUNT(v.s2); COUNT(v.s3); \
  COUNT(v.s4); COUNT(v.s5); COUNT(v.s6); COUNT(v.s7); \
  COUNT(v.s8); COUNT(v.s9); COUNT(v.sa); COUNT(v.sb); \
  COUNT(v.sc); COUNT(v.sd); COUNT(v.se); COUNT(v.sf)
  uint i = gid;
  for (; i + stride < vectors; i += 2 * stride) {  // two loads in flight
    const uchar16 v0 = in16[i], v1 = in16[i + stride];
    ATOMIC16(v0);
    ATOMIC16(v1);
  }
  if (i < vectors) {
    const uchar16 v = in16[i];
    ATOMIC16(v);
  }
  for (uint p = vectors * 16 + gid; p < pixels; p += stride) COUNT(in[p]);
#else
#define COUNT_RGBA(r, g, b, a)                                           \
  {                                                                      \
    if (COUNTED(0)) COUNT(SLOT(0) * BINS + (r));                         \
    if (COUNTED(1)) COUNT(SLOT(1) * BINS + (g));                         \
    if (COUNTED(2)) COUNT(SLOT(2) * BINS + (b));                         \
    if (COUNTED(3)) COUNT(SLOT(3) * BINS + (a));                         \
    if (COUNTED(4)) COUNT(SLOT(4) * BINS + LUMA((uint)(r), (uint)(g), (uint)(b))); \
  }
  const uint vectors = pixels / 4;  // 4 RGBA pixels per load
#define ATOMIC4(v)                      \
  COUNT_RGBA(v.s0, v.s1, v.s2, v.s3); \
  COUNT_RGBA(v.s4, v.s5, v.s6, v.s7); \
  COUNT_RGBA(v.s8, v.s9, v.sa, v.sb); \
  COUNT_RGBA(v.sc, v.sd, v.se, v.sf)
  uint i = gid;
  for (; i + stride < vectors; i += 2 * stride) {  // two loads in flight
    const uchar16 v0 = in16[i], v1 = in16[i + stride];
    ATOMIC4(v0);
    ATOMIC4(v1);
  }
  if (i < vectors) {
    const uchar16 v = in16[i];
    ATOMIC4(v);
  }
  __global const uchar4* in4 = (__global const uchar4*)in;
  for (uint p = vectors * 4 + gid; p < pixels; p += stride) {
    const uchar4 c = in4[p];
    COUNT_RGBA(c.x, c.y, c.z, c.w);
  }
#endif
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint bin = lid; bin < HIST_BINS; bin += WG) {
    const uint channel = bin / BINS;
    uint sum = 0;
    if (COUNTED(channel)) {  // the others stay zero
      __local const uint* copies = hist + (SLOT(channel) * BINS + bin % BINS) * COPIES;
      for (uint c = 0; c < COPIES; ++c) sum += copies[c];
    }
#ifdef FUSED
    if (sum) atomic_add(&partials[bin], sum);  // empty bins cost nothing
#else
    partials[get_group_id(0) * HIST_BINS + bin] = sum;
#endif
  }
#ifdef FUSED
  // The last group to finish (the counter after the sums says which) moves the
  // sums to the result and leaves zeros for the next run. Fence, then count: a
  // group counts itself only after its additions are visible device-wide, and
  // the last group reads the sums only after it has seen every count.
  __local uint last;
  DEVICE_FENCE();
  barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
  if (lid == 0) last = atomic_inc(&partials[HIST_BINS]) == get_num_groups(0) - 1;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (last) {
    DEVICE_FENCE();
    for (uint bin = lid; bin < HIST_BINS; bin += WG) bins[bin] = atomic_xchg(&partials[bin], 0u);
    if (lid == 0) atomic_xchg(&partials[HIST_BINS], 0u);
  }
#endif
}
#endif

// ---- uchar counters, one bank per lane, flushed: no atomics ------------------------------
#ifdef SUBHIST_FLUSH
#if WG % 32 != 0 || WG > 256
#error "WG must be a multiple of 32, at most 256"
#endif
#if (WG & (WG - 1)) != 0
#error "WG must be a power of two: the flush reads an item row's words in a rotated order masked with WG - 1"
#endif
#if CHANNELS == 1
#define FLUSH_PIXELS_PER_LOAD 16
#define FLUSH_LOADS 15  // 240 pixels per item between flushes
#else
#define FLUSH_PIXELS_PER_LOAD 4
#define FLUSH_LOADS 63  // 252 pixels (each counted in 5 channels) per item between flushes
#endif
#define QUADS (HIST_BINS / 4)
// Item i's counter for bin b: byte b % 4 of word (b / 4) * WG + i. Every word an
// item touches is in bank i % 32, so a warp's increments never conflict, whatever
// the pixels; each byte has one owner, so no atomics.
#define INC(bin) counters[((((bin) >> 2) * WG + lid) << 2) | ((bin)&3)]++
#if CHANNELS == 1
#define COUNT16(v)                                                                           \
  INC(v.s0); INC(v.s1); INC(v.s2); INC(v.s3); INC(v.s4); INC(v.s5); INC(v.s6); INC(v.s7);   \
  INC(v.s8); INC(v.s9); INC(v.sa); INC(v.sb); INC(v.sc); INC(v.sd); INC(v.se); INC(v.sf)
#else
#define COUNT_PIXEL(r, g, b, a)                                                              \
  if (COUNTED(0)) INC(r);                                                                    \
  if (COUNTED(1)) INC(BINS + (g));                                                           \
  if (COUNTED(2)) INC(2 * BINS + (b));                                                       \
  if (COUNTED(3)) INC(3 * BINS + (a));                                                       \
  if (COUNTED(4)) INC(4 * BINS + LUMA((uint)(r), (uint)(g), (uint)(b)))
#define COUNT16(v)                                                                           \
  COUNT_PIXEL(v.s0, v.s1, v.s2, v.s3); COUNT_PIXEL(v.s4, v.s5, v.s6, v.s7);                  \
  COUNT_PIXEL(v.s8, v.s9, v.sa, v.sb); COUNT_PIXEL(v.sc, v.sd, v.se, v.sf)
#endif

// Adds every item's counters into the group histogram and clears them. Item q
// sums quad q (4 bins) over the WG items: the 4 bytes of each word go to two
// 16-bit lanes pairwise (at most 2 x 255 x WG / 2 < 65536). Items start at word
// q so that the quads read at one step sit in different banks.
inline void flush(__local uint* words, __local uint* group, const uint lid) {
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint q = lid; q < QUADS; q += WG) {
    __local const uint* row = words + q * WG;
    uint even = 0, odd = 0;
    for (uint j = 0; j < WG; ++j) {
      const uint w = row[(j + q) & (WG - 1)];
      even += w & 0x00ff00ffu;
      odd += (w >> 8) & 0x00ff00ffu;
    }
    group[4 * q + 0] += even & 0xffffu;
    group[4 * q + 1] += odd & 0xffffu;
    group[4 * q + 2] += even >> 16;
    group[4 * q + 3] += odd >> 16;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint q = 0; q < QUADS; ++q) words[q * WG + lid] = 0;  // this item's own words
  barrier(CLK_LOCAL_MEM_FENCE);
}

__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void histogram_subhist_flush(
    __global const uchar* restrict in, const uint pixels, __global uint* restrict partials) {
  __local uint words[QUADS * WG];
  __local uint group[HIST_BINS];
  __local uchar* counters = (__local uchar*)words;
  const uint lid = get_local_id(0), g = get_group_id(0), groups = get_num_groups(0);
  for (uint q = 0; q < QUADS; ++q) words[q * WG + lid] = 0;
  for (uint b = lid; b < HIST_BINS; b += WG) group[b] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);

  // Each group takes a contiguous run of 16-byte loads; the group's items take
  // consecutive ones (coalesced), FLUSH_LOADS each between flushes.
  __global const uchar16* in16 = (__global const uchar16*)in;
  const uint loads = pixels / FLUSH_PIXELS_PER_LOAD;
  const uint per = (loads + groups - 1) / groups;
  const uint begin = min(g * per, loads), end = min(begin + per, loads);
  for (uint base = begin; base < end; base += FLUSH_LOADS * WG) {  // the same trip count for all items
    for (uint k = 0; k < FLUSH_LOADS; k += 3) {  // three loads in flight, then count them
      const uint i0 = base + k * WG + lid, i1 = i0 + WG, i2 = i1 + WG;
      const uchar16 v0 = i0 < end ? in16[i0] : (uchar16)(0);
      const uchar16 v1 = i1 < end ? in16[i1] : (uchar16)(0);
      const uchar16 v2 = i2 < end ? in16[i2] : (uchar16)(0);
      if (i0 < end) { COUNT16(v0); }
      if (i1 < end) { COUNT16(v1); }
      if (i2 < end) { COUNT16(v2); }
    }
    flush(words, group, lid);
  }
  // The pixels after the last whole load (fewer than 16), by the last group.
  if (g == groups - 1) {
    for (uint p = loads * FLUSH_PIXELS_PER_LOAD + lid; p < pixels; p += WG) {
#if CHANNELS == 1
      INC(in[p]);
#else
      const uchar4 c = ((__global const uchar4*)in)[p];
      COUNT_PIXEL(c.x, c.y, c.z, c.w);
#endif
    }
    flush(words, group, lid);
  }
  for (uint b = lid; b < HIST_BINS; b += WG) partials[g * HIST_BINS + b] = group[b];
}
#endif

// ---- merge: bins[b] = sum over groups of partials[g][b] -------------------------------------
// Work-group (8, rows), rows a power of two <= 128: 8 consecutive bins (one
// 32-byte sector of each partial histogram), the rows stride over the partial
// histograms with four loads in flight per item, then a tree reduction over the
// rows in local memory. binCount is a multiple of 8.
__kernel void histogram_merge(__global const uint* restrict partials, const uint count, const uint binCount,
                              __global uint* restrict bins) {
  __local uint sums[8 * 128];
  const uint lx = get_local_id(0), ly = get_local_id(1), rows = get_local_size(1);
  const uint bin = get_group_id(0) * 8 + lx;
  uint s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  uint g = ly;
  for (; g + 3 * rows < count; g += 4 * rows) {
    s0 += partials[g * binCount + bin];
    s1 += partials[(g + rows) * binCount + bin];
    s2 += partials[(g + 2 * rows) * binCount + bin];
    s3 += partials[(g + 3 * rows) * binCount + bin];
  }
  for (; g < count; g += rows) s0 += partials[g * binCount + bin];
  sums[ly * 8 + lx] = s0 + s1 + s2 + s3;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = rows / 2; s > 0; s >>= 1) {
    if (ly < s) sums[ly * 8 + lx] += sums[(ly + s) * 8 + lx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (ly == 0) bins[bin] = sums[lx];
}

// ---- statistics: a tree reduction over the 256 bins of each channel ------------------------
// moments[channel * STATS + ...] = count, sum, sum of squares, min, max (exact
// integers; the host derives mean and standard deviation), then the value at each
// of PERCENTILES (nearest rank: the smallest value whose cumulative count reaches
// ceil(p * N / 100), at least 1), found by a scan of the bins.
#ifndef PERCENTILES
#define PERCENTILES 1, 5, 25, 50, 75, 95, 99
#define PERCENTILE_COUNT 7
#endif
#define STATS (5 + PERCENTILE_COUNT)
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
  const ulong total = count[0];
  __global ulong* m = moments + channel * STATS;
  if (b == 0) {
    m[0] = total;
    m[1] = sum[0];
    m[2] = squares[0];
    m[3] = total ? (ulong)lo[0] : 0;
    m[4] = total ? (ulong)hi[0] : 0;
  }
  // Inclusive scan of the bins (Hillis-Steele, log2(256) = 8 steps), reusing count[].
  barrier(CLK_LOCAL_MEM_FENCE);
  count[b] = n;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint offset = 1; offset < BINS; offset <<= 1) {
    const ulong before = b >= offset ? count[b - offset] : 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    count[b] += before;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  // The one bin where the cumulative count first reaches the rank writes it.
  const uint percents[PERCENTILE_COUNT] = {PERCENTILES};
  for (int k = 0; k < PERCENTILE_COUNT; ++k) {
    const ulong rank = max((ulong)1, (percents[k] * total + 99) / 100);
    if (total == 0) {
      if (b == 0) m[5 + k] = 0;
    } else if (count[b] >= rank && (b == 0 || count[b - 1] < rank)) {
      m[5 + k] = b;
    }
  }
}
