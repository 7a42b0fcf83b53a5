#pragma once
// The UI: small functions that read and write AppState, nothing else.
namespace ks {

struct AppState;

void drawMenuBar(AppState& state);
void drawStatusBar(AppState& state);
void drawDevicesPanel(AppState& state);
void drawDeviceInfoPanel(AppState& state);
void drawScenePanel(AppState& state);
void drawInteropPanel(AppState& state);
void drawBuildLogPanel(AppState& state);
void drawLogPanel(AppState& state);

// All of the above, in order, plus ImGui's demo window when asked for.
void drawPanels(AppState& state);

}  // namespace ks
