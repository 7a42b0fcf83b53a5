// The start scene: an animated Julia set, one work-item per pixel. Small enough
// to run anywhere (PoCL on two cores included), busy enough to be worth timing.

float3 palette(float t) {
  // cosine palette: smooth, never saturates to flat white
  const float3 a = (float3)(0.50f, 0.50f, 0.50f);
  const float3 b = (float3)(0.50f, 0.50f, 0.50f);
  const float3 d = (float3)(0.00f, 0.15f, 0.35f);
  return a + b * cos(6.2831853f * (t + d));
}

__kernel void julia(__global uchar4* out, const int width, const int height, const float time,
                    const int iterations) {
  const int x = get_global_id(0);
  const int y = get_global_id(1);
  if (x >= width || y >= height) return;  // the NDRange is rounded up to the work-group size

  const float2 c = (float2)(-0.745f + 0.06f * cos(0.31f * time), 0.186f + 0.06f * sin(0.23f * time));
  float2 z = (float2)(3.0f * (x + 0.5f) / width - 1.5f, 3.0f * (y + 0.5f) / height - 1.5f);
  int i = 0;
  float r2 = 0.0f;
  for (; i < iterations; ++i) {
    z = (float2)(z.x * z.x - z.y * z.y, 2.0f * z.x * z.y) + c;
    r2 = dot(z, z);
    if (r2 > 16.0f) break;
  }
  float3 rgb = (float3)(0.02f, 0.02f, 0.05f);
  if (i < iterations) {
    const float smooth_i = i + 1.0f - log2(log2(r2) * 0.5f);  // continuous escape count
    rgb = palette(0.45f * log(smooth_i + 1.0f) + 0.05f * time);  // log: bands near the set stay apart
  }
  out[y * width + x] = convert_uchar4_sat_rte((float4)(rgb * 255.0f, 255.0f));
}
