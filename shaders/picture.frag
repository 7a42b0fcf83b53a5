#version 330 core
// A picture drawn straight from the buffer kernels wrote (RGBA8 texels, row after
// row) through a buffer texture: no copy into a 2D texture. The buffer may also hold
// the picture's smaller levels, each half the one before (down to 1x1) and stored
// after it, as compute/interop SharedImage lays them out.
//
// The picture is an axis-aligned rectangle, so every fragment covers the same
// footprint: the level and the filter are chosen once per draw on the CPU
// (render/image_quad.cpp) and the loop bounds below are uniform. Choosing them per
// fragment (fwidth, log2, a loop over levels) cost the H200's few graphics units
// 0.13 ms a frame at 6000x4000.
uniform samplerBuffer pixels;
uniform ivec2 levelSize;    // the level drawn from, in texels
uniform int levelOffset;    // where it starts in the buffer, in texels
uniform int filterMode;     // 0: nearest texel, 1: bilinear, 2: box (the mean under the fragment)
uniform ivec2 boxSamples;   // box: evenly spread samples per axis (1 to 16)
uniform vec2 boxSize;       // box: the fragment's footprint, in texels of the level
in vec2 uv;                 // 0..1 across the picture, (0, 0) at its first texel
out vec4 color;

vec4 texel(ivec2 p) {
  p = clamp(p, ivec2(0), levelSize - 1);
  return texelFetch(pixels, levelOffset + p.y * levelSize.x + p.x);
}

void main() {
  vec2 pos = uv * vec2(levelSize);  // texel (i, j) covers [i, i+1) x [j, j+1)
  if (filterMode == 0) {
    color = texel(ivec2(floor(pos)));
    return;
  }
  if (filterMode == 1) {
    vec2 p = pos - 0.5;
    ivec2 i = ivec2(floor(p));
    vec2 f = p - vec2(i);
    color = mix(mix(texel(i), texel(i + ivec2(1, 0)), f.x), mix(texel(i + ivec2(0, 1)), texel(i + ivec2(1, 1)), f.x), f.y);
    return;
  }
  vec2 spacing = boxSize / vec2(boxSamples);
  vec2 first = pos - 0.5 * boxSize + 0.5 * spacing;
  vec4 sum = vec4(0.0);
  for (int y = 0; y < boxSamples.y; ++y)
    for (int x = 0; x < boxSamples.x; ++x) sum += texel(ivec2(floor(first + vec2(x, y) * spacing)));
  color = sum / float(boxSamples.x * boxSamples.y);
}
