#version 330 core
// A quad covering the rectangle `rect` (x0, y0, x1, y1 in clip space), from a
// vertex id alone: no vertex buffer needed.
uniform vec4 rect;
out vec2 uv;
void main() {
  vec2 corner = vec2(gl_VertexID & 1, (gl_VertexID >> 1) & 1);
  uv = vec2(corner.x, 1.0 - corner.y);
  gl_Position = vec4(mix(rect.xy, rect.zw, corner), 0.0, 1.0);
}
