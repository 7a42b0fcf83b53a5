#pragma once
// RAII owners for the GL objects kernelscope uses; each constructor checks GL.
#include <glad/gl.h>

#include <initializer_list>
#include <string>
#include <utility>
#include <utility>

namespace ks {

template <void (*Delete)(GLuint)>
class GlName {
 public:
  GlName() = default;
  explicit GlName(GLuint name) : name_(name) {}
  GlName(const GlName&) = delete;
  GlName& operator=(const GlName&) = delete;
  GlName(GlName&& o) noexcept : name_(std::exchange(o.name_, 0)) {}
  GlName& operator=(GlName&& o) noexcept {
    std::swap(name_, o.name_);
    return *this;
  }
  ~GlName() {
    if (name_) Delete(name_);
  }
  GLuint get() const { return name_; }

 private:
  GLuint name_ = 0;
};

void deleteTexture(GLuint name);
void deleteBuffer(GLuint name);
void deleteVertexArray(GLuint name);
void deleteFramebuffer(GLuint name);
void deleteRenderbuffer(GLuint name);
void deleteProgram(GLuint name);

using Texture = GlName<deleteTexture>;
using GlBuffer = GlName<deleteBuffer>;
using VertexArray = GlName<deleteVertexArray>;
using Renderbuffer = GlName<deleteRenderbuffer>;
using ShaderProgram = GlName<deleteProgram>;

Texture createTexture2D(int width, int height, GLenum internalFormat);
VertexArray createVertexArray();
// Compiles and links; throws GlError with the compiler's log on failure.
ShaderProgram createShaderProgram(const char* vertexSource, const char* fragmentSource, const std::string& label);
// The same for a compute shader (GL 4.3 or ARB_compute_shader).
ShaderProgram createComputeProgram(const char* source, const std::string& label);
// Looks up each uniform of a linked program into its location; throws GlError naming
// the program and the uniform when one is missing (a misspelt or unused name would
// make every glUniform* call with it do nothing, silently).
void lookUpUniforms(GLuint program, std::initializer_list<std::pair<const char*, GLint*>> uniforms,
                    const std::string& label);

// Offscreen colour + depth target: the headless renderer draws the whole UI here.
class Framebuffer {
 public:
  Framebuffer() = default;
  Framebuffer(int width, int height);
  GLuint get() const { return fbo_.get(); }
  int width() const { return width_; }
  int height() const { return height_; }

 private:
  GlName<deleteFramebuffer> fbo_;
  Renderbuffer color_, depth_;
  int width_ = 0, height_ = 0;
};

}  // namespace ks
