#include "render/image_quad.h"

#include <algorithm>
#include <cmath>

#include "render/embedded_shaders.h"
#include "render/gl_check.h"

namespace ks {

ImageQuad::ImageQuad()
    : program_(createShaderProgram(shaders::picture_vert, shaders::picture_frag, "picture")),
      vao_(createVertexArray()) {
  lookUpUniforms(program_.get(),
                 {{"rect", &rectLocation_},
                  {"pixels", &pixelsLocation_},
                  {"levelSize", &levelSizeLocation_},
                  {"levelOffset", &levelOffsetLocation_},
                  {"filterMode", &filterModeLocation_},
                  {"boxSamples", &boxSamplesLocation_},
                  {"boxSize", &boxSizeLocation_}},
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

PictureFilter choosePictureFilter(int pictureW, int pictureH, int levels, bool smooth, double drawnWidth,
                                  double drawnHeight) {
  PictureFilter f;
  f.levelWidth = std::max(pictureW, 1);
  f.levelHeight = std::max(pictureH, 1);
  if (drawnWidth <= 0.0 || drawnHeight <= 0.0) return f;
  // Level-0 texels one fragment spans, as fwidth(uv * size) in the fragment shader.
  double footX = f.levelWidth / drawnWidth, footY = f.levelHeight / drawnHeight;
  const double widest = std::max({footX, footY, 1.0});
  f.level = std::clamp(static_cast<int>(std::floor(std::log2(widest))), 0, std::max(levels, 1) - 1);
  for (int k = 0; k < f.level; ++k) {
    f.levelOffset += static_cast<long long>(f.levelWidth) * f.levelHeight;
    f.levelWidth = std::max(f.levelWidth / 2, 1);
    f.levelHeight = std::max(f.levelHeight / 2, 1);
  }
  footX *= static_cast<double>(f.levelWidth) / std::max(pictureW, 1);
  footY *= static_cast<double>(f.levelHeight) / std::max(pictureH, 1);
  if (footX <= 1.0 && footY <= 1.0) {
    f.mode = smooth && f.level == 0 ? PictureFilter::Bilinear : PictureFilter::Nearest;
    return f;
  }
  // Still more than a texel per fragment (between two levels, or no smaller level).
  f.mode = PictureFilter::Box;
  f.boxWidth = static_cast<float>(std::max(footX, 1.0));
  f.boxHeight = static_cast<float>(std::max(footY, 1.0));
  f.samplesX = std::clamp(static_cast<int>(std::ceil(f.boxWidth - 0.001f)), 1, 16);
  f.samplesY = std::clamp(static_cast<int>(std::ceil(f.boxHeight - 0.001f)), 1, 16);
  return f;
}

void ImageQuad::draw(GLuint bufferTexture, int pictureW, int pictureH, int levels, bool smooth,
                     const PictureRect& r) const {
  if (r.viewportW <= 0 || r.viewportH <= 0) return;
  // The rectangle in the framebuffer's pixels (the viewport may be larger than the
  // units `r` is given in: a HiDPI framebuffer).
  GLint viewport[4] = {0, 0, 0, 0};
  glGetIntegerv(GL_VIEWPORT, viewport);
  const PictureFilter f = choosePictureFilter(pictureW, pictureH, levels, smooth,
                                              static_cast<double>(r.w) * viewport[2] / r.viewportW,
                                              static_cast<double>(r.h) * viewport[3] / r.viewportH);
  drawBufferTextureQuad(program_, vao_, rectLocation_, bufferTexture, r, [&] {
    glUniform1i(pixelsLocation_, 0);
    glUniform2i(levelSizeLocation_, f.levelWidth, f.levelHeight);
    glUniform1i(levelOffsetLocation_, static_cast<GLint>(f.levelOffset));
    glUniform1i(filterModeLocation_, f.mode);
    glUniform2i(boxSamplesLocation_, f.samplesX, f.samplesY);
    glUniform2f(boxSizeLocation_, f.boxWidth, f.boxHeight);
  }, "ImageQuad::draw");
}

}  // namespace ks
