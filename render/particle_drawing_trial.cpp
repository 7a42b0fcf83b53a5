#include "render/particle_drawing_trial.h"

#include <algorithm>

#include "render/gl_check.h"

namespace ks {

namespace {

double median(std::vector<double> v) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

ParticleDrawingTrial::ParticleDrawingTrial() {
  for (Pending& p : pending_) glGenQueries(2, p.queries);
  glCheck("ParticleDrawingTrial (glGenQueries)");
}

ParticleDrawingTrial::~ParticleDrawingTrial() {
  for (Pending& p : pending_) glDeleteQueries(2, p.queries);
}

ParticleDrawing ParticleDrawingTrial::next(size_t count, bool splatRuns) {
  if (!splatRuns) return ParticleDrawing::PointSprites;
  // A new count (a reset, another preset) is measured again: the winner depends on it.
  if (count != count_) {
    count_ = count;
    decided_ = false;
    issuedSprites_ = issuedSplat_ = 0;
    spritesMs_.clear();
    splatMs_.clear();
    for (Pending& p : pending_) p.inFlight = false;  // results of the old count are not wanted
  }
  collect();
  if (!decided_ && static_cast<int>(std::min(spritesMs_.size(), splatMs_.size())) >= kDrawsEach) {
    decided_ = true;
    chosen_ = median(splatMs_) < median(spritesMs_) ? ParticleDrawing::ComputeSplat : ParticleDrawing::PointSprites;
  }
  if (decided_) return chosen_;
  // Alternate while measuring; keep drawing (the faster so far) while the last results come back.
  if (issuedSprites_ < kDrawsEach || issuedSplat_ < kDrawsEach)
    return issuedSprites_ <= issuedSplat_ ? ParticleDrawing::PointSprites : ParticleDrawing::ComputeSplat;
  return median(splatMs_) < median(spritesMs_) ? ParticleDrawing::ComputeSplat : ParticleDrawing::PointSprites;
}

void ParticleDrawingTrial::begin() {
  if (decided_) return;
  Pending& p = pending_[nextSlot_];
  if (p.inFlight) return;  // every slot waits for the GPU: this draw goes untimed
  glQueryCounter(p.queries[0], GL_TIMESTAMP);
  glCheck("ParticleDrawingTrial::begin");
}

void ParticleDrawingTrial::end(ParticleDrawing way) {
  if (decided_) return;
  Pending& p = pending_[nextSlot_];
  if (p.inFlight) return;
  glQueryCounter(p.queries[1], GL_TIMESTAMP);
  glCheck("ParticleDrawingTrial::end");
  p.way = way;
  p.inFlight = true;
  (way == ParticleDrawing::ComputeSplat ? issuedSplat_ : issuedSprites_)++;
  nextSlot_ = (nextSlot_ + 1) % pending_.size();
}

void ParticleDrawingTrial::collect() {
  for (Pending& p : pending_) {
    if (!p.inFlight) continue;
    GLint ready = GL_FALSE;
    glGetQueryObjectiv(p.queries[1], GL_QUERY_RESULT_AVAILABLE, &ready);
    if (!ready) continue;
    GLuint64 t0 = 0, t1 = 0;
    glGetQueryObjectui64v(p.queries[0], GL_QUERY_RESULT, &t0);
    glGetQueryObjectui64v(p.queries[1], GL_QUERY_RESULT, &t1);
    p.inFlight = false;
    const double ms = t1 >= t0 ? static_cast<double>(t1 - t0) * 1e-6 : 0.0;
    (p.way == ParticleDrawing::ComputeSplat ? splatMs_ : spritesMs_).push_back(ms);
  }
  glCheck("ParticleDrawingTrial (query results)");
}

double ParticleDrawingTrial::medianMs(ParticleDrawing way) const {
  return median(way == ParticleDrawing::ComputeSplat ? splatMs_ : spritesMs_);
}

}  // namespace ks
