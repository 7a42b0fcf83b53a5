// Experimental local-atomic histograms. Options: -DCHANNELS=1|4 -DCOUNT_MASK -DWG -DCOPIES
// -DCOMPACT (local memory only for counted channels) -DUSE_ADD (atomic_add 1) -DWARP_COPIES
// -DLOADS=1|2|4 -DRLE (gray: merge equal neighbours in a uchar16 before atomics)
#ifndef CHANNELS
#define CHANNELS 1
#endif
#if CHANNELS == 1
#define HIST_CHANNELS 1
#else
#define HIST_CHANNELS 5
#endif
#define BINS 256
#define HIST_BINS (HIST_CHANNELS * BINS)
#ifndef COUNT_MASK
#define COUNT_MASK 0x1F
#endif
#define COUNTED(c) ((COUNT_MASK) & (1 << (c)))
#define LUMA(r, g, b) ((77u * (r) + 150u * (g) + 29u * (b) + 128u) >> 8)
#ifndef COPIES
#define COPIES 1
#endif
#ifndef LOADS
#define LOADS 2
#endif
#define BIT(c) ((COUNT_MASK >> (c)) & 1)
#ifdef COMPACT
#if CHANNELS == 1
#define LOCAL_CH 1
#define SLOT(c) 0
#else
#define LOCAL_CH (BIT(0) + BIT(1) + BIT(2) + BIT(3) + BIT(4))
// slot of channel c = number of counted channels below c
#define SLOT(c) (((c) > 0 ? BIT(0) : 0) + ((c) > 1 ? BIT(1) : 0) + ((c) > 2 ? BIT(2) : 0) + ((c) > 3 ? BIT(3) : 0))
#endif
#else
#define LOCAL_CH HIST_CHANNELS
#define SLOT(c) (c)
#endif
#ifdef USE_ADD
#define COUNT(bin) atomic_add(&hist[(bin)*COPIES + copy], 1u)
#define COUNTN(bin, n) atomic_add(&hist[(bin)*COPIES + copy], (n))
#else
#define COUNT(bin) atomic_inc(&hist[(bin)*COPIES + copy])
#define COUNTN(bin, n) atomic_add(&hist[(bin)*COPIES + copy], (n))
#endif

__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void hist_exp(__global const uchar* restrict in, const uint pixels,
                                                                       __global uint* restrict partials) {
  __local uint hist[LOCAL_CH * BINS * COPIES];
  const uint lid = get_local_id(0);
  for (uint i = lid; i < LOCAL_CH * BINS * COPIES; i += WG) hist[i] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
#ifdef WARP_COPIES
  const uint copy = (lid / 32) % COPIES;
#else
  const uint copy = lid % COPIES;
#endif
  const uint gid = get_global_id(0), stride = get_global_size(0);
  __global const uchar16* in16 = (__global const uchar16*)in;
#if CHANNELS == 1
  const uint vectors = pixels / 16;
#ifdef RLE
#define DO16(v) { uint run = 1; uchar prev = v.s0; \
    uchar a[16] = {v.s0,v.s1,v.s2,v.s3,v.s4,v.s5,v.s6,v.s7,v.s8,v.s9,v.sa,v.sb,v.sc,v.sd,v.se,v.sf}; \
    _Pragma("unroll") for (int j = 1; j < 16; ++j) { if (a[j] == prev) ++run; else { COUNTN(prev, run); prev = a[j]; run = 1; } } \
    COUNTN(prev, run); }
#else
#define DO16(v) COUNT(v.s0); COUNT(v.s1); COUNT(v.s2); COUNT(v.s3); COUNT(v.s4); COUNT(v.s5); COUNT(v.s6); COUNT(v.s7); \
  COUNT(v.s8); COUNT(v.s9); COUNT(v.sa); COUNT(v.sb); COUNT(v.sc); COUNT(v.sd); COUNT(v.se); COUNT(v.sf)
#endif
#else
#define PIX(r, g, b, a) { \
    if (COUNTED(0)) COUNT(SLOT(0) * BINS + (r)); if (COUNTED(1)) COUNT(SLOT(1) * BINS + (g)); \
    if (COUNTED(2)) COUNT(SLOT(2) * BINS + (b)); if (COUNTED(3)) COUNT(SLOT(3) * BINS + (a)); \
    if (COUNTED(4)) COUNT(SLOT(4) * BINS + LUMA((uint)(r), (uint)(g), (uint)(b))); }
#define DO16(v) PIX(v.s0, v.s1, v.s2, v.s3); PIX(v.s4, v.s5, v.s6, v.s7); PIX(v.s8, v.s9, v.sa, v.sb); PIX(v.sc, v.sd, v.se, v.sf)
  const uint vectors = pixels / 4;
#endif
  uint i = gid;
#if LOADS == 4
  for (; i + 3 * stride < vectors; i += 4 * stride) {
    const uchar16 v0 = in16[i], v1 = in16[i + stride], v2 = in16[i + 2 * stride], v3 = in16[i + 3 * stride];
    DO16(v0); DO16(v1); DO16(v2); DO16(v3);
  }
#elif LOADS == 2
  for (; i + stride < vectors; i += 2 * stride) {
    const uchar16 v0 = in16[i], v1 = in16[i + stride];
    DO16(v0); DO16(v1);
  }
#endif
  for (; i < vectors; i += stride) { const uchar16 v = in16[i]; DO16(v); }
  // (tails ignored: 8192^2 is a multiple of 16)
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint bin = lid; bin < HIST_BINS; bin += WG) {
    const uint c = bin / BINS;
    uint sum = 0;
#if CHANNELS == 4
    if (COUNTED(c))
#endif
    {
      const uint lb = SLOT(c) * BINS + bin % BINS;
      for (uint k = 0; k < COPIES; ++k) sum += hist[lb * COPIES + k];
    }
    partials[get_group_id(0) * HIST_BINS + bin] = sum;
  }
}
