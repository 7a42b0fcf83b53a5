#include "render/particle_renderer.h"

#include <algorithm>
#include <cmath>
#include <glm/gtc/type_ptr.hpp>
#include <limits>
#include <string>

#include "render/embedded_shaders.h"
#include "render/gl_check.h"
#include "render/particle_drawing_trial.h"
#include "render/particle_splat.h"

namespace ks {

namespace {

constexpr GLsizei kParticleBytes = 4 * sizeof(float);

// What draw() changes, put back when it leaves (also when a check throws), so
// the UI drawn after the particles sees the state it expects.
class SavedState {
 public:
  SavedState() {
    blend_ = glIsEnabled(GL_BLEND);
    depthTest_ = glIsEnabled(GL_DEPTH_TEST);
    dither_ = glIsEnabled(GL_DITHER);
    programPointSize_ = glIsEnabled(GL_PROGRAM_POINT_SIZE);
    glGetIntegerv(GL_BLEND_SRC_RGB, &srcRgb_);
    glGetIntegerv(GL_BLEND_DST_RGB, &dstRgb_);
    glGetIntegerv(GL_BLEND_SRC_ALPHA, &srcAlpha_);
    glGetIntegerv(GL_BLEND_DST_ALPHA, &dstAlpha_);
    glGetIntegerv(GL_BLEND_EQUATION_RGB, &equationRgb_);
    glGetIntegerv(GL_BLEND_EQUATION_ALPHA, &equationAlpha_);
    glGetIntegerv(GL_CURRENT_PROGRAM, &program_);
    glGetIntegerv(GL_VERTEX_ARRAY_BINDING, &vao_);
    glGetIntegerv(GL_ARRAY_BUFFER_BINDING, &arrayBuffer_);
  }
  ~SavedState() {
    setEnabled(GL_BLEND, blend_);
    setEnabled(GL_DEPTH_TEST, depthTest_);
    setEnabled(GL_DITHER, dither_);
    setEnabled(GL_PROGRAM_POINT_SIZE, programPointSize_);
    glBlendFuncSeparate(static_cast<GLenum>(srcRgb_), static_cast<GLenum>(dstRgb_), static_cast<GLenum>(srcAlpha_),
                        static_cast<GLenum>(dstAlpha_));
    glBlendEquationSeparate(static_cast<GLenum>(equationRgb_), static_cast<GLenum>(equationAlpha_));
    glUseProgram(static_cast<GLuint>(program_));
    glBindVertexArray(static_cast<GLuint>(vao_));
    glBindBuffer(GL_ARRAY_BUFFER, static_cast<GLuint>(arrayBuffer_));
  }
  SavedState(const SavedState&) = delete;
  SavedState& operator=(const SavedState&) = delete;

