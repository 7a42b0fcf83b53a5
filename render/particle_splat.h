#pragma once
// Draws the N-body particles with compute shaders instead of GL's point pipeline: the same
// picture as ParticleRenderer's point sprites (see shaders/particles_splat.comp), for GPUs whose
// point drawing is slow. On NVIDIA's H100 and H200 only a few SMs run GL's vertex and fragment
// stages, and a million point sprites took 6-11 ms of GPU time a frame (docs/BENCHMARKS.md).
// Needs GL 4.3 (compute shaders, shader storage buffers).
#include <glad/gl.h>

#include <cstddef>
#include <glm/glm.hpp>
#include <string>
#include <vector>

#include "render/gl_objects.h"

namespace ks {

struct ParticleStyle;

// A GL viewport (glViewport's x, y, width, height), read once by whoever draws.
struct GlViewport {
  GLint x = 0, y = 0, width = 0, height = 0;
};
GlViewport currentGlViewport();

class ParticleSplat {
 public:
  // Empty when the current GL context can run the splat; otherwise why not, in plain words.
  static std::string unavailableReason();

  // Needs a current context for which unavailableReason() is empty; compiles the shaders.
  ParticleSplat();

  // How this GL rasterizes points, which the splat copies (GL leaves both to the implementation):
  // the centre snapped to a fraction of a pixel (0: not), and which edges of the point's square
  // take the pixel centres lying on them. ParticleRenderer calibrates them against its sprites.
  struct PointRules {
    float subpixelStep = 0.0f;
    int edgeRule = 0;
  };
  // The candidates calibration tries: no snapping and the GL's own sub-pixel grid, each edge rule.
  static std::vector<PointRules> candidateRules();
  PointRules rules;

  // Whether `count` particles fit the GL's storage buffers for a viewport of width x height;
  // otherwise why not.
  std::string refusal(size_t count, int width, int height) const;

  // Draws into `viewport` (the current one) with additive blending, once the caller found no
  // refusal() for this count and viewport; the caller has bound nothing it needs kept in
  // storage-buffer bindings 0 and 1 (they are left unbound) and saves the program, vertex
  // array and blend state.
  void draw(GLuint vbo, size_t count, const GlViewport& viewport, const glm::mat4& viewProjection,
            const ParticleStyle& style, float maxPointSize);

 private:
  ShaderProgram splat_, resolve_;
  VertexArray emptyVao_;
  GlBuffer sums_;
  size_t sumsBytes_ = 0;
  GLint64 maxBlockBytes_ = 0;
  GLint maxGroups_ = 0;
  GLint viewProjection_ = -1, pointSize_ = -1, attenuation_ = -1, maxPointSizeLocation_ = -1, maxSpeed_ = -1,
        brightness_ = -1, colorMap_ = -1, particleCount_ = -1, viewportSize_ = -1, subpixelStep_ = -1, edgeRule_ = -1;
  GLint viewportOrigin_ = -1, viewportWidth_ = -1;
};

}  // namespace ks
