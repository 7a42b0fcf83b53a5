#include "render/particle_splat.h"

#include <algorithm>
#include <glm/gtc/type_ptr.hpp>
#include <string>

#include "render/embedded_shaders.h"
#include "render/gl_check.h"
#include "render/particle_renderer.h"

namespace ks {

namespace {

constexpr GLuint kWorkGroup = 256;  // local_size_x of particles_splat.comp
constexpr size_t kParticleBytes = 4 * sizeof(float);
constexpr size_t kSumBytesPerPixel = 4 * sizeof(GLuint);

std::string withLook(const char* version, const char* body) {
  return std::string(version) + shaders::particle_look_glsl + body;
}

}  // namespace

std::string ParticleSplat::unavailableReason() {
  GLint major = 0, minor = 0;
  glGetIntegerv(GL_MAJOR_VERSION, &major);
  glGetIntegerv(GL_MINOR_VERSION, &minor);
  glCheck("glGetIntegerv (GL version)");
  if (major * 10 + minor < 43)
    return "drawing particles with compute shaders needs OpenGL 4.3; this context is " + std::to_string(major) + "." +
           std::to_string(minor);
  if (!glDispatchCompute || !glMemoryBarrier || !glClearBufferData)
    return "this OpenGL 4.3 driver does not give the compute-shader functions";
  GLint fragmentBlocks = 0;
  glGetIntegerv(GL_MAX_FRAGMENT_SHADER_STORAGE_BLOCKS, &fragmentBlocks);
  glCheck("glGetIntegerv (fragment storage blocks)");
  if (fragmentBlocks < 1) return "this OpenGL driver gives fragment shaders no storage buffers";
  return "";
}

std::vector<ParticleSplat::PointRules> ParticleSplat::candidateRules() {
  GLint subpixelBits = 0;
  glGetIntegerv(GL_SUBPIXEL_BITS, &subpixelBits);
  glCheck("glGetIntegerv (GL_SUBPIXEL_BITS)");
  const float grid = subpixelBits > 0 && subpixelBits < 24 ? 1.0f / static_cast<float>(1 << subpixelBits) : 0.0f;
  return {{0.0f, 0}, {0.0f, 1}, {grid, 0}, {grid, 1}};
}

ParticleSplat::ParticleSplat()
    : splat_(createComputeProgram(withLook("#version 430 core\n", shaders::particles_splat_comp).c_str(),
                                  "particle splat")),
      resolve_(createShaderProgram(withLook("#version 430 core\n", shaders::particles_resolve_vert).c_str(),
                                   withLook("#version 430 core\n", shaders::particles_resolve_frag).c_str(),
                                   "particle splat resolve")),
      emptyVao_(createVertexArray()) {
  lookUpUniforms(splat_.get(),
                 {{"viewProjection", &viewProjection_}, {"pointSize", &pointSize_},
                  {"attenuationDistance", &attenuation_}, {"maxPointSize", &maxPointSizeLocation_},
                  {"maxSpeed", &maxSpeed_}, {"brightness", &brightness_}, {"colorMap", &colorMap_},
                  {"particleCount", &particleCount_}, {"viewportSize", &viewportSize_},
                  {"subpixelStep", &subpixelStep_}, {"edgeRule", &edgeRule_}},
                 "particle splat");
  lookUpUniforms(resolve_.get(), {{"viewportOrigin", &viewportOrigin_}, {"viewportWidth", &viewportWidth_}},
                 "particle splat resolve");
  glGetInteger64v(GL_MAX_SHADER_STORAGE_BLOCK_SIZE, &maxBlockBytes_);
  glGetIntegeri_v(GL_MAX_COMPUTE_WORK_GROUP_COUNT, 0, &maxGroups_);
  GLuint name = 0;
  glGenBuffers(1, &name);
  sums_ = GlBuffer(name);
  glCheck("ParticleSplat setup");
}

std::string ParticleSplat::refusal(size_t count, int width, int height) const {
  const auto limit = static_cast<unsigned long long>(std::max<GLint64>(maxBlockBytes_, 0));
  const unsigned long long particleBytes = count * kParticleBytes;
  const unsigned long long sumBytes = static_cast<unsigned long long>(std::max(width, 0)) *
                                      static_cast<unsigned long long>(std::max(height, 0)) * kSumBytesPerPixel;
  if (particleBytes > limit)
    return std::to_string(count) + " particles (" + std::to_string(particleBytes >> 20) +
           " MiB) are more than this OpenGL's storage buffers hold (" + std::to_string(limit >> 20) + " MiB)";
  if (sumBytes > limit)
    return "a " + std::to_string(width) + "x" + std::to_string(height) + " view needs " +
           std::to_string(sumBytes >> 20) + " MiB of sums, more than this OpenGL's storage buffers hold (" +
           std::to_string(limit >> 20) + " MiB)";
  if ((count + kWorkGroup - 1) / kWorkGroup > static_cast<size_t>(std::max(maxGroups_, 0)))
    return std::to_string(count) + " particles are more than one dispatch of this OpenGL takes (" +
           std::to_string(static_cast<size_t>(std::max(maxGroups_, 0)) * kWorkGroup) + ")";
  return "";
}

GlViewport currentGlViewport() {
  GLint v[4] = {0, 0, 0, 0};
  glGetIntegerv(GL_VIEWPORT, v);
  return {v[0], v[1], v[2], v[3]};
}

void ParticleSplat::draw(GLuint vbo, size_t count, const GlViewport& viewport, const glm::mat4& viewProjection,
                         const ParticleStyle& style, float maxPointSize) {
  const int width = viewport.width, height = viewport.height;
  if (count == 0 || width <= 0 || height <= 0) return;

  // The per-pixel sums, grown to the viewport and zeroed every frame.
  const size_t sumBytes = static_cast<size_t>(width) * static_cast<size_t>(height) * kSumBytesPerPixel;
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, sums_.get());
  if (sumBytes > sumsBytes_) {
    glBufferData(GL_SHADER_STORAGE_BUFFER, static_cast<GLsizeiptr>(sumBytes), nullptr, GL_DYNAMIC_COPY);
    sumsBytes_ = sumBytes;
  }
  const GLuint zero = 0;
  glClearBufferSubData(GL_SHADER_STORAGE_BUFFER, GL_R32UI, 0, static_cast<GLsizeiptr>(sumBytes), GL_RED_INTEGER,
                       GL_UNSIGNED_INT, &zero);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
  glBindBufferRange(GL_SHADER_STORAGE_BUFFER, 0, vbo, 0, static_cast<GLsizeiptr>(count * kParticleBytes));
  glBindBufferRange(GL_SHADER_STORAGE_BUFFER, 1, sums_.get(), 0, static_cast<GLsizeiptr>(sumBytes));
  glCheck("ParticleSplat::draw (buffers)");

