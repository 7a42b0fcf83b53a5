#pragma once
// Draws the N-body particles as additive point sprites straight from the GL
// buffer the simulation writes (float4 per particle: xyz position, w speed).
#include <glad/gl.h>

#include <cstddef>
#include <glm/glm.hpp>
#include <memory>
#include <string>

#include "core/particle_style.h"
#include "render/gl_objects.h"

namespace ks {

class ParticleSplat;
class ParticleDrawingTrial;

class ParticleRenderer {
 public:
  // Needs a current GL 3.3 core context; compiles the shaders.
  ParticleRenderer();
  ~ParticleRenderer();

  // Draws `count` particles from `vbo` into the current framebuffer and viewport.
  // The buffer may change from call to call (simulation or interop path switched).
  // Blending is additive and depth testing off; every GL state it changes
  // (blend, depth test, program point size, program, VAO, array buffer) is restored.
  // count 0 draws nothing. Throws GlError if `vbo` holds fewer than `count` particles.
  // style.drawing picks point sprites or the compute splat; a splat this GL cannot draw falls
  // back to point sprites with the reason in splatNotUsedReason().
  void draw(GLuint vbo, size_t count, const glm::mat4& viewProjection, const ParticleStyle& style);

  // How the last draw() drew (PointSprites or ComputeSplat), and why the compute splat was not
  // used when it was asked for or chosen automatically ("" when it was, or was not wanted).
  ParticleDrawing lastDrawing() const { return lastDrawing_; }
  const std::string& splatNotUsedReason() const { return splatNotUsed_; }
  // Automatic's measurement: decided yet, and each way's median GPU time (ms) of its timed draws.
  const ParticleDrawingTrial& trial() const { return *trial_; }
  // The compute splat, once a draw has asked for it (nullptr where this GL cannot run it).
  ParticleSplat* splat() { return splat_.get(); }
  // Pixels of the calibration pictures that still differed by more than a level, with the rules chosen.
  int splatCalibrationMismatches() const { return splatCalibrationMismatches_; }
  // How often this process drew the calibration pictures: once per GL implementation, whatever
  // the number of renderers (each later one takes the rules found over).
  static int splatCalibrationsDrawn();

  // Names for the UI, in colorMap order ("inferno", "ice", "white").
  static const char* const* colorMapNames(int* count);
  static constexpr int kColorMapCount = kParticleColorMapCount;

 private:
  ShaderProgram program_;
  VertexArray vao_;
  float maxPointSize_ = 1.0f;
  void drawSprites(GLuint vbo, size_t count, const glm::mat4& viewProjection, const ParticleStyle& style) const;
  // Sets the splat's PointRules to this GL's (render/particle_splat_calibration.cpp): drawn
  // offscreen the first time, taken from the first renderer's calibration after that.
  void calibrateSplat();

  std::unique_ptr<ParticleSplat> splat_;  // built on first use where the GL runs it
  std::string splatUnavailable_;          // why this GL cannot run it ("" = it can, or not yet asked)
  bool splatProbed_ = false;
  std::unique_ptr<ParticleDrawingTrial> trial_;  // Automatic: which way is faster here
  ParticleDrawing lastDrawing_ = ParticleDrawing::PointSprites;
  std::string splatNotUsed_;
  int splatCalibrationMismatches_ = 0;
  GLint viewProjectionLocation_ = -1, pointSizeLocation_ = -1, attenuationLocation_ = -1;
  GLint maxPointSizeLocation_ = -1, maxSpeedLocation_ = -1, colorMapLocation_ = -1, brightnessLocation_ = -1;
};

}  // namespace ks