 private:
  static void setEnabled(GLenum cap, GLboolean on) { on ? glEnable(cap) : glDisable(cap); }
  GLboolean blend_, depthTest_, programPointSize_, dither_;
  GLint srcRgb_ = 0, dstRgb_ = 0, srcAlpha_ = 0, dstAlpha_ = 0, equationRgb_ = 0, equationAlpha_ = 0;
  GLint program_ = 0, vao_ = 0, arrayBuffer_ = 0;
};

}  // namespace

const char* const* ParticleRenderer::colorMapNames(int* count) {
  // Same order as speedColour in shaders/particle_look.glsl.
  static const char* const names[kColorMapCount] = {"inferno", "ice", "white"};
  if (count) *count = kColorMapCount;
  return names;
}

ParticleRenderer::ParticleRenderer()
    : program_(createShaderProgram((std::string("#version 330 core\n") + shaders::particle_look_glsl +
                                    shaders::particles_vert).c_str(),
                                   (std::string("#version 330 core\n") + shaders::particle_look_glsl +
                                    shaders::particles_frag).c_str(),
                                   "particles")),
      vao_(createVertexArray()),
      trial_(std::make_unique<ParticleDrawingTrial>()) {
  lookUpUniforms(program_.get(),
                 {{"viewProjection", &viewProjectionLocation_}, {"pointSize", &pointSizeLocation_},
                  {"attenuationDistance", &attenuationLocation_}, {"maxPointSize", &maxPointSizeLocation_},
                  {"maxSpeed", &maxSpeedLocation_}, {"colorMap", &colorMapLocation_},
                  {"brightness", &brightnessLocation_}},
                 "particles");
  // Sizes past the implementation's limit are clamped by GL anyway, but the
  // shader needs the limit to keep its sub-pixel dimming consistent.
  GLfloat range[2] = {1.0f, 1.0f};
  glGetFloatv(GL_POINT_SIZE_RANGE, range);
  maxPointSize_ = std::max(range[1], 1.0f);
  glCheck("ParticleRenderer setup");
}

ParticleRenderer::~ParticleRenderer() = default;

void ParticleRenderer::draw(GLuint vbo, size_t count, const glm::mat4& viewProjection, const ParticleStyle& style) {
  if (count == 0) return;
  if (vbo == 0) throw GlError("ParticleRenderer::draw: no vertex buffer for " + std::to_string(count) + " particles");
  if (count > static_cast<size_t>(std::numeric_limits<GLsizei>::max()))
    throw GlError("ParticleRenderer::draw: " + std::to_string(count) + " particles are more than one draw call takes");

  SavedState saved;
  glBindBuffer(GL_ARRAY_BUFFER, vbo);
  // Reading past the end of a buffer is undefined (a crash on some drivers):
  // catch a count that does not match the buffer here, with a message.
  GLint64 bytes = 0;
  glGetBufferParameteri64v(GL_ARRAY_BUFFER, GL_BUFFER_SIZE, &bytes);
  glCheck("ParticleRenderer::draw (vertex buffer)");
  if (static_cast<unsigned long long>(bytes) < count * kParticleBytes)
    throw GlError("ParticleRenderer::draw: buffer " + std::to_string(vbo) + " holds " + std::to_string(bytes) +
                  " bytes, " + std::to_string(count) + " particles need " + std::to_string(count * kParticleBytes));

  splatNotUsed_.clear();
  ParticleDrawing way = ParticleDrawing::PointSprites;
  GlViewport viewport;  // read once: the splat's refusal and its draw both need it
  if (style.drawing != ParticleDrawing::PointSprites) {
    if (!splatProbed_) {
      splatProbed_ = true;
      splatUnavailable_ = ParticleSplat::unavailableReason();
      if (splatUnavailable_.empty()) {
        splat_ = std::make_unique<ParticleSplat>();
        calibrateSplat();
      }
    }
    viewport = currentGlViewport();
    splatNotUsed_ = splat_ ? splat_->refusal(count, viewport.width, viewport.height) : splatUnavailable_;
    const bool splatRuns = splatNotUsed_.empty();
    way = style.drawing == ParticleDrawing::Automatic ? trial_->next(count, splatRuns)
          : splatRuns                                ? ParticleDrawing::ComputeSplat
                                                     : ParticleDrawing::PointSprites;
  }
  lastDrawing_ = way;
  const bool timed = style.drawing == ParticleDrawing::Automatic;
  if (timed) trial_->begin();
  if (way == ParticleDrawing::ComputeSplat)
    splat_->draw(vbo, count, viewport, viewProjection, style, maxPointSize_);
  else
    drawSprites(vbo, count, viewProjection, style);
  if (timed) trial_->end(way);
}

void ParticleRenderer::drawSprites(GLuint vbo, size_t count, const glm::mat4& viewProjection,
                                   const ParticleStyle& style) const {
  glBindBuffer(GL_ARRAY_BUFFER, vbo);
  glBindVertexArray(vao_.get());
  // Pointed at the buffer on every draw: which buffer holds the particles can
  // change between frames.
  glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, kParticleBytes, nullptr);
  glEnableVertexAttribArray(0);

  glUseProgram(program_.get());
  glUniformMatrix4fv(viewProjectionLocation_, 1, GL_FALSE, glm::value_ptr(viewProjection));
  glUniform1f(pointSizeLocation_, std::max(style.pointSize, 0.0f));
  glUniform1f(attenuationLocation_, std::max(style.attenuationDistance, 0.0f));
  glUniform1f(maxPointSizeLocation_, maxPointSize_);
  // A zero, negative or NaN maximum would divide by zero in the shader.
  glUniform1f(maxSpeedLocation_, style.maxSpeed > 0.0f ? style.maxSpeed : 1.0f);
  glUniform1i(colorMapLocation_, std::clamp(style.colorMap, 0, kColorMapCount - 1));
  glUniform1f(brightnessLocation_, std::max(style.brightness, 0.0f));

  glEnable(GL_PROGRAM_POINT_SIZE);
  // Dithering (on by default, used by NVIDIA) would round each fragment up or down by where it
  // lands: hundreds of sprites on one pixel then add up a different brightness than the splat's.
  glDisable(GL_DITHER);
  glEnable(GL_BLEND);
  glBlendEquation(GL_FUNC_ADD);
  glBlendFunc(GL_ONE, GL_ONE);
  // Additive sprites need no sorting and must not hide each other.
  glDisable(GL_DEPTH_TEST);
  glDrawArrays(GL_POINTS, 0, static_cast<GLsizei>(count));
  glCheck("ParticleRenderer::draw");
}

}  // namespace ks
