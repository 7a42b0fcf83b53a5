#version 330 core
// A picture drawn straight from the buffer kernels wrote (RGBA8 texels, row after
// row) through a buffer texture: no copy into a 2D texture. The buffer may also hold
// the picture's smaller levels, each half the one before (down to 1x1) and stored
// after it, as compute/interop SharedImage lays them out.
uniform samplerBuffer pixels;
uniform ivec2 size;          // level 0, in texels
uniform int levels;          // how many levels the buffer holds (1: level 0 only)
uniform bool smoothMagnify;  // where a texel covers several fragments: bilinear (true) or nearest
in vec2 uv;                  // 0..1 across the picture, (0, 0) at its first texel
out vec4 color;

ivec2 levelSize = size;
int levelOffset = 0;

vec4 texel(ivec2 p) {
  p = clamp(p, ivec2(0), levelSize - 1);
  return texelFetch(pixels, levelOffset + p.y * levelSize.x + p.x);
}

void main() {
  vec2 footprint = fwidth(uv * vec2(size));  // level-0 texels one fragment spans
  // The level whose texels are about a fragment (what a mipmap's LOD picks).
  int level = clamp(int(floor(log2(max(max(footprint.x, footprint.y), 1.0)))), 0, levels - 1);
  for (int k = 0; k < level; ++k) {
    levelOffset += levelSize.x * levelSize.y;
    levelSize = max(levelSize / 2, ivec2(1));
  }
  vec2 scale = vec2(levelSize) / vec2(size);
  vec2 pos = uv * vec2(levelSize);  // texel (i, j) covers [i, i+1) x [j, j+1)
  footprint *= scale;
  if (footprint.x <= 1.0 && footprint.y <= 1.0) {
    if (!smoothMagnify || level > 0) {
      color = texel(ivec2(floor(pos)));
      return;
    }
    vec2 p = pos - 0.5;
    ivec2 i = ivec2(floor(p));
    vec2 f = p - vec2(i);
    color = mix(mix(texel(i), texel(i + ivec2(1, 0)), f.x), mix(texel(i + ivec2(0, 1)), texel(i + ivec2(1, 1)), f.x), f.y);
    return;
  }
  // Still more than a texel per fragment (between two levels, or no smaller level):
  // the mean of the texels under the fragment, at most 16 x 16 evenly spread samples.
  vec2 box = max(footprint, vec2(1.0));
  ivec2 n = clamp(ivec2(ceil(box - 0.001)), ivec2(1), ivec2(16));
  vec2 spacing = box / vec2(n);
  vec2 first = pos - 0.5 * box + 0.5 * spacing;
  vec4 sum = vec4(0.0);
  for (int y = 0; y < n.y; ++y)
    for (int x = 0; x < n.x; ++x) sum += texel(ivec2(floor(first + vec2(x, y) * spacing)));
  color = sum / float(n.x * n.y);
}
