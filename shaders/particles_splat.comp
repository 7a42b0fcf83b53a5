// The compute splat: one invocation per particle draws its sprite the way GL rasterizes a point
// (a square of the sprite's size centred on it, a fragment for each pixel centre inside it, the
// round falloff of particles.frag) and adds each fragment's colour, rounded to 8 bits as the
// framebuffer stores it, into per-pixel sums. particles_resolve.frag then adds the sums, capped
// at 255, onto the framebuffer. Additive blending into 8 bits caps the same way in any order, so
// this is the picture the point sprites draw, without GL's point pipeline (on GPUs built for
// compute, such as NVIDIA's H100 and H200, only a few of the SMs run it).
// (particle_look.glsl is prepended.)
layout(local_size_x = 256) in;
layout(std430, binding = 0) readonly buffer Particles { vec4 particles[]; };
layout(std430, binding = 1) buffer Sums { uint sums[]; };  // r, g, b, a per pixel, rows bottom up
uniform mat4 viewProjection;
uniform float pointSize;
uniform float attenuationDistance;
uniform float maxPointSize;
uniform float maxSpeed;
uniform float brightness;
uniform int colorMap;
uniform uint particleCount;
uniform ivec2 viewportSize;
uniform float subpixelStep;  // > 0: the point's centre snapped to this fraction of a pixel, as GL's rasterizer does
uniform int edgeRule;        // which pixel centres on the square's edges are inside: 0 left/bottom, 1 right/top

void add(uint index, uint value) {
  if (value != 0u) atomicAdd(sums[index], value);
}

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= particleCount) return;
  vec4 particle = particles[i];
  vec4 clip = viewProjection * vec4(particle.xyz, 1.0);
  // GL clips a point by its centre; the comparison is false for NaN too.
  if (!all(lessThanEqual(abs(clip.xyz), vec3(clip.w)))) return;
  SpriteSize s = spriteSize(pointSize, attenuationDistance, maxPointSize, clip.w);
  vec2 centre = (clip.xy / clip.w * 0.5 + 0.5) * vec2(viewportSize);
  if (subpixelStep > 0.0) centre = floor(centre / subpixelStep + 0.5) * subpixelStep;
  vec3 rgb = speedColour(colorMap, clamp(particle.w / maxSpeed, 0.0, 1.0));
  float halfSize = s.size * 0.5;
  // Pixel centres c inside the square: centre - half <= c < centre + half (edge rule 0) or
  // centre - half < c <= centre + half (1); GL leaves the choice to the implementation.
  vec2 loEdge = centre - halfSize - 0.5, hiEdge = centre + halfSize - 0.5;
  ivec2 lo = edgeRule == 0 ? ivec2(ceil(loEdge)) : ivec2(floor(loEdge)) + 1;
  ivec2 hi = edgeRule == 0 ? ivec2(ceil(hiEdge)) - 1 : ivec2(floor(hiEdge));
  lo = max(lo, ivec2(0));
  hi = min(hi, viewportSize - 1);
  for (int y = lo.y; y <= hi.y; ++y) {
    for (int x = lo.x; x <= hi.x; ++x) {
      vec2 p = (vec2(x, y) + 0.5 - centre) / halfSize;
      float r2 = dot(p, p);
      if (r2 >= 1.0) continue;
      float intensity = spriteIntensity(r2, s.softness, s.fade);
      uvec4 q = uvec4(floor(clamp(vec4(rgb * (brightness * intensity), intensity), 0.0, 1.0) * 255.0 + 0.5));
      uint base = (uint(y) * uint(viewportSize.x) + uint(x)) * 4u;
      add(base, q.r);
      add(base + 1u, q.g);
      add(base + 2u, q.b);
      add(base + 3u, q.a);
    }
  }
}
