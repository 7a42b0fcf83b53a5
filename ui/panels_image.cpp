// The image lab's panel (open, pipeline, histogram, statistics, save) and its
// view: the textures drawn behind the panels with zoom about the cursor, drag to
// pan, fit / 1:1, original / result / side by side, and a pixel inspector.
#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <functional>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <utility>
#include <string>
#include <string_view>
#include <vector>

#include "app/app_state.h"
#include "app/lab_renderer.h"
#include "app/image_angle.h"
#include "compute/kernel_op.h"
#include "io/image_paths.h"
#include "ui/chart_axis.h"
#include "ui/histogram_bars.h"
#include "ui/layout.h"
#include "ui/panels.h"
#include "compute/plain_config_words.h"
#include "compute/rotate_coverage.h"

namespace ks {
namespace {

const DeviceDescriptor* activeDevice(const AppState& state) {
  return state.activeDevice ? &state.devices[*state.activeDevice] : nullptr;
}

// A combo row the device may refuse: disabled with `why` on hover when it does, else
// `description` (if any) on hover. True when picked.
bool refusableSelectable(const char* text, bool selected, const std::string& why, const char* description = nullptr) {
  const bool picked = ImGui::Selectable(text, selected, why.empty() ? 0 : ImGuiSelectableFlags_Disabled);
  // The reasons and descriptions name variants by id (the CLI's words): here, in words.
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled) && (!why.empty() || description))
    ImGui::SetTooltip("%s", variantIdsInWords(why.empty() ? description : why).c_str());
  return picked;
}

// A combo over variant names; the ones the device cannot run are disabled with the reason.
template <typename Table, typename Problem>
// `isDefault`: nothing chosen yet, `current` is the default that runs (the box says so).
// True when the user picked a variant.
bool variantCombo(const char* label, std::string& current, bool isDefault, const Table& table, Problem problem) {
  fitNextItemBesideLabel(label);
  // "(default)" after the name, or before it where the box is too narrow for both: the
  // box cuts the end, and the word stays (a "*" in its place said nothing).
  // Variants are shown in words; `current` stays the id that settings and records keep.
  const std::string currentInWords = plainVariantName(current);
  std::string preview = isDefault ? currentInWords + " (default)" : currentInWords;
  const float box = ImGui::CalcItemWidth() - ImGui::GetFrameHeight() - 2.0f * ImGui::GetStyle().FramePadding.x;
  if (isDefault && ImGui::CalcTextSize(preview.c_str()).x > box) preview = "(default) " + currentInWords;
  bool picked = false;
  if (ImGui::BeginCombo(label, preview.c_str())) {
    for (const auto& v : table) {
      // "##id": two variants could read alike; the id keeps each row its own.
      const std::string row = plainVariantName(v.name) + "##" + v.name;
      if (refusableSelectable(row.c_str(), current == v.name, problem(v.name), v.description)) {
        current = v.name;
        picked = true;
      }
    }
    ImGui::EndCombo();
  } else if (ImGui::IsItemHovered()) {
    // The box may cut the words; the whole name, and what the default means.
    ImGui::SetTooltip(isDefault ? "%s (default: nothing chosen; it follows the image and the device)" : "%s",
                      currentInWords.c_str());
  }
  return picked;
}

// Every configuration of `variant` the device can run (tile, rows, work-group,
// copies...), by its description; the one picked, if any.
template <typename Config>
std::optional<Config> configurationCombo(const char* label, const std::string& variant,
                                         const std::function<std::vector<Config>()>& all, const std::string& running,
                                         std::string (*describe)(const Config&), const char* terms) {
  fitNextItemBesideLabel(label);
  std::optional<Config> picked;
  // Shown in words; `running` and describe() are the short names records and settings use.
  const std::string runningInWords = plainConfigurationWords(running);
  // The configurations are listed only while the combo is open: enumerating them
  // (with the device's checks) every frame cost the UI a good part of its time.
  if (ImGui::BeginCombo(label, runningInWords.c_str())) {
    for (const Config& c : all()) {
      if (c.variant != variant) continue;
      const std::string name = describe(c);
      if (ImGui::Selectable(plainConfigurationWords(name).c_str(), name == running)) picked = c;
      if (ImGui::IsItemHovered()) tooltipText(terms);
    }
    ImGui::EndCombo();
  } else if (ImGui::IsItemHovered()) {
    // The whole description, which the box may cut, and what its words mean.
    tooltipText((runningInWords + "\n\n" + terms).c_str());
  }
  return picked;
}

void openSection(ImageLabState& lab, CommandQueue& commands) {
  const ImageLabReadings& readings = lab.readings();
  ImGui::TextWrapped("%s", readings.description.c_str());
  ImGui::TextDisabled("drop a file on the window, or:");
  // File > Open image...: typing goes into the field, once the panel is at its top
  // (focusing first would scroll the field to the top and the lines above it away).
  if (lab.focusOpenPath && ImGui::GetScrollY() <= 0.0f) {
    ImGui::SetKeyboardFocusHere();  // the field takes it next frame
    lab.focusOpenPath = false;
    lab.selectOpenPath = true;
  }
  ImGui::SetNextItemWidth(-70);
  // Taking the keyboard from the menu, the field selects its text: what is typed replaces the last path.
  const bool enter = ImGui::InputTextWithHint(
      "##open", "path to an image", lab.openPath, sizeof lab.openPath,
      ImGuiInputTextFlags_EnterReturnsTrue | (lab.selectOpenPath ? ImGuiInputTextFlags_AutoSelectAll : 0));
  if (ImGui::IsItemActive()) lab.selectOpenPath = false;
  ImGui::SameLine();
  if (ImGui::Button("Open") || enter) {
    const std::string file = tidyTypedPath(lab.openPath, std::getenv("HOME"));
    if (!file.empty()) commands.push(OpenImages{{file}});  // empty: "" would mean the built-in test image
  }
  if (!lab.recent.empty()) fitNextItemBesideLabel("recent");
  if (!lab.recent.empty() && ImGui::BeginCombo("recent", lab.recent.front().c_str())) {
    for (const auto& file : lab.recent)
      if (ImGui::Selectable(file.c_str())) commands.push(OpenImages{{file}});
    ImGui::EndCombo();
  }
  if (ImGui::Button("Built-in test image")) commands.push(OpenImages{{""}});
  if (lab.fileSet.size() > 1) {  // several files opened at once: step through them
    if (ImGui::ArrowButton("previous file", ImGuiDir_Left)) lab.stepFileSet(-1, commands);
    ImGui::SameLine();
    if (ImGui::ArrowButton("next file", ImGuiDir_Right)) lab.stepFileSet(+1, commands);
    ImGui::SameLine();
    ImGui::Text("file %zu of %zu", lab.fileIndex + 1, lab.fileSet.size());
    if (ImGui::IsItemHovered()) {
      std::string list;
      for (size_t i = 0; i < lab.fileSet.size(); ++i)
        list += (i == lab.fileIndex ? "> " : "  ") + lab.fileSet[i] + (i + 1 < lab.fileSet.size() ? "\n" : "");
      tooltipText(("Page Down / Page Up step through them\n" + list).c_str());
    }
  }
  // A file decoding on the loader's thread; the pictures stay the previous image's until it is done.
  if (!readings.loadingPath.empty()) {
    const char* const kTurns[] = {"|", "/", "-", "\\"};
    ImGui::TextWrapped("%s opening %s (%.1f s)", kTurns[static_cast<int>(readings.loadingSeconds * 8) % 4],
                       readings.loadingPath.c_str(), readings.loadingSeconds);
    if (!readings.loadingWaitsFor.empty())
      ImGui::TextWrapped("first the decode of %s, which was stopped, has to end: stb_image cannot be interrupted",
                         readings.loadingWaitsFor.c_str());
    if (ImGui::SmallButton("Stop opening")) commands.push(CancelImageOpen{});
  } else if (!readings.openMessage.empty()) {
    // What the last open did, here by the path field: the lab's message at the panel's
    // foot is below the fold at the default window size.
    if (readings.openFailed) ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.6f, 0.35f, 1.0f));
    ImGui::TextWrapped("%s", readings.openMessage.c_str());
    if (readings.openFailed) ImGui::PopStyleColor();
  }
}

