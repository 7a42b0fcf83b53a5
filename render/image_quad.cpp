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

std::vector<PictureLevel> pictureLevels(int width, int height, bool withSmaller) {
  std::vector<PictureLevel> levels{{width, height, 0}};
  if (withSmaller)
    while (levels.back().width > 1 || levels.back().height > 1) {
      const PictureLevel& last = levels.back();
      levels.push_back({std::max(1, last.width / 2), std::max(1, last.height / 2),
                        last.offset + static_cast<size_t>(last.width) * static_cast<size_t>(last.height)});
    }
  return levels;
}

size_t pictureTexels(const std::vector<PictureLevel>& levels) {
  if (levels.empty()) return 0;
  return levels.back().offset + static_cast<size_t>(levels.back().width) * static_cast<size_t>(levels.back().height);
}

PictureFilter choosePictureFilter(const std::vector<PictureLevel>& levels, bool smooth, double drawnWidth,
                                  double drawnHeight, PictureLevelMask written) {
  PictureFilter f;
  if (levels.empty()) return f;
  const PictureLevel& full = levels.front();
  f.levelWidth = full.width;
  f.levelHeight = full.height;
  if (drawnWidth <= 0.0 || drawnHeight <= 0.0) return f;
  // Level-0 texels one fragment spans, as fwidth(uv * size) in the fragment shader.
  double footX = full.width / drawnWidth, footY = full.height / drawnHeight;
  const double widest = std::max({footX, footY, 1.0});
  const int lastLevel = std::min(static_cast<int>(levels.size()), pictureLevelLimit) - 1;
  f.wantedLevel = std::clamp(static_cast<int>(std::floor(std::log2(widest))), 0, lastLevel);
  // Else the nearest larger level written (sharp, more samples), else the nearest
  // smaller one (blurred for the frames until the level that fits is written).
  auto isWritten = [written](int k) { return ((written >> k) & 1u) != 0; };
  f.level = f.wantedLevel;
  while (f.level >= 0 && !isWritten(f.level)) --f.level;
  if (f.level < 0) {
    f.level = f.wantedLevel + 1;
    while (f.level < lastLevel && !isWritten(f.level)) ++f.level;
    f.level = std::min(f.level, lastLevel);
  }
  const PictureLevel& chosen = levels[static_cast<size_t>(f.level)];
  f.levelWidth = chosen.width;
  f.levelHeight = chosen.height;
  f.levelOffset = chosen.offset;
  footX *= static_cast<double>(chosen.width) / full.width;
  footY *= static_cast<double>(chosen.height) / full.height;
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

PictureFilter ImageQuad::draw(GLuint bufferTexture, const std::vector<PictureLevel>& levels, bool smooth,
                              const PictureRect& r, PictureLevelMask written) const {
  if (r.viewportW <= 0 || r.viewportH <= 0) return {};
  // The rectangle in the framebuffer's pixels (the viewport may be larger than the
  // units `r` is given in: a HiDPI framebuffer).
  GLint viewport[4] = {0, 0, 0, 0};
  glGetIntegerv(GL_VIEWPORT, viewport);
  const PictureFilter f = choosePictureFilter(levels, smooth,
                                              static_cast<double>(r.w) * viewport[2] / r.viewportW,
                                              static_cast<double>(r.h) * viewport[3] / r.viewportH, written);
  drawBufferTextureQuad(program_, vao_, rectLocation_, bufferTexture, r, [&] {
    glUniform1i(pixelsLocation_, 0);
    glUniform2i(levelSizeLocation_, f.levelWidth, f.levelHeight);
    glUniform1i(levelOffsetLocation_, static_cast<GLint>(f.levelOffset));
    glUniform1i(filterModeLocation_, f.mode);
    glUniform2i(boxSamplesLocation_, f.samplesX, f.samplesY);
    glUniform2f(boxSizeLocation_, f.boxWidth, f.boxHeight);
  }, "ImageQuad::draw");
  return f;
}

}  // namespace ks
