#pragma once
// How the N-body particles are drawn, as plain data: the renderer (render/) draws
// with it, the N-body choices hold it and settings.json keeps it (io/), so it lives
// here, below both, with no GL in it.

namespace ks {

// How the particles reach the framebuffer; both draw the same picture (tests/test_particle_splat).
enum class ParticleDrawing {
  Automatic,     // the compute splat where the GL runs it, else point sprites
  PointSprites,  // GL's point pipeline
  ComputeSplat,  // compute shaders (GL 4.3): for GPUs whose point pipeline is slow
};
inline constexpr ParticleDrawing kParticleDrawings[] = {ParticleDrawing::Automatic, ParticleDrawing::PointSprites,
                                                        ParticleDrawing::ComputeSplat};
// The command line's and settings.json's word ("auto", "sprites", "compute") and the panel's words for each.
const char* particleDrawingName(ParticleDrawing drawing);
const char* particleDrawingLabel(ParticleDrawing drawing);

// The colour maps the shaders know (ParticleRenderer::colorMapNames names them).
inline constexpr int kParticleColorMapCount = 3;

struct ParticleStyle {
  float pointSize = 3.0f;             // pixels
  float brightness = 1.0f;            // scales the colour; additive, so dense regions saturate sooner
  int colorMap = 0;                   // index into ParticleRenderer::colorMapNames
  float maxSpeed = 1.0f;              // speed at the top of the colour map
  float attenuationDistance = 0.0f;   // > 0: sprites this far from the eye are pointSize wide, nearer ones larger
  ParticleDrawing drawing = ParticleDrawing::Automatic;
  bool operator==(const ParticleStyle&) const = default;
};

}  // namespace ks
