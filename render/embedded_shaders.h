#pragma once
// Sources of shaders/*, embedded at build time by cmake/EmbedShaders.cmake.
namespace ks::shaders {
extern const char* const picture_vert;
extern const char* const picture_frag;
extern const char* const histogram_frag;
extern const char* const particles_vert;
extern const char* const particles_frag;
extern const char* const particle_look_glsl;
extern const char* const particles_splat_comp;
extern const char* const particles_resolve_vert;
extern const char* const particles_resolve_frag;
}  // namespace ks::shaders
