// Adds the compute splat's per-pixel sums onto the framebuffer (additive blending), each capped
// at 255: what blending every fragment into 8 bits one after another gives.
layout(std430, binding = 1) readonly buffer Sums { uint sums[]; };
uniform ivec2 viewportOrigin;
uniform int viewportWidth;
out vec4 color;
void main() {
  ivec2 p = ivec2(gl_FragCoord.xy) - viewportOrigin;
  uint base = uint(p.y * viewportWidth + p.x) * 4u;
  uvec4 sum = uvec4(sums[base], sums[base + 1u], sums[base + 2u], sums[base + 3u]);
  if (all(equal(sum, uvec4(0u)))) discard;
  color = vec4(min(sum, uvec4(255u))) / 255.0;
}
