// N-body: what the integrator should conserve, per body, so that drift can be
// watched while it runs. For body i:
//   kinetic   m v.v / 2
//   potential -G m sum_{j != i} m_j / sqrt(|p_j - p|^2 + eps^2) / 2   (each pair counted once over all bodies,
//             with the softening the step uses, so it is the energy the softened forces conserve)
//   momentum  m v,  angular momentum  p x m v
//   and, for the scales drift is measured against, m and m |p|^2
// Written as 10 numbers per body; the host adds them up in double precision.
//
// POSITIONS_FP64: the simulation keeps double4 positions and velocities, else float4.
// SUM_FP64: the potential's sum is kept in double (the device has cl_khr_fp64); else
// in float with Kahan's compensation, which keeps its error near one rounding.
#if defined(POSITIONS_FP64) || defined(SUM_FP64)
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

#ifdef POSITIONS_FP64
typedef double real;
typedef double4 real4;
#else
typedef float real;
typedef float4 real4;
#endif

#ifdef SUM_FP64
typedef double out_t;
#else
typedef float out_t;
#endif

__kernel void nbody_invariants(__global const real4* positions, __global const real4* velocities, const int bodies,
                               const real softening2, const real gravity, __global out_t* out) {
  const int i = get_global_id(0);
  if (i >= bodies) return;
  const real4 p = positions[i];
#ifdef SUM_FP64
  double sum = 0.0;
#else
  float sum = 0.0f, lost = 0.0f;  // Kahan: what the last addition dropped
#endif
  for (int j = 0; j < bodies; ++j) {
    if (j == i) continue;
    const real4 q = positions[j];
    const real4 d = q - p;
    const real term = q.w / sqrt(d.x * d.x + d.y * d.y + d.z * d.z + softening2);
#ifdef SUM_FP64
    sum += (double)term;
#else
    const float y = (float)term - lost;
    const float t = sum + y;
    lost = (t - sum) - y;
    sum = t;
#endif
  }
  const real4 v = velocities[i];
  const real m = p.w;
  __global out_t* o = out + 10 * (size_t)i;
  o[0] = (out_t)((real)0.5 * m * (v.x * v.x + v.y * v.y + v.z * v.z));
  o[1] = -(out_t)0.5 * (out_t)gravity * (out_t)m * sum;
  o[2] = (out_t)(m * v.x);
  o[3] = (out_t)(m * v.y);
  o[4] = (out_t)(m * v.z);
  o[5] = (out_t)(m * (p.y * v.z - p.z * v.y));
  o[6] = (out_t)(m * (p.z * v.x - p.x * v.z));
  o[7] = (out_t)(m * (p.x * v.y - p.y * v.x));
  o[8] = (out_t)m;
  o[9] = (out_t)(m * (p.x * p.x + p.y * p.y + p.z * p.z));
}
