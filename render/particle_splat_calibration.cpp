// ParticleRenderer::calibrateSplat: which of GL's implementation choices for points (see
// ParticleSplat::PointRules) this GL makes, found by drawing a few particles both ways offscreen.
#include <algorithm>
#include <cstdlib>
#include <glm/glm.hpp>
#include <map>
#include <string>
#include <vector>

#include "render/gl_check.h"
#include "render/gl_objects.h"
#include "render/particle_renderer.h"
#include "render/particle_splat.h"

namespace ks {

namespace {

constexpr int kSide = 64;  // pixels of the calibration picture

std::vector<unsigned char> readPicture() {
  std::vector<unsigned char> pixels(static_cast<size_t>(kSide) * kSide * 4);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, kSide, kSide, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
  return pixels;
}

// Pixels that differ by more than one level in any channel.
int differingPixels(const std::vector<unsigned char>& a, const std::vector<unsigned char>& b) {
  int n = 0;
  for (size_t i = 0; i < a.size(); i += 4) {
    int d = 0;
    for (size_t c = 0; c < 4; ++c) d = std::max(d, std::abs(a[i + c] - b[i + c]));
    n += d > 1;
  }
  return n;
}

// Restores the framebuffer, viewport and clear colour the calibration changes.
class SavedTarget {
 public:
  SavedTarget() {
    glGetIntegerv(GL_FRAMEBUFFER_BINDING, &framebuffer_);
    glGetIntegerv(GL_VIEWPORT, viewport_);
    glGetFloatv(GL_COLOR_CLEAR_VALUE, clear_);
  }
  ~SavedTarget() {
    glBindFramebuffer(GL_FRAMEBUFFER, static_cast<GLuint>(framebuffer_));
    glViewport(viewport_[0], viewport_[1], viewport_[2], viewport_[3]);
    glClearColor(clear_[0], clear_[1], clear_[2], clear_[3]);
  }
  SavedTarget(const SavedTarget&) = delete;
  SavedTarget& operator=(const SavedTarget&) = delete;

 private:
  GLint framebuffer_ = 0, viewport_[4] = {0, 0, 0, 0};
  GLfloat clear_[4] = {0, 0, 0, 0};
};

// What calibration found for one GL. The same implementation makes the same choices, so a
// renderer made later in the process (the N-body scene of a device switch: issue 22, whose
// frame drew the calibration again, 20-130 ms on llvmpipe) takes them over.
struct Calibration {
  ParticleSplat::PointRules rules;
  int mismatches = 0;
};
std::map<std::string, Calibration>& calibrationsByGl() {
  static std::map<std::string, Calibration> calibrations;
  return calibrations;
}
int calibrationsDrawn = 0;

std::string glString(GLenum name) {
  const GLubyte* text = glGetString(name);
  return text ? reinterpret_cast<const char*>(text) : "";
}

// The GL implementation: its vendor, renderer and version.
std::string glIdentity() { return glString(GL_VENDOR) + "\n" + glString(GL_RENDERER) + "\n" + glString(GL_VERSION); }

}  // namespace

int ParticleRenderer::splatCalibrationsDrawn() { return calibrationsDrawn; }

void ParticleRenderer::calibrateSplat() {
  const std::string gl = glIdentity();
  if (const auto known = calibrationsByGl().find(gl); known != calibrationsByGl().end()) {
    splat_->rules = known->second.rules;
    splatCalibrationMismatches_ = known->second.mismatches;
    return;
  }
  ++calibrationsDrawn;
  SavedTarget saved;
  const Framebuffer target(kSide, kSide);
  glBindFramebuffer(GL_FRAMEBUFFER, target.get());
  glViewport(0, 0, kSide, kSide);
  glClearColor(0.0f, 0.0f, 0.0f, 0.0f);

  // Particles at scattered sub-pixel places (a fixed sequence, so every run calibrates alike),
  // drawn with an identity projection: clip = NDC = the position.
  std::vector<glm::vec4> particles;
  unsigned state = 12345u;
  auto next = [&state] {
    state = state * 1664525u + 1013904223u;
    return static_cast<float>(state >> 8) / static_cast<float>(1u << 24);
  };
  for (int i = 0; i < 400; ++i) particles.emplace_back(next() * 2.0f - 1.0f, next() * 2.0f - 1.0f, 0.0f, next());
  GLuint name = 0;
  glGenBuffers(1, &name);
  const GlBuffer buffer(name);
  glBindBuffer(GL_ARRAY_BUFFER, name);
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(particles.size() * sizeof(glm::vec4)), particles.data(),
               GL_STATIC_DRAW);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  glCheck("particle splat calibration (set-up)");

  ParticleStyle style;
  style.colorMap = 0;
  style.brightness = 0.5f;
  const std::vector<ParticleSplat::PointRules> candidates = ParticleSplat::candidateRules();
  std::vector<int> differing(candidates.size(), 0);
  for (float size : {1.0f, 2.5f, 3.0f, 4.75f}) {
    style.pointSize = size;
    glClear(GL_COLOR_BUFFER_BIT);
    drawSprites(buffer.get(), particles.size(), glm::mat4(1.0f), style);
    const std::vector<unsigned char> sprites = readPicture();
    for (size_t c = 0; c < candidates.size(); ++c) {
      splat_->rules = candidates[c];
      glClear(GL_COLOR_BUFFER_BIT);
      splat_->draw(buffer.get(), particles.size(), GlViewport{0, 0, kSide, kSide}, glm::mat4(1.0f), style, maxPointSize_);
      differing[c] += differingPixels(sprites, readPicture());
    }
  }
  glCheck("particle splat calibration");
  const size_t best = static_cast<size_t>(std::min_element(differing.begin(), differing.end()) - differing.begin());
  splat_->rules = candidates[best];
  splatCalibrationMismatches_ = differing[best];
  calibrationsByGl()[gl] = {splat_->rules, splatCalibrationMismatches_};
}

}  // namespace ks
