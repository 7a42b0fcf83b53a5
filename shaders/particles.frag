#version 330 core
// A soft round sprite coloured by speed; drawn with additive blending, so dense
// regions glow.
in float speed01;
in float fade;
in float softness;
uniform int colorMap;  // order of ParticleRenderer::colorMapNames
uniform float brightness;
out vec4 color;

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

void main() {
  vec2 p = gl_PointCoord * 2.0 - 1.0;
  float r2 = dot(p, p);
  if (r2 >= 1.0) discard;  // round, not square
  float edge = 1.0 - r2;   // smooth: zero value and slope at the rim
  float intensity = mix(1.0, edge * edge, softness) * fade;
  vec3 rgb = colorMap == 0 ? inferno(speed01) : colorMap == 1 ? ice(speed01) : vec3(1.0);
  color = vec4(rgb * (brightness * intensity), intensity);
}
