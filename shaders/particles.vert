#version 330 core
// One point sprite per particle. The buffer holds a float4 per particle, as the
// simulation writes it: xyz position, w speed.
layout(location = 0) in vec4 particle;
uniform mat4 viewProjection;
uniform float pointSize;            // pixels
uniform float attenuationDistance;  // > 0: sprites this far from the eye are pointSize wide, nearer ones larger
uniform float maxPointSize;         // the largest size the implementation draws
uniform float maxSpeed;             // speed shown at the top of the colour map
out float speed01;
out float fade;      // brightness kept by sprites smaller than a pixel
out float softness;  // 0: flat disc, 1: full radial falloff
void main() {
  gl_Position = viewProjection * vec4(particle.xyz, 1.0);
  float size = pointSize;
  // For a perspective projection clip w is the distance along the view axis.
  if (attenuationDistance > 0.0) size *= attenuationDistance / max(gl_Position.w, 1e-20);
  // A sprite cannot be drawn smaller than a pixel: dim it by its area instead,
  // so a cloud of distant particles does not turn brighter than it should.
  fade = size < 1.0 ? size * size : 1.0;
  size = clamp(size, 1.0, maxPointSize);
  // A sprite of a pixel or two has no room for a falloff: it would only get dimmer.
  softness = clamp((size - 1.0) / 4.0, 0.0, 1.0);
  gl_PointSize = size;
  speed01 = clamp(particle.w / maxSpeed, 0.0, 1.0);
}
