// Image transpose: out (height x width) = in (width x height) transposed, any
// width and height, gray or RGBA. Variants (chosen by kernel name and build
// options; see compute/image_transpose.cpp):
//   transpose_naive            coalesced reads, scattered writes (one pixel per item)
//   transpose_tiled            a TILE x TILE tile in local memory: coalesced both ways
//   transpose_tiled_padded     the same with every tile row padded by one element
//                              (Apple's sample): the column reads stop hitting one bank
//   transpose_tiled_diagonal   padded + diagonal block order (seed 000)
//   transpose_4x4              4x4 pixels per work-item: rows of 4 pixels are moved as
//   transpose_4x4_diagonal     one vector (uchar4 gray, uint4 RGBA) and each 4x4 block is
//                              transposed in registers with shuffle2 (seeds 000, 002)
//   transpose_gray16           gray only: 16-byte loads and stores (a uchar4 row of a 4x4
//                              block is only 4 bytes), 4x4 byte blocks in registers
//   transpose_4x4_columns      block4x4 and gray16 with the blocks taken column by
//   transpose_gray16_columns   column (column_block: DRAM locality for reads and writes)
// Build options: -DCHANNELS=1|4 and one family:
//   -DNAIVE | -DTILED -DTILE=8|16|32 -DROWS=1|2|4|8 | -DBLOCK4X4 -DB4_TILE=32|64|128 -DB4_WG=64|128|256
//   | -DGRAY16 -DG16_TILE=64|128 -DG16_WG=64|128|256
// A "pixel" is a uchar (gray) or a 32-bit word holding the RGBA bytes: a transpose
// only moves pixels, so the byte order inside the word never matters.
// Indices are 32-bit: the host refuses images above 2^31 - 1 pixels.

#ifndef CHANNELS
#define CHANNELS 1
#endif
#if CHANNELS == 1
typedef uchar pixel_t;
typedef uchar4 pixel4_t;  // 4 pixels of one row
typedef uchar4 mask4_t;   // shuffle2 masks have the element size of the data
#elif CHANNELS == 4
typedef uint pixel_t;
typedef uint4 pixel4_t;
typedef uint4 mask4_t;
#else
#error "CHANNELS must be 1 or 4"
#endif

#if !defined(NAIVE) && !defined(TILED) && !defined(BLOCK4X4) && !defined(GRAY16)
// No family asked for (a plain build of the file): compile all with defaults.
#define NAIVE
#define TILED
#define BLOCK4X4
#if CHANNELS == 1
#define GRAY16
#endif
#endif

// ---- naive ------------------------------------------------------------------------
#ifdef NAIVE
__kernel void transpose_naive(__global const pixel_t* restrict in, __global pixel_t* restrict out, const int width,
                              const int height) {
  const int x = get_global_id(0);
  const int y = get_global_id(1);
  // Neighbouring work-items read neighbouring pixels of a row (coalesced) and
  // write pixels a whole output row apart (one memory transaction each).
  if (x < width && y < height) out[x * height + y] = in[y * width + x];
}
#endif

// Diagonal block order for any grid (NVIDIA's transpose paper): consecutive
// groups take blocks along diagonals, so concurrently running groups write to
// different partitions of memory instead of one column of blocks. Bijective
// for rectangular grids too.
inline int2 diagonal_block(void) {
  const int nbx = get_num_groups(0), nby = get_num_groups(1);
  const int bid = get_group_id(0) + nbx * get_group_id(1);
  const int by = bid % nby;
  const int bx = (bid / nby + by) % nbx;
  return (int2)(bx, by);
}

// Column order: consecutive groups go down a column of blocks. The groups in flight
// then hold a few whole block columns, so each output row (an input column) is
// written by neighbouring groups at about the same time, while each input row is
// still read a few blocks wide: DRAM locality for both streams. Row order keeps the
// reads together and scatters the writes over the whole height of the output; the
// diagonal order above scatters both. Column order measured faster than row order,
// gray and RGBA (docs/BENCHMARKS.md).
inline int2 column_block(void) {
  const int nbx = get_num_groups(0), nby = get_num_groups(1);
  const int bid = get_group_id(0) + nbx * get_group_id(1);
  return (int2)(bid / nby, bid % nby);
}

