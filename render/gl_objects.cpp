#include "render/gl_objects.h"

#include <algorithm>
#include <vector>

#include "render/gl_check.h"

namespace ks {

void deleteTexture(GLuint name) { glDeleteTextures(1, &name); }
void deleteBuffer(GLuint name) { glDeleteBuffers(1, &name); }
void deleteVertexArray(GLuint name) { glDeleteVertexArrays(1, &name); }
void deleteFramebuffer(GLuint name) { glDeleteFramebuffers(1, &name); }
void deleteRenderbuffer(GLuint name) { glDeleteRenderbuffers(1, &name); }
void deleteProgram(GLuint name) { glDeleteProgram(name); }

Texture createTexture2D(int width, int height, GLenum internalFormat) {
  GLuint name = 0;
  glGenTextures(1, &name);
  Texture texture(name);
  glBindTexture(GL_TEXTURE_2D, name);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  glTexImage2D(GL_TEXTURE_2D, 0, static_cast<GLint>(internalFormat), width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE,
               nullptr);
  glBindTexture(GL_TEXTURE_2D, 0);
  glCheck("glTexImage2D (texture creation)");
  return texture;
}

VertexArray createVertexArray() {
  GLuint name = 0;
  glGenVertexArrays(1, &name);
  glCheck("glGenVertexArrays");
  return VertexArray(name);
}

static GLuint compileShader(GLenum stage, const char* source, const std::string& label) {
  GLuint shader = glCreateShader(stage);
  glShaderSource(shader, 1, &source, nullptr);
  glCompileShader(shader);
  GLint ok = GL_FALSE;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (!ok) {
    GLint length = 0;
    glGetShaderiv(shader, GL_INFO_LOG_LENGTH, &length);
    std::vector<char> log(static_cast<size_t>(std::max(length, 1)));
    glGetShaderInfoLog(shader, length, nullptr, log.data());
    glDeleteShader(shader);
    throw GlError("shader '" + label + "' failed to compile:\n" + log.data());
  }
  return shader;
}

void lookUpUniforms(GLuint program, std::initializer_list<std::pair<const char*, GLint*>> uniforms,
                    const std::string& label) {
  for (const auto& [name, location] : uniforms) {
    *location = glGetUniformLocation(program, name);
    glCheck(("glGetUniformLocation (" + label + ")").c_str());
    if (*location < 0) throw GlError("the " + label + " shader has no active uniform '" + name + "'");
  }
}

// Links the compiled shaders (deleting them) into a program; throws GlError with the linker's log.
static ShaderProgram linkProgram(std::initializer_list<GLuint> shaders, const std::string& label) {
  ShaderProgram program(glCreateProgram());
  for (GLuint shader : shaders) glAttachShader(program.get(), shader);
  glLinkProgram(program.get());
  for (GLuint shader : shaders) glDeleteShader(shader);
  GLint ok = GL_FALSE;
  glGetProgramiv(program.get(), GL_LINK_STATUS, &ok);
  if (!ok) {
    GLint length = 0;
    glGetProgramiv(program.get(), GL_INFO_LOG_LENGTH, &length);
    std::vector<char> log(static_cast<size_t>(std::max(length, 1)));
    glGetProgramInfoLog(program.get(), length, nullptr, log.data());
    throw GlError("shader program '" + label + "' failed to link:\n" + log.data());
  }
  glCheck("createShaderProgram");
  return program;
}

ShaderProgram createShaderProgram(const char* vertexSource, const char* fragmentSource, const std::string& label) {
  const GLuint vs = compileShader(GL_VERTEX_SHADER, vertexSource, label + " (vertex)");
  GLuint fs = 0;
  try {
    fs = compileShader(GL_FRAGMENT_SHADER, fragmentSource, label + " (fragment)");
  } catch (...) {
    glDeleteShader(vs);
    throw;
  }
  return linkProgram({vs, fs}, label);
}

ShaderProgram createComputeProgram(const char* source, const std::string& label) {
  return linkProgram({compileShader(GL_COMPUTE_SHADER, source, label + " (compute)")}, label);
}

Framebuffer::Framebuffer(int width, int height) : width_(width), height_(height) {
  GLuint names[2] = {0, 0};
  glGenRenderbuffers(2, names);
  color_ = Renderbuffer(names[0]);
  depth_ = Renderbuffer(names[1]);
  glBindRenderbuffer(GL_RENDERBUFFER, color_.get());
  glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, width, height);
  glBindRenderbuffer(GL_RENDERBUFFER, depth_.get());
  glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH24_STENCIL8, width, height);
  glBindRenderbuffer(GL_RENDERBUFFER, 0);
  GLuint fbo = 0;
  glGenFramebuffers(1, &fbo);
  fbo_ = GlName<deleteFramebuffer>(fbo);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, color_.get());
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_RENDERBUFFER, depth_.get());
  const GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
  glCheck("offscreen framebuffer creation");
  if (status != GL_FRAMEBUFFER_COMPLETE)
    throw GlError("offscreen framebuffer incomplete (status 0x" + std::to_string(status) + ")");
}

}  // namespace ks
