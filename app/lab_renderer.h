#pragma once
// Draws what the image lab keeps on the GPU inside ImGui draw lists, at its place
// in the list (a backdrop added before stays below, a frame added after above):
// the pictures, straight from the buffers kernels wrote (render/image_quad), and
// the histogram's bars, straight from the bins the kernels wrote
// (render/histogram_plot). Panels name what to draw; the scene provides it.
#include <array>
#include <deque>
#include <memory>

#include <imgui.h>

#include "render/histogram_plot.h"
#include "render/image_quad.h"

namespace ks {

class HistogramDisplay;
class SharedImage;

// The image lab's two pictures.
enum class Picture { Original, Result };

class LabRenderer {
 public:
  // The scene's picture for `which` (null: none to draw), and its histogram.
  void setImage(Picture which, SharedImage* image) { images_[static_cast<int>(which)] = image; }
  bool has(Picture which) const { return images_[static_cast<int>(which)] != nullptr; }
  const SharedImage* image(Picture which) const { return images_[static_cast<int>(which)]; }
  void setHistogram(HistogramDisplay* histogram) { histogram_ = histogram; }
  // The picture stretched over p0..p1 (screen pixels), clipped to the list's clip
  // rectangle; drawn whenever ImGui renders the panels built this frame (frames that
  // do not build them draw them again: app/panel_pacing.h), each time the scene's
  // newest picture. Nothing when there is none.
  void add(ImDrawList* list, Picture which, ImVec2 p0, ImVec2 p1);
  // Channel `channel` of the histogram as bars over p0..p1 (nothing before the
  // first histogram has reached GL). `top`: the count at full height (0: the
  // channel's largest bin); `overlay`: no background, over what was drawn there;
  // `binsX0`..`binsX1` (screen pixels, within p0..p1): where bin 0 starts and bin 255
  // ends (the whole width when equal); `minBarWidth`: the narrowest bar, in screen pixels.
  void addHistogram(ImDrawList* list, int channel, bool logScale, ImVec4 colour, ImVec2 p0, ImVec2 p1,
                    float top = 0.0f, bool overlay = false, float binsX0 = 0.0f, float binsX1 = 0.0f,
                    float minBarWidth = 0.0f);

 private:
  // What to draw, by name: the picture or histogram the scene holds when it is drawn
  // (a run may have replaced it since the panels were built).
  struct Draw {
    LabRenderer* self;
    bool histogram;  // a histogram channel, or
    Picture which;   // a picture
    int channel;
    bool logScale;
    std::array<float, 4> colour;
    ImVec2 p0, p1;
    float top = 0.0f;
    bool overlay = false;
    float binsFrom = 0.0f, binsTo = 1.0f;  // fractions of p0..p1's width
    float minBarWidth = 0.0f;
  };
  static void render(const ImDrawList* list, const ImDrawCmd* command);
  void push(ImDrawList* list, Draw draw);
  SharedImage* images_[2] = {nullptr, nullptr};
  HistogramDisplay* histogram_ = nullptr;
  std::deque<Draw> draws_;               // stable addresses: the commands point at them
  int drawsFrame_ = -1;                  // the ImGui frame they were added in
  std::unique_ptr<ImageQuad> quad_;      // made at the first draw, with the GL context current
  std::unique_ptr<HistogramPlot> plot_;  // likewise
};

}  // namespace ks
