#pragma once
#include <array>
#include <string>
#include <vector>
// The UI: small functions that read and write AppState, nothing else.
#include <vector>

namespace ks {

struct AppState;

// A hint in the dimmed text colour that wraps at the panel's edge instead of
// running past it (panels are a quarter of the window wide at first).
void hintText(const char* format, ...) __attribute__((format(printf, 1, 2)));
// The next widget's width: what the panel has left after the widget's label, so
// that the label stays visible however narrow the panel is.
void fitNextItemBesideLabel(const char* label);
// Keeps the next item, `width` pixels wide, on the line of the last item when it
// fits beside it, else lets it start a line of its own (narrow panels clipped it).
void sameLineIfFits(float width);
// A tooltip that wraps at about 35 characters' width instead of running off the window.
void tooltipText(const char* text);
float checkboxWidth(const char* label);  // a checkbox's or a radio button's, with its label
void sameLineIfCheckboxFits(const char* label);

void drawMenuBar(AppState& state);
void drawStatusBar(AppState& state);
void drawDevicesPanel(AppState& state);
void drawDeviceInfoPanel(AppState& state);
void drawScenePanel(AppState& state);
void drawInteropPanel(AppState& state);
void drawNBodyPanel(AppState& state);
void drawImagePanel(AppState& state);
void drawHistogramPanel(AppState& state);  // the image lab's histogram and statistics, under the picture
void drawImageView(AppState& state);  // the image lab's pictures, behind the panels
// The help window's rows: a control, what it does (both lab's controls and the keys).
const std::vector<std::array<const char*, 2>>& helpRows();
void drawHelpWindow(AppState& state);
struct RunsState;
// Writes every run to runs.exportPath (.json or .csv); true when written. runs.message says where, or why not.
bool exportAllRuns(RunsState& runs, bool json);
// Adds the runs of runs.importPath (a runs JSON file) to the table; true when read. runs.message says how many, or why not.
bool importRunsFile(RunsState& runs);
// Esc, File > Quit and the window's close button: quits, or first asks when recorded runs have not been exported.
void requestQuit(AppState& state);
enum class QuitChoice { Quit, ExportAndQuit, Cancel };
void answerQuitQuestion(AppState& state, QuitChoice choice);
void drawQuitQuestion(AppState& state);  // the question, while it is asked
// The Profiler's roofline: the running kernels against the measured ceilings.
void drawRoofline(const AppState& state);

struct RunRecord;
// The Runs panel's words for a run: its parameters on one line, and what makes a
// speed-up against the baseline not like for like (empty when nothing does).
std::string configurationText(const RunRecord& r);
std::string sizeDifference(const RunRecord& r, const RunRecord& base);
// The names of runs as the comparison chart labels its bars: the words every name
// has ("fp32 native_rsqrt @host") left out, which tell the bars of a sweep apart
// where cutting the whole names to the chart's margin left them all alike.
std::vector<std::string> distinguishingNames(const std::vector<std::string>& names);

struct SweepUiState;
// The Sweep panel's rows (indices into sweep.results) in the order shown: what was
// measured first, then the refused configurations (in a section of their own, shut
// while something was measured); none while the other kind of sweep is chosen.
struct SweepRows {
  std::vector<size_t> measured, refused;
};
SweepRows sweepRowsToShow(const SweepUiState& sweep);
// The Sweep panel's progress bar: the last sweep's counts only while its kind is chosen.
struct SweepProgress {
  float fraction = 0.0f;
  std::string overlay;
};
SweepProgress sweepProgressToShow(const SweepUiState& sweep);

// Whether any ImGui popup (menu, combo list, question) is open.
bool anyPopupOpen();

// Keyboard shortcuts (see the help window), when no widget has the keyboard.
// `pressed`: GLFW key codes pressed since the last frame (RenderSurface::takePressedKeys).
void handleShortcuts(AppState& state, const std::vector<int>& pressed);
void drawBuildLogPanel(AppState& state);
void drawProfilerPanel(AppState& state);  // panels_profiler.cpp
void drawLogPanel(AppState& state);
void drawRunsPanel(AppState& state);   // panels_runs.cpp
void drawSweepPanel(AppState& state);  // panels_sweep.cpp
// The Device info panel's measured ceilings and "Measure again" (panels_ceilings.cpp).
void drawMeasuredCeilings(AppState& state);
// The Profiler's clocks, power and throttle reasons from NVML (panels_clocks.cpp).
void drawClocksSection(AppState& state);
// The Runs table: "throttled" before a run's name (why, in a tooltip) when the clock
// throttled during it, and under its configuration its power and energy per unit.
void drawRunThrottleMark(const RunRecord& r);
void drawRunEnergyLine(const RunRecord& r);

// All of the above, in order, plus ImGui's demo window when asked for.
void drawPanels(AppState& state);

}  // namespace ks
