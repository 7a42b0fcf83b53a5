// One point sprite per particle. The buffer holds a float4 per particle, as the
// simulation writes it: xyz position, w speed. (particle_look.glsl is prepended.)
layout(location = 0) in vec4 particle;
uniform mat4 viewProjection;
uniform float pointSize;            // pixels
uniform float attenuationDistance;  // > 0: sprites this far from the eye are pointSize wide, nearer ones larger
uniform float maxPointSize;         // the largest size the implementation draws
uniform float maxSpeed;             // speed shown at the top of the colour map
uniform int colorMap;               // order of ParticleRenderer::colorMapNames
out vec3 rgb;        // the colour, once per particle rather than per fragment
out float fade;
out float softness;
void main() {
  gl_Position = viewProjection * vec4(particle.xyz, 1.0);
  SpriteSize s = spriteSize(pointSize, attenuationDistance, maxPointSize, gl_Position.w);
  gl_PointSize = s.size;
  fade = s.fade;
  softness = s.softness;
  rgb = speedColour(colorMap, clamp(particle.w / maxSpeed, 0.0, 1.0));
}
