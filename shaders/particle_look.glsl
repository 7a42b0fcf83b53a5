// The particles' look, shared by the point sprites (particles.vert, particles.frag) and the compute
// splat (particles_splat.comp), so that both draw the same picture. Prepended to each after #version.

struct SpriteSize {
  float size;      // pixels across, as GL rasterizes the point
  float fade;      // brightness kept by sprites smaller than a pixel
  float softness;  // 0: flat disc, 1: full radial falloff
};

// clipW: the particle's clip-space w, its distance along the view axis for a perspective projection.
SpriteSize spriteSize(float pointSize, float attenuationDistance, float maxPointSize, float clipW) {
  float size = pointSize;
  if (attenuationDistance > 0.0) size *= attenuationDistance / max(clipW, 1e-20);
  SpriteSize s;
  // A sprite cannot be drawn smaller than a pixel: dim it by its area instead,
  // so a cloud of distant particles does not turn brighter than it should.
  s.fade = size < 1.0 ? size * size : 1.0;
  s.size = clamp(size, 1.0, maxPointSize);
  // A sprite of a pixel or two has no room for a falloff: it would only get dimmer.
  s.softness = clamp((s.size - 1.0) / 4.0, 0.0, 1.0);
  return s;
}

// matplotlib's inferno from its dark purple on: its first fifth is nearly black,
// which would make slow particles vanish when added onto a black background.
vec3 inferno(float t) {
  const vec3 stops[8] = vec3[8](vec3(0.290, 0.047, 0.420), vec3(0.471, 0.110, 0.427), vec3(0.647, 0.173, 0.376),
                                vec3(0.812, 0.267, 0.275), vec3(0.929, 0.412, 0.145), vec3(0.984, 0.608, 0.024),
                                vec3(0.969, 0.820, 0.239), vec3(0.988, 1.000, 0.643));
  float x = t * 7.0;
  int i = min(int(x), 6);
  return mix(stops[i], stops[i + 1], x - float(i));
}

// Deep blue through cyan to white.
vec3 ice(float t) {
  const vec3 stops[4] = vec3[4](vec3(0.06, 0.16, 0.50), vec3(0.10, 0.40, 0.85), vec3(0.40, 0.80, 1.00),
                                vec3(0.93, 0.98, 1.00));
  float x = t * 3.0;
  int i = min(int(x), 2);
  return mix(stops[i], stops[i + 1], x - float(i));
}

// colorMap: the order of ParticleRenderer::colorMapNames. speed01: the speed over the map's top, 0..1.
vec3 speedColour(int colorMap, float speed01) {
  return colorMap == 0 ? inferno(speed01) : colorMap == 1 ? ice(speed01) : vec3(1.0);
}

// The brightness at squared distance r2 from the sprite's centre (1 at its rim; callers draw
// nothing at r2 >= 1: round, not square). Smooth: zero value and slope at the rim.
float spriteIntensity(float r2, float softness, float fade) {
  float edge = 1.0 - r2;
  return mix(1.0, edge * edge, softness) * fade;
}
