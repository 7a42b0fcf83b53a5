#include "render/image_quad.h"

#include "render/embedded_shaders.h"
#include "render/gl_check.h"

namespace ks {

ImageQuad::ImageQuad()
    : program_(createShaderProgram(shaders::textured_quad_vert, shaders::textured_quad_frag, "textured_quad")),
      vao_(createVertexArray()) {
  rectLocation_ = glGetUniformLocation(program_.get(), "rect");
  imageLocation_ = glGetUniformLocation(program_.get(), "image");
  glCheck("ImageQuad uniforms");
}

void ImageQuad::draw(GLuint texture, float x, float y, float w, float h, int viewportW, int viewportH) const {
  if (viewportW <= 0 || viewportH <= 0) return;
  const float x0 = 2.0f * x / viewportW - 1.0f, x1 = 2.0f * (x + w) / viewportW - 1.0f;
  const float y0 = 1.0f - 2.0f * (y + h) / viewportH, y1 = 1.0f - 2.0f * y / viewportH;
  glUseProgram(program_.get());
  glUniform4f(rectLocation_, x0, y0, x1, y1);
  glUniform1i(imageLocation_, 0);
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, texture);
  glBindVertexArray(vao_.get());
  glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
  glBindVertexArray(0);
  glBindTexture(GL_TEXTURE_2D, 0);
  glUseProgram(0);
  glCheck("ImageQuad::draw");
}

}  // namespace ks
