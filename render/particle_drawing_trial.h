#pragma once
// ParticleDrawing::Automatic, measured: the first draws after the particle count changes go
// a few each way (point sprites, compute splat), timed on the GPU with timestamp queries read
// frames later (never waiting), and the faster way is kept. On NVIDIA's H100 the point
// pipeline is slow (a few SMs run it) and the splat wins; elsewhere sprites may.
#include <glad/gl.h>

#include <array>
#include <cstddef>
#include <vector>

#include "render/particle_renderer.h"

namespace ks {

class ParticleDrawingTrial {
 public:
  static constexpr int kDrawsEach = 5;  // timed draws of each way before choosing

  ParticleDrawingTrial();
  ~ParticleDrawingTrial();
  ParticleDrawingTrial(const ParticleDrawingTrial&) = delete;
  ParticleDrawingTrial& operator=(const ParticleDrawingTrial&) = delete;

  // The way to draw `count` particles now. Sprites only where the splat cannot run.
  ParticleDrawing next(size_t count, bool splatRuns);
  // Timestamps around the draw that used `way`.
  void begin();
  void end(ParticleDrawing way);

  bool decided() const { return decided_; }
  ParticleDrawing chosen() const { return chosen_; }
  // Median GPU time of the timed draws of each way (0 before any came back).
  double medianMs(ParticleDrawing way) const;

 private:
  struct Pending {
    GLuint queries[2] = {0, 0};
    ParticleDrawing way = ParticleDrawing::PointSprites;
    bool inFlight = false;
  };
  void collect();

  std::array<Pending, 2 * kDrawsEach + 2> pending_{};
  size_t nextSlot_ = 0;
  std::vector<double> spritesMs_, splatMs_;
  size_t count_ = 0;
  int issuedSprites_ = 0, issuedSplat_ = 0;
  bool decided_ = false;
  ParticleDrawing chosen_ = ParticleDrawing::PointSprites;
};

}  // namespace ks
