// The image lab's pictures are drawn from ImGui draw lists (app/lab_renderer.h).
// Frames that do not build the panels draw the last build's lists again
// (app/panel_pacing.h); a run may have replaced the scene's picture since, and the
// replaced one may be gone. Those frames must draw the scene's newest picture, never
// the one the panels were built with.
#include <gtest/gtest.h>
#include <imgui.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "app/lab_renderer.h"
#include "compute/compute_context.h"
#include "compute/device_catalog.h"
#include "compute/interop/interop.h"
#include "compute/interop/interop_check.h"
#include "render/egl_headless.h"
#include "test_devices.h"
#include "test_require.h"

namespace ks {
namespace {

class LabRendererTest : public ::testing::Test {
 protected:
  void SetUp() override {
    try {
      egl_ = std::make_unique<EglHeadlessContext>();
    } catch (const std::exception& e) {
      KS_NEED("gl", std::string("no headless GL context: ") + e.what());
    }
    if (std::string why = test::openClMissing(); !why.empty()) KS_NEED("opencl", why);
    DeviceCatalog catalog = enumerateDevices();
    ASSERT_FALSE(catalog.devices.empty());
    const GlContextHandles gl{GlContextHandles::Api::Egl, egl_->context(), egl_->display()};
    compute_ = std::make_unique<ComputeContext>(catalog.devices[0], test::testKernelsDir(), gl);
    backend_ = createInteropBackend(InteropPath::Host, *compute_);  // offered everywhere
    checker_ = std::make_unique<InteropChecker>(*compute_);
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(kSize, kSize);
    unsigned char* pixels = nullptr;
    int w = 0, h = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);  // NewFrame needs a built font atlas
  }
  void TearDown() override {
    if (ImGui::GetCurrentContext()) ImGui::DestroyContext();
  }
  // A one-pixel picture of the interop pattern for `seed`, updated and shown.
  std::unique_ptr<SharedImage> picture(uint32_t seed) {
    auto image = backend_->createImage(1, 1, TextureView::Pixels);
    checker_->update(*image, seed);
    EXPECT_EQ(checker_->countImageMismatches(*image, seed), 0u);
    return image;
  }
  // The panels built once: the result picture over the whole display.
  void buildPanels(LabRenderer& renderer) {
    ImGui::NewFrame();
    renderer.add(ImGui::GetForegroundDrawList(), Picture::Result, ImVec2(0, 0), ImVec2(kSize, kSize));
    ImGui::Render();
  }
  // What ImGui's GL backend does with the last build's lists: runs their callbacks in order.
  static uint32_t drawnCentre() {
    const std::vector<uint8_t> drawn = drawOffscreen(static_cast<int>(kSize), static_cast<int>(kSize), [] {
      const ImDrawData* data = ImGui::GetDrawData();
      for (int l = 0; l < data->CmdListsCount; ++l) {
        const ImDrawList* list = data->CmdLists[l];
        for (const ImDrawCmd& cmd : list->CmdBuffer)
          if (cmd.UserCallback && cmd.UserCallback != ImDrawCallback_ResetRenderState) cmd.UserCallback(list, &cmd);
      }
    });
    const size_t centre = (static_cast<size_t>(kSize) / 2 * static_cast<size_t>(kSize) + static_cast<size_t>(kSize) / 2) * 4;
    uint32_t word = 0;
    std::memcpy(&word, drawn.data() + centre, 4);
    return word;
  }
  static constexpr float kSize = 8.0f;
  std::unique_ptr<EglHeadlessContext> egl_;
  std::unique_ptr<ComputeContext> compute_;
  std::unique_ptr<InteropBackend> backend_;
  std::unique_ptr<InteropChecker> checker_;
};

TEST_F(LabRendererTest, PanelsDrawnAgainShowTheScenesNewestPicture) {
  LabRenderer renderer;
  std::unique_ptr<SharedImage> first = picture(101);
  renderer.setImage(Picture::Result, first.get());
  buildPanels(renderer);
  EXPECT_EQ(drawnCentre(), interopPattern(0, 101));

  // A run replaced the picture and the old one went; the panels are not built again.
  std::unique_ptr<SharedImage> second = picture(202);
  renderer.setImage(Picture::Result, second.get());
  first.reset();
  EXPECT_EQ(drawnCentre(), interopPattern(0, 202)) << "a frame between builds draws the scene's newest picture";

  // The scene has no result now (a failed run): nothing is drawn, and nothing freed is read.
  renderer.setImage(Picture::Result, nullptr);
  second.reset();
  EXPECT_EQ(drawnCentre(), 0u) << "the framebuffer stays as cleared";

  // Built again: the draws of the build before are dropped, the new ones drawn.
  std::unique_ptr<SharedImage> third = picture(303);
  renderer.setImage(Picture::Result, third.get());
  buildPanels(renderer);
  EXPECT_EQ(drawnCentre(), interopPattern(0, 303));
}

// A drawn picture names the level that fits it (issue 19: updates write only the
// levels drawn): 64x64 over 8x8 pixels is level 3 (and not level 0), drawn from
// level 0 while the picture holds only that one.
TEST_F(LabRendererTest, ADrawNotesTheLevelThatFitsIt) {
  LabRenderer renderer;
  auto image = backend_->createImage(64, 64, TextureView::Pixels);
  checker_->update(*image, 7);  // level 0 alone
  image->finishUpdates();
  EXPECT_EQ(image->shownLevels(), PictureLevelMask{1});
  EXPECT_EQ(image->takeLevelsToWrite(), allPictureLevels) << "not drawn yet";
  renderer.setImage(Picture::Result, image.get());
  buildPanels(renderer);
  drawnCentre();  // ImGui's GL backend running the draw
  EXPECT_TRUE(image->drawnLevelMissing()) << "level 3 fits, the picture has level 0 only";
  EXPECT_EQ(image->takeLevelsToWrite(), PictureLevelMask{0b1000});
}

}  // namespace
}  // namespace ks
