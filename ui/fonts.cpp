#include "ui/fonts.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace ks {
namespace fs = std::filesystem;

namespace {

// Latin with its extensions, Greek, Cyrillic, punctuation, super- and subscripts,
// arrows, mathematical operators and shapes: file names and units in any of these
// show as written instead of '?'.
constexpr char kMonoName[] = "kernelscope mono";

const ImWchar kGlyphRanges[] = {
    0x0020, 0x024F, 0x0370, 0x03FF, 0x0400, 0x052F, 0x2000, 0x209F,
    0x2190, 0x21FF, 0x2200, 0x22FF, 0x25A0, 0x25FF, 0,
};

std::vector<fs::path> candidates(const char* envVar, const char* debianFile) {
  std::vector<fs::path> files;
  if (const char* env = std::getenv(envVar); env && *env) files.emplace_back(env);
  files.push_back(fs::path("/usr/share/fonts/truetype/dejavu") / debianFile);
  return files;
}

const fs::path* firstExisting(const std::vector<fs::path>& files) {
  std::error_code ec;
  for (const auto& f : files)
    if (fs::is_regular_file(f, ec)) return &f;
  return nullptr;
}

}  // namespace

float uiScaleFor(float x, float y) {
  const float s = std::max(std::isfinite(x) ? x : 0.0f, std::isfinite(y) ? y : 0.0f);
  return s >= 1.0f ? std::min(s, 4.0f) : 1.0f;
}

std::vector<fs::path> uiFontCandidates() { return candidates("KERNELSCOPE_FONT", "DejaVuSans.ttf"); }
std::vector<fs::path> monoFontCandidates() { return candidates("KERNELSCOPE_MONO_FONT", "DejaVuSansMono.ttf"); }

UiFonts loadUiFonts(float scale, const std::vector<fs::path>& textFonts, const std::vector<fs::path>& monoFonts) {
  UiFonts fonts;
  ImGuiIO& io = ImGui::GetIO();
  ImGui::GetStyle().ScaleAllSizes(scale);
  const float pixels = std::round(kUiFontPixels * scale);
  ImFontConfig config;
  config.OversampleH = 2;  // sharp enough at these sizes, half the atlas of 3
  const fs::path* text = firstExisting(textFonts);
  if (text) fonts.text = io.Fonts->AddFontFromFileTTF(text->c_str(), pixels, &config, kGlyphRanges);
  if (!fonts.text) {
    // The built-in font is a bitmap made for 13 pixels: scaled as a whole, it stays readable on HiDPI.
    ImFontConfig builtIn;
    builtIn.SizePixels = std::round(13.0f * scale);
    io.Fonts->AddFontDefault(&builtIn);
    std::string tried;
    for (const auto& f : textFonts) tried += (tried.empty() ? "" : ", ") + f.string();
    fonts.message = "UI font not found (looked for " + tried + "; Debian's fonts-dejavu-core has it): using ImGui's built-in font";
    return fonts;
  }
  if (const fs::path* mono = firstExisting(monoFonts)) {
    ImFontConfig monoConfig = config;
    std::snprintf(monoConfig.Name, sizeof monoConfig.Name, "%s", kMonoName);
    fonts.mono = io.Fonts->AddFontFromFileTTF(mono->c_str(), pixels, &monoConfig, kGlyphRanges);
  }
  char scaleText[32];
  std::snprintf(scaleText, sizeof scaleText, "%.0f px (scale %.2g)", pixels, scale);
  fonts.message = "UI font " + text->filename().string() + " " + scaleText;
  return fonts;
}

ImFont* monoFont() {
  // Looked up in the current context's atlas, so it is never a font of a context gone.
  for (ImFont* font : ImGui::GetIO().Fonts->Fonts)
    if (font->ConfigData && std::string(font->ConfigData->Name) == kMonoName) return font;
  return nullptr;
}

}  // namespace ks
