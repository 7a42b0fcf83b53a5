#pragma once
// The UI's fonts: DejaVu Sans (Debian's fonts-dejavu-core) for the panels and
// DejaVu Sans Mono for build logs, at a size scaled by the monitor's content
// scale (HiDPI). Without the files ImGui's built-in font stays, and the log says why.
#include <filesystem>
#include <string>
#include <vector>

struct ImFont;

namespace ks {

// Text height in pixels at a content scale of 1: close to ImGui's built-in
// 13-pixel font in width, so the panels' sizes fit both.
inline constexpr float kUiFontPixels = 14.0f;

// The scale to draw the UI at for a monitor's content scale (GLFW): the larger
// axis, and 1 for anything not a sensible number (no monitor, 0, NaN); at most 4.
float uiScaleFor(float contentScaleX, float contentScaleY);

// Where each font is looked for, first found wins: $KERNELSCOPE_FONT (and
// $KERNELSCOPE_MONO_FONT), then Debian's paths.
std::vector<std::filesystem::path> uiFontCandidates();
std::vector<std::filesystem::path> monoFontCandidates();

struct UiFonts {
  ImFont* text = nullptr;  // nullptr: ImGui's built-in font
  ImFont* mono = nullptr;  // nullptr: the text font
  std::string message;     // what was loaded, or why not; for the log
};

// Adds the fonts to the current ImGui context's atlas (before its first frame)
// and scales the style's sizes by `scale`.
UiFonts loadUiFonts(float scale, const std::vector<std::filesystem::path>& textFonts = uiFontCandidates(),
                    const std::vector<std::filesystem::path>& monoFonts = monoFontCandidates());

// The font for build logs and other text read column by column; set by loadUiFonts.
ImFont* monoFont();

}  // namespace ks
