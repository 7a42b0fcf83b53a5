// Image lab: the result as the RGBA8 picture GL draws (gray becomes g, g, g, 255).
// Writes the interop layer's pixel buffer, so no pixel crosses the host on the
// gl-sharing and external paths. Four pixels a work-item, moved with one 16-byte
// store (and one 16-byte or 4-byte load): copied a byte at a time, as it once was,
// an 8192x8192 picture took 0.5 ms more of each 2 ms frame on an H200 (see
// docs/BENCHMARKS.md). Both buffers start at the start of their cl_mem, which is
// aligned far beyond 16 bytes. The 1 to 3 pixels past the last multiple of four
// are the last work-item's, one at a time.
__kernel void to_rgba(__global const uchar* in, const int channels, __global uchar4* out, const int pixels) {
  const int quad = get_global_id(0);
  const int first = quad * 4;
  if (first >= pixels) return;
  if (first + 4 <= pixels) {
    if (channels == 4) {
      ((__global uint4*)out)[quad] = ((__global const uint4*)in)[quad];
    } else {
      const uchar4 g = ((__global const uchar4*)in)[quad];
      ((__global uint4*)out)[quad] = (uint4)(as_uint((uchar4)(g.x, g.x, g.x, 255)), as_uint((uchar4)(g.y, g.y, g.y, 255)),
                                             as_uint((uchar4)(g.z, g.z, g.z, 255)), as_uint((uchar4)(g.w, g.w, g.w, 255)));
    }
    return;
  }
  for (int i = first; i < pixels; ++i) {
    if (channels == 4) {
      out[i] = vload4(i, in);
    } else {
      const uchar g = in[i];
      out[i] = (uchar4)(g, g, g, 255);
    }
  }
}

// A picture's smaller levels (what mipmap levels hold). Level k+1 is half level k,
// rounded down, as GL's: each texel the rounded mean of the 2x2 it covers in level k
// (an odd last row or column left out; a side of 1 read twice). The display shader
// reads the level whose texels are about a screen pixel, so a shrunk picture shows
// no moire. All levels live in one buffer, at texel offsets.
//
// shrink_rgba writes level j+steps (steps 1 to 3) straight from level j, the 2x2
// means of the levels between kept in registers, so that a picture redrawn every
// frame writes only the level it is drawn from (one launch reading level j once)
// and the values are those of the level-by-level chain, bit for bit. Level j is read
// from the levels' buffer, or for level 0 from the kernels' output itself (gray or
// RGBA), so that a shrunk picture needs no level 0 written for it.

// Texel (x, y) of a level as drawn (RGBA), from `pixels`: `channels` bytes a pixel
// (1: gray, drawn g g g 255; 4: RGBA, 4-byte aligned), the level starting at pixel
// `at`, `w` pixels a row.
static uint4 level_texel(__global const uchar* pixels, const uint at, const int channels, const int w, const int x,
                         const int y) {
  const uint i = at + (uint)(y * w + x);
  if (channels == 1) {
    const uint g = pixels[i];
    return (uint4)(g, g, g, 255u);
  }
  return convert_uint4(((__global const uchar4*)pixels)[i]);
}

static uint4 rounded_mean(const uint4 a, const uint4 b, const uint4 c, const uint4 d) {
  return (a + b + c + d + 2u) / 4u;
}

// Texel (x, y) one level below level j (w x h).
static uint4 one_down(__global const uchar* pixels, const uint at, const int channels, const int w, const int h,
                      const int x, const int y) {
  const int x0 = min(2 * x, w - 1), x1 = min(2 * x + 1, w - 1);
  const int y0 = min(2 * y, h - 1), y1 = min(2 * y + 1, h - 1);
  return rounded_mean(level_texel(pixels, at, channels, w, x0, y0), level_texel(pixels, at, channels, w, x1, y0),
                      level_texel(pixels, at, channels, w, x0, y1), level_texel(pixels, at, channels, w, x1, y1));
}

// Two levels below level j: the mean of four texels one level below.
static uint4 two_down(__global const uchar* pixels, const uint at, const int channels, const int w, const int h,
                      const int x, const int y) {
  const int w1 = max(1, w / 2), h1 = max(1, h / 2);
  const int x0 = min(2 * x, w1 - 1), x1 = min(2 * x + 1, w1 - 1);
  const int y0 = min(2 * y, h1 - 1), y1 = min(2 * y + 1, h1 - 1);
  return rounded_mean(one_down(pixels, at, channels, w, h, x0, y0), one_down(pixels, at, channels, w, h, x1, y0),
                      one_down(pixels, at, channels, w, h, x0, y1), one_down(pixels, at, channels, w, h, x1, y1));
}

// Three levels below level j: the mean of four texels two levels below.
static uint4 three_down(__global const uchar* pixels, const uint at, const int channels, const int w, const int h,
                        const int x, const int y) {
  const int w2 = max(1, max(1, w / 2) / 2), h2 = max(1, max(1, h / 2) / 2);
  const int x0 = min(2 * x, w2 - 1), x1 = min(2 * x + 1, w2 - 1);
  const int y0 = min(2 * y, h2 - 1), y1 = min(2 * y + 1, h2 - 1);
  return rounded_mean(two_down(pixels, at, channels, w, h, x0, y0), two_down(pixels, at, channels, w, h, x1, y0),
                      two_down(pixels, at, channels, w, h, x0, y1), two_down(pixels, at, channels, w, h, x1, y1));
}

// Level `to` (toW x toH at texel `to` of `levels`) from level j: `steps` levels
// below it, read from `from_pixels` at pixel `from` (`channels` bytes a pixel).
__kernel void shrink_rgba(__global const uchar* from_pixels, const uint from, const int channels, const int fromW,
                          const int fromH, __global uchar4* levels, const uint to, const int toW, const int toH,
                          const int steps) {
  const int i = get_global_id(0);
  if (i >= toW * toH) return;
  const int x = i % toW, y = i / toW;
  uint4 texel;
  if (steps == 1) texel = one_down(from_pixels, from, channels, fromW, fromH, x, y);
  else if (steps == 2) texel = two_down(from_pixels, from, channels, fromW, fromH, x, y);
  else texel = three_down(from_pixels, from, channels, fromW, fromH, x, y);
  levels[to + i] = convert_uchar4(texel);
}

// The histogram as GL draws it: the bins of `channels` channels (256 each) copied
// into a buffer GL reads, followed by each channel's largest bin (the plot's full
// height). One work-group of 256 per channel: a bin per work-item, then a max.
// `leftOut` pixels (a rotation's fill, compute/rotate_coverage.h) are taken out of
// bin (leftOutAt >> 8c) & 255 of channel c, as the host does for the statistics; a
// channel the histogram did not count holds fewer and stays as it is (empty).
__kernel __attribute__((reqd_work_group_size(256, 1, 1))) void histogram_for_display(__global const uint* bins,
                                                                                    __global uint* shown,
                                                                                    const int channels,
                                                                                    const uint leftOut,
                                                                                    const ulong leftOutAt) {
  __local uint largest[256];
  const int bin = get_local_id(0), channel = get_group_id(1);
  uint value = bins[channel * 256 + bin];
  if (bin == (int)((leftOutAt >> (8 * channel)) & 255) && value >= leftOut) value -= leftOut;
  shown[channel * 256 + bin] = value;
  largest[bin] = value;
  for (int span = 128; span > 0; span >>= 1) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (bin < span) largest[bin] = max(largest[bin], largest[bin + span]);
  }
  if (bin == 0) shown[channels * 256 + channel] = largest[0];
}
