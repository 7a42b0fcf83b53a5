// A soft round sprite coloured by speed; drawn with additive blending, so dense
// regions glow. (particle_look.glsl is prepended.)
in vec3 rgb;
in float fade;
in float softness;
uniform float brightness;
out vec4 color;
void main() {
  vec2 p = gl_PointCoord * 2.0 - 1.0;
  float r2 = dot(p, p);
  if (r2 >= 1.0) discard;  // round, not square
  float intensity = spriteIntensity(r2, softness, fade);
  color = vec4(rgb * (brightness * intensity), intensity);
}
