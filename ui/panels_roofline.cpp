// The Profiler's roofline (issue 23): each running kernel's achieved rate against the
// ceilings measured on this device (Device info), as a log-log chart and a table.
// A kernel's point is placed by the resource that binds it: its operations per DRAM
// byte (x) and their rate (y); the memory roof is the diagonal, the others flat.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "app/app_state.h"
#include "app/kernel_bounds.h"
#include "ui/chart_axis.h"
#include "ui/panels.h"

namespace ks {

namespace {

// Decades from 10^floor(log10 lo) to 10^ceil(log10 hi), each a tick.
std::vector<ChartTick> decadeTicks(double lo, double hi, float from, float to) {
  std::vector<ChartTick> ticks;
  const double a = std::log10(lo), b = std::log10(hi);
  for (int k = static_cast<int>(std::ceil(a - 1e-9)); k <= static_cast<int>(std::floor(b + 1e-9)); ++k) {
    const double v = std::pow(10.0, k);
    ChartTick t;
    t.value = v;
    t.pixel = from + static_cast<float>((k - a) / (b - a)) * (to - from);
    t.label = k >= 0 && k < 4 ? tickLabel(v, v) : "1e" + std::to_string(k);
    ticks.push_back(std::move(t));
  }
  return ticks;
}

struct Roof {
  const char* label;
  double rate;  // G operations/s
};

}  // namespace

void drawRoofline(const AppState& state) {
  const MeasuredCeilings& measured = state.ceilings.measured;
  const std::vector<TimedKernelBound> kernels = timedKernelBounds(state);
  if (kernels.empty()) {
    ImGui::TextDisabled("no kernel timed yet");
    return;
  }
  const double dram = measured.value(Ceiling::Copy);
  if (dram <= 0.0) {
    ImGui::TextDisabled("the roofline needs the measured ceilings (Device info: measure)");
  }
  // The table: every kernel, the ceiling that binds it, the others it uses.
  if (ImGui::BeginTable("bounds", 3, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp)) {
    ImGui::TableSetupColumn("kernel", ImGuiTableColumnFlags_WidthFixed);
    ImGui::TableSetupColumn("median", ImGuiTableColumnFlags_WidthFixed);
    ImGui::TableSetupColumn("bound by (fraction of the measured ceiling)");
    ImGui::TableHeadersRow();
    for (const TimedKernelBound& k : kernels) {
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      ImGui::TextUnformatted(k.name.c_str());
      ImGui::TableSetColumnIndex(1);
      ImGui::Text("%.3f ms", k.ms);
      ImGui::TableSetColumnIndex(2);
      if (k.bound.binding < 0) {
        ImGui::TextDisabled("no measured ceiling for its work");
        continue;
      }
      std::string others;
      for (size_t i = 0; i < k.bound.uses.size(); ++i) {
        if (static_cast<int>(i) == k.bound.binding) continue;
        char text[64];
        std::snprintf(text, sizeof text, "%s%s %.0f %%", others.empty() ? "" : ", ", k.bound.uses[i].label,
                      100.0 * k.bound.uses[i].fraction());
        others += text;
      }
      ImGui::Text("%s", k.bound.label().c_str());
      if (k.bound.uses[static_cast<size_t>(k.bound.binding)].fraction() > 1.0 && ImGui::IsItemHovered())
        tooltipText("Above the measured ceiling: this kernel uses the resource better than the micro-benchmark that "
                    "measured it (Device info shows how each ceiling was measured), or the work model counts more "
                    "than the kernel does.");
      if (!others.empty()) {
        ImGui::SameLine();
        ImGui::TextDisabled("(%s)", others.c_str());
      }
    }
    ImGui::EndTable();
  }
  if (dram <= 0.0) return;

  // Roofs: memory, and each flat ceiling a running kernel is bound by or uses.
  std::vector<Roof> roofs;
  auto addRoof = [&](const char* label, double rate) {
    for (const Roof& r : roofs)
      if (std::string(r.label) == label) return;
    if (rate > 0.0) roofs.push_back({label, rate});
  };
  std::vector<const TimedKernelBound*> points;
  for (const TimedKernelBound& k : kernels) {
    for (const ResourceUse& u : k.bound.uses) {
      if (u.ceiling == Ceiling::Copy || u.ceiling == Ceiling::Read) continue;
      const bool instructions = u.ceiling == Ceiling::Fp32Mad || u.ceiling == Ceiling::Fp64Mad;
      addRoof(u.label, instructions ? u.limit / 2.0 : u.limit);  // G instructions/s from the MAD GFLOP/s
    }
    if (k.bound.intensity > 0.0 && k.bound.opsRate > 0.0) points.push_back(&k);
  }
  if (points.empty()) return;
  double xLo = 1.0, xHi = 10.0, yLo = dram, yHi = dram;
  for (const TimedKernelBound* k : points) {
    xLo = std::min(xLo, k->bound.intensity);
    xHi = std::max(xHi, k->bound.intensity);
    yLo = std::min(yLo, k->bound.opsRate);
    yHi = std::max(yHi, k->bound.opsRate);
  }
  for (const Roof& r : roofs) {
    yHi = std::max(yHi, r.rate);
    xHi = std::max(xHi, r.rate / dram);  // the ridge point
  }
  xLo = std::pow(10.0, std::floor(std::log10(xLo)) - 1.0);
  xHi = std::pow(10.0, std::ceil(std::log10(xHi)) + 0.0);
  yLo = std::pow(10.0, std::floor(std::log10(yLo)) - 1.0);
  yHi = std::pow(10.0, std::ceil(std::log10(yHi * 1.5)));

  const float font = ImGui::GetFontSize();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float width = ImGui::GetContentRegionAvail().x;
  const float height = std::clamp(width * 0.45f, font * 9.0f, font * 16.0f);
  ScreenRect plot{origin.x + font * 3.2f, origin.y + font * 1.4f, origin.x + width - font * 0.5f,
                  origin.y + height - font * 1.6f};
  ImGui::Dummy(ImVec2(width, height + font * 0.4f));
  ImDrawList* draw = ImGui::GetWindowDrawList();
  auto px = [&](double x) {
    return plot.x0 + static_cast<float>((std::log10(x) - std::log10(xLo)) / (std::log10(xHi) - std::log10(xLo))) *
                         (plot.x1 - plot.x0);
  };
  auto py = [&](double y) {
    return plot.y1 - static_cast<float>((std::log10(y) - std::log10(yLo)) / (std::log10(yHi) - std::log10(yLo))) *
                         (plot.y1 - plot.y0);
  };
  ChartAxes axes;
  axes.plot = plot;
  axes.x = decadeTicks(xLo, xHi, plot.x0, plot.x1);
  std::vector<ChartTick> yTicks = decadeTicks(yLo, yHi, plot.y1, plot.y0);
  axes.y = yTicks;
  axes.xUnit = "operations per DRAM byte";
  axes.yUnit = "G operations/s";
  drawYAxis(draw, plot, axes.y, nullptr);
  draw->AddText(ImVec2(origin.x, origin.y), ImGui::GetColorU32(ImGuiCol_TextDisabled), axes.yUnit.c_str());
  drawXAxis(draw, plot, axes.x, nullptr, true);
  {
    const char* unit = axes.xUnit.c_str();
    const float w = ImGui::CalcTextSize(unit).x;
    draw->AddText(ImVec2(plot.x1 - w, plot.y1 + font * 0.2f + font), ImGui::GetColorU32(ImGuiCol_TextDisabled), unit);
  }
  draw->PushClipRect(ImVec2(plot.x0, plot.y0), ImVec2(plot.x1 + 1.0f, plot.y1 + 1.0f), true);
  const ImU32 roofColour = IM_COL32(230, 180, 80, 255), labelColour = IM_COL32(230, 180, 80, 220);
  // Memory roof: rate = bandwidth x intensity, up to the highest flat roof.
  const double topRoof = roofs.empty() ? yHi : std::max_element(roofs.begin(), roofs.end(), [](auto& a, auto& b) {
                                                return a.rate < b.rate;
                                              })->rate;
  const double ridge = topRoof / dram;
  draw->AddLine(ImVec2(px(xLo), py(dram * xLo)), ImVec2(px(ridge), py(topRoof)), roofColour, 2.0f);
  {
    char text[64];
    std::snprintf(text, sizeof text, "DRAM %.0f GB/s", dram);
    const double x = std::max(xLo * 3.0, std::min(ridge / 30.0, xHi));
    draw->AddText(ImVec2(px(x) + 4.0f, py(dram * x) - font * 1.2f), labelColour, text);
  }
  for (const Roof& r : roofs) {
    const double from = r.rate / dram;
    draw->AddLine(ImVec2(px(from), py(r.rate)), ImVec2(plot.x1, py(r.rate)), roofColour, 2.0f);
    char text[64];
    std::snprintf(text, sizeof text, "%s %.3g G/s", r.label, r.rate);
    const float w = ImGui::CalcTextSize(text).x;
    draw->AddText(ImVec2(plot.x1 - w - 4.0f, py(r.rate) - font * 1.15f), labelColour, text);
  }
  draw->PopClipRect();
  // The kernels: a dot each, named with the ceiling that binds it.
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  for (const TimedKernelBound* k : points) {
    const ImVec2 at(px(k->bound.intensity), py(k->bound.opsRate));
    draw->AddCircleFilled(at, font * 0.3f, IM_COL32(120, 200, 255, 255));
    const std::string text = k->name + ": " + k->bound.label();
    const float w = ImGui::CalcTextSize(text.c_str()).x;
    const float x = at.x + font * 0.5f + w < plot.x1 ? at.x + font * 0.5f : at.x - font * 0.5f - w;
    draw->AddText(ImVec2(x, at.y - font * 0.5f), ImGui::GetColorU32(ImGuiCol_Text), text.c_str());
    const float r = font * 0.3f;
    axes.bars.push_back({text, {at.x - r, at.y - r, at.x + r, at.y + r}});
    if (std::abs(mouse.x - at.x) < font * 0.6f && std::abs(mouse.y - at.y) < font * 0.6f) {
      char line[160];
      std::snprintf(line, sizeof line, "%s: %.3g operations per DRAM byte, %.3g G/s of its binding resource",
                    k->name.c_str(), k->bound.intensity, k->bound.opsRate);
      axes.hover = line;
      tooltipText(line);
    }
  }
  keepDrawnChart("roofline", std::move(axes));
}

}  // namespace ks
