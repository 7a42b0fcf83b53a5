#pragma once
// GPU time of a stretch of GL commands (GL_TIME_ELAPSED queries, core in 3.3).
// Results are read one frame late from a pair of queries, so timing never
// stalls the pipeline.
#include <glad/gl.h>

namespace ks {

class GpuTimer {
 public:
  GpuTimer();
  ~GpuTimer();
  GpuTimer(const GpuTimer&) = delete;
  GpuTimer& operator=(const GpuTimer&) = delete;
  void begin();
  void end();
  double lastMs() const { return lastMs_; }  // the most recent finished measurement

 private:
  GLuint queries_[2] = {0, 0};
  bool pending_[2] = {false, false};
  int current_ = 0;
  double lastMs_ = 0.0;
  bool firstResult_ = true;
};

}  // namespace ks