// ---- tiled ------------------------------------------------------------------------
#ifdef TILED
#ifndef TILE
#define TILE 32
#endif
#ifndef ROWS
#define ROWS 4
#endif
#if TILE % ROWS != 0
#error "ROWS must divide TILE"
#endif
#define TILE_ITEMS_Y (TILE / ROWS)  // the work-group is TILE x TILE_ITEMS_Y; each item moves ROWS rows

inline void tiled_transpose(__global const pixel_t* restrict in, __global pixel_t* restrict out, const int width,
                            const int height, __local pixel_t* tile, const int stride, const int bx, const int by) {
  const int lx = get_local_id(0), ly = get_local_id(1);
  const int x = bx * TILE + lx;
  // Constant trip counts: the loops unroll and every load is in flight at once.
#pragma unroll
  for (int k = 0; k < ROWS; ++k) {
    const int r = ly + k * TILE_ITEMS_Y;
    const int y = by * TILE + r;
    if (x < width && y < height) tile[r * stride + lx] = in[y * width + x];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  // Output row oy = input column, output column ox = input row: neighbouring
  // items write neighbouring pixels and read a column of the tile.
  const int ox = by * TILE + lx;
#pragma unroll
  for (int k = 0; k < ROWS; ++k) {
    const int r = ly + k * TILE_ITEMS_Y;
    const int oy = bx * TILE + r;
    if (ox < height && oy < width) out[oy * height + ox] = tile[lx * stride + r];
  }
}

__kernel __attribute__((reqd_work_group_size(TILE, TILE_ITEMS_Y, 1))) void transpose_tiled(
    __global const pixel_t* restrict in, __global pixel_t* restrict out, const int width, const int height) {
  __local pixel_t tile[TILE * TILE];
  tiled_transpose(in, out, width, height, tile, TILE, get_group_id(0), get_group_id(1));
}

__kernel __attribute__((reqd_work_group_size(TILE, TILE_ITEMS_Y, 1))) void transpose_tiled_padded(
    __global const pixel_t* restrict in, __global pixel_t* restrict out, const int width, const int height) {
  __local pixel_t tile[TILE * (TILE + 1)];
  tiled_transpose(in, out, width, height, tile, TILE + 1, get_group_id(0), get_group_id(1));
}

__kernel __attribute__((reqd_work_group_size(TILE, TILE_ITEMS_Y, 1))) void transpose_tiled_diagonal(
    __global const pixel_t* restrict in, __global pixel_t* restrict out, const int width, const int height) {
  __local pixel_t tile[TILE * (TILE + 1)];
  const int2 b = diagonal_block();
  tiled_transpose(in, out, width, height, tile, TILE + 1, b.x, b.y);
}
#endif

// Rows a, b, c, d of a 4x4 block become its columns, in registers (seed 002's
// shuffle2: each result element picks an element of the two inputs).
inline void transpose4x4(pixel4_t* a, pixel4_t* b, pixel4_t* c, pixel4_t* d) {
  const mask4_t lo = (mask4_t)(0, 4, 1, 5), hi = (mask4_t)(2, 6, 3, 7);
  const mask4_t lo2 = (mask4_t)(0, 1, 4, 5), hi2 = (mask4_t)(2, 3, 6, 7);
  const pixel4_t t0 = shuffle2(*a, *b, lo);  // a0 b0 a1 b1
  const pixel4_t t1 = shuffle2(*c, *d, lo);  // c0 d0 c1 d1
  const pixel4_t t2 = shuffle2(*a, *b, hi);  // a2 b2 a3 b3
  const pixel4_t t3 = shuffle2(*c, *d, hi);  // c2 d2 c3 d3
  *a = shuffle2(t0, t1, lo2);                // a0 b0 c0 d0
  *b = shuffle2(t0, t1, hi2);                // a1 b1 c1 d1
  *c = shuffle2(t2, t3, lo2);                // a2 b2 c2 d2
  *d = shuffle2(t2, t3, hi2);                // a3 b3 c3 d3
}

// ---- 4x4 pixels per work-item -------------------------------------------------------
#ifdef BLOCK4X4
#ifndef B4_TILE
#define B4_TILE 64
#endif
#ifndef B4_WG
#define B4_WG 256
#endif
#define B4_V (B4_TILE / 4)  // 4-pixel vectors per tile row (a power of two)
#if B4_V & (B4_V - 1)
#error "B4_TILE / 4 must be a power of two"
#endif
// The tile is B4_TILE rows of B4_V vectors. Vector c of row r is stored at column
// c ^ (r / 4): the 4 rows of a 4x4 block share one swizzle, and the column reads
// of the second phase (items with consecutive r / 4, same c) land in different
// banks without padding (padding would break the 16-byte alignment of uint4).
#define B4_AT(r, c) ((r) * B4_V + ((c) ^ (((r) >> 2) & (B4_V - 1))))

// Four pixels of row y from column x (a multiple of 4): one vector load when the
// row holds them and rows start on a 4-pixel boundary, else pixel by pixel.
inline pixel4_t load4(__global const pixel_t* restrict in, const int x, const int y, const int width,
                      const int height, const bool aligned) {
  pixel4_t v = (pixel4_t)(0);
  if (y >= height || x >= width) return v;
  const int i = y * width + x;
  if (aligned && x + 3 < width) return ((__global const pixel4_t*)in)[i >> 2];
  v.s0 = in[i];
  if (x + 1 < width) v.s1 = in[i + 1];
  if (x + 2 < width) v.s2 = in[i + 2];
  if (x + 3 < width) v.s3 = in[i + 3];
  return v;
}

inline void store4(__global pixel_t* restrict out, const pixel4_t v, const int x, const int y, const int width,
                   const int height, const bool aligned) {
  if (y >= height || x >= width) return;
  const int i = y * width + x;
  if (aligned && x + 3 < width) {
    ((__global pixel4_t*)out)[i >> 2] = v;
    return;
  }
  out[i] = v.s0;
  if (x + 1 < width) out[i + 1] = v.s1;
  if (x + 2 < width) out[i + 2] = v.s2;
  if (x + 3 < width) out[i + 3] = v.s3;
}

#define B4_LOADS (B4_TILE * B4_V / B4_WG)   // vectors each item loads
#define B4_BLOCKS (B4_V * B4_V / B4_WG)     // 4x4 blocks each item transposes
#if B4_BLOCKS < 1
#error "B4_WG must not exceed the tile's (B4_TILE / 4)^2 blocks"
#endif

inline void block4x4_transpose(__global const pixel_t* restrict in, __global pixel_t* restrict out, const int width,
                               const int height, __local pixel4_t* tile, const int bx, const int by) {
  const int lid = get_local_id(0);
  const int x0 = bx * B4_TILE, y0 = by * B4_TILE;
  const bool inAligned = (width & 3) == 0;    // every input row starts on a 4-pixel boundary
  const bool outAligned = (height & 3) == 0;  // every output row too
  // A tile inside the image with aligned rows (nearly all of a big image): plain
  // vector loads and stores, no per-vector tests.
  const bool full = inAligned && outAligned && x0 + B4_TILE <= width && y0 + B4_TILE <= height;
  // Phase 1: the tile, row by row; consecutive items load consecutive vectors.
  // All of an item's loads are issued before the first store to local memory.
  pixel4_t v[B4_LOADS];
  if (full) {
    __global const pixel4_t* in4 = (__global const pixel4_t*)in;
#pragma unroll
    for (int k = 0; k < B4_LOADS; ++k) {
      const int i = lid + k * B4_WG, r = i / B4_V, c = i % B4_V;
      v[k] = in4[((y0 + r) * width + x0) / 4 + c];
    }
  } else {
#pragma unroll
    for (int k = 0; k < B4_LOADS; ++k) {
      const int i = lid + k * B4_WG, r = i / B4_V, c = i % B4_V;
      v[k] = load4(in, x0 + 4 * c, y0 + r, width, height, inAligned);
    }
  }
#pragma unroll
  for (int k = 0; k < B4_LOADS; ++k) {
    const int i = lid + k * B4_WG, r = i / B4_V, c = i % B4_V;
    tile[B4_AT(r, c)] = v[k];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  // Phase 2: block (bc, br) = tile rows 4br..4br+3, vector column bc. Its
  // transpose is 4 output rows (input columns x0 + 4bc + k) at output columns
  // y0 + 4br..: consecutive items take consecutive br, so they store
  // consecutive vectors of an output row.
#pragma unroll
  for (int k = 0; k < B4_BLOCKS; ++k) {
    const int b = lid + k * B4_WG;
    const int br = b % B4_V, bc = b / B4_V;
    const int oy = x0 + 4 * bc;  // first output row
    pixel4_t r0 = tile[B4_AT(4 * br + 0, bc)];
    pixel4_t r1 = tile[B4_AT(4 * br + 1, bc)];
    pixel4_t r2 = tile[B4_AT(4 * br + 2, bc)];
    pixel4_t r3 = tile[B4_AT(4 * br + 3, bc)];
    transpose4x4(&r0, &r1, &r2, &r3);
    const int ox = y0 + 4 * br;
    if (full) {
      __global pixel4_t* out4 = (__global pixel4_t*)out;
      const int o = (oy * height + ox) / 4, row = height / 4;
      out4[o] = r0;
      out4[o + row] = r1;
      out4[o + 2 * row] = r2;
      out4[o + 3 * row] = r3;
    } else {
      store4(out, r0, ox, oy + 0, height, width, outAligned);
      store4(out, r1, ox, oy + 1, height, width, outAligned);
      store4(out, r2, ox, oy + 2, height, width, outAligned);
      store4(out, r3, ox, oy + 3, height, width, outAligned);
    }
  }
}

__kernel __attribute__((reqd_work_group_size(B4_WG, 1, 1))) void transpose_4x4(__global const pixel_t* restrict in,
                                                                               __global pixel_t* restrict out,
                                                                               const int width, const int height) {
  __local pixel4_t tile[B4_TILE * B4_V];
  block4x4_transpose(in, out, width, height, tile, get_group_id(0), get_group_id(1));
}

__kernel __attribute__((reqd_work_group_size(B4_WG, 1, 1))) void transpose_4x4_diagonal(
    __global const pixel_t* restrict in, __global pixel_t* restrict out, const int width, const int height) {
  __local pixel4_t tile[B4_TILE * B4_V];
  const int2 b = diagonal_block();
  block4x4_transpose(in, out, width, height, tile, b.x, b.y);
}

__kernel __attribute__((reqd_work_group_size(B4_WG, 1, 1))) void transpose_4x4_columns(
    __global const pixel_t* restrict in, __global pixel_t* restrict out, const int width, const int height) {
  __local pixel4_t tile[B4_TILE * B4_V];
  const int2 b = column_block();
  block4x4_transpose(in, out, width, height, tile, b.x, b.y);
}
#endif

// ---- gray, 16 bytes per memory access ------------------------------------------------
// block4x4 moves a gray 4x4 block as four 4-byte rows: a quarter of the 16 bytes a
// copy kernel moves per access. Here a work-group's T x T byte tile comes in as
// 16-byte row vectors, and each item writes "pieces" of 4 output rows x 16 bytes:
// four 4x4 blocks stacked in the input, each transposed in registers, whose rows
// concatenate into 16-byte output vectors.
#ifdef GRAY16
#if CHANNELS != 1
#error "GRAY16 is for gray images (for RGBA, block4x4 already moves 16-byte vectors)"
#endif
#ifndef G16_TILE
#define G16_TILE 128
#endif
#ifndef G16_WG
#define G16_WG 256
#endif
#define G16_WORDS (G16_TILE / 4)   // 4-byte words per tile row
#define G16_VECS (G16_TILE / 16)   // 16-byte vectors per tile row
// Rows padded by one word. Phase 2's lanes read word column bc of rows 16 br + j:
// with an odd stride, 16 * stride * br is 16 br modulo 32 banks, so lanes pairing
// br parity with 16 consecutive bc hit 32 different banks.
#define G16_STRIDE (G16_WORDS + 1)
#define G16_LOADS (G16_TILE * G16_VECS / G16_WG)
#define G16_PIECES (G16_WORDS * G16_VECS)  // pieces of 4 output rows x 16 bytes per tile
#define G16_PIECES_PER_ITEM (G16_PIECES / G16_WG)
#if G16_LOADS < 1 || G16_PIECES_PER_ITEM < 1 || G16_PIECES % G16_WG != 0
#error "G16_WG must divide the tile's pieces (T/4 x T/16)"
#endif

inline void gray16_transpose(__global const uchar* restrict in, __global uchar* restrict out, const int width,
                             const int height, __local uint* tile, const int bx, const int by) {
  __local uchar* tileBytes = (__local uchar*)tile;  // byte c of row r: r * 4 * G16_STRIDE + c (little-endian words)
  const int lid = get_local_id(0);
  const int x0 = bx * G16_TILE, y0 = by * G16_TILE;
  // A tile inside the image with rows on 16-byte boundaries both ways: vectors only.
  const bool full = (width & 15) == 0 && (height & 15) == 0 && x0 + G16_TILE <= width && y0 + G16_TILE <= height;
  if (full) {
    __global const uint4* in16 = (__global const uint4*)in;
    uint4 v[G16_LOADS];
#pragma unroll
    for (int k = 0; k < G16_LOADS; ++k) {  // every load in flight before the first local store
      const int i = lid + k * G16_WG, r = i / G16_VECS, c = i % G16_VECS;
      v[k] = in16[((y0 + r) * width + x0) / 16 + c];
    }
#pragma unroll
    for (int k = 0; k < G16_LOADS; ++k) {
      const int i = lid + k * G16_WG, r = i / G16_VECS, c = i % G16_VECS;
      __local uint* t = tile + r * G16_STRIDE + 4 * c;
      t[0] = v[k].x;
      t[1] = v[k].y;
      t[2] = v[k].z;
      t[3] = v[k].w;
    }
  } else {
    for (int i = lid; i < G16_TILE * G16_TILE; i += G16_WG) {
      const int r = i / G16_TILE, c = i % G16_TILE, x = x0 + c, y = y0 + r;
      tileBytes[r * 4 * G16_STRIDE + c] = (x < width && y < height) ? in[y * width + x] : 0;
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  // Piece (bc, br): output rows x0 + 4 bc + q (input columns), output columns
  // y0 + 16 br .. + 15 (input rows). Neighbouring lanes: br parity, then bc; each
  // output row gets 32 contiguous bytes per warp.
#pragma unroll
  for (int k = 0; k < G16_PIECES_PER_ITEM; ++k) {
    const int p = lid + k * G16_WG;
    const int bc = (p >> 1) % G16_WORDS, br = (p & 1) + 2 * (p / (2 * G16_WORDS));
    uchar4 rows[4][4];  // [block][output row]
#pragma unroll
    for (int s = 0; s < 4; ++s) {
      __local const uint* t = tile + (16 * br + 4 * s) * G16_STRIDE + bc;
      uchar4 a = as_uchar4(t[0]), b = as_uchar4(t[G16_STRIDE]), c = as_uchar4(t[2 * G16_STRIDE]),
             d = as_uchar4(t[3 * G16_STRIDE]);
      transpose4x4(&a, &b, &c, &d);
      rows[s][0] = a;
      rows[s][1] = b;
      rows[s][2] = c;
      rows[s][3] = d;
    }
    const int ox = y0 + 16 * br;
#pragma unroll
    for (int q = 0; q < 4; ++q) {
      const int oy = x0 + 4 * bc + q;
      const uint4 value =
          (uint4)(as_uint(rows[0][q]), as_uint(rows[1][q]), as_uint(rows[2][q]), as_uint(rows[3][q]));
      if (full) {
        ((__global uint4*)out)[(oy * height + ox) / 16] = value;
      } else if (oy < width) {
        const uchar16 bytes = as_uchar16(value);
        uchar b[16];
        vstore16(bytes, 0, b);
        for (int j = 0; j < 16 && ox + j < height; ++j) out[oy * height + ox + j] = b[j];
      }
    }
  }
}

__kernel __attribute__((reqd_work_group_size(G16_WG, 1, 1))) void transpose_gray16(__global const uchar* restrict in,
                                                                                   __global uchar* restrict out,
                                                                                   const int width, const int height) {
  __local uint tile[G16_TILE * G16_STRIDE];
  gray16_transpose(in, out, width, height, tile, get_group_id(0), get_group_id(1));
}

__kernel __attribute__((reqd_work_group_size(G16_WG, 1, 1))) void transpose_gray16_columns(
    __global const uchar* restrict in, __global uchar* restrict out, const int width, const int height) {
  __local uint tile[G16_TILE * G16_STRIDE];
  const int2 b = column_block();
  gray16_transpose(in, out, width, height, tile, b.x, b.y);
}
#endif
