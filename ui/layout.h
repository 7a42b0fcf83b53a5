#pragma once
// Where the panels go: by the window's edges (a left column, the scene's panel on the
// right, a strip along the bottom), so that the picture keeps the middle. Every
// frame follows the window's size; a panel the user moved or resized stays where it
// was put but is kept inside the window.
#include <optional>
#include <string_view>

#include "app/view_area.h"

namespace ks {

struct AppState;

// The area between the menu bar (`top` pixels high) and the status bar.
constexpr float kStatusBarHeight = 24.0f;
// The largest part of the window between the menu and status bars that no panel drawn
// this frame covers (state.panelRects) and in which a picture of pictureW x pictureH
// shows largest; none when every such part is narrower or lower than minSide.
std::optional<ScreenRect> freeWindowArea(const AppState& state, float pictureW, float pictureH, float minSide);

// The place of the panel titled `title` in the layout by the edges, for a display
// of width x height, the state's scene and the panels it has open; none for a
// window the layout does not place (the help, ImGui's demo).
std::optional<ScreenRect> dockedPanelRect(const AppState& state, std::string_view title, float width, float height,
                                          float top);

// Before the panel's ImGui::Begin: puts it at its place by the edges on its first
// appearance, after View > Reset layout and, while the user has not moved or resized
// it, whenever its place changes (a resize, another panel opened or closed).
void placePanel(AppState& state, const char* title);

// Keeps in imgui.ini which panels follow the edges, so that a next run in a window of
// another size puts them by its edges (ImGui keeps only their places in pixels).
// Once, after ImGui's context is made and before its first frame (which reads the file).
void keepLayoutInIni(AppState& state);

// Once a frame before the panels: a resize, View > Reset layout or Tab refits the
// image lab's pictures (when they are still as the last Fit left them).
void beginLayoutFrame(AppState& state);
// Once a frame after the panels: every window the user placed is moved (and
// shrunk) back inside the area between the menu bar and the status bar.
void keepPanelsInside(AppState& state);

}  // namespace ks
