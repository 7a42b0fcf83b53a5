#include "core/particle_style.h"

namespace ks {

const char* particleDrawingName(ParticleDrawing drawing) {
  switch (drawing) {
    case ParticleDrawing::PointSprites: return "sprites";
    case ParticleDrawing::ComputeSplat: return "compute";
    case ParticleDrawing::Automatic: break;
  }
  return "auto";
}

const char* particleDrawingLabel(ParticleDrawing drawing) {
  switch (drawing) {
    case ParticleDrawing::PointSprites: return "point sprites";
    case ParticleDrawing::ComputeSplat: return "compute shaders";
    case ParticleDrawing::Automatic: break;
  }
  return "automatic (the faster, measured)";
}

}  // namespace ks
