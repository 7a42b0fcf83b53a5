#include "ui/panels.h"
#include "ui/frame_rate_text.h"

#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdarg>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "app/app_state.h"
#include "io/resources.h"
#include "ui/fonts.h"
#include "ui/layout.h"
#include "ui/panels_nbody_split.h"

namespace ks {
namespace {

std::string formatBytes(uint64_t bytes) {
  char text[32];
  const double b = static_cast<double>(bytes);
  if (b >= 1024.0 * 1024 * 1024) std::snprintf(text, sizeof text, "%.1f GiB", b / (1024.0 * 1024 * 1024));
  else if (b >= 1024.0 * 1024) std::snprintf(text, sizeof text, "%.1f MiB", b / (1024.0 * 1024));
  else std::snprintf(text, sizeof text, "%.1f KiB", b / 1024.0);
  return text;
}

bool containsNoCase(const std::string& text, const char* filter) {
  std::string a = text, b = filter;
  auto lower = [](std::string& s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  };
  lower(a);
  lower(b);
  return a.find(b) != std::string::npos;
}

const DeviceDescriptor* activeDevice(const AppState& state) {
  return state.activeDevice ? &state.devices[*state.activeDevice] : nullptr;
}

// A name and its value: side by side in a table of two columns, or in a table of one
// (a narrow panel) the name above its value, so that values wrap at whole words.
void infoRow(const char* label, const std::string& value) {
  ImGui::TableNextRow();
  ImGui::TableSetColumnIndex(0);
  if (ImGui::TableGetColumnCount() == 1) {
    ImGui::TextDisabled("%s", label);
    ImGui::Indent();
    ImGui::TextWrapped("%s", value.c_str());
    ImGui::Unindent();
    return;
  }
  ImGui::TextUnformatted(label);
  ImGui::TableSetColumnIndex(1);
  ImGui::TextWrapped("%s", value.c_str());
}

}  // namespace

void hintText(const char* format, ...) {
  va_list args;
  va_start(args, format);
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
  ImGui::TextWrappedV(format, args);
  ImGui::PopStyleColor();
  va_end(args);
}

void fitNextItemBesideLabel(const char* label) {
  const float labelWidth = ImGui::CalcTextSize(label, nullptr, true).x;
  ImGui::SetNextItemWidth(labelWidth > 0.0f ? -(labelWidth + ImGui::GetStyle().ItemInnerSpacing.x) : -1.0f);
}

void sameLineIfFits(float width) {
  const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
  if (ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x + width <= right) ImGui::SameLine();
}

void tooltipText(const char* text) {
  ImGui::BeginTooltip();
  ImGui::PushTextWrapPos(ImGui::GetFontSize() * 35.0f);
  ImGui::TextUnformatted(text);
  ImGui::PopTextWrapPos();
  ImGui::EndTooltip();
}

float checkboxWidth(const char* label) {
  return ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize(label, nullptr, true).x;
}

void sameLineIfCheckboxFits(const char* label) { sameLineIfFits(checkboxWidth(label)); }

// File > Examples: resources/examples' pictures, each with what it shows.
void drawExamplesMenu(AppState& state) {
  const bool found = !state.resourcesDir.empty();
  if (ImGui::BeginMenu("Examples", found)) {
    for (const auto& example : exampleImages()) {
      if (ImGui::MenuItem(example.title)) {
        state.commands.push(
            OpenImages{{(std::filesystem::path(state.resourcesDir) / "examples" / example.file).string()}});
        state.commands.push(OpenScene{SceneKind::Image});
      }
      if (ImGui::IsItemHovered()) tooltipText(example.shows);
    }
    ImGui::EndMenu();
  }
  if (!found && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
    tooltipText("kernelscope's resources folder was not found (set KERNELSCOPE_RESOURCES_DIR to it)");
}

void drawMenuBar(AppState& state) {
  if (!ImGui::BeginMainMenuBar()) return;
  if (ImGui::BeginMenu("File")) {
    if (ImGui::MenuItem("Open image...")) {
      state.commands.push(OpenScene{SceneKind::Image});
      state.panels.imageLab = true;
      state.image.focusOpenPath = true;
    }
    drawExamplesMenu(state);
    for (const auto& file : state.image.recent)
      if (ImGui::MenuItem(file.c_str())) {
        state.commands.push(OpenImages{{file}});
        state.commands.push(OpenScene{SceneKind::Image});
      }
    ImGui::Separator();
    if (ImGui::MenuItem("Quit", "Esc")) requestQuit(state);
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("View")) {
    // Panels back by the window's edges; which ones are open stays as it is.
    if (ImGui::MenuItem("Reset layout")) state.commands.push(ResetLayout{});
    ImGui::MenuItem("Hide panels", "Tab", &state.layout.panelsHidden);
    ImGui::Separator();
    // A panel asked for is shown, even while Tab hides the others.
    const std::pair<const char*, bool*> panels[] = {
        {"Devices", &state.panels.devices},     {"Device info", &state.panels.deviceInfo},
        {"N-body", &state.panels.nbody},         {"Image lab", &state.panels.imageLab},
        {"Interop", &state.panels.interop},      {"Build log", &state.panels.buildLog},
        {"Profiler", &state.panels.profiler},    {"Log", &state.panels.log},
        {"Runs", &state.runs.showRuns},          {"Sweep", &state.runs.showSweep}};
    // A scene's own panel is ticked only in its scene, where it shows (Image lab was
    // ticked in the N-body scene); picked in another scene, it opens in its own.
    for (const auto& [name, shown] : panels) {
      const std::string_view panel = name;
      const std::optional<SceneKind> onlyIn = panel == "N-body"      ? std::optional(SceneKind::NBody)
                                              : panel == "Image lab" ? std::optional(SceneKind::Image)
                                                                     : std::nullopt;
      const bool elsewhere = onlyIn && state.scene != *onlyIn;
      if (ImGui::MenuItem(name, nullptr, *shown && !state.layout.panelsHidden && !elsewhere)) {
        *shown = elsewhere || state.layout.panelsHidden || !*shown;
        if (elsewhere) state.commands.push(OpenScene{*onlyIn});
        state.layout.panelsHidden = false;
      }
    }
    ImGui::Separator();
    ImGui::MenuItem("Vsync", nullptr, &state.vsync, !state.headless);
    if (ImGui::MenuItem("Fullscreen", "F", false, !state.headless)) state.commands.push(ToggleFullscreen{});
    ImGui::MenuItem("ImGui demo", nullptr, &state.panels.imguiDemo);
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("Help")) {
    ImGui::MenuItem("Keyboard and mouse", "H", &state.showHelp);
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("Scene")) {
    if (ImGui::MenuItem("N-body", "1", state.scene == SceneKind::NBody)) state.commands.push(OpenScene{SceneKind::NBody});
    if (ImGui::MenuItem("Image lab", "2", state.scene == SceneKind::Image)) state.commands.push(OpenScene{SceneKind::Image});
    if (ImGui::MenuItem("Julia (demo)", "3", state.scene == SceneKind::Julia)) state.commands.push(OpenScene{SceneKind::Julia});
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("Device")) {
    for (size_t i = 0; i < state.devices.size(); ++i) {
      const auto& d = state.devices[i];
      const bool active = state.activeDevice && *state.activeDevice == i;
      const std::string label = d.displayName() + "##menu" + std::to_string(i);
      if (ImGui::MenuItem(label.c_str(), deviceKindName(d.kind), active, d.available) && !active)
        state.commands.push(SwitchDevice{i});
    }
    ImGui::EndMenu();
  }
  ImGui::EndMainMenuBar();
}

// The status bar's short words for an interop path (interopPathName is the command
// line's and the files' name for it).
static const char* statusInteropWords(InteropPath path) {
  switch (path) {
    case InteropPath::GlSharing: return "buffers shared with OpenGL";
    case InteropPath::External: return "Vulkan-exported memory";
    case InteropPath::Host: return "a copy through host memory";
  }
  return "?";
}

void drawStatusBar(AppState& state) {
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  ImGui::SetNextWindowPos(ImVec2(0, display.y - kStatusBarHeight));
  ImGui::SetNextWindowSize(ImVec2(display.x, kStatusBarHeight));
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                 ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
                                 ImGuiWindowFlags_NoNav | ImGuiWindowFlags_NoBringToFrontOnFocus;
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(8, 4));
  // ImGui's smallest window is 32 pixels high: the bar ran 8 pixels past the window's foot.
  ImGui::PushStyleVar(ImGuiStyleVar_WindowMinSize, ImVec2(0, 0));
  if (ImGui::Begin("##statusbar", nullptr, flags)) {
    const DeviceDescriptor* d = activeDevice(state);
    ImGui::Text("%s", d ? d->displayName().c_str() : "no device");
    ImGui::SameLine();
    // Kernels compiling off the frame (a device switch, the image lab's next run).
    if (const std::string& building = !state.preparing.empty() ? state.preparing : state.image.readings().building;
        !building.empty()) {
      ImGui::TextDisabled("|");
      ImGui::SameLine();
      ImGui::TextColored(ImVec4(1.0f, 0.8f, 0.3f, 1.0f), "%s...", building.c_str());
      ImGui::SameLine();
    }
    ImGui::TextDisabled("|");
    ImGui::SameLine();
    ImGui::TextUnformatted(frameRateText(state.stats.fps, true).c_str());
    ImGui::SameLine();
    ImGui::TextDisabled("|");
    ImGui::SameLine();
    // How kernel output reaches the screen, in words ("interop: host" meant nothing to a newcomer).
    ImGui::Text("shown via %s", statusInteropWords(state.interopPath));
    if (ImGui::IsItemHovered())
      tooltipText("How the kernels' output reaches OpenGL, which draws it; the Interop panel compares the ways and "
                  "switches between them.");
    ImGui::SameLine();
    ImGui::TextDisabled("|");
    ImGui::SameLine();
    ImGui::Text("%s", state.surfaceDescription.c_str());
  }
  ImGui::End();
  ImGui::PopStyleVar(2);
}

namespace {

// A Selectable whose text wraps at the panel's edge instead of being cut there.
bool wrappedSelectable(const char* id, const std::string& text, bool selected) {
  const float wrap = std::max(ImGui::GetContentRegionAvail().x, ImGui::GetFontSize());
  const ImVec2 size = ImGui::CalcTextSize(text.c_str(), nullptr, false, wrap);
  const ImVec2 at = ImGui::GetCursorScreenPos();
  const bool clicked = ImGui::Selectable(id, selected, ImGuiSelectableFlags_None, ImVec2(0.0f, size.y));
  // (the text colour carries the disabled alpha, as ImGui's own labels do)
  ImGui::GetWindowDrawList()->AddText(ImGui::GetFont(), ImGui::GetFontSize(), at, ImGui::GetColorU32(ImGuiCol_Text),
                                      text.c_str(), nullptr, wrap);
  ImGui::LogRenderedText(&at, text.c_str());  // as ImGui's own labels are logged
  return clicked;
}

}  // namespace

void drawDevicesPanel(AppState& state) {
  if (!state.panels.devices) return;
  placePanel(state, "Devices");
  if (ImGui::Begin("Devices", &state.panels.devices)) {
    hintText("OpenCL devices; click one to switch (everything is rebuilt)");
    int lastPlatform = -1;
    for (size_t i = 0; i < state.devices.size(); ++i) {
      const auto& d = state.devices[i];
      if (d.platformIndex != lastPlatform) {
        lastPlatform = d.platformIndex;
        ImGui::Spacing();
        ImGui::TextColored(ImVec4(0.6f, 0.8f, 1.0f, 1.0f), "%s", d.platformName.c_str());
        ImGui::Separator();
      }
      const bool active = state.activeDevice && *state.activeDevice == i;
      std::string label = std::to_string(i) + ": " + d.name + "  [" + deviceKindName(d.kind) + "]";
      if (d.sharesCurrentGlContext) label += " shares GL";
      ImGui::BeginDisabled(!d.available);
      // Wrapped over as many lines as the panel's width needs: on one line a narrow panel
      // (1024x700) cut the name ("pthread-haswell-AMD EPYC [C"), and names that differ
      // at their end read alike.
      if (wrappedSelectable(("##dev" + std::to_string(i)).c_str(), label, active) && !active)
        state.commands.push(SwitchDevice{i});
      ImGui::EndDisabled();
      if (!d.available && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
        ImGui::SetTooltip("not available (device or compiler missing)");
    }
    // The new device's kernels build meanwhile (app/device_switch.h).
    if (state.switching.device || state.commands.has<SwitchDevice>()) {
      ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1, 0.8f, 0.3f, 1));
      ImGui::TextWrapped("%s...", state.preparing.empty() ? "switching" : state.preparing.c_str());
      ImGui::PopStyleColor();
    }
    if (!state.deviceMessage.empty()) {
      ImGui::Separator();
      ImGui::TextWrapped("%s", state.deviceMessage.c_str());
    }
    drawNBodySplitChoice(state);  // panels_nbody_split.cpp
  }
  ImGui::End();
}