void pipelineSection(ImageLabChoices& choices, const ImageLabReadings& readings, const DeviceDescriptor* device) {
  const int channels = std::max(readings.channels, 1);
  // The rotation shown and edited: the choice, or the default that runs while there is none.
  // Editing any part of it makes the whole of it the choice.
  const bool rotateIsDefault = choices.rotateVariant.empty();
  RotateConfig rotate = rotateIsDefault
                            ? readings.defaultRotate
                            : RotateConfig{choices.rotateVariant, choices.rotateGroup[0], choices.rotateGroup[1],
                                           choices.rotateBlock[0], choices.rotateBlock[1]};
  const ImageRotateVariant* rotateVariant = findImageRotateVariant(rotate.variant);
  if (rotateVariant) fitRotateBlock(*rotateVariant, rotate.pixelsPerItem, rotate.rowsPerItem);  // what runs
  const RotateConfig shown = rotate;
  // Why the device cannot run a rotation configuration; empty: it can.
  auto rotateProblem = [&](const RotateConfig& c) {
    if (!device) return std::string("no device");
    // The check asks the runtime (CL_DEVICE_IMAGE_SUPPORT), which can fail: inside
    // the frame that must become the choice's reason, not an exception out of it.
    try {
      return imageRotateConfigProblem(c, *device, channels);
    } catch (const std::exception& e) {
      return std::string("cannot check this configuration on the device: ") + e.what();
    }
  };
  variantCombo("rotate", rotate.variant, rotateIsDefault, imageRotateVariants(), [&](const char* name) {
    RotateConfig c = rotate;
    c.variant = name;
    if (const auto* v = findImageRotateVariant(name)) c.pixelsPerItem = v->pixelsPerItem.front();
    c.rowsPerItem = 1;
    return rotateProblem(c);
  });
  fitNextItemBesideLabel("angle");
  ImGui::SliderFloat("angle", &choices.angle, -180.0f, 180.0f, "%.1f deg");
  if (ImGui::Button("-90")) choices.angle = wrappedAngle(choices.angle - 90.0f);
  ImGui::SameLine();
  if (ImGui::Button("+90")) choices.angle = wrappedAngle(choices.angle + 90.0f);
  ImGui::SameLine();
  if (ImGui::Button("0")) choices.angle = 0.0f;
  // Spin: the pipeline runs every frame, and the Profiler shows what a change costs.
  sameLineIfCheckboxFits("spin");
  ImGui::Checkbox("spin", &choices.spin);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("Turn the picture continuously: every frame recomputes rotate, transpose and histogram,\n"
                      "so the Profiler and the FPS show what one change of a parameter costs.");
  if (choices.spin) {
    fitNextItemBesideLabel("spin speed");
    ImGui::SliderFloat("spin speed", &choices.spinDegreesPerSecond, -360.0f, 360.0f, "%.0f deg/s");
  }
  sameLineIfCheckboxFits("expand canvas");
  ImGui::Checkbox("expand canvas", &choices.expandCanvas);
  ImGui::Checkbox("transparent", &choices.transparentBackground);
  if (!choices.transparentBackground) {
    ImGui::SameLine();
    ImGui::ColorEdit4("background", choices.background.data(), ImGuiColorEditFlags_NoInputs);
  }
  const std::vector<int>& widths = rotateOp().parameter("work_group_x").values;
  const std::vector<int>& heights = rotateOp().parameter("work_group_y").values;
  // Two narrow combos (x, y) and the label: as wide as fits, 80 pixels at most.
  const ImGuiStyle& style = ImGui::GetStyle();
  const float labelWidth = ImGui::CalcTextSize("work-group").x + style.ItemInnerSpacing.x;
  const float comboWidth =
      std::clamp((ImGui::GetContentRegionAvail().x - labelWidth - style.ItemSpacing.x) / 2.0f, 40.0f, 80.0f);
  ImGui::SetNextItemWidth(comboWidth);
  // Each choice the device refuses with the rest of the configuration as it is is
  // shown disabled, its reason on hover (as the variants are), instead of being taken
  // and then refused at the panel's foot.
  auto rotateChoice = [&](const std::string& text, bool selected, const RotateConfig& c) {
    return refusableSelectable(text.c_str(), selected, rotateProblem(c));
  };
  if (ImGui::BeginCombo("##wgx", std::to_string(rotate.workGroupX).c_str())) {
    for (int w : widths) {
      RotateConfig c = rotate;
      c.workGroupX = w;
      if (rotateChoice(std::to_string(w), w == rotate.workGroupX, c)) rotate.workGroupX = w;
    }
    ImGui::EndCombo();
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("rotate work-group width (x)");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(comboWidth);
  if (ImGui::BeginCombo("work-group", std::to_string(rotate.workGroupY).c_str())) {
    for (int h : heights) {
      RotateConfig c = rotate;
      c.workGroupY = h;
      if (rotateChoice(std::to_string(h), h == rotate.workGroupY, c)) rotate.workGroupY = h;
    }
    ImGui::EndCombo();
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("rotate work-group height (y)");
  // Output pixels per work-item, as the variant offers them.
  if (const KernelOpVariant* described = rotateVariant ? rotateOp().variant(rotate.variant) : nullptr) {
    const std::string current = std::to_string(rotate.pixelsPerItem) + "x" + std::to_string(rotate.rowsPerItem);
    ImGui::SetNextItemWidth(80);
    if (ImGui::BeginCombo("pixels per work-item", current.c_str())) {
      for (int ppi : described->parameter("pixels_per_item")->values)
        for (int rows : described->parameter("rows_per_item")->values) {
          const std::string text = std::to_string(ppi) + "x" + std::to_string(rows);
          RotateConfig c = rotate;
          c.pixelsPerItem = ppi;
          c.rowsPerItem = rows;
          if (rotateChoice(text, text == current, c)) {
            rotate.pixelsPerItem = ppi;
            rotate.rowsPerItem = rows;
          }
        }
      ImGui::EndCombo();
    }
  }
  if (!(rotate == shown)) {
    choices.rotateVariant = rotate.variant;
    choices.rotateGroup[0] = rotate.workGroupX;
    choices.rotateGroup[1] = rotate.workGroupY;
    choices.rotateBlock[0] = rotate.pixelsPerItem;
    choices.rotateBlock[1] = rotate.rowsPerItem;
  }
  ImGui::Checkbox("transpose", &choices.transpose);
  if (choices.transpose) {
    const bool isDefault = choices.transposeVariant.empty();
    std::string variant = isDefault ? readings.defaultTranspose.variant : choices.transposeVariant;
    if (variantCombo("transpose variant", variant, isDefault, imageTransposeVariants(), [&](const char* name) {
          if (!device) return std::string("no device");
          return imageTransposeVariantProblem(name, *device, channels);
        }))
      choices.transposeVariant = variant;
    if (device)
      if (auto picked = configurationCombo<TransposeConfig>(
              "transpose config", variant, [&] { return allTransposeConfigs(*device, channels); },
              readings.runningTranspose, describeTransposeConfig,
              "work-group: its size (work-items, or across x down); tile: the side of the square tile copied "
              "through local memory; rows per work-item: rows of the tile each work-item moves")) {
        choices.transposeVariant = picked->variant;
        choices.transposeChoice = picked;
      }
  }
  // One line each: a line that wraps as the figures change would move everything below it while they spin.
  hintText("rotate %.3f ms", readings.rotateMs);
  if (choices.transpose) hintText("transpose %.3f ms", readings.transposeMs);
  hintText("histogram %.3f ms", readings.histogramMs);
  // In words; the lab's state keeps the short names that run records and the state dump use.
  hintText("rotating with %s", plainConfigurationWords(readings.runningRotate).c_str());
  if (choices.transpose) hintText("transposing with %s", plainConfigurationWords(readings.runningTranspose).c_str());
  // Choices are kept in settings.json between runs: this is the way back.
  if (ImGui::SmallButton("default kernels")) choices.useDefaultKernels();
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("Forget the rotate, transpose and histogram choices: the device's defaults run (for the "
                      "transpose, a sweep's winner where there is one). Angle and view stay.");
}

// One column per channel, one row per statistic, in two tables side by side (the
// summary, then the percentiles): six rows fit the strip under the picture, where
// twelve did not, and five channels of narrow numbers fit a column each.
// A column header: "luminance" would make its column twice as wide as its numbers;
// "light" is a word, and the header's tooltip says what it is.
const char* shortChannelName(int imageChannels, int channel) {
  const char* name = histogramChannelName(imageChannels, channel);
  return std::string_view(name) == "luminance" ? "light" : name;
}

// What a column header stands for, on hover.
const char* channelMeaning(const char* name) {
  const std::string_view n = name;
  if (n == "R") return "red";
  if (n == "G") return "green";
  if (n == "B") return "blue";
  if (n == "A") return "alpha (opacity)";
  if (n == "gray") return "the gray level";
  return "luminance, the brightness the eye sees: (77 R + 150 G + 29 B) / 256";
}

// The nth percentile's row: "1st", "5th", "25th" (the column is headed "percentile").
std::string ordinal(int n) {
  const int lastTwo = n % 100, last = n % 10;
  const char* suffix = (lastTwo >= 11 && lastTwo <= 13) ? "th" : last == 1 ? "st" : last == 2 ? "nd" : last == 3 ? "rd" : "th";
  return std::to_string(n) + suffix;
}

// `stacked`: the percentiles under the summary (in a narrow panel), else beside it.
// The two tables' widths as drawn.
std::pair<float, float> statisticsTables(const ImageStatistics& stats, bool stacked) {
  const int channels = static_cast<int>(stats.channels.size());
  if (channels == 0) return {0.0f, 0.0f};
  using Value = std::function<double(const ChannelStatistics&)>;
  struct Row {
    std::string name;
    Value value;
    const char* format;  // of a double
    std::string meaning = {};  // on hover over the row's name
  };
  const std::vector<Row> summary = {
      {"pixels", [](const ChannelStatistics& s) { return double(s.count); }, "%.0f"},
      {"min", [](const ChannelStatistics& s) { return double(s.min); }, "%.0f"},
      {"max", [](const ChannelStatistics& s) { return double(s.max); }, "%.0f"},
      {"mean", [](const ChannelStatistics& s) { return s.mean; }, "%.2f"},
      {"std dev", [](const ChannelStatistics& s) { return s.stddev; }, "%.2f",
       "standard deviation: how far the levels spread from the mean"},
      {"median", [](const ChannelStatistics& s) { return double(s.median); }, "%.0f",
       "the level half the pixels are at or below"}};
  std::vector<Row> percentiles;
  for (size_t i = 0; i < kImagePercentiles.size(); ++i)
    if (kImagePercentiles[i] != 50.0)  // the median, in the summary
      percentiles.push_back({ordinal(static_cast<int>(kImagePercentiles[i])),
                             [i](const ChannelStatistics& s) { return double(s.percentiles[i]); }, "%.0f",
                             "the level " + std::to_string(static_cast<int>(kImagePercentiles[i])) +
                                 "% of the pixels are at or below"});
  // `corner`: the header over the rows' names.
  auto table = [&](const char* id, const char* corner, const std::vector<Row>& rows) {
    // As wide as the columns: the next table and the bars go beside it.
    const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_NoHostExtendX;
    if (!ImGui::BeginTable(id, channels + 1, flags)) return;
    bool explained = false;  // a header's or row's own tooltip is up (the table's would replace it)
    ImGui::TableSetupColumn(corner);
    for (int c = 0; c < channels; ++c) ImGui::TableSetupColumn(shortChannelName(stats.imageChannels, c));
    // The headers one by one, so that each says on hover what its channel is.
    ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
    for (int column = 0; column <= channels; ++column) {
      ImGui::TableSetColumnIndex(column);
      const char* header = ImGui::TableGetColumnName(column);
      ImGui::TableHeader(header);
      if (column > 0 && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", channelMeaning(header)), explained = true;
    }
    for (const Row& row : rows) {
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      ImGui::TextUnformatted(row.name.c_str());
      if (!row.meaning.empty() && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", row.meaning.c_str()), explained = true;
      for (int c = 0; c < channels; ++c) {
        const ChannelStatistics& s = stats.channels[static_cast<size_t>(c)];
        ImGui::TableSetColumnIndex(c + 1);
        if (s.count == 0)  // a channel the kernel did not count
          ImGui::TextDisabled("-");
        else
          ImGui::Text(row.format, row.value(s));
      }
    }
    ImGui::EndTable();
    if (!explained && ImGui::IsItemHovered())
      ImGui::SetTooltip("Computed on the device: a reduction of the bins (count, sum, sum of squares, min, max) and "
                        "a scan of the bins for the median and percentiles (nearest rank). '-': not counted.");
  };
  table("stats", "", summary);
  const float summaryWidth = ImGui::GetItemRectSize().x;
  if (!stacked) ImGui::SameLine();
  table("percentiles", "percentile", percentiles);
  return {summaryWidth, ImGui::GetItemRectSize().x};
}

void histogramSection(ImageLabChoices& choices, const ImageLabReadings& readings, const DeviceDescriptor* device) {
  const int channels = std::max(readings.channels, 1);
  const bool isDefault = choices.histogramVariant.empty();
  std::string variant = isDefault ? readings.defaultHistogram.variant : choices.histogramVariant;
  const int counted = choices.countedHistogramChannels(channels);
  if (variantCombo("histogram", variant, isDefault, imageHistogramVariants(), [&](const char* name) {
        if (!device) return std::string("no device");
        for (const auto& c : allHistogramConfigs(*device, channels, counted))
          if (c.variant == name) return std::string();
        const ImageHistogramVariant* v = findImageHistogramVariant(name);
        if (v && v->fused)
          if (std::string why = deviceScopeFenceProblem(*device); !why.empty()) return why;
        return std::string("no configuration of this variant runs on the device");
      }))
    choices.histogramVariant = variant;
  if (device)
    if (auto picked = configurationCombo<HistogramConfig>(
            "histogram config", variant, [&] { return allHistogramConfigs(*device, channels, counted); },
            readings.runningHistogram, describeHistogramConfig,
            "work-group: its work-items; histogram copies: private copies of the histogram in each work-group's "
            "local memory (more copies, fewer work-items adding to the same counter at once); work-groups per "
            "compute unit: how many are started on each (each counts a share of the image)")) {
      choices.histogramVariant = picked->variant;
      choices.histogramChoice = picked;
    }
  ImGui::Checkbox("of the result", &choices.histogramOfResult);
  sameLineIfCheckboxFits("log scale");
  ImGui::Checkbox("log scale", &choices.logScale);
  const ImageHistogram& h = readings.histogram;
  if (h.bins.empty()) return;
  hintText("bars and statistics: the Histogram panel under the picture");
  // The channel toggles on a line of their own: next to the options above they ran
  // past the panel's right edge at the default window size.
  for (int c = 0; c < h.channelCount(); ++c) {
    const char* name = histogramChannelName(h.imageChannels, c);
    if (c > 0) sameLineIfCheckboxFits(name);
    ImGui::Checkbox(name, &choices.showChannel[std::min(c, 4)]);
  }
  if (h.imageChannels == 4) {
    ImGui::Checkbox("count only the channels shown", &choices.countShownOnly);
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("The kernel skips the hidden channels: fewer atomics per pixel. Their bins and statistics "
                        "stay empty.");
  }
}

// The rows of the histogram, each a list of channels: one channel a row, or, when
// rows of one channel would be too short to read (four stacked rows were 22 pixels
// tall with one tick at 1024x700), R, G and B overlaid in one row on a shared count
// axis, alpha and luminance in their own. Decided from every channel of the image,
// not those ticked, so that unticking one changes no row's height (item 10).
std::vector<std::vector<int>> histogramRows(const ImageHistogram& h, const bool* showChannel, float rowsHeight,
                                            float gap) {
  const int channels = std::max(h.channelCount(), 1);
  const float separateRow = (rowsHeight - gap * float(channels - 1)) / float(channels);
  const bool overlay = h.imageChannels >= 3 && separateRow < 4.5f * ImGui::GetTextLineHeight();
  std::vector<int> colour;  // overlaid: the colour channels ticked
  if (overlay)
    for (int c = 0; c < 3; ++c)
      if (showChannel[c]) colour.push_back(c);
  std::vector<std::vector<int>> rows;
  for (int c = 0; c < h.channelCount(); ++c) {
    if (!showChannel[std::min(c, 4)]) continue;
    if (overlay && c < 3) {
      if (c == colour.front()) rows.push_back(colour);  // in the place of its first channel
      continue;
    }
    rows.push_back({c});
  }
  return rows;
}

// Each row: bars drawn by a shader from the bins the kernels wrote (LabRenderer), with
// a count axis on its left (log(1 + count) when log scale is on, as the shader draws),
// and one level axis (0..255) under the last row; the counts under the cursor come
// from the read-back, never the log of them.
void histogramBars(const ImageLabChoices& choices, const ImageLabReadings& readings) {
  const ImageHistogram& h = readings.histogram;
  static const ImVec4 colours[] = {{1, 0.35f, 0.35f, 1}, {0.4f, 1, 0.4f, 1}, {0.45f, 0.6f, 1, 1}, {0.8f, 0.8f, 0.8f, 1},
                                   {1, 1, 0.6f, 1}};
  auto colourOf = [&](int c) { return colours[h.imageChannels == 1 ? 3 : std::min(c, 4)]; };
  const float lineHeight = ImGui::GetTextLineHeight(), gap = 4.0f;
  const ImVec2 origin = ImGui::GetCursorScreenPos(), avail = ImGui::GetContentRegionAvail();
  const float width = std::max(avail.x, 160.0f);
  const float levelAxisHeight = lineHeight + 7.0f;
  // As tall as the panel, and never less than every channel of the image needs: the
  // same whichever are ticked, so that unticking one while the panel is scrolled
  // moves nothing else (item 10).
  const int channels = std::max(h.channelCount(), 1);
  const float minRow = lineHeight + 6.0f;
  const float rowsHeight = std::max(avail.y - levelAxisHeight, float(channels) * minRow + gap * float(channels - 1));
  ImGui::InvisibleButton("##bars", ImVec2(width, rowsHeight + levelAxisHeight));
  const std::vector<std::vector<int>> rows = histogramRows(h, choices.showChannel.data(), rowsHeight, gap);
  if (rows.empty()) {
    ImGui::GetWindowDrawList()->AddText(origin, ImGui::GetColorU32(ImGuiCol_TextDisabled),
                                        "no channel shown (Image lab > Histogram)");
    return;
  }
  const bool hovered = ImGui::IsItemHovered();
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  const float rowHeight = (rowsHeight - gap * float(rows.size() - 1)) / float(rows.size());
  // Each row's count axis runs from 0 to the largest bin of its channels (the shader's full height).
  std::vector<double> largest;
  for (const auto& row : rows) {
    double top = 0.0;
    for (int c : row) top = std::max(top, double(*std::max_element(h.channel(c), h.channel(c) + kHistogramBins)));
    largest.push_back(top);
  }
  auto countTicks = [&](double top) {
    // About a label's height apart; at least 0 and one more (the labels that would overlap are left out).
    const int target = std::max(2, static_cast<int>(rowHeight / (1.1f * lineHeight)));
    const std::vector<double> values = choices.logScale ? logTicks(top, target + 1) : niceTicks(0.0, top, target);
    return placeTicks(values, top, choices.logScale, 0.0f, 1.0f);  // fractions of the row, from its bottom
  };
  float margin = ImGui::CalcTextSize("level").x;
  for (double top : largest) margin = std::max(margin, widestLabel(countTicks(top)));
  margin += 10.0f;
  const float plotX0 = origin.x + margin, plotX1 = origin.x + width;
  // The bins leave a bar's width free at each end, and a bar is never narrower than
  // kMinBarWidth: at 1024 wide a bin is 1.4 pixels, and a checkerboard's two bins (0
  // and 255) were lines under the plot's edges.
  const HistogramBarsLayout bars = histogramBarsLayout(plotX0, plotX1);
  // Level L is bin L: the tick at the middle of its bar.
  const float plotWidth = plotX1 - plotX0, half = bars.binWidth * 0.5f;
  const std::vector<ChartTick> levels =
      placeTicks(niceTicks(0.0, kHistogramBins - 1, std::max(1, static_cast<int>(plotWidth / 40.0f))), kHistogramBins,
                 false, bars.x0 + half, bars.x0 + half + (bars.x1 - bars.x0));
  ImDrawList* draw = ImGui::GetWindowDrawList();
  for (size_t i = 0; i < rows.size(); ++i) {
    const std::vector<int>& row = rows[i];
    const bool overlaid = row.size() > 1;
    ChartAxes axes;
    axes.plot = {plotX0, origin.y + float(i) * (rowHeight + gap), plotX1, origin.y + float(i) * (rowHeight + gap) + rowHeight};
    axes.x = levels;
    axes.xUnit = "level";
    axes.yUnit = choices.logScale ? "pixels (log scale)" : "pixels";
    axes.y = countTicks(largest[i]);
    for (ChartTick& t : axes.y) t.pixel = axes.plot.y1 - t.pixel * axes.plot.height();
    const ImVec2 p0(axes.plot.x0, axes.plot.y0), p1(axes.plot.x1, axes.plot.y1);
    for (size_t k = 0; k < row.size(); ++k) {
      // Overlaid, the bars are see-through (where two meet both show), on one full height.
      ImVec4 colour = colourOf(row[k]);
      if (overlaid) colour.w = 0.6f;
      if (readings.renderer)
        readings.renderer->addHistogram(draw, row[k], choices.logScale, colour, p0, p1,
                                        overlaid ? float(largest[i]) : 0.0f, k > 0, bars.x0, bars.x1, kMinBarWidth);
    }
    // The bars as the shader draws them (for the tests): each bin that counts, its height
    // the largest of the row's channels.
    auto countOf = [&](int bin) {
      double count = 0.0;
      for (int c : row) count = std::max(count, double(h.channel(c)[bin]));
      return count;
    };
    for (int bin = 0; bin < kHistogramBins; ++bin) {
      const double count = countOf(bin);
      if (count <= 0.0) continue;
      const ScreenRect barX = bars.bar(bin, countOf);
      const float height = float(scaleFraction(count, largest[i], choices.logScale)) * axes.plot.height();
      axes.bars.push_back({"level " + std::to_string(bin), {barX.x0, axes.plot.y1 - height, barX.x1, axes.plot.y1}});
    }
    drawYAxis(draw, axes.plot, axes.y, nullptr);
    for (const ChartTick& t : levels)  // the level gridlines, over the bars
      draw->AddLine(ImVec2(t.pixel, axes.plot.y0), ImVec2(t.pixel, axes.plot.y1), IM_COL32(255, 255, 255, 30));
    if (i + 1 == rows.size()) drawXAxis(draw, axes.plot, levels, "level", false);
    // The channels' names in the corner, each in its colour, over the bars on a dark
    // patch: bars of its colour up to the top (an even spread) hid it.
    std::vector<std::string> names;
    for (int c : row) names.push_back(histogramChannelName(h.imageChannels, c));
    if (choices.logScale) names.back() += " (log)";
    float labelWidth = 0.0f;
    for (const std::string& n : names) labelWidth += ImGui::CalcTextSize(n.c_str()).x + 6.0f;
    axes.legend = legendBox(axes.plot, axes.bars, labelWidth - 2.0f, lineHeight + 1.0f);
    const ImVec2 text(axes.legend.x0 + 2.0f, axes.legend.y0 + 1.0f);
    draw->AddRectFilled(ImVec2(axes.legend.x0, axes.legend.y0), ImVec2(axes.legend.x1, axes.legend.y1),
                        IM_COL32(0, 0, 0, 170), 2.0f);
    float x = text.x;
    for (size_t k = 0; k < row.size(); ++k) {
      draw->AddText(ImVec2(x, text.y), ImGui::GetColorU32(colourOf(row[k])), names[k].c_str());
      x += ImGui::CalcTextSize(names[k].c_str()).x + 6.0f;
    }
    if (hovered && mouse.y >= axes.plot.y0 && mouse.y < axes.plot.y1 + gap && mouse.x >= plotX0) {
      // The bin whose bar is under the cursor, as the shader draws them.
      const int bin = bars.binAt(mouse.x, countOf);
      if (!overlaid) {
        axes.hover = std::string(histogramChannelName(h.imageChannels, row[0])) + " level " + std::to_string(bin) +
                     ": " + std::to_string(h.channel(row[0])[bin]) + " pixels";
      } else {  // "level 12: R 340, G 25, B 0 pixels"
        axes.hover = "level " + std::to_string(bin) + ":";
        for (size_t k = 0; k < row.size(); ++k)
          axes.hover += std::string(k ? ", " : " ") + histogramChannelName(h.imageChannels, row[k]) + " " +
                        std::to_string(h.channel(row[k])[bin]);
        axes.hover += " pixels";
      }
      ImGui::SetTooltip("%s", axes.hover.c_str());
      const float at = bars.x0 + (float(bin) + 0.5f) * bars.binWidth;  // the level hovered
      draw->AddLine(ImVec2(at, axes.plot.y0), ImVec2(at, axes.plot.y1), IM_COL32(255, 255, 255, 120));
    }
    // Kept under each channel's name: the channels of an overlaid row share its axes.
    for (int c : row) keepDrawnChart(std::string("histogram ") + histogramChannelName(h.imageChannels, c), axes);
  }
}

// Under an RGBA picture, a checkerboard of 16-pixel cells (the usual sign of
// transparency; flat dark gray could not be told from a dark background colour),
// drawn only where the picture is visible; under a gray one, flat dark gray.
void drawTransparencyBackdrop(ImDrawList* draw, ImVec2 p0, ImVec2 p1, ImVec2 clip0, ImVec2 clip1, int channels) {
  const ImVec2 a(std::max(p0.x, clip0.x), std::max(p0.y, clip0.y)), b(std::min(p1.x, clip1.x), std::min(p1.y, clip1.y));
  if (a.x >= b.x || a.y >= b.y) return;
  if (channels != 4) {
    draw->AddRectFilled(a, b, IM_COL32(40, 40, 40, 255));
    return;
  }
  constexpr float kCell = 16.0f;
  draw->AddRectFilled(a, b, IM_COL32(70, 70, 70, 255));
  // Cells counted from the picture's corner, so the pattern moves with the picture.
  const int firstX = static_cast<int>(std::floor((a.x - p0.x) / kCell)), firstY = static_cast<int>(std::floor((a.y - p0.y) / kCell));
  for (int cy = firstY; p0.y + cy * kCell < b.y; ++cy)
    for (int cx = firstX + ((firstX + cy) & 1); p0.x + cx * kCell < b.x; cx += 2)
      draw->AddRectFilled(ImVec2(std::max(a.x, p0.x + cx * kCell), std::max(a.y, p0.y + cy * kCell)),
                          ImVec2(std::min(b.x, p0.x + (cx + 1) * kCell), std::min(b.y, p0.y + (cy + 1) * kCell)),
                          IM_COL32(110, 110, 110, 255));
}

// Where the image is on screen for the current zoom and pan: its top-left corner.
ImVec2 imageOrigin(const ImageLabState& lab, ImVec2 viewCentre, float width, float height) {
  return ImVec2(viewCentre.x + lab.panX - width * lab.zoom * 0.5f, viewCentre.y + lab.panY - height * lab.zoom * 0.5f);
}

}  // namespace

void drawImagePanel(AppState& state) {
  if (state.scene != SceneKind::Image || !state.panels.imageLab) return;
  ImageLabState& lab = state.image;
  placePanel(state, "Image lab");
  // File > Open image...: the panel in front, open and scrolled to the top, its
  // Image section open (the path field gets the keyboard there).
  const bool showOpen = lab.focusOpenPath;
  if (showOpen) {
    ImGui::SetNextWindowFocus();
    ImGui::SetNextWindowCollapsed(false);
  }
  if (!ImGui::Begin("Image lab", &state.panels.imageLab)) {
    ImGui::End();
    return;
  }
  if (showOpen) {
    ImGui::SetScrollY(0.0f);
    ImGui::SetNextItemOpen(true);
  }
  if (ImGui::CollapsingHeader("Image", ImGuiTreeNodeFlags_DefaultOpen)) openSection(lab, state.commands);
  if (ImGui::CollapsingHeader("Rotate and transpose", ImGuiTreeNodeFlags_DefaultOpen))
    pipelineSection(lab.choices, lab.readings(), activeDevice(state));
  if (ImGui::CollapsingHeader("Histogram", ImGuiTreeNodeFlags_DefaultOpen))
    histogramSection(lab.choices, lab.readings(), activeDevice(state));
  if (ImGui::CollapsingHeader("View and save", ImGuiTreeNodeFlags_DefaultOpen)) {
    int view = static_cast<int>(lab.choices.view);
    ImGui::RadioButton("original", &view, 0);
    ImGui::SameLine();
    ImGui::RadioButton("result", &view, 1);
    ImGui::SameLine();
    ImGui::RadioButton("side by side", &view, 2);
    const auto picked = static_cast<ImageLabState::View>(view);
    // Into or out of side by side the pictures need another size; original <-> result
    // keeps the zoom, to flip between the two at the same spot.
    if ((picked == ImageLabState::View::SideBySide) != (lab.choices.view == ImageLabState::View::SideBySide))
      state.commands.push(FitPictures{});
    lab.choices.view = picked;
    if (ImGui::Button("Fit")) state.commands.push(FitPictures{});
    ImGui::SameLine();
    if (ImGui::Button("1:1")) {
      lab.zoom = 1.0f;
      lab.panX = lab.panY = 0.0f;
    }
    ImGui::SameLine();
    ImGui::Text("zoom %.2fx", lab.zoom);
    const ImGuiStyle& style = ImGui::GetStyle();
    ImGui::SetNextItemWidth(
        -(ImGui::CalcTextSize("Save result PNG").x + 2.0f * style.FramePadding.x + style.ItemSpacing.x));
    ImGui::InputText("##save", &lab.choices.savePath);
    ImGui::SameLine();
    if (ImGui::Button("Save result PNG")) state.commands.push(SaveImageResult{});
    if (!lab.readings().savingPath.empty())
      ImGui::Text("saving %s (%.1f s)", lab.readings().savingPath.c_str(), lab.readings().savingSeconds);
  }
  // At the foot, so that the controls above do not move when a build starts or ends.
  if (!lab.readings().building.empty()) {
    ImGui::Separator();
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.8f, 0.3f, 1.0f));
    ImGui::TextWrapped("%s...; the last result stays shown until then", lab.readings().building.c_str());
    ImGui::PopStyleColor();
  }
  if (!lab.readings().message.empty()) {
    ImGui::Separator();
    ImGui::TextWrapped("%s", lab.readings().message.c_str());
  }
  ImGui::End();
}

// The histogram's bars and the statistics in a strip under the picture: in view at
// 1280x800 without scrolling, where at the foot of the lab's panel they were below
// the fold. Shown with the image lab's panel (its settings are there).
void drawHistogramPanel(AppState& state) {
  if (state.scene != SceneKind::Image || !state.panels.imageLab) return;
  ImageLabState& lab = state.image;
  placePanel(state, "Histogram");
  if (!ImGui::Begin("Histogram", &state.panels.imageLab)) {
    ImGui::End();
    return;
  }
  const ImageHistogram& h = lab.readings().histogram;
  if (h.bins.empty()) {
    ImGui::TextDisabled("no histogram yet");
    ImGui::End();
    return;
  }
  if (lab.readings().histogramLeftOut) {
    ImGui::TextDisabled("%s", describeLeftOutPixels(lab.readings().histogramLeftOut).c_str());
    if (ImGui::IsItemHovered())
      tooltipText("The rotation fills the corners around the turned picture (and, mapping forward, the holes "
                  "between its pixels) with the background colour. Counted, they would be a tall spike at that "
                  "value; the bars and statistics are of the picture's own pixels.");
  }
  // The statistics beside each other while the bars keep room to read (a pixel per
  // level and the count axis); in a narrower panel (1024 wide) the percentiles go
  // under the summary, in a column that scrolls, and the bars take the rest.
  // The tables' widths are those drawn last frame, kept in the panel's storage.
  const ImGuiStyle& style = ImGui::GetStyle();
  ImGuiStorage* storage = ImGui::GetStateStorage();
  const ImGuiID summaryId = ImGui::GetID("stats width"), percentilesId = ImGui::GetID("percentiles width");
  const float summaryWidth = storage->GetFloat(summaryId, 0.0f), percentilesWidth = storage->GetFloat(percentilesId, 0.0f);
  const float minBarsWidth = float(kHistogramBins) + 5.0f * ImGui::GetFontSize();
  const ImVec2 room = ImGui::GetContentRegionAvail();
  const bool stacked = room.x - summaryWidth - percentilesWidth - 2.0f * style.ItemSpacing.x < minBarsWidth;
  std::pair<float, float> drawn;
  const float columnWidth = std::max(summaryWidth, percentilesWidth) + style.ScrollbarSize + 2.0f;
  // Too narrow for the bars even beside one column of statistics (beside the Runs panel
  // at 1024 wide they got 75 pixels for 256 levels), and tall: the bars across the top,
  // the statistics under them, scrolling.
  // (Also from 8 lines where the bars beside the statistics would be a stub, not half
  // their width: unfolded in the left column at 1024x700.)
  const float barsBeside = room.x - columnWidth - style.ItemSpacing.x;
  if (stacked && summaryWidth > 0.0f && barsBeside < minBarsWidth &&
      room.y >= (barsBeside < 0.5f * minBarsWidth ? 8.0f : 14.0f) * ImGui::GetTextLineHeightWithSpacing()) {
    ImGui::BeginChild("bars", ImVec2(0.0f, std::floor(0.55f * room.y)));
    histogramBars(lab.choices, lab.readings());
    ImGui::EndChild();
    // Across, when the table is wider than the panel (the left column at 1024x700).
    ImGui::BeginChild("statistics under", ImVec2(0.0f, 0.0f), false, ImGuiWindowFlags_HorizontalScrollbar);
    drawn = statisticsTables(lab.readings().statistics,
                             room.x < summaryWidth + percentilesWidth + 2.0f * style.ItemSpacing.x);
    ImGui::EndChild();
    storage->SetFloat(summaryId, drawn.first);
    storage->SetFloat(percentilesId, drawn.second);
    ImGui::End();
    return;
  }
  if (stacked) {
    const float width = columnWidth;
    ImGui::BeginChild("statistics", ImVec2(width, room.y));
    // Closer columns: the bars get what they give up.
    ImGui::PushStyleVar(ImGuiStyleVar_CellPadding, ImVec2(2.0f, style.CellPadding.y));
    drawn = statisticsTables(lab.readings().statistics, true);
    ImGui::PopStyleVar();
    ImGui::EndChild();
  } else {
    drawn = statisticsTables(lab.readings().statistics, false);
  }
  storage->SetFloat(summaryId, drawn.first);
  storage->SetFloat(percentilesId, drawn.second);
  ImGui::SameLine();
  histogramBars(lab.choices, lab.readings());
  ImGui::End();
}

void drawImageView(AppState& state) {
  if (state.scene != SceneKind::Image) return;
  ImageLabState& lab = state.image;
  ImGuiIO& io = ImGui::GetIO();
  const bool sideBySide = lab.choices.view == ImageLabState::View::SideBySide;
  const float w = static_cast<float>(std::max(lab.readings().resultWidth, 1)),
              h = static_cast<float>(std::max(lab.readings().resultHeight, 1));
  // Fit: into the largest part of the window the panels leave free. Not on the first
  // frame: panels that size themselves to their contents know their size on the second.
  // A result of another shape (the transpose switched, the canvas expanded) is fitted
  // again while the view is as the last Fit left it; small changes (an expanded canvas
  // spinning) keep the zoom, so the picture does not pulse.
  const auto [fittedW, fittedH] = lab.fittedResultSize;
  const bool untouched = lab.fittedZoom && lab.zoom == *lab.fittedZoom && lab.panX == 0.0f && lab.panY == 0.0f;
  auto changed = [](int now, int then) { return then > 0 && std::abs(now - then) * 4 > then; };
  const bool reshaped =
      untouched && (changed(lab.readings().resultWidth, fittedW) || changed(lab.readings().resultHeight, fittedH));
  if ((reshaped || state.commands.has<FitPictures>()) && ImGui::GetFrameCount() > 1) {
    state.commands.takeAny<FitPictures>();
    lab.fittedResultSize = {lab.readings().resultWidth, lab.readings().resultHeight};
    const float pictureW = std::max(w, float(lab.readings().width)),
                pictureH = std::max(h, float(lab.readings().height));
    const float top = ImGui::GetFrameHeight(), bottom = io.DisplaySize.y - kStatusBarHeight;
    // Too little room anywhere: the middle column, under whatever panels are there.
    const ScreenRect free = freeWindowArea(state, sideBySide ? 2.0f * pictureW : pictureW, pictureH, 120.0f)
                                .value_or(ScreenRect{io.DisplaySize.x * 0.25f, top, io.DisplaySize.x * 0.73f, bottom});
    lab.viewArea = ScreenRect{free.x0 / io.DisplaySize.x, free.y0 / io.DisplaySize.y, free.x1 / io.DisplaySize.x,
                              free.y1 / io.DisplaySize.y};
    // The wheel's range; a window a few pixels small must not give a zoom of 0.
    lab.zoom =
        std::clamp(std::min(free.width() * (sideBySide ? 0.46f : 0.94f) / pictureW, free.height() * 0.92f / pictureH),
                   0.01f, 64.0f);
    lab.panX = lab.panY = 0.0f;
    lab.fittedZoom = lab.zoom;
  }
  // Until the first fit: the middle column between the first-start panels (25% and 27% wide).
  const ScreenRect area = lab.viewArea.value_or(ScreenRect{0.25f, 0.0f, 0.73f, 1.0f});
  const ImVec2 centre(io.DisplaySize.x * (area.x0 + area.x1) * 0.5f, io.DisplaySize.y * (area.y0 + area.y1) * 0.5f);
  // Side by side, each picture keeps to its half of the screen (clipped there),
  // so that zooming in does not draw one over the other.
  struct Shown {
    Picture picture;
    float width, height;
    bool result;
    ImVec2 centre;
    float clipLeft, clipRight;
  };
  std::vector<Shown> shown;
  // Both pictures share the zoom; side by side they sit left and right of the centre.
  const float offset = sideBySide ? io.DisplaySize.x * area.width() * 0.25f : 0.0f;
  const float split = sideBySide ? centre.x : io.DisplaySize.x;
  // With no result yet (its kernel did not build), the result view shows the original.
  if (lab.choices.view != ImageLabState::View::Result || !lab.readings().hasResult)
    shown.push_back({Picture::Original, float(lab.readings().width), float(lab.readings().height), false,
                     ImVec2(centre.x - offset, centre.y), 0.0f, split});
  if (lab.choices.view != ImageLabState::View::Original)
    shown.push_back({Picture::Result, w, h, true, ImVec2(centre.x + offset, centre.y),
                     sideBySide ? split : 0.0f, io.DisplaySize.x});
  // The picture under the cursor: the one whose strip holds it.
  auto under = [&](float x) -> const Shown* {
    for (const Shown& s : shown)
      if (x >= s.clipLeft && x < s.clipRight) return &s;
    return shown.empty() ? nullptr : &shown.back();
  };

  if (!io.WantCaptureMouse) {
    if (io.MouseWheel != 0.0f) {  // zoom about the cursor, in the picture under it
      const float factor = std::pow(1.15f, io.MouseWheel);
      const float newZoom = std::clamp(lab.zoom * factor, 0.01f, 64.0f);
      const Shown* target = under(io.MousePos.x);
      const ImVec2 c = target ? target->centre : centre;
      lab.panX = io.MousePos.x - (io.MousePos.x - (c.x + lab.panX)) * (newZoom / lab.zoom) - c.x;
      lab.panY = io.MousePos.y - (io.MousePos.y - (c.y + lab.panY)) * (newZoom / lab.zoom) - c.y;
      lab.zoom = newZoom;
    }
    // A drag pans by the cursor's movement since the press (the first frame past
    // ImGui's drag threshold) or since the last frame: the picture stays under the
    // cursor. io.MouseDelta alone lost the movement up to the threshold.
    for (const ImGuiMouseButton button : {ImGuiMouseButton_Left, ImGuiMouseButton_Right}) {
      if (!ImGui::IsMouseDragging(button)) continue;
      const ImVec2 moved = ImGui::GetMouseDragDelta(button);
      lab.panX += moved.x;
      lab.panY += moved.y;
      for (const ImGuiMouseButton held : {ImGuiMouseButton_Left, ImGuiMouseButton_Right})
        if (ImGui::IsMouseDown(held)) ImGui::ResetMouseDragDelta(held);
      break;  // both buttons held: one movement
    }
  }
  ImDrawList* draw = ImGui::GetBackgroundDrawList();
  lab.inspectX = lab.inspectY = -1;
  lab.shownPictures.clear();
  lab.shownLabels.clear();
  for (const Shown& s : shown) {
    if (!(s.result ? lab.readings().hasResult : lab.readings().hasOriginal)) continue;
    const ImVec2 p0 = imageOrigin(lab, s.centre, s.width, s.height);
    const ImVec2 p1(p0.x + s.width * lab.zoom, p0.y + s.height * lab.zoom);
    draw->PushClipRect(ImVec2(s.clipLeft, 0.0f), ImVec2(s.clipRight, io.DisplaySize.y));
    drawTransparencyBackdrop(draw, p0, p1, ImVec2(s.clipLeft, 0.0f), ImVec2(s.clipRight, io.DisplaySize.y),
                             s.result ? lab.readings().resultChannels : lab.readings().channels);
    if (lab.readings().renderer) lab.readings().renderer->add(draw, s.picture, p0, p1);
    draw->AddRect(p0, p1, IM_COL32(90, 90, 100, 255));
    draw->PopClipRect();
    lab.shownPictures.push_back({std::max(p0.x, s.clipLeft), p0.y, std::min(p1.x, s.clipRight), p1.y});
    if (sideBySide) {  // which is which, on a dark patch at the visible picture's top left
      const char* label = s.result ? "result" : "original";
      const ImVec2 at(std::max(p0.x, s.clipLeft) + 6.0f,
                      std::max(p0.y, io.DisplaySize.y * area.y0 + ImGui::GetFrameHeight()) + 6.0f);
      const ImVec2 size = ImGui::CalcTextSize(label);
      draw->AddRectFilled(ImVec2(at.x - 4.0f, at.y - 2.0f), ImVec2(at.x + size.x + 4.0f, at.y + size.y + 2.0f),
                          IM_COL32(20, 22, 28, 220), 3.0f);
      draw->AddText(at, IM_COL32(230, 230, 235, 255), label);
      lab.shownLabels.push_back(label);
    }
    const ImVec2 m = io.MousePos;
    if (!io.WantCaptureMouse && m.x >= std::max(p0.x, s.clipLeft) && m.x < std::min(p1.x, s.clipRight) &&
        m.y >= p0.y && m.y < p1.y) {
      lab.choices.inspectResult = s.result;
      lab.inspectX = static_cast<int>((m.x - p0.x) / lab.zoom);
      lab.inspectY = static_cast<int>((m.y - p0.y) / lab.zoom);
    }
  }
  if (lab.inspectX >= 0 && lab.readings().inspectValid) {
    const int channels = lab.choices.inspectResult ? lab.readings().resultChannels : lab.readings().channels;
    const unsigned char* v = lab.readings().inspectValue;
    if (channels == 1)
      ImGui::SetTooltip("%s (%d, %d)\ngray %d", lab.choices.inspectResult ? "result" : "original", lab.inspectX,
                        lab.inspectY, v[0]);
    else
      ImGui::SetTooltip("%s (%d, %d)\nR %d  G %d  B %d  A %d", lab.choices.inspectResult ? "result" : "original",
                        lab.inspectX, lab.inspectY, v[0], v[1], v[2], v[3]);
  }
}

}  // namespace ks
