#include "app/lab_renderer.h"

#include <glad/gl.h>

#include <algorithm>
#include <cmath>

#include "compute/interop/histogram_display.h"
#include "compute/interop/interop.h"

namespace ks {

void LabRenderer::push(ImDrawList* list, Draw draw) {
  // The last build's draws until the panels are built again: its draw data points at them.
  if (ImGui::GetFrameCount() != drawsFrame_) {
    draws_.clear();
    drawsFrame_ = ImGui::GetFrameCount();
  }
  draws_.push_back(draw);
  list->AddCallback(&LabRenderer::render, &draws_.back());
  // ImGui's own program, buffers and textures again for what follows.
  list->AddCallback(ImDrawCallback_ResetRenderState, nullptr);
}

void LabRenderer::add(ImDrawList* list, Picture which, ImVec2 p0, ImVec2 p1) {
  if (images_[static_cast<int>(which)]) push(list, {this, false, which, 0, false, {}, p0, p1});
}

void LabRenderer::addHistogram(ImDrawList* list, int channel, bool logScale, ImVec4 colour, ImVec2 p0, ImVec2 p1,
                               float top, bool overlay, float binsX0, float binsX1, float minBarWidth) {
  if (!histogram_) return;
  const float width = p1.x - p0.x;
  const bool part = binsX1 > binsX0 && width > 0.0f;
  push(list, {this, true, Picture::Original, channel, logScale, {colour.x, colour.y, colour.z, colour.w}, p0, p1, top,
              overlay, part ? (binsX0 - p0.x) / width : 0.0f, part ? (binsX1 - p0.x) / width : 1.0f, minBarWidth});
}

void LabRenderer::render(const ImDrawList*, const ImDrawCmd* command) {
  const Draw& d = *static_cast<const Draw*>(command->UserCallbackData);
  const ImDrawData* data = ImGui::GetDrawData();
  const ImVec2 origin = data->DisplayPos, scale = data->FramebufferScale, size = data->DisplaySize;
  // ImGui's backend scissors its own commands; a callback's clip rectangle is ours to apply.
  const ImVec4 clip = command->ClipRect;
  const float x0 = std::max(0.0f, (clip.x - origin.x) * scale.x), y0 = std::max(0.0f, (clip.y - origin.y) * scale.y);
  const float x1 = std::min(size.x * scale.x, (clip.z - origin.x) * scale.x);
  const float y1 = std::min(size.y * scale.y, (clip.w - origin.y) * scale.y);
  if (x1 <= x0 || y1 <= y0) return;
  glEnable(GL_SCISSOR_TEST);
  glScissor(static_cast<GLint>(x0), static_cast<GLint>(std::lround(size.y * scale.y - y1)),
            static_cast<GLsizei>(x1 - x0), static_cast<GLsizei>(y1 - y0));
  // ImGui's viewport covers the framebuffer, which is DisplaySize in ImGui's units.
  const PictureRect rect{d.p0.x - origin.x, d.p0.y - origin.y, d.p1.x - d.p0.x, d.p1.y - d.p0.y,
                         static_cast<int>(size.x), static_cast<int>(size.y)};
  LabRenderer& self = *d.self;
  if (!d.histogram) {
    if (!self.images_[static_cast<int>(d.which)]) return;
    SharedImage& image = *self.images_[static_cast<int>(d.which)];
    if (!image.hasPicture()) image.finishUpdates();  // the first frame of a picture: nothing older to show
    if (!image.hasPicture()) return;
    if (!self.quad_) self.quad_ = std::make_unique<ImageQuad>();
    const PictureFilter drawn =
        self.quad_->draw(image.texture(), image.levels(), image.view() == TextureView::Smooth, rect,
                         image.shownLevels());
    image.drawnAtLevel(drawn.wantedLevel);  // the level the next update writes
    image.drawnByGl();
  } else if (self.histogram_) {
    HistogramDisplay& histogram = *self.histogram_;
    if (!histogram.texture()) return;
    if (!self.plot_) self.plot_ = std::make_unique<HistogramPlot>();
    const ImVec4 frame = d.overlay ? ImVec4(0, 0, 0, 0) : ImGui::GetStyle().Colors[ImGuiCol_FrameBg];
    self.plot_->draw(histogram.texture(), histogram.channels(), d.channel, d.logScale, d.colour,
                     {frame.x, frame.y, frame.z, frame.w}, rect, d.top, d.binsFrom, d.binsTo,
                     d.minBarWidth * scale.x);  // in the framebuffer's pixels
    histogram.drawnByGl();
  }
}

}  // namespace ks