void drawDeviceInfoPanel(AppState& state) {
  if (!state.panels.deviceInfo) return;
  placePanel(state, "Device info");
  if (ImGui::Begin("Device info", &state.panels.deviceInfo)) {
    const DeviceDescriptor* d = activeDevice(state);
    if (!d) {
      ImGui::TextUnformatted("no device");
    } else if (const bool sideBySide = ImGui::GetContentRegionAvail().x >=
                                       ImGui::CalcTextSize("External memory (fd)").x + 14.0f * ImGui::GetFontSize();
               ImGui::BeginTable(sideBySide ? "info" : "info stacked", sideBySide ? 2 : 1, ImGuiTableFlags_RowBg)) {
      // Names as wide as the longest, values wrap in the rest: proportional columns
      // squeezed long values to a letter per line in a narrow panel, where each name
      // goes above its value instead.
      ImGui::TableSetupColumn("name", sideBySide ? ImGuiTableColumnFlags_WidthFixed : ImGuiTableColumnFlags_WidthStretch);
      if (sideBySide) ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthStretch);
      std::string sizes;
      for (size_t s : d->maxWorkItemSizes) sizes += (sizes.empty() ? "" : " x ") + std::to_string(s);
      infoRow("Platform", d->platformName + " (" + d->platformVersion + ")");
      infoRow("Vendor", d->vendor);
      infoRow("Device", d->name + " [" + deviceKindName(d->kind) + "]");
      infoRow("Driver", d->driverVersion);
      infoRow("Version", d->deviceVersion);
      infoRow("OpenCL C", d->openclCVersion);
      infoRow("Compute units", std::to_string(d->computeUnits));
      infoRow("Clock", std::to_string(d->clockMHz) + " MHz");
      infoRow("Global memory", formatBytes(d->globalMemBytes));
      infoRow("Local memory", formatBytes(d->localMemBytes));
      infoRow("Max allocation", formatBytes(d->maxAllocBytes));
      infoRow("Max work-group", std::to_string(d->maxWorkGroupSize));
      infoRow("Max work-item sizes", sizes);
      infoRow("cl_khr_gl_sharing", d->hasGlSharing()
                                       ? (d->sharesCurrentGlContext ? "yes, shares this GL context" : "listed, not for this GL context")
                                       : "no");
      infoRow("External memory (fd)", d->hasExternalMemoryFd() ? "yes (cl_khr_external_memory_opaque_fd)" : "no");
      infoRow("GL renderer", state.glRenderer);
      infoRow("GL version", state.glVersion);
      ImGui::EndTable();
      drawMeasuredCeilings(state);
      ImGui::Separator();
      ImGui::SetNextItemWidth(-1);
      ImGui::InputTextWithHint("##extfilter", "search extensions", state.extensionFilter, sizeof state.extensionFilter);
      int shown = 0;
      if (ImGui::BeginChild("extensions", ImVec2(0, 0), true)) {
        for (const auto& ext : d->extensions)
          if (containsNoCase(ext, state.extensionFilter)) {
            ImGui::TextUnformatted(ext.c_str());
            ++shown;
          }
        if (shown == 0) ImGui::TextDisabled("no extension matches");
      }
      ImGui::EndChild();
    }
  }
  ImGui::End();
}

