#include "ui/layout.h"

#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "app/app_state.h"
#include "ui/column_folding.h"

namespace ks {
namespace {

// A share of a column or strip: the panel and its weight among the open ones.
struct Share {
  std::string_view title;
  float weight;
};

// The open panels of `shares` (by `open`) laid one after the other along [from, to),
// each at least `least` long where there is room (a title bar and a line: a panel
// given less than ImGui's smallest window is made bigger by ImGui, no longer at its
// place, and counted as moved by the user, which upset the whole column).
std::optional<std::pair<float, float>> spanOf(std::string_view title, const std::vector<Share>& shares, float from,
                                              float to, float least = 0.0f) {
  float total = 0.0f;
  for (const Share& s : shares) total += s.weight;
  const float floor = std::min(least, (to - from) / float(std::max<size_t>(shares.size(), 1)));
  const float shared = (to - from) - floor * float(shares.size());
  float at = from;
  for (const Share& s : shares) {
    const float length = floor + shared * s.weight / total;
    if (s.title == title) return std::make_pair(at, at + length);
    at += length;
  }
  return std::nullopt;
}

// A column whose `folded` panels take a title bar's length each (their windows are
// `foldedLength` long, ImGui's smallest, and the next panel covers the rest) and whose
// others get their `useful` length (as many as panelsToFold let unfold), and what is
// left by their weights: the span of the panel titled `title` along [from, to).
std::optional<std::pair<float, float>> foldedSpanOf(std::string_view title, const std::vector<Share>& shares,
                                                    const std::vector<float>& useful,
                                                    const std::set<std::string>& folded, float from, float to,
                                                    float titleLength, float foldedLength) {
  float weights = 0.0f, least = 0.0f;
  for (size_t i = 0; i < shares.size(); ++i) {
    if (folded.count(std::string(shares[i].title))) {
      least += titleLength;
    } else {
      least += useful[i];
      weights += shares[i].weight;
    }
  }
  const float left = to - from - least;  // below 0 only for one panel in a very low window
  float at = from;
  for (size_t i = 0; i < shares.size(); ++i) {
    const bool isFolded = folded.count(std::string(shares[i].title)) > 0;
    const float length =
        isFolded ? titleLength : std::max(useful[i] + left * shares[i].weight / weights, titleLength);
    if (shares[i].title == title) return std::make_pair(at, at + (isFolded ? foldedLength : length));
    at += length;
  }
  return std::nullopt;
}

// ImGui keeps window positions and sizes in whole pixels: so do the places, so that a
// panel still at its place compares equal to it.
ScreenRect wholePixels(float x0, float y0, float x1, float y1) {
  const float left = std::floor(x0), top = std::floor(y0);
  return {left, top, left + std::floor(x1 - left), top + std::floor(y1 - top)};
}

bool samePlace(const ScreenRect& a, const ScreenRect& b) {
  return std::abs(a.x0 - b.x0) < 1.0f && std::abs(a.y0 - b.y0) < 1.0f && std::abs(a.x1 - b.x1) < 1.0f &&
         std::abs(a.y1 - b.y1) < 1.0f;
}

// Where the window is, at its full size (a collapsed panel keeps its place).
ScreenRect placeOf(const ImGuiWindow& w) {
  return {w.Pos.x, w.Pos.y, w.Pos.x + w.SizeFull.x, w.Pos.y + w.SizeFull.y};
}

// The scene's own panel, in the right column.
const char* scenePanel(const AppState& state) {
  switch (state.scene) {
    case SceneKind::NBody: return state.panels.nbody ? "N-body" : nullptr;
    case SceneKind::Image: return state.panels.imageLab ? "Image lab" : nullptr;
    case SceneKind::Julia: return "Julia";
  }
  return nullptr;
}

// Every panel the layout places (when open).
constexpr std::string_view kLaidOutPanels[] = {"Devices",   "Device info", "Interop",   "Log",  "N-body", "Image lab",
                                               "Julia",     "Histogram",   "Profiler",  "Build log", "Runs", "Sweep"};

// Windows kept inside by ImGui or placed by us: the menu and status bars, popups,
// tooltips, child windows. (Closed panels are kept inside too: they open there.)
bool keptByImGui(const ImGuiWindow& w) {
  return w.IsFallbackWindow ||
         (w.Flags & (ImGuiWindowFlags_ChildWindow | ImGuiWindowFlags_Tooltip | ImGuiWindowFlags_Popup |
                     ImGuiWindowFlags_NoMove));
}

// The pictures follow the layout while the user has not zoomed or panned since the last Fit.
void refitIfAsFitted(AppState& state) {
  const ImageLabState& lab = state.image;
  // Once: while the image lab is not shown, nobody takes it.
  if (lab.fittedZoom && *lab.fittedZoom == lab.zoom && lab.panX == 0.0f && lab.panY == 0.0f &&
      !state.commands.has<FitPictures>())
    state.commands.push(FitPictures{});
}


// Whether a panel is folded, kept in its window's ImGui storage (it lives as long as
// the window): what the layout last made it, and the user's own folding with the
// title bar's arrow (folded, or the frame it was unfolded at; 0: neither).
const ImGuiID kLaidFolded = ImHashStr("kernelscope: folded by the layout");
const ImGuiID kUserFolding = ImHashStr("kernelscope: folded (-1) or unfolded at (frame) by the user");
// The scene an unfolding was made in: it counts there only (the Log unfolded beside
// the particles folded the histogram when the image lab opened).
const ImGuiID kUnfoldedInScene = ImHashStr("kernelscope: the scene the user unfolded it in");

// The user's folding of the panels titled `column`, from their windows.
ColumnFolding userFolding(const std::vector<std::string_view>& column, SceneKind scene) {
  ColumnFolding folding;
  std::vector<std::pair<int, std::string>> unfolded;
  for (std::string_view title : column) {
    const ImGuiWindow* w = ImGui::FindWindowByName(std::string(title).c_str());
    const int mark = w ? w->StateStorage.GetInt(kUserFolding, 0) : 0;
    if (mark < 0) folding.foldedByUser.insert(std::string(title));
    if (mark > 0 && w->StateStorage.GetInt(kUnfoldedInScene, -1) == static_cast<int>(scene))
      unfolded.emplace_back(mark, std::string(title));
  }
  std::sort(unfolded.rbegin(), unfolded.rend());  // the latest first
  for (auto& [frame, title] : unfolded) folding.unfoldedByUser.push_back(title);
  return folding;
}

// The place by the edges, and whether the panel is folded to its title bar there.
struct DockedPlace {
  ScreenRect rect;
  bool folded = false;
};

}  // namespace
static std::optional<DockedPlace> dockedPlace(const AppState& state, std::string_view title, float width,
                                              float height, float top) {
  const float bottom = height - kStatusBarHeight;
  const float usable = std::max(bottom - top, 1.0f);
  const PanelVisibility& open = state.panels;
  // A panel the user moved away leaves its place to the others.
  auto placed = [&state](bool shown, std::string_view panel) {
    return shown && !state.layout.moved.count(std::string(panel));
  };
  const bool imageLab = state.scene == SceneKind::Image && open.imageLab;
  std::vector<Share> left, strip;
  // With several devices the Devices panel also holds the N-body step's split over
  // them (issue 24): room for the list and its checkboxes without scrolling.
  if (placed(open.devices, "Devices")) left.push_back({"Devices", state.devices.size() > 1 ? 0.5f : 0.20f});
  if (placed(open.deviceInfo, "Device info")) left.push_back({"Device info", 0.38f});
  if (placed(open.interop, "Interop")) left.push_back({"Interop", 0.24f});
  if (placed(open.log, "Log")) left.push_back({"Log", 0.18f});
  // Along the bottom, under the picture: the image lab's histogram first (its bars and
  // statistics in view without scrolling), then the profiler and the build log.
  // Runs and Sweep join the strip, side by side, and make it taller: over the middle
  // of the picture they hid what was being measured, and stacked there at 1024x700 the
  // Sweep panel hid the Runs chart.
  const bool work = placed(state.runs.showRuns, "Runs") || placed(state.runs.showSweep, "Sweep");
  // In a narrow window (1024 wide) four panels side by side left each too little for
  // a table or a chart (the Runs columns clipped, the Profiler 176 pixels wide): with
  // Runs or Sweep open the strip is theirs, and its other panels go to the foot of
  // the left column.
  const bool workTakesStrip = work && width < 1400.0f;
  std::vector<Share>& others = workTakesStrip ? left : strip;
  // (There, as tall as the four small panels together: they are read, the others glanced at.)
  // The image lab's histogram keeps its place beside one of Runs and Sweep (at the
  // foot of the left column it was 40 pixels tall): it moves only for both.
  const bool bothWork = placed(state.runs.showRuns, "Runs") && placed(state.runs.showSweep, "Sweep");
  if (placed(imageLab, "Histogram")) (bothWork ? others : strip).push_back({"Histogram", workTakesStrip && bothWork ? 1.0f : 0.62f});
  if (placed(open.profiler, "Profiler"))
    others.push_back({"Profiler", workTakesStrip ? 1.0f : work ? 0.45f : imageLab ? 0.38f : 0.62f});
  if (placed(open.buildLog, "Build log")) others.push_back({"Build log", 0.38f});
  if (placed(state.runs.showRuns, "Runs")) strip.push_back({"Runs", 0.8f});
  if (placed(state.runs.showSweep, "Sweep")) strip.push_back({"Sweep", 0.75f});
  const char* scene = scenePanel(state);
  if (scene && !placed(true, scene)) scene = nullptr;

  // Columns as wide as their panels read well, narrower in a small window so that
  // the picture keeps about half of it; none where nothing is open.
  const float leftWidth = left.empty() ? 0.0f : std::min(std::clamp(0.19f * width, 220.0f, 320.0f), 0.25f * width);
  const float rightWidth = scene ? std::min(std::clamp(0.27f * width, 300.0f, 430.0f), 0.3f * width) : 0.0f;
  // With Runs or Sweep in it, more than half the height: a table, a chart and their controls.
  // Lower when the histogram went to the left column: its bars and statistics need room
  // there (Runs keeps its controls, table, chart and buttons in view at 1024x700).
  const bool histogramInColumn =
      std::find_if(left.begin(), left.end(), [](const Share& s) { return s.title == "Histogram"; }) != left.end();
  const float stripHeight = strip.empty() ? 0.0f
                            : work        ? std::min((histogramInColumn ? 0.55f : 0.6f) * usable, 560.0f)
                                          : std::min(std::clamp(0.27f * usable, 170.0f, 260.0f), 0.35f * usable);
  const float stripTop = bottom - stripHeight;

  if (scene && title == scene) {
    // Julia has four controls: a short panel; the others hold a lab's settings.
    const float panelBottom = title == "Julia" ? std::min(stripTop, top + 8.0f * ImGui::GetFrameHeightWithSpacing())
                                               : stripTop;
    return DockedPlace{wholePixels(width - rightWidth, top, width, panelBottom)};
  }
  // A column too short for a useful height each (1024x700 with Runs and Sweep open):
  // the panels worked in keep one, the others fold to their title bars.
  std::vector<std::string_view> column;
  std::vector<float> useful;
  const float line = ImGui::GetFrameHeightWithSpacing(), titleLength = ImGui::GetFrameHeight();
  for (const Share& s : left) {
    column.push_back(s.title);
    // The histogram's bars and statistics need most, the Profiler's numbers and graph
    // next; the others read in a few lines (or scroll).
    useful.push_back(s.title == "Histogram" ? 7.0f * line : s.title == "Profiler" ? 6.0f * line : 4.0f * line);
  }
  const std::set<std::string> folded =
      panelsToFold(column, useful, stripTop - top, titleLength, userFolding(column, state.scene),
                   {"Histogram", "Profiler", "Device info", "Log", "Build log", "Interop", "Devices"});
  const float foldedLength = std::max(titleLength, ImGui::GetStyle().WindowMinSize.y);
  if (const auto span = foldedSpanOf(title, left, useful, folded, top, stripTop, titleLength, foldedLength))
    return DockedPlace{wholePixels(0.0f, span->first, leftWidth, span->second), folded.count(std::string(title)) > 0};
  if (const auto span = spanOf(title, strip, 0.0f, width))
    return DockedPlace{wholePixels(span->first, stripTop, span->second, bottom)};
  return std::nullopt;
}

std::optional<ScreenRect> dockedPanelRect(const AppState& state, std::string_view title, float width, float height,
                                          float top) {
  const auto place = dockedPlace(state, title, width, height, top);
  if (!place) return std::nullopt;
  return place->rect;
}

void placePanel(AppState& state, const char* title) {
  const ImGuiIO& io = ImGui::GetIO();
  ImGuiWindow* window = ImGui::FindWindowByName(title);
  // The user folded or unfolded it with its title bar's arrow since the layout last did.
  if (window && window->StateStorage.GetInt(kLaidFolded, -1) != -1 &&
      window->Collapsed != window->StateStorage.GetBool(kLaidFolded)) {
    window->StateStorage.SetInt(kUserFolding, window->Collapsed ? -1 : std::max(ImGui::GetFrameCount(), 1));
    window->StateStorage.SetInt(kUnfoldedInScene, static_cast<int>(state.scene));
    window->StateStorage.SetInt(kLaidFolded, window->Collapsed ? 1 : 0);
  }
  const auto place = dockedPlace(state, title, io.DisplaySize.x, io.DisplaySize.y, ImGui::GetFrameHeight());
  if (!place) return;
  const ScreenRect* target = &place->rect;
  auto& docked = state.layout.docked;
  // A panel opening by the edges takes room from the pictures (Runs and Sweep make the
  // strip taller): they are fitted again, as after a resize.
  if (!window || !window->WasActive) refitIfAsFitted(state);
  if (!window && state.layout.dockedLastRun.erase(title)) {
    // It followed the edges when the last run ended, in a window maybe of another size.
    ImGui::SetNextWindowPos(ImVec2(target->x0, target->y0), ImGuiCond_Always);
    ImGui::SetNextWindowSize(ImVec2(target->width(), target->height()), ImGuiCond_Always);
    docked[title] = *target;
    return;
  }
  if (!window) {
    // Its first appearance: imgui.ini's place, if it has one (the user's), wins; the
    // next frame sees whether that is still the place by the edges.
    ImGui::SetNextWindowPos(ImVec2(target->x0, target->y0), ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowSize(ImVec2(target->width(), target->height()), ImGuiCond_FirstUseEver);
    return;
  }
  const ScreenRect now = placeOf(*window);
  const auto last = docked.find(title);
  const bool follows = (last != docked.end() && samePlace(last->second, now)) || samePlace(*target, now);
  if (!follows) {
    docked.erase(title);  // moved or resized by the user: kept inside by keepPanelsInside
    state.layout.moved.insert(title);
    window->StateStorage.SetInt(kLaidFolded, -1);  // folded or not as the user leaves it
    return;
  }
  if (!samePlace(*target, now)) {
    ImGui::SetNextWindowPos(ImVec2(target->x0, target->y0), ImGuiCond_Always);
    ImGui::SetNextWindowSize(ImVec2(target->width(), target->height()), ImGuiCond_Always);
  }
  // Folded or unfolded as its column needs (a click on the arrow this frame wins).
  if (window->Collapsed != place->folded && !window->WantCollapseToggle)
    ImGui::SetNextWindowCollapsed(place->folded, ImGuiCond_Always);
  window->StateStorage.SetInt(kLaidFolded, place->folded ? 1 : 0);
  docked[title] = *target;
}

void keepLayoutInIni(AppState& state) {
  ImGuiSettingsHandler handler;
  handler.TypeName = "Kernelscope";
  handler.TypeHash = ImHashStr("Kernelscope");
  handler.UserData = &state.layout;
  // [Kernelscope][Layout] with a line "Docked=<title>" for each panel by the edges.
  handler.ReadOpenFn = [](ImGuiContext*, ImGuiSettingsHandler* h, const char* name) -> void* {
    return std::string_view(name) == "Layout" ? h->UserData : nullptr;
  };
  handler.ReadLineFn = [](ImGuiContext*, ImGuiSettingsHandler*, void* entry, const char* line) {
    constexpr std::string_view kKey = "Docked=";
    const std::string_view text(line);
    if (text.substr(0, kKey.size()) == kKey)
      static_cast<LayoutState*>(entry)->dockedLastRun.insert(std::string(text.substr(kKey.size())));
  };
  handler.WriteAllFn = [](ImGuiContext*, ImGuiSettingsHandler* h, ImGuiTextBuffer* out) {
    const LayoutState& layout = *static_cast<const LayoutState*>(h->UserData);
    out->append("[Kernelscope][Layout]\n");
    for (const auto& [title, rect] : layout.docked) out->appendf("Docked=%s\n", title.c_str());
    for (const std::string& title : layout.dockedLastRun)  // not shown in this run: as they were
      if (!layout.docked.count(title)) out->appendf("Docked=%s\n", title.c_str());
    out->append("\n");
  };
  ImGui::GetCurrentContext()->SettingsHandlers.push_back(handler);
}

void beginLayoutFrame(AppState& state) {
  LayoutState& layout = state.layout;
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  bool changed = display.x != layout.displayWidth || display.y != layout.displayHeight ||
                 layout.panelsHidden != layout.panelsWereHidden;
  layout.displayWidth = display.x;
  layout.displayHeight = display.y;
  layout.panelsWereHidden = layout.panelsHidden;
  if (state.commands.takeAny<ResetLayout>()) {
    layout.moved.clear();
    changed = true;
    // Every panel ImGui knows, drawn this frame or closed, counts as still at the
    // place the layout gave it: placePanel moves it to its place by the edges now, or
    // when it is next opened. Collapsed ones open.
    for (ImGuiWindow* w : ImGui::GetCurrentContext()->Windows) {
      if (std::find(std::begin(kLaidOutPanels), std::end(kLaidOutPanels), w->Name) == std::end(kLaidOutPanels))
        continue;
      layout.docked[w->Name] = placeOf(*w);
      w->Collapsed = false;
      w->StateStorage.SetInt(kLaidFolded, 0);
      w->StateStorage.SetInt(kUserFolding, 0);
    }
  }
  if (changed) refitIfAsFitted(state);
}

void keepPanelsInside(AppState& state) {
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  const float top = ImGui::GetFrameHeight(), bottom = display.y - kStatusBarHeight;
  const ImVec2 area(display.x, std::max(bottom - top, 1.0f));
  for (ImGuiWindow* w : ImGui::GetCurrentContext()->Windows) {
    if (keptByImGui(*w) || state.layout.docked.count(w->Name)) continue;
    // The full size: a collapsed panel must fit when it opens again.
    const ImVec2 size(std::min(w->SizeFull.x, area.x), std::min(w->SizeFull.y, area.y));
    if (size.x != w->SizeFull.x || size.y != w->SizeFull.y) ImGui::SetWindowSize(w, size);
    const ImVec2 pos(std::clamp(w->Pos.x, 0.0f, area.x - size.x), std::clamp(w->Pos.y, top, top + area.y - size.y));
    if (pos.x != w->Pos.x || pos.y != w->Pos.y) ImGui::SetWindowPos(w, pos);
  }
}

std::optional<ScreenRect> freeWindowArea(const AppState& state, float pictureW, float pictureH, float minSide) {
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  std::vector<ScreenRect> panels;
  for (const auto& [name, rect] : state.panelRects) panels.push_back(rect);
  return largestFreeRect({0.0f, ImGui::GetFrameHeight(), display.x, display.y - kStatusBarHeight}, panels, pictureW,
                         pictureH, minSide);
}

}  // namespace ks
