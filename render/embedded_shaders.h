#pragma once
// Sources of shaders/*, embedded at build time by cmake/EmbedShaders.cmake.
namespace ks::shaders {
extern const char* const textured_quad_vert;
extern const char* const textured_quad_frag;
}  // namespace ks::shaders