void drawScenePanel(AppState& state) {
  if (state.scene != SceneKind::Julia) return;
  placePanel(state, "Julia");
  if (ImGui::Begin("Julia")) {
    ImGui::TextDisabled("kernels/pattern.cl: julia, %dx%d", state.pattern.size, state.pattern.size);
    ImGui::Checkbox("Animate", &state.pattern.animate);
    ImGui::SliderFloat("Speed", &state.pattern.speed, 0.0f, 5.0f, "%.2f");
    ImGui::SliderInt("Iterations", &state.pattern.iterations, 1, 512);
  }
  ImGui::End();
}

void drawInteropPanel(AppState& state) {
  if (!state.panels.interop) return;
  placePanel(state, "Interop");
  if (ImGui::Begin("Interop", &state.panels.interop)) {
    hintText("how kernel output reaches GL; switch live to compare");
    for (const auto& s : state.interopPaths) {
      ImGui::BeginDisabled(!s.available);
      if (ImGui::RadioButton(interopPathName(s.path), state.interopPath == s.path) && state.interopPath != s.path)
        state.commands.push(SwitchInterop{s.path});
      ImGui::EndDisabled();
      ImGui::Indent();
      if (s.available) {
        ImGui::TextWrapped("%s", s.reason.c_str());
      } else {
        ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.9f, 0.6f, 0.4f, 1.0f));
        ImGui::TextWrapped("unavailable: %s", s.reason.c_str());
        ImGui::PopStyleColor();
      }
      ImGui::Unindent();
    }
    if (!state.interopMessage.empty()) ImGui::TextWrapped("%s", state.interopMessage.c_str());
    ImGui::Separator();
    const FrameBreakdown& b = state.breakdown;
    if (ImGui::BeginTable("breakdown", 2, ImGuiTableFlags_SizingStretchProp)) {
      const std::pair<const char*, double> rows[] = {{"acquire", b.acquireMs}, {"kernels", b.kernelMs},
                                                     {"release", b.releaseMs}, {"copy", b.copyMs},
                                                     {"render (GPU)", b.renderMs}, {"frame", state.stats.frameMs}};
      for (const auto& [label, ms] : rows) {
        ImGui::TableNextRow();
        ImGui::TableSetColumnIndex(0);
        ImGui::TextUnformatted(label);
        ImGui::TableSetColumnIndex(1);
        ImGui::Text("%8.3f ms", ms);
      }
      ImGui::EndTable();
    }
  }
  ImGui::End();
}

