#pragma once
// Draws a picture held in a buffer texture (GL_TEXTURE_BUFFER of RGBA8 texels,
// row after row: what kernels wrote) into a rectangle of the current framebuffer.
#include <glad/gl.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "render/gl_objects.h"

namespace ks {

struct PictureRect {
  float x, y, w, h;  // pixels, origin top-left of a viewport of viewportW x viewportH
  int viewportW, viewportH;
};

// Draws `program`'s quad (shaders/picture.vert: its `rect` uniform at
// `rectLocation`) over `rect`, with `bufferTexture` bound as the GL_TEXTURE_BUFFER of
// unit 0; `uniforms` sets the fragment shader's own while the program is in use.
// Leaves no program, vertex array or texture bound.
void drawBufferTextureQuad(const ShaderProgram& program, const VertexArray& vao, GLint rectLocation,
                           GLuint bufferTexture, const PictureRect& rect, const std::function<void()>& uniforms,
                           const char* what);

// One level of a picture's buffer: its size and where it starts, in texels.
struct PictureLevel {
  int width, height;
  size_t offset;
};
// The levels of a W x H picture as shaders/picture.frag reads them: level 0 alone,
// or (withSmaller) each next level half the one before, down to 1x1, stored one
// after another as mipmaps are. Sizes must be positive.
std::vector<PictureLevel> pictureLevels(int width, int height, bool withSmaller);
// A set of levels, bit k for level k (a chain has at most 32: sides are ints).
using PictureLevelMask = uint64_t;
constexpr int pictureLevelLimit = 64;
constexpr PictureLevelMask allPictureLevels = ~PictureLevelMask{0};
// Texels the levels take in the buffer, all of them.
size_t pictureTexels(const std::vector<PictureLevel>& levels);

// How a picture drawn over a rectangle is sampled: the same for every fragment of
// an axis-aligned rectangle, so chosen once per draw. The level whose texels are
// about a fragment (what a mipmap's LOD picks); nearest or bilinear where a texel
// covers a fragment or more, else the mean of up to 16 x 16 samples under it.
struct PictureFilter {
  enum Mode { Nearest = 0, Bilinear = 1, Box = 2 };
  int level = 0;        // the level drawn from
  int wantedLevel = 0;  // the one that fits; where it is not written, the nearest larger one written, else smaller
  int levelWidth = 1, levelHeight = 1;  // the chosen level's, from the picture's levels
  size_t levelOffset = 0;
  Mode mode = Nearest;
  int samplesX = 1, samplesY = 1;          // Box
  float boxWidth = 1.0f, boxHeight = 1.0f;  // Box: the fragment's footprint in the level's texels
};
// `levels`: the picture's (pictureLevels); `drawnWidth` x `drawnHeight`: the
// rectangle in framebuffer pixels; `written`: the levels the buffer holds now.
PictureFilter choosePictureFilter(const std::vector<PictureLevel>& levels, bool smooth, double drawnWidth,
                                  double drawnHeight, PictureLevelMask written = allPictureLevels);

class ImageQuad {
 public:
  ImageQuad();
  // `levels`: the buffer's layout (pictureLevels), of which `written` hold the
  // picture. smooth: bilinear where magnified (else nearest texels); shrunk
  // pictures are drawn from the level that fits, or the nearest larger one written,
  // box-filtered. Blending is left as the caller set it. Returns how it was sampled.
  PictureFilter draw(GLuint bufferTexture, const std::vector<PictureLevel>& levels, bool smooth,
                     const PictureRect& rect, PictureLevelMask written = allPictureLevels) const;

 private:
  ShaderProgram program_;
  VertexArray vao_;
  GLint rectLocation_ = -1, pixelsLocation_ = -1, levelSizeLocation_ = -1, levelOffsetLocation_ = -1,
        filterModeLocation_ = -1, boxSamplesLocation_ = -1, boxSizeLocation_ = -1;
};

}  // namespace ks
