#pragma once
// Draws one channel of a histogram as bars from a buffer texture of R32UI bins
// (as compute/interop HistogramDisplay lays them out) into a rectangle of the
// current framebuffer. render/ knows no OpenCL: it is handed the GL texture.
// Several channels overlay in one plot with a shared `top` (the count at full
// height) and, after the first, a transparent background (the bars blend as
// ImGui's renderer has blending set). The bins may fill part of the rectangle
// (`binsFrom`..`binsTo`, fractions of its width: room at the ends for a bar at
// level 0 or 255), and bins narrower than `minBarPixels` are drawn that wide.
#include <glad/gl.h>

#include <array>

#include "render/gl_objects.h"
#include "render/image_quad.h"

namespace ks {

class HistogramPlot {
 public:
  HistogramPlot();
  void draw(GLuint binsTexture, int channels, int channel, bool logScale, const std::array<float, 4>& colour,
            const std::array<float, 4>& background, const PictureRect& rect, float top = 0.0f,
            float binsFrom = 0.0f, float binsTo = 1.0f, float minBarPixels = 0.0f) const;

 private:
  ShaderProgram program_;
  VertexArray vao_;
  GLint rect_ = -1, bins_ = -1, channel_ = -1, channels_ = -1, log_ = -1, colour_ = -1, background_ = -1, top_ = -1,
        binsSpan_ = -1, minBarPixels_ = -1;
};

}  // namespace ks
