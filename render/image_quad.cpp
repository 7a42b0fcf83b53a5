#include "render/image_quad.h"

#include <algorithm>

#include "render/embedded_shaders.h"
#include "render/gl_check.h"

namespace ks {

ImageQuad::ImageQuad()
    : program_(createShaderProgram(shaders::picture_vert, shaders::picture_frag, "picture")),
      vao_(createVertexArray()) {
  lookUpUniforms(program_.get(),
                 {{"rect", &rectLocation_}, {"pixels", &pixelsLocation_}, {"size", &sizeLocation_},
                  {"smoothMagnify", &smoothLocation_}, {"levels", &levelsLocation_}},
                 "picture");
}

void drawBufferTextureQuad(const ShaderProgram& program, const VertexArray& vao, GLint rectLocation,
                           GLuint bufferTexture, const PictureRect& r, const std::function<void()>& uniforms,
                           const char* what) {
  if (r.viewportW <= 0 || r.viewportH <= 0 || !bufferTexture) return;
  const float x0 = 2.0f * r.x / r.viewportW - 1.0f, x1 = 2.0f * (r.x + r.w) / r.viewportW - 1.0f;
  const float y0 = 1.0f - 2.0f * (r.y + r.h) / r.viewportH, y1 = 1.0f - 2.0f * r.y / r.viewportH;
  glUseProgram(program.get());
  glUniform4f(rectLocation, x0, y0, x1, y1);
  uniforms();
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_BUFFER, bufferTexture);
  glBindVertexArray(vao.get());
  glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
  glBindVertexArray(0);
  glBindTexture(GL_TEXTURE_BUFFER, 0);
  glUseProgram(0);
  glCheck(what);
}

void ImageQuad::draw(GLuint bufferTexture, int pictureW, int pictureH, int levels, bool smooth,
                     const PictureRect& r) const {
  drawBufferTextureQuad(program_, vao_, rectLocation_, bufferTexture, r, [&] {
    glUniform1i(pixelsLocation_, 0);
    glUniform2i(sizeLocation_, pictureW, pictureH);
    glUniform1i(levelsLocation_, std::max(levels, 1));
    glUniform1i(smoothLocation_, smooth ? 1 : 0);
  }, "ImageQuad::draw");
}

}  // namespace ks
