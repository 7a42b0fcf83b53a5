#include "render/histogram_plot.h"

#include "render/embedded_shaders.h"
#include "render/gl_check.h"

namespace ks {

HistogramPlot::HistogramPlot()
    : program_(createShaderProgram(shaders::picture_vert, shaders::histogram_frag, "histogram")),
      vao_(createVertexArray()) {
  const GLuint p = program_.get();
  rect_ = glGetUniformLocation(p, "rect");
  bins_ = glGetUniformLocation(p, "bins");
  channel_ = glGetUniformLocation(p, "channel");
  channels_ = glGetUniformLocation(p, "channels");
  log_ = glGetUniformLocation(p, "logScale");
  colour_ = glGetUniformLocation(p, "colour");
  background_ = glGetUniformLocation(p, "background");
  glCheck("HistogramPlot uniforms");
}

void HistogramPlot::draw(GLuint binsTexture, int channels, int channel, bool logScale,
                         const std::array<float, 4>& colour, const std::array<float, 4>& background,
                         const PictureRect& r) const {
  if (r.viewportW <= 0 || r.viewportH <= 0 || !binsTexture || channel < 0 || channel >= channels) return;
  const float x0 = 2.0f * r.x / r.viewportW - 1.0f, x1 = 2.0f * (r.x + r.w) / r.viewportW - 1.0f;
  const float y0 = 1.0f - 2.0f * (r.y + r.h) / r.viewportH, y1 = 1.0f - 2.0f * r.y / r.viewportH;
  glUseProgram(program_.get());
  glUniform4f(rect_, x0, y0, x1, y1);
  glUniform1i(bins_, 0);
  glUniform1i(channel_, channel);
  glUniform1i(channels_, channels);
  glUniform1i(log_, logScale ? 1 : 0);
  glUniform4f(colour_, colour[0], colour[1], colour[2], colour[3]);
  glUniform4f(background_, background[0], background[1], background[2], background[3]);
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_BUFFER, binsTexture);
  glBindVertexArray(vao_.get());
  glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
  glBindVertexArray(0);
  glBindTexture(GL_TEXTURE_BUFFER, 0);
  glUseProgram(0);
  glCheck("HistogramPlot::draw");
}

}  // namespace ks