void drawBuildLogPanel(AppState& state) {
  if (!state.panels.buildLog) return;
  placePanel(state, "Build log");
  if (ImGui::Begin("Build log", &state.panels.buildLog)) {
    hintText("kernels/ is watched: a saved .cl file rebuilds; a failed build keeps the running program");
    const auto& pc = state.programCache;
    if (pc.diskDir.empty() && !pc.diskOffReason.empty())
      ImGui::TextDisabled("binary cache off: %s", pc.diskOffReason.c_str());
    else if (pc.diskDir.empty())
      ImGui::TextDisabled("binary cache off (--no-program-cache)");
    else
      hintText("binary cache %s: %zu loaded, %zu compiled", pc.diskDir.c_str(), pc.diskHits, pc.diskMisses);
    if (state.buildFailures.empty()) ImGui::TextDisabled("no failed builds");
    for (auto it = state.buildFailures.rbegin(); it != state.buildFailures.rend(); ++it) {
      ImGui::PushID(&*it);
      if (ImGui::CollapsingHeader((it->label + " on " + it->device).c_str(), ImGuiTreeNodeFlags_DefaultOpen)) {
        ImGui::TextColored(ImVec4(1, 0.45f, 0.4f, 1), "%s", it->error.c_str());
        // The compiler marks columns with '^' under the line: they line up in a fixed-width font.
        if (ImFont* mono = monoFont()) ImGui::PushFont(mono);
        ImGui::TextUnformatted(it->log.empty() ? "(the compiler printed no log)" : it->log.c_str());
        if (monoFont()) ImGui::PopFont();
      }
      ImGui::PopID();
    }
  }
  ImGui::End();
}

