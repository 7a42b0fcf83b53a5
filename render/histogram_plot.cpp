#include "render/histogram_plot.h"

#include "render/embedded_shaders.h"
#include "render/gl_check.h"

namespace ks {

HistogramPlot::HistogramPlot()
    : program_(createShaderProgram(shaders::picture_vert, shaders::histogram_frag, "histogram")),
      vao_(createVertexArray()) {
  lookUpUniforms(program_.get(),
                 {{"rect", &rect_}, {"bins", &bins_}, {"channel", &channel_}, {"channels", &channels_},
                  {"logScale", &log_}, {"colour", &colour_}, {"background", &background_}, {"top", &top_},
                  {"binsSpan", &binsSpan_}, {"minBarPixels", &minBarPixels_}},
                 "histogram");
}

void HistogramPlot::draw(GLuint binsTexture, int channels, int channel, bool logScale,
                         const std::array<float, 4>& colour, const std::array<float, 4>& background,
                         const PictureRect& r, float top, float binsFrom, float binsTo,
                         float minBarPixels) const {
  if (channel < 0 || channel >= channels) return;
  drawBufferTextureQuad(program_, vao_, rect_, binsTexture, r, [&] {
    glUniform1i(bins_, 0);
    glUniform1i(channel_, channel);
    glUniform1i(channels_, channels);
    glUniform1i(log_, logScale ? 1 : 0);
    glUniform4f(colour_, colour[0], colour[1], colour[2], colour[3]);
    glUniform4f(background_, background[0], background[1], background[2], background[3]);
    glUniform1f(top_, top);
    glUniform2f(binsSpan_, binsFrom, binsTo);
    glUniform1f(minBarPixels_, minBarPixels);
  }, "HistogramPlot::draw");
}

}  // namespace ks
