#include "render/gpu_timer.h"

#include "render/gl_check.h"

namespace ks {

GpuTimer::GpuTimer() {
  glGenQueries(2, queries_);
  glCheck("glGenQueries");
}

GpuTimer::~GpuTimer() { glDeleteQueries(2, queries_); }

void GpuTimer::begin() { glBeginQuery(GL_TIME_ELAPSED, queries_[current_]); }

void GpuTimer::end() {
  glEndQuery(GL_TIME_ELAPSED);
  pending_[current_] = true;
  current_ ^= 1;
  // The other query was issued a frame ago; take its result if it is ready.
  if (pending_[current_]) {
    GLint ready = GL_FALSE;
    glGetQueryObjectiv(queries_[current_], GL_QUERY_RESULT_AVAILABLE, &ready);
    if (ready) {
      GLuint64 ns = 0;
      glGetQueryObjectui64v(queries_[current_], GL_QUERY_RESULT, &ns);
      // Mesa llvmpipe answers the very first query with hours (measured 8997784 ms
      // for a 2 ms frame): the first result is dropped, later ones are sane.
      if (!firstResult_) lastMs_ = static_cast<double>(ns) * 1e-6;
      firstResult_ = false;
      pending_[current_] = false;
    }
  }
  glCheck("GpuTimer");
}

}  // namespace ks