void drawLogPanel(AppState& state) {
  if (!state.panels.log) return;
  placePanel(state, "Log");
  if (ImGui::Begin("Log", &state.panels.log)) {
    for (const auto& line : state.log) ImGui::TextWrapped("%s", line.c_str());
    if (ImGui::GetScrollY() >= ImGui::GetScrollMaxY()) ImGui::SetScrollHereY(1.0f);
  }
  ImGui::End();
}

namespace {

// Every window drawn this frame (menu and status bars included), by title; not
// tooltips, popups or child windows. ImGui's public API has no list of windows.
void recordPanelRects(AppState& state) {
  state.panelRects.clear();
  const ImGuiContext& g = *ImGui::GetCurrentContext();
  for (const ImGuiWindow* w : g.Windows) {
    if (!w->Active || w->IsFallbackWindow ||  // ImGui's implicit "Debug" window, shown only when used
        (w->Flags & (ImGuiWindowFlags_ChildWindow | ImGuiWindowFlags_Tooltip | ImGuiWindowFlags_Popup)))
      continue;
    state.panelRects.push_back({w->Name, {w->Pos.x, w->Pos.y, w->Pos.x + w->Size.x, w->Pos.y + w->Size.y}});
  }
}

}  // namespace

// The particles and the Julia picture are drawn into the largest square-ish part of
// the window the panels leave free (the whole window under the panels when too little
// is free), so that they are centred where they can be seen.
static void placeSceneArea(AppState& state) {
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  // (the image lab fits its pictures itself: View and save's Fit)
  if (state.scene == SceneKind::Image || display.x <= 0.0f || display.y <= 0.0f) return;
  const float top = ImGui::GetFrameHeight(), bottom = display.y - kStatusBarHeight;
  const ScreenRect free = freeWindowArea(state, 1.0f, 1.0f, 160.0f).value_or(ScreenRect{0.0f, top, display.x, bottom});
  state.sceneArea = {free.x0 / display.x, free.y0 / display.y, free.x1 / display.x, free.y1 / display.y};
}

