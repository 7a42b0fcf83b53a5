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
  if (channel < 0 || channel >= channels) return;
  drawBufferTextureQuad(program_, vao_, rect_, binsTexture, r, [&] {
    glUniform1i(bins_, 0);
    glUniform1i(channel_, channel);
    glUniform1i(channels_, channels);
    glUniform1i(log_, logScale ? 1 : 0);
    glUniform4f(colour_, colour[0], colour[1], colour[2], colour[3]);
    glUniform4f(background_, background[0], background[1], background[2], background[3]);
  }, "HistogramPlot::draw");
}

}  // namespace ks