  glUseProgram(splat_.get());
  glUniformMatrix4fv(viewProjection_, 1, GL_FALSE, glm::value_ptr(viewProjection));
  glUniform1f(pointSize_, std::max(style.pointSize, 0.0f));
  glUniform1f(attenuation_, std::max(style.attenuationDistance, 0.0f));
  glUniform1f(maxPointSizeLocation_, maxPointSize);
  glUniform1f(maxSpeed_, style.maxSpeed > 0.0f ? style.maxSpeed : 1.0f);
  glUniform1f(brightness_, std::max(style.brightness, 0.0f));
  glUniform1i(colorMap_, std::clamp(style.colorMap, 0, ParticleRenderer::kColorMapCount - 1));
  glUniform1ui(particleCount_, static_cast<GLuint>(count));
  glUniform2i(viewportSize_, width, height);
  glUniform1f(subpixelStep_, rules.subpixelStep);
  glUniform1i(edgeRule_, rules.edgeRule);
  glDispatchCompute(static_cast<GLuint>((count + kWorkGroup - 1) / kWorkGroup), 1, 1);
  // The resolve's fragment shader reads what the atomics wrote.
  glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
  glCheck("ParticleSplat::draw (splat)");

  glUseProgram(resolve_.get());
  glUniform2i(viewportOrigin_, viewport.x, viewport.y);
  glUniform1i(viewportWidth_, width);
  glBindVertexArray(emptyVao_.get());
  glEnable(GL_BLEND);
  glBlendEquation(GL_FUNC_ADD);
  glBlendFunc(GL_ONE, GL_ONE);
  glDisable(GL_DEPTH_TEST);
  glDrawArrays(GL_TRIANGLES, 0, 3);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, 0);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, 0);
  glCheck("ParticleSplat::draw (resolve)");
}

}  // namespace ks
