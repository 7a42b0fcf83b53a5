
#ifndef G16_TH
#define G16_TH G16_TILE
#endif
#define RL_LOADS (G16_TH * G16_VECS / G16_WG)
#define RL_PIECES_PER_ITEM (G16_WORDS * (G16_TH / 16) / G16_WG)
__kernel __attribute__((reqd_work_group_size(G16_WG, 1, 1))) void transpose_gray16_rect(__global const uchar* restrict in,
                                                                                   __global uchar* restrict out,
                                                                                   const int width, const int height) {
  __local uint tile[G16_TH * G16_STRIDE];
  __local uchar* tileBytes = (__local uchar*)tile;  // byte c of row r: r * 4 * G16_STRIDE + c (little-endian words)
  const int lid = get_local_id(0);
  const int x0 = get_group_id(0) * G16_TILE, y0 = get_group_id(1) * G16_TH;
  // A tile inside the image with rows on 16-byte boundaries both ways: vectors only.
  const bool full = (width & 15) == 0 && (height & 15) == 0 && x0 + G16_TILE <= width && y0 + G16_TH <= height;
  if (full) {
    __global const uint4* in16 = (__global const uint4*)in;
    uint4 v[RL_LOADS];
#pragma unroll
    for (int k = 0; k < RL_LOADS; ++k) {  // every load in flight before the first local store
      const int i = lid + k * G16_WG, r = i / G16_VECS, c = i % G16_VECS;
      v[k] = in16[((y0 + r) * width + x0) / 16 + c];
    }
#pragma unroll
    for (int k = 0; k < RL_LOADS; ++k) {
      const int i = lid + k * G16_WG, r = i / G16_VECS, c = i % G16_VECS;
      __local uint* t = tile + r * G16_STRIDE + 4 * c;
      t[0] = v[k].x;
      t[1] = v[k].y;
      t[2] = v[k].z;
      t[3] = v[k].w;
    }
  } else {
    for (int i = lid; i < G16_TH * G16_TILE; i += G16_WG) {
      const int r = i / G16_TILE, c = i % G16_TILE, x = x0 + c, y = y0 + r;
      tileBytes[r * 4 * G16_STRIDE + c] = (x < width && y < height) ? in[y * width + x] : 0;
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  // Piece (bc, br): output rows x0 + 4 bc + q (input columns), output columns
  // y0 + 16 br .. + 15 (input rows). Neighbouring lanes: br parity, then bc; each
  // output row gets 32 contiguous bytes per warp.
#pragma unroll
  for (int k = 0; k < RL_PIECES_PER_ITEM; ++k) {
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
#endif

// ==== experiments: persistent groups, next tile's loads in flight during the write phase ====
#ifdef BLOCK4X4
inline bool b4_full(const int x0, const int y0, const int width, const int height) {
  return (width & 3) == 0 && (height & 3) == 0 && x0 + B4_TILE <= width && y0 + B4_TILE <= height;
}
inline void b4_load(__global const pixel_t* restrict in, const int x0, const int y0, const int width, const int height,
                    const bool full, pixel4_t* v, const int lid) {
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
      v[k] = load4(in, x0 + 4 * c, y0 + r, width, height, (width & 3) == 0);
    }
  }
}
inline void b4_write(__local const pixel4_t* tile, __global pixel_t* restrict out, const int x0, const int y0,
                     const int width, const int height, const bool full, const int lid) {
#pragma unroll
  for (int k = 0; k < B4_BLOCKS; ++k) {
    const int b = lid + k * B4_WG;
    const int br = b % B4_V, bc = b / B4_V;
    const int oy = x0 + 4 * bc;
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
      const bool outAligned = (height & 3) == 0;
      store4(out, r0, ox, oy + 0, height, width, outAligned);
      store4(out, r1, ox, oy + 1, height, width, outAligned);
      store4(out, r2, ox, oy + 2, height, width, outAligned);
      store4(out, r3, ox, oy + 3, height, width, outAligned);
    }
  }
}
__kernel __attribute__((reqd_work_group_size(B4_WG, 1, 1))) void transpose_4x4_persistent(
    __global const pixel_t* restrict in, __global pixel_t* restrict out, const int width, const int height) {
  __local pixel4_t tile[B4_TILE * B4_V];
  const int lid = get_local_id(0), groups = get_num_groups(0);
  const int tilesX = (width + B4_TILE - 1) / B4_TILE, tiles = tilesX * ((height + B4_TILE - 1) / B4_TILE);
  int t = get_group_id(0);
  pixel4_t v[B4_LOADS];
  int x0 = (t % tilesX) * B4_TILE, y0 = (t / tilesX) * B4_TILE;
  bool full = b4_full(x0, y0, width, height);
  if (t < tiles) b4_load(in, x0, y0, width, height, full, v, lid);
  for (; t < tiles; t += groups) {
#pragma unroll
    for (int k = 0; k < B4_LOADS; ++k) {
      const int i = lid + k * B4_WG;
      tile[B4_AT(i / B4_V, i % B4_V)] = v[k];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    const int cx0 = x0, cy0 = y0;
    const bool cfull = full;
    const int n = t + groups;
    if (n < tiles) {
      x0 = (n % tilesX) * B4_TILE;
      y0 = (n / tilesX) * B4_TILE;
      full = b4_full(x0, y0, width, height);
      b4_load(in, x0, y0, width, height, full, v, lid);
    }
    b4_write(tile, out, cx0, cy0, width, height, cfull, lid);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}
#endif

#ifdef GRAY16
inline bool g16_full(const int x0, const int y0, const int width, const int height) {
  return (width & 15) == 0 && (height & 15) == 0 && x0 + G16_TILE <= width && y0 + G16_TILE <= height;
}
inline void g16_load(__global const uchar* restrict in, const int x0, const int y0, const int width, uint4* v,
                     const int lid) {
  __global const uint4* in16 = (__global const uint4*)in;
#pragma unroll
  for (int k = 0; k < G16_LOADS; ++k) {
    const int i = lid + k * G16_WG, r = i / G16_VECS, c = i % G16_VECS;
    v[k] = in16[((y0 + r) * width + x0) / 16 + c];
  }
}
inline void g16_stage(__local uint* tile, const uint4* v, const int lid) {
#pragma unroll
  for (int k = 0; k < G16_LOADS; ++k) {
    const int i = lid + k * G16_WG, r = i / G16_VECS, c = i % G16_VECS;
    __local uint* t = tile + r * G16_STRIDE + 4 * c;
    t[0] = v[k].x;
    t[1] = v[k].y;
    t[2] = v[k].z;
    t[3] = v[k].w;
  }
}
inline void g16_stage_bytes(__global const uchar* restrict in, __local uint* tile, const int x0, const int y0,
                            const int width, const int height, const int lid) {
  __local uchar* tileBytes = (__local uchar*)tile;
  for (int i = lid; i < G16_TILE * G16_TILE; i += G16_WG) {
    const int r = i / G16_TILE, c = i % G16_TILE, x = x0 + c, y = y0 + r;
    tileBytes[r * 4 * G16_STRIDE + c] = (x < width && y < height) ? in[y * width + x] : 0;
  }
}
inline void g16_write(__local const uint* tile, __global uchar* restrict out, const int x0, const int y0,
                      const int width, const int height, const bool full, const int lid) {
#pragma unroll
  for (int k = 0; k < G16_PIECES_PER_ITEM; ++k) {
    const int p = lid + k * G16_WG;
    const int bc = (p >> 1) % G16_WORDS, br = (p & 1) + 2 * (p / (2 * G16_WORDS));
    uchar4 rows[4][4];
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
        uchar b[16];
        vstore16(as_uchar16(value), 0, b);
        for (int j = 0; j < 16 && ox + j < height; ++j) out[oy * height + ox + j] = b[j];
      }
    }
  }
}
__kernel __attribute__((reqd_work_group_size(G16_WG, 1, 1))) void transpose_gray16_persistent(
    __global const uchar* restrict in, __global uchar* restrict out, const int width, const int height) {
  __local uint tile[G16_TILE * G16_STRIDE];
  const int lid = get_local_id(0), groups = get_num_groups(0);
  const int tilesX = (width + G16_TILE - 1) / G16_TILE, tiles = tilesX * ((height + G16_TILE - 1) / G16_TILE);
  int t = get_group_id(0);
  uint4 v[G16_LOADS];
  int x0 = (t % tilesX) * G16_TILE, y0 = (t / tilesX) * G16_TILE;
  bool full = g16_full(x0, y0, width, height);
  if (t < tiles && full) g16_load(in, x0, y0, width, v, lid);
  for (; t < tiles; t += groups) {
    if (full) g16_stage(tile, v, lid);
    else g16_stage_bytes(in, tile, x0, y0, width, height, lid);
    barrier(CLK_LOCAL_MEM_FENCE);
    const int cx0 = x0, cy0 = y0;
    const bool cfull = full;
    const int n = t + groups;
    if (n < tiles) {
      x0 = (n % tilesX) * G16_TILE;
      y0 = (n / tilesX) * G16_TILE;
      full = g16_full(x0, y0, width, height);
      if (full) g16_load(in, x0, y0, width, v, lid);
    }
    g16_write(tile, out, cx0, cy0, width, height, cfull, lid);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}
#endif

#ifdef GRAY16
// ---- experiment: diagonal block order for gray16 ----
__kernel __attribute__((reqd_work_group_size(G16_WG, 1, 1))) void transpose_gray16_diagonal(
    __global const uchar* restrict in, __global uchar* restrict out, const int width, const int height) {
  __local uint tile[G16_TILE * G16_STRIDE];
  const int lid = get_local_id(0);
  const int2 b = diagonal_block();
  const int x0 = b.x * G16_TILE, y0 = b.y * G16_TILE;
  const bool full = g16_full(x0, y0, width, height);
  if (full) {
    uint4 v[G16_LOADS];
    g16_load(in, x0, y0, width, v, lid);
    g16_stage(tile, v, lid);
  } else {
    g16_stage_bytes(in, tile, x0, y0, width, height, lid);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  g16_write(tile, out, x0, y0, width, height, full, lid);
}

// ---- experiment: every 8 lanes write one whole 128-byte output row segment ----
// T = 128 only. Tile rows of 32 words, unpadded; word c of row r sits at column
// c ^ (4 * ((r / 16) % 8)): a 16-byte vector stays whole (bits 2..4 only), and
// the phase-2 reads of 8 pieces stacked vertically x 4 word columns hit 32 banks.
#if G16_TILE == 128
#define RW_SWZ(r, c) ((c) ^ ((((r) >> 4) & 7) << 2))
__kernel __attribute__((reqd_work_group_size(G16_WG, 1, 1))) void transpose_gray16_rows(
    __global const uchar* restrict in, __global uchar* restrict out, const int width, const int height) {
  __local uint tile[128 * 32];
  const int lid = get_local_id(0);
  const int x0 = get_group_id(0) * 128, y0 = get_group_id(1) * 128;
  const bool full = g16_full(x0, y0, width, height);
  if (full) {
    uint4 v[G16_LOADS];
    g16_load(in, x0, y0, width, v, lid);
#pragma unroll
    for (int k = 0; k < G16_LOADS; ++k) {
      const int i = lid + k * G16_WG, r = i / 8, c = i % 8;
      ((__local uint4*)tile)[(r * 32 + RW_SWZ(r, 4 * c)) / 4] = v[k];
    }
  } else {
    __local uchar* tb = (__local uchar*)tile;
    for (int i = lid; i < 128 * 128; i += G16_WG) {
      const int r = i / 128, c = i % 128, x = x0 + c, y = y0 + r;
      tb[(r * 32 + RW_SWZ(r, c >> 2)) * 4 + (c & 3)] = (x < width && y < height) ? in[y * width + x] : 0;
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
  for (int k = 0; k < 256 / G16_WG; ++k) {
    const int p = lid + k * G16_WG;
    const int br = p & 7, bc = p >> 3;
    uchar4 rows[4][4];
#pragma unroll
    for (int s = 0; s < 4; ++s) {
      uchar4 q4[4];
#pragma unroll
      for (int i = 0; i < 4; ++i) {
        const int r = 16 * br + 4 * s + i;
        q4[i] = as_uchar4(tile[r * 32 + RW_SWZ(r, bc)]);
      }
      transpose4x4(&q4[0], &q4[1], &q4[2], &q4[3]);
      rows[s][0] = q4[0];
      rows[s][1] = q4[1];
      rows[s][2] = q4[2];
      rows[s][3] = q4[3];
    }
    const int ox = y0 + 16 * br;
#pragma unroll
    for (int q = 0; q < 4; ++q) {
      const int oy = x0 + 4 * bc + q;
      const uint4 value = (uint4)(as_uint(rows[0][q]), as_uint(rows[1][q]), as_uint(rows[2][q]), as_uint(rows[3][q]));
      if (full) {
        ((__global uint4*)out)[(oy * height + ox) / 16] = value;
      } else if (oy < width) {
        uchar b[16];
        vstore16(as_uchar16(value), 0, b);
        for (int j = 0; j < 16 && ox + j < height; ++j) out[oy * height + ox + j] = b[j];
      }
    }
  }
}
#endif
#endif
