#pragma once
// Draws SharedImages inside ImGui draw lists, straight from the buffers kernels
// wrote (render/image_quad), at their place in the list: a backdrop added before
// stays below the picture, a frame added after stays above it.
#include <deque>
#include <memory>

#include <imgui.h>

#include "render/image_quad.h"

namespace ks {

class SharedImage;

// The image lab's two pictures; panels name them, the scene provides them.
enum class Picture { Original, Result };

class PictureRenderer {
 public:
  // The scene's picture for `which` (null: none to draw).
  void setImage(Picture which, SharedImage* image) { images_[static_cast<int>(which)] = image; }
  bool has(Picture which) const { return images_[static_cast<int>(which)] != nullptr; }
  // Forgets the last frame's draws; once per frame, before add.
  void beginFrame() { draws_.clear(); }
  // The picture stretched over p0..p1 (screen pixels), clipped to the list's clip
  // rectangle; drawn when ImGui renders this frame. Nothing when there is none.
  void add(ImDrawList* list, Picture which, ImVec2 p0, ImVec2 p1);

 private:
  struct Draw {
    PictureRenderer* self;
    SharedImage* image;
    ImVec2 p0, p1;
  };
  static void render(const ImDrawList* list, const ImDrawCmd* command);
  SharedImage* images_[2] = {nullptr, nullptr};
  std::deque<Draw> draws_;           // stable addresses: the commands point at them
  std::unique_ptr<ImageQuad> quad_;  // made at the first draw, with the GL context current
};

}  // namespace ks
