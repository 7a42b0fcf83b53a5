// The profiling panel: rolling statistics per frame stage and kernel, derived
// rates against the device's ceilings, the frame-time graph, a stacked per-frame
// breakdown, and the kernel info of what runs now.
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "app/app_state.h"
#include "ui/chart_axis.h"
#include "ui/frame_rate_text.h"
#include "ui/layout.h"
#include "ui/panels.h"
#include "ui/panels_nbody_split.h"
#include "compute/image_layout.h"
#include "compute/plain_config_words.h"

namespace ks {
namespace {

// Stacked colours, bottom up, in FrameStage order.
const ImU32 kStageColours[] = {IM_COL32(150, 150, 160, 255), IM_COL32(86, 180, 233, 255),
                               IM_COL32(240, 228, 66, 255),  IM_COL32(213, 94, 0, 255),
                               IM_COL32(0, 158, 115, 255),   IM_COL32(204, 121, 167, 255),
                               IM_COL32(0, 114, 178, 255),   IM_COL32(90, 90, 100, 255),
                               IM_COL32(230, 159, 0, 255),   IM_COL32(204, 121, 167, 255)};
static_assert(sizeof(kStageColours) / sizeof(kStageColours[0]) == static_cast<size_t>(FrameStage::Count));

// What a row of the statistics measures, for its tooltip: the names are short
// (they are the keys run records keep), the words for a learner are here.
std::string rowMeaning(const AppState& state, const std::string& name) {
  static const std::pair<const char*, const char*> stages[] = {
      {"frame", "The whole frame, from one start to the next (wall clock)."},
      {"input", "Reading the window's events: mouse, keys, resizes, dropped files."},
      {"update", "The scenes' work on the CPU: enqueueing kernels and taking results that have arrived."},
      {"interop", "Handing buffers between OpenCL and OpenGL (acquire, release, host copy), as the CPU spent it."},
      {"wait for GPU", "The CPU blocked on the GPU (fences, events): pacing, not work."},
      {"UI", "Building the panels (Dear ImGui)."},
      {"render", "Issuing the frame's OpenGL drawing, the panels' included."},
      {"present", "Swapping buffers: the driver may wait for vsync or throttle here; screenshots are taken here."},
      {"other", "The rest of the frame."},
      {"kernels (GPU)", "The newest kernel run on the GPU, from OpenCL event times."},
      {"render (GPU)", "The frame's drawing on the GPU, from an OpenGL timer query."},
      {"acquire", "OpenCL taking the shared buffers from OpenGL before its kernels write them "
                  "(clEnqueueAcquireGLObjects on the GL-sharing path), CPU time."},
      {"release", "OpenCL handing the buffers back to OpenGL for drawing (clEnqueueReleaseGLObjects on the "
                  "GL-sharing path), CPU time."},
      {"copy", "The host-copy path: the kernel's output read back for OpenGL to draw, CPU time."},
  };
  for (const auto& [stage, meaning] : stages)
    if (name == stage) return meaning;
  // A kernel's row: the configuration running now, in words, and what its variant is.
  for (const ActiveKernel& k : state.activeKernels)
    if (k.timedAs == name) {
      std::string text = "Now running: " + plainConfigurationWords(k.config) + ".";
      if (const std::string what = configurationVariantDescription(k.config); !what.empty()) text += "\n\n" + what;
      return text;
    }
  return "";
}

// Columns as wide as their numbers, scrolling sideways in a narrow panel (at 1024
// wide they were squeezed and cut mid-number); the table as tall as its rows.
void statsTable(const char* id, const AppState& state, bool kernels) {
  const FrameProfiler& profiler = state.profiler;
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV |
                                ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_ScrollX;
  size_t rows = 0;
  for (const auto& s : profiler.series()) rows += s.kernel == kernels ? 1 : 0;
  const ImGuiStyle& style = ImGui::GetStyle();
  const float rowHeight = ImGui::GetTextLineHeight() + 2.0f * style.CellPadding.y;
  const float height = static_cast<float>(rows + 1) * rowHeight + style.ScrollbarSize + 2.0f;
  if (!ImGui::BeginTable(id, 9, flags, ImVec2(0.0f, height))) return;
  ImGui::TableSetupScrollFreeze(1, 0);  // the names stay while the numbers scroll
  const char* headers[] = {kernels ? "kernel (ms)" : "stage (ms)", "count", "last", "mean", "min",
                           "median", "p95", "max", "stddev"};
  for (const char* h : headers) ImGui::TableSetupColumn(h);
  ImGui::TableHeadersRow();
  for (const auto& s : profiler.series()) {
    if (s.kernel != kernels) continue;
    const SampleSummary& sum = s.shown;
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    ImGui::TextUnformatted(s.name.c_str());
    if (ImGui::IsItemHovered())
      if (const std::string meaning = rowMeaning(state, s.name); !meaning.empty()) tooltipText(meaning.c_str());
    ImGui::TableSetColumnIndex(1);
    ImGui::Text("%zu", sum.count);
    const double values[] = {sum.last, sum.mean, sum.min, sum.median, sum.p95, sum.max, sum.stddev};
    for (int i = 0; i < 7; ++i) {
      ImGui::TableSetColumnIndex(2 + i);
      ImGui::Text("%.3f", values[i]);
    }
  }
  ImGui::EndTable();
}

// The frame times (oldest left) as a line over a ms axis: gridlines at 1-2-5 steps
// labelled in ms, the axis ending on a tick at or above the slowest frame.
void frameGraph(const FrameProfiler& profiler) {
  const FrameProfiler::Series* frame = profiler.find("frame");
  if (!frame || frame->samples.empty()) return;
  const auto& samples = frame->samples.samples();
  const SampleSummary& sum = frame->shown;
  ImGui::PushTextWrapPos(0.0f);  // wrapped in a narrow panel, not cut
  ImGui::TextDisabled("frame time: median %.2f ms, p95 %.2f ms, max %.2f ms", sum.median, sum.p95, sum.max);
  ImGui::PopTextWrapPos();
  double slowest = 0.0;
  for (const auto v : samples) slowest = std::max(slowest, static_cast<double>(v));
  // 90 pixels, or what the panel shows of it (the strip is short at 1024x700).
  const float height = std::clamp(ImGui::GetContentRegionAvail().y, 60.0f, 90.0f), labelHeight = ImGui::GetTextLineHeight();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float width = std::max(ImGui::GetContentRegionAvail().x, 120.0f);
  ChartAxes axes;
  axes.yUnit = "ms";
  // A tick about every 22 pixels of height, labelled beside the plot.
  const std::vector<double> values =
      niceTicksCovering(std::max(slowest, 1e-3), std::max(1, static_cast<int>((height - labelHeight) / 22.0f)));
  const double top = values.back();
  const float top0 = origin.y + labelHeight * 0.5f;  // room for the top label's upper half
  axes.y = placeTicks(values, top, false, origin.y + height, top0, false);  // "1500" ms, not "1.5k"
  axes.plot = {origin.x + widestLabel(axes.y) + 10.0f, top0, origin.x + width, origin.y + height};
  ImGui::InvisibleButton("##frametime", ImVec2(width, height));
  ImDrawList* draw = ImGui::GetWindowDrawList();
  draw->AddRectFilled(ImVec2(axes.plot.x0, axes.plot.y0), ImVec2(axes.plot.x1, axes.plot.y1), IM_COL32(20, 22, 28, 255));
  drawYAxis(draw, axes.plot, axes.y, nullptr);
  // The unit in the plot's top left corner: beside the labels it would widen the margin.
  draw->AddText(ImVec2(axes.plot.x0 + 4.0f, axes.plot.y0 + 1.0f), ImGui::GetColorU32(ImGuiCol_TextDisabled), "ms");
  // One point per sample at the window's spacing, the newest at the right edge.
  const size_t window = std::max(profiler.window(), samples.size());
  const float dx = axes.plot.width() / static_cast<float>(std::max<size_t>(window - 1, 1));
  std::vector<ImVec2> points;
  float x = axes.plot.x1 - dx * static_cast<float>(samples.size() - 1);
  for (const auto v : samples) {
    const float f = static_cast<float>(scaleFraction(v, top, false));
    points.push_back(ImVec2(x, axes.plot.y1 - axes.plot.height() * f));
    x += dx;
  }
  draw->AddPolyline(points.data(), static_cast<int>(points.size()), IM_COL32(86, 180, 233, 255), 0, 1.5f);
  if (ImGui::IsItemHovered()) {
    const float mx = ImGui::GetIO().MousePos.x;
    const float first = axes.plot.x1 - dx * static_cast<float>(samples.size() - 1);
    if (mx >= first - dx * 0.5f) {
      const size_t i = std::min(samples.size() - 1, static_cast<size_t>(std::max(0.0f, (mx - first) / dx + 0.5f)));
      char tip[64];
      std::snprintf(tip, sizeof tip, "%.2f ms (%zu frames ago)", static_cast<double>(samples[i]), samples.size() - 1 - i);
      axes.hover = tip;
      ImGui::SetTooltip("%s", tip);
    }
  }
  keepDrawnChart("frame time", std::move(axes));
}

// One stacked bar per frame (oldest left) of the stages first..last-1, scaled to
// `tallest` ms: the p95 of the frames (one outlier, a hitch or a bogus timer
// reading, must not flatten every other bar). The CPU stages add up to the frame;
// the GPU's, drawn below on the same scale, run beside them.
void stackedBreakdown(const FrameProfiler& profiler, size_t first, size_t last, double tallest, float height) {
  const auto& history = profiler.stageHistory();
  if (history.empty()) return;
  const ImVec2 size(ImGui::GetContentRegionAvail().x, height);
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  draw->AddRectFilled(origin, ImVec2(origin.x + size.x, origin.y + size.y), IM_COL32(20, 22, 28, 255));
  const float barWidth = size.x / static_cast<float>(profiler.window());
  float x = origin.x + size.x - barWidth * static_cast<float>(history.size());
  for (const auto& f : history) {
    float bottom = origin.y + size.y;
    for (size_t i = first; i < last; ++i) {
      const float h = std::min(static_cast<float>(f[i] / tallest) * size.y, bottom - origin.y);
      if (h > 0.0f) draw->AddRectFilled(ImVec2(x, bottom - h), ImVec2(x + std::max(barWidth, 1.0f), bottom), kStageColours[i]);
      bottom -= h;
    }
    x += barWidth;
  }
  ImGui::Dummy(size);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("full height: %.2f ms (p95 of the frames; taller ones are cut)", tallest);
  // Legend with the mean of each stage over the window, wrapped to the panel's width.
  std::vector<double> mean(history.front().size(), 0.0);
  for (const auto& f : history)
    for (size_t i = first; i < last; ++i) mean[i] += f[i] / static_cast<double>(history.size());
  for (size_t i = first; i < last; ++i) {
    char label[64];
    std::snprintf(label, sizeof label, "%s %.2f", frameStageName(static_cast<FrameStage>(i)), mean[i]);
    const float width = ImGui::CalcTextSize(label).x + 10.0f + 2.0f * ImGui::GetStyle().ItemSpacing.x;
    if (i != first) {
      ImGui::SameLine();
      if (ImGui::GetContentRegionAvail().x < width) ImGui::NewLine();
    }
    ImGui::ColorButton(frameStageName(static_cast<FrameStage>(i)), ImGui::ColorConvertU32ToFloat4(kStageColours[i]),
                       ImGuiColorEditFlags_NoTooltip, ImVec2(10, 10));
    ImGui::SameLine();
    ImGui::TextUnformatted(label);
  }
}

void frameBreakdown(const FrameProfiler& profiler, double panelsPerSecond) {
  const auto& history = profiler.stageHistory();
  if (history.empty()) return;
  // Both charts on the frames' scale: the CPU stages add up to the frame time.
  const double tallest = std::max(profiler.shownFrameP95(), 1e-3);
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextDisabled("where each frame's time went (CPU, wall clock)");
  ImGui::PopTextWrapPos();
  if (panelsPerSecond > 0.0 && ImGui::IsItemHovered())
    ImGui::SetTooltip("The panels are built at most %g times a second (--panel-rate); frames in between draw them\n"
                      "as last built and spend almost nothing on the UI stage. The kernels run and the picture is\n"
                      "drawn every frame.",
                      panelsPerSecond);
  stackedBreakdown(profiler, 0, kCpuStageCount, tallest, 80.0f);
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextDisabled("what the GPU ran for each frame, meanwhile (OpenCL events, GL timer)");
  ImGui::PopTextWrapPos();
  stackedBreakdown(profiler, kCpuStageCount, static_cast<size_t>(FrameStage::Count), tallest, 40.0f);
}

void derivedRates(const AppState& state) {
  const DeviceCeilings& c = state.ceilings;
  const double copyGbps = c.measured.value(Ceiling::Copy);
  const double fp32Mad = c.measured.value(Ceiling::Fp32Mad);
  const char* pending = c.measuring ? "being measured (Device info)" : "not measured (Device info)";
  ImGui::PushTextWrapPos(0.0f);  // wrapped in a narrow panel, not cut
  if (copyGbps > 0.0) ImGui::Text("memory: %.1f GB/s measured (copy)", copyGbps);
  else ImGui::TextDisabled("memory bandwidth %s", pending);
  if (fp32Mad > 0.0) ImGui::Text("FP32 multiply-add: %.0f GFLOP/s measured", fp32Mad);
  else ImGui::TextDisabled("FP32 multiply-add rate %s", pending);
  // The vendor table only cross-checks the measured rate.
  if (c.peak)
    ImGui::TextDisabled("vendor peak FP32: %.0f GFLOP/s = %s", c.peak->gflops, c.peak->formula.c_str());
  else
    ImGui::TextDisabled("vendor peak FP32 unknown: %s", c.peakUnknownWhy.c_str());
  ImGui::PopTextWrapPos();

  hintText("Each kernel's work is counted by hand from its source (N-body: 12 arithmetic instructions and one "
           "rsqrt per interaction; transpose: every byte read and written once; histogram: the picture read once and "
           "an atomic per pixel and channel) and divided by its median time; the ceilings are measured on this "
           "device (Device info).");
  drawRoofline(state);
}

void kernelInfoTable(const AppState& state) {
  if (state.activeKernels.empty()) {
    ImGui::TextDisabled("no kernel info yet");
    return;
  }
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingFixedFit;
  if (!ImGui::BeginTable("kernelinfo", 7, flags)) return;
  for (const char* h : {"kernel", "work-group max", "preferred multiple", "local mem", "private mem", "build", "options"})
    ImGui::TableSetupColumn(h);
  ImGui::TableHeadersRow();
  for (const auto& k : state.activeKernels) {
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    ImGui::Text("%s", k.role.c_str());
    if (ImGui::IsItemHovered()) {
      // The configuration in words and what its variant is (k.config is the short name the state dump keeps).
      std::string tip = plainConfigurationWords(k.config) + "\nkernel source: " + k.file;
      if (const std::string what = configurationVariantDescription(k.config); !what.empty()) tip += "\n\n" + what;
      tooltipText(tip.c_str());
    }
    ImGui::TableSetColumnIndex(1);
    if (k.info.launchableWorkGroupSize() > k.info.workGroupSize)
      ImGui::Text("%zu (compiled for %zu)", k.info.workGroupSize, k.info.launchableWorkGroupSize());
    else
      ImGui::Text("%zu", k.info.workGroupSize);
    ImGui::TableSetColumnIndex(2);
    ImGui::Text("%zu", k.info.preferredMultiple);
    ImGui::TableSetColumnIndex(3);
    ImGui::Text("%llu B", static_cast<unsigned long long>(k.info.localMemBytes));
    ImGui::TableSetColumnIndex(4);
    ImGui::Text("%llu B", static_cast<unsigned long long>(k.info.privateMemBytes));
    ImGui::TableSetColumnIndex(5);
    ImGui::Text("%.1f ms %s", k.buildMs, k.fromDisk ? "(binary cache)" : "(source)");
    ImGui::TableSetColumnIndex(6);
    ImGui::TextUnformatted(k.options.empty() ? "(none)" : k.options.c_str());
  }
  ImGui::EndTable();
}

}  // namespace

void drawProfilerPanel(AppState& state) {
  if (!state.panels.profiler) return;
  placePanel(state, "Profiler");  // in the strip along the bottom
  if (ImGui::Begin("Profiler", &state.panels.profiler)) {
    // The controls wrap or narrow in a narrow panel (the strip at 1600 wide with Runs
    // and Sweep, the left column at 1024): Reset and the vsync box ran past its edge.
    const ImGuiStyle& style = ImGui::GetStyle();
    ImGui::TextUnformatted(frameRateText(state.stats.fps, false).c_str());
    if (ImGui::IsItemHovered())
      tooltipText("Over the last quarter second: frames per second, and 1000 / that (the graph below has each frame).");
    const char* vsyncText = state.headless ? "(headless: no vsync)" : "vsync";
    const float vsyncWidth = ImGui::CalcTextSize(vsyncText).x + ImGui::GetFrameHeight() + style.ItemInnerSpacing.x;
    if (ImGui::GetItemRectMax().x + style.ItemSpacing.x + vsyncWidth <= ImGui::GetWindowContentRegionMax().x +
                                                                          ImGui::GetWindowPos().x)
      ImGui::SameLine();
    if (state.headless)
      ImGui::TextDisabled("%s", vsyncText);
    else
      ImGui::Checkbox(vsyncText, &state.vsync);
    int window = static_cast<int>(state.profiler.window());
    const float label = ImGui::CalcTextSize("window (samples)").x + style.ItemInnerSpacing.x;
    const float reset = ImGui::CalcTextSize("Reset").x + 2.0f * style.FramePadding.x + style.ItemSpacing.x;
    const float room = ImGui::GetContentRegionAvail().x;
    const bool resetBeside = room - label - reset >= 80.0f;  // else Reset goes under the slider
    ImGui::SetNextItemWidth(std::clamp(room - label - (resetBeside ? reset : 0.0f), 40.0f, 200.0f));
    if (ImGui::SliderInt("window (samples)", &window, 10, 2000, "%d", ImGuiSliderFlags_Logarithmic))
      state.profiler.setWindow(static_cast<size_t>(window));
    if (resetBeside) ImGui::SameLine();
    if (ImGui::Button("Reset")) state.profiler.clear();
    frameGraph(state.profiler);
    frameBreakdown(state.profiler, state.panelsPerSecond);
    if (ImGui::CollapsingHeader("Statistics", ImGuiTreeNodeFlags_DefaultOpen)) {
      statsTable("stages", state, false);
      statsTable("kernels", state, true);
      hintText("frame and CPU stages: wall clock; kernels: OpenCL events, a frame late (the frame does not wait "
               "for them); render (GPU): GL timer query");
    }
    drawNBodySplitProfile(state);  // panels_nbody_split.cpp
    drawClocksSection(state);  // panels_clocks.cpp
    if (ImGui::CollapsingHeader("Rates and ceilings", ImGuiTreeNodeFlags_DefaultOpen)) derivedRates(state);
    if (ImGui::CollapsingHeader("Kernel info", ImGuiTreeNodeFlags_DefaultOpen)) {
      kernelInfoTable(state);
      const auto& pc = state.programCache;
      hintText("programs: %zu memory hits, %zu misses; binary cache: %zu hits, %zu compiled%s%s", pc.hits, pc.misses,
               pc.diskHits, pc.diskMisses, pc.diskDir.empty() ? " (off)" : " in ", pc.diskDir.c_str());
      if (!pc.diskOffReason.empty()) hintText("binary cache off: %s", pc.diskOffReason.c_str());
    }
  }
  ImGui::End();
}

}  // namespace ks
