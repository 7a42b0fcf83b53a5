// N-body: what the integrator should conserve, per body, so that drift can be
// watched while it runs. The step is a leapfrog whose stored velocities are half a
// step behind the positions (kernels/nbody.cl), so every figure is taken at the
// synchronised velocity v = v_{n-1/2} + a(p_n) dt/2, with a from the same softened
// forces as the step (the loop over pairs that sums the potential gives it too).
// For body i:
//   kinetic   m v.v / 2
//   potential -G m sum_{j != i} m_j / sqrt(|p_j - p|^2 + eps^2) / 2   (each pair counted once over all bodies,
//             with the softening the step uses, so it is the energy the softened forces conserve)
//   momentum  m v,  angular momentum  p x m v
//   and, for the scales drift is measured against, m and m |p|^2
// Written as 10 numbers per body; the host adds them up in double precision.
//
// POSITIONS_FP64: the simulation keeps double4 positions and velocities, else float4.
// SUM_FP64: the potential's sum is kept in double (the device has cl_khr_fp64); else
// in float with Kahan's compensation, which keeps its error near one rounding. The
// acceleration is summed in the same type (plainly: it only moves v by a dt/2).
#if defined(POSITIONS_FP64) || defined(SUM_FP64)
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

#ifdef POSITIONS_FP64
typedef double real;
typedef double3 real3;
typedef double4 real4;
#define convert_real3 convert_double3
#else
typedef float real;
typedef float3 real3;
typedef float4 real4;
#define convert_real3 convert_float3
#endif

#ifdef SUM_FP64
typedef double out_t;
#else
typedef float out_t;
#endif

__kernel void nbody_invariants(__global const real4* positions, __global const real4* velocities, const int bodies,
                               const real softening2, const real gravity, const real dt, __global out_t* out) {
  const int i = get_global_id(0);
  if (i >= bodies) return;
  const real4 p = positions[i];
#ifdef SUM_FP64
  double sum = 0.0;
  double3 acc = (double3)(0.0);
#else
  float sum = 0.0f, lost = 0.0f;  // Kahan: what the last addition dropped
  float3 acc = (float3)(0.0f);
#endif
  for (int j = 0; j < bodies; ++j) {
    if (j == i) continue;
    const real4 q = positions[j];
    const real4 d = q - p;
    const real inverse = (real)1 / sqrt(d.x * d.x + d.y * d.y + d.z * d.z + softening2);
    const real term = q.w * inverse;
#ifdef SUM_FP64
    sum += (double)term;
    acc += convert_double3(term * inverse * inverse * d.xyz);
#else
    const float y = (float)term - lost;
    const float t = sum + y;
    lost = (t - sum) - y;
    sum = t;
    acc += convert_float3(term * inverse * inverse * d.xyz);
#endif
  }
  // The half kick that brings the stored velocity to the positions' time.
  const real4 stored = velocities[i];
  const real3 v = stored.xyz + convert_real3((out_t)gravity * (out_t)0.5 * (out_t)dt * acc);
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
