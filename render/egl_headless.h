#pragma once
// An OpenGL 3.3 core context without a window: EGL's device platform for real
// GPUs (NVIDIA headless), Mesa's surfaceless platform otherwise (llvmpipe in CI).
#include <glad/egl.h>

#include <stdexcept>
#include <string>

#include "core/error.h"

namespace ks {

class EglError : public Error {
 public:
  using Error::Error;
};

class EglHeadlessContext {
 public:
  // Creates the context and makes it current; loads GL through glad. Throws
  // EglError saying what every platform answered when none works.
  EglHeadlessContext();
  ~EglHeadlessContext();
  EglHeadlessContext(const EglHeadlessContext&) = delete;
  EglHeadlessContext& operator=(const EglHeadlessContext&) = delete;

  EGLDisplay display() const { return display_; }
  EGLContext context() const { return context_; }
  // "EGL device platform (EGL 1.5)" or "Mesa surfaceless platform (EGL 1.5)"
  const std::string& description() const { return description_; }

 private:
  bool tryDisplay(EGLDisplay display, const std::string& label, std::string& why);
  EGLDisplay display_ = EGL_NO_DISPLAY;
  EGLContext context_ = EGL_NO_CONTEXT;
  std::string description_;
};

const char* eglErrorName(EGLint error);

}  // namespace ks
