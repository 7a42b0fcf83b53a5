// Experiment 2: the same 16x16 register transpose with every word a named scalar
// (no private array, no pointers), so that nothing can land in stack memory.
#ifndef GR_WG
#define GR_WG 256
#endif
#ifndef BRW
#define BRW 4
#endif
#define GX (32 / BRW)
#define GY (GR_WG / GX)
#ifdef PRMT
inline uint perm(uint a, uint b, uint s) {
  uint d;
  asm("prmt.b32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(s));
  return d;
}
#else
inline uint perm(uint a, uint b, uint s) {
  const ulong ab = ((ulong)b << 32) | a;
  uint d = 0;
  for (int i = 0; i < 4; ++i) d |= (uint)((ab >> (8 * ((s >> (4 * i)) & 7))) & 0xff) << (8 * i);
  return d;
}
#endif
#ifndef STRIP
#define STRIP 0
#endif
inline int2 strip_block(void) {
  const int nx = get_num_groups(0), ny = get_num_groups(1);
  if (STRIP == 0) return (int2)(get_group_id(0), get_group_id(1));
  const int id = get_group_id(1) * nx + get_group_id(0);
  const int strip = id / (STRIP * ny);
  const int w = min(STRIP, nx - strip * STRIP);
  const int idx = id - strip * STRIP * ny;
  return (int2)(strip * STRIP + idx % w, idx / w);
}
#define T4(A, B, C, D)                                                                                 \
  {                                                                                                  \
    const uint t0 = perm(A, B, 0x5140), t1 = perm(C, D, 0x5140), t2 = perm(A, B, 0x7362),            \
               t3 = perm(C, D, 0x7362);                                                              \
    A = perm(t0, t1, 0x5410);                                                                        \
    B = perm(t0, t1, 0x7632);                                                                        \
    C = perm(t2, t3, 0x5410);                                                                        \
    D = perm(t2, t3, 0x7632);                                                                        \
  }

__kernel __attribute__((reqd_work_group_size(GR_WG, 1, 1))) void transpose_gray_reg2(__global const uchar* restrict in,
                                                                                      __global uchar* restrict out,
                                                                                      const int width, const int height) {
  const int l = get_local_id(0);
  const int2 sb = strip_block();
  const int bc = sb.x * GX + (l / BRW) % GX;
  const int br = sb.y * GY + (l / (BRW * GX)) * BRW + l % BRW;
  const int x0 = bc * 16, y0 = br * 16;
  if (x0 >= width || y0 >= height) return;
  if ((width & 15) != 0 || (height & 15) != 0) return;  // experiment: full blocks only
  __global const uint4* in16 = (__global const uint4*)in + (y0 * width + x0) / 16;
  const int rowIn = width / 16;
  uint4 R0 = in16[0 * rowIn];
  uint4 R1 = in16[1 * rowIn];
  uint4 R2 = in16[2 * rowIn];
  uint4 R3 = in16[3 * rowIn];
  uint4 R4 = in16[4 * rowIn];
  uint4 R5 = in16[5 * rowIn];
  uint4 R6 = in16[6 * rowIn];
  uint4 R7 = in16[7 * rowIn];
  uint4 R8 = in16[8 * rowIn];
  uint4 R9 = in16[9 * rowIn];
  uint4 R10 = in16[10 * rowIn];
  uint4 R11 = in16[11 * rowIn];
  uint4 R12 = in16[12 * rowIn];
  uint4 R13 = in16[13 * rowIn];
  uint4 R14 = in16[14 * rowIn];
  uint4 R15 = in16[15 * rowIn];
  T4(R0.x, R1.x, R2.x, R3.x);
  T4(R0.y, R1.y, R2.y, R3.y);
  T4(R0.z, R1.z, R2.z, R3.z);
  T4(R0.w, R1.w, R2.w, R3.w);
  T4(R4.x, R5.x, R6.x, R7.x);
  T4(R4.y, R5.y, R6.y, R7.y);
  T4(R4.z, R5.z, R6.z, R7.z);
  T4(R4.w, R5.w, R6.w, R7.w);
  T4(R8.x, R9.x, R10.x, R11.x);
  T4(R8.y, R9.y, R10.y, R11.y);
  T4(R8.z, R9.z, R10.z, R11.z);
  T4(R8.w, R9.w, R10.w, R11.w);
  T4(R12.x, R13.x, R14.x, R15.x);
  T4(R12.y, R13.y, R14.y, R15.y);
  T4(R12.z, R13.z, R14.z, R15.z);
  T4(R12.w, R13.w, R14.w, R15.w);
  __global uint4* out16 = (__global uint4*)out + (x0 * height + y0) / 16;
  const int rowOut = height / 16;
  out16[0 * rowOut] = (uint4)(R0.x, R4.x, R8.x, R12.x);
  out16[1 * rowOut] = (uint4)(R1.x, R5.x, R9.x, R13.x);
  out16[2 * rowOut] = (uint4)(R2.x, R6.x, R10.x, R14.x);
  out16[3 * rowOut] = (uint4)(R3.x, R7.x, R11.x, R15.x);
  out16[4 * rowOut] = (uint4)(R0.y, R4.y, R8.y, R12.y);
  out16[5 * rowOut] = (uint4)(R1.y, R5.y, R9.y, R13.y);
  out16[6 * rowOut] = (uint4)(R2.y, R6.y, R10.y, R14.y);
  out16[7 * rowOut] = (uint4)(R3.y, R7.y, R11.y, R15.y);
  out16[8 * rowOut] = (uint4)(R0.z, R4.z, R8.z, R12.z);
  out16[9 * rowOut] = (uint4)(R1.z, R5.z, R9.z, R13.z);
  out16[10 * rowOut] = (uint4)(R2.z, R6.z, R10.z, R14.z);
  out16[11 * rowOut] = (uint4)(R3.z, R7.z, R11.z, R15.z);
  out16[12 * rowOut] = (uint4)(R0.w, R4.w, R8.w, R12.w);
  out16[13 * rowOut] = (uint4)(R1.w, R5.w, R9.w, R13.w);
  out16[14 * rowOut] = (uint4)(R2.w, R6.w, R10.w, R14.w);
  out16[15 * rowOut] = (uint4)(R3.w, R7.w, R11.w, R15.w);
}