void drawPanels(AppState& state) {
  beginLayoutFrame(state);
  drawMenuBar(state);
  if (!state.layout.panelsHidden) {  // Tab: the picture alone
    drawDevicesPanel(state);
    drawDeviceInfoPanel(state);
    drawScenePanel(state);
    drawNBodyPanel(state);
    drawImagePanel(state);
    drawHistogramPanel(state);
    drawInteropPanel(state);
    drawBuildLogPanel(state);
    drawProfilerPanel(state);
    drawLogPanel(state);
    drawRunsPanel(state);
    drawSweepPanel(state);
    if (state.panels.imguiDemo) ImGui::ShowDemoWindow(&state.panels.imguiDemo);
  }
  drawHelpWindow(state);  // asked for with H: shown even while Tab hides the panels
  drawQuitQuestion(state);
  drawStatusBar(state);
  keepPanelsInside(state);
  recordPanelRects(state);
  // Last: fitting the pictures and the 3D view look at where this frame put the panels.
  placeSceneArea(state);
  drawImageView(state);
  // What the next frame's shortcuts need to know of this one: an Esc that closes a popup
  // drawn here must not quit (ImGui closes it before the shortcuts see the key).
  state.layout.popupOpenWhenDrawn = anyPopupOpen();
}

const std::vector<std::array<const char*, 2>>& helpRows() {
  static const std::vector<std::array<const char*, 2>> rows = {
      {"left drag", "orbit (N-body) / pan (image lab)"},
      {"right drag", "pan"},
      {"wheel", "zoom (about the cursor in the image lab)"},
      {"Fit, 1:1", "image lab (View and save): the picture fitted to the free area, or one image pixel per screen pixel"},
      {"original / result", "image lab (View and save): either picture, or both side by side"},
      {"hover", "image lab: the pixel under the cursor, its position and values"},
      {"Space", "pause / run (N-body)"},
      {"N", "single step when paused (N-body)"},
      {"R", "reset the bodies"},
      {"C", "reset the camera"},
      {"F / F11", "fullscreen"},
      {"V", "vsync on / off"},
      {"1 / 2 / 3", "N-body / image lab / Julia"},
      {"Tab", "hide / show the panels (the picture stays)"},
      {"Page Down / Up", "image lab: the next / previous of several files opened at once"},
      {"H / F1", "this help"},
      {"Esc", "quit"},
  };
  return rows;
}

void drawHelpWindow(AppState& state) {
  if (!state.showHelp) return;
  // In the middle of the window the first time; kept inside it after that like every panel.
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  ImGui::SetNextWindowPos(ImVec2(display.x * 0.5f, display.y * 0.4f), ImGuiCond_FirstUseEver, ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowSize(ImVec2(420, 0), ImGuiCond_FirstUseEver);
  if (ImGui::Begin("Keyboard and mouse", &state.showHelp)) {
    // One row per control; the image lab and the N-body lab share the mouse.
    if (ImGui::BeginTable("keys", 2)) {
      // Keys as wide as the widest, what they do in the rest, wrapped: two equal
      // columns cut the longer descriptions.
      ImGui::TableSetupColumn("key", ImGuiTableColumnFlags_WidthFixed);
      ImGui::TableSetupColumn("does", ImGuiTableColumnFlags_WidthStretch);
      for (const auto& r : helpRows()) {
        ImGui::TableNextRow();
        ImGui::TableSetColumnIndex(0);
        ImGui::TextUnformatted(r[0]);
        ImGui::TableSetColumnIndex(1);
        ImGui::TextWrapped("%s", r[1]);
      }
      ImGui::EndTable();
    }
  }
  ImGui::End();
}

}  // namespace ks
