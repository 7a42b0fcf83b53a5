#include "io/image_lab_choices.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "io/config_json.h"

namespace ks {
using nlohmann::json;

void ImageLabChoices::useDefaultKernels() {
  rotateVariant.clear();
  transposeVariant.clear();
  transposeChoice.reset();
  histogramVariant.clear();
  histogramChoice.reset();
}

int ImageLabChoices::countedHistogramChannels(int imageChannels) const {
  if (imageChannels != 4 || !countShownOnly) return kAllHistogramChannels;
  int mask = 0;
  for (int c = 0; c < 5; ++c) mask |= showChannel[c] ? 1 << c : 0;
  return mask ? mask : kAllHistogramChannels;
}

namespace {

constexpr std::pair<ImageLabChoices::View, const char*> kViewNames[] = {
    {ImageLabChoices::View::Original, "original"},
    {ImageLabChoices::View::Result, "result"},
    {ImageLabChoices::View::SideBySide, "side_by_side"}};

ImageLabChoices::View viewFromName(const std::string& name) {
  for (const auto& [view, spelled] : kViewNames)
    if (name == spelled) return view;
  throw std::runtime_error("unknown view '" + name + "'");
}

// Reads j[key] into `into` when the key is there; a bad value names its key.
template <typename T, typename Read>
void readField(const json& j, const char* key, T& into, Read read) {
  if (!j.contains(key)) return;
  try {
    into = read(j.at(key));
  } catch (const std::exception& e) {
    throw std::runtime_error(std::string("'") + key + "': " + e.what());
  }
}
template <typename T>
void readField(const json& j, const char* key, T& into) {
  readField(j, key, into, [](const json& v) { return v.get<T>(); });
}

}  // namespace

const char* imageLabViewName(ImageLabChoices::View view) {
  for (const auto& [v, spelled] : kViewNames)
    if (v == view) return spelled;
  return "result";
}

void to_json(json& j, const ImageLabChoices& c) {
  j = {{"rotate_variant", c.rotateVariant},
       {"rotate_work_group", c.rotateGroup},
       {"rotate_block", c.rotateBlock},
       {"angle", c.angle},
       {"expand_canvas", c.expandCanvas},
       {"transparent_background", c.transparentBackground},
       {"background", c.background},
       {"transpose", c.transpose},
       {"transpose_variant", c.transposeVariant},
       {"histogram_variant", c.histogramVariant},
       {"histogram_of_result", c.histogramOfResult},
       {"show_channels", c.showChannel},
       {"count_shown_only", c.countShownOnly},
       {"log_scale", c.logScale},
       {"view", imageLabViewName(c.view)},
       {"inspect_result", c.inspectResult},
       {"save_path", c.savePath}};
  // The counted channels follow the channels shown: histogramConfigJson leaves them out.
  if (c.transposeChoice) j["transpose_config"] = transposeConfigJson(*c.transposeChoice);
  if (c.histogramChoice) j["histogram_config"] = histogramConfigJson(*c.histogramChoice);
}

void from_json(const json& j, ImageLabChoices& c) {
  if (!j.is_object()) throw std::runtime_error("not a JSON object");
  auto clampedPair = [](std::array<int, 2>& v, int lo, int hi) {
    for (int& n : v) n = std::clamp(n, lo, hi);
  };
  readField(j, "rotate_variant", c.rotateVariant);
  readField(j, "rotate_work_group", c.rotateGroup);
  clampedPair(c.rotateGroup, 1, 1024);
  readField(j, "rotate_block", c.rotateBlock);
  clampedPair(c.rotateBlock, 1, 64);
  const float defaultAngle = ImageLabChoices{}.angle;
  readField(j, "angle", c.angle);
  c.angle = std::isfinite(c.angle) ? std::clamp(c.angle, -180.0f, 180.0f) : defaultAngle;
  readField(j, "expand_canvas", c.expandCanvas);
  readField(j, "transparent_background", c.transparentBackground);
  readField(j, "background", c.background);
  for (float& channel : c.background) channel = std::isfinite(channel) ? std::clamp(channel, 0.0f, 1.0f) : 0.0f;
  readField(j, "transpose", c.transpose);
  readField(j, "transpose_variant", c.transposeVariant);
  readField(j, "transpose_config", c.transposeChoice,
            [](const json& v) { return std::optional(transposeConfigFromJson(v)); });
  readField(j, "histogram_variant", c.histogramVariant);
  readField(j, "histogram_config", c.histogramChoice,
            [](const json& v) { return std::optional(histogramConfigFromJson(v)); });
  readField(j, "histogram_of_result", c.histogramOfResult);
  readField(j, "show_channels", c.showChannel);
  readField(j, "count_shown_only", c.countShownOnly);
  readField(j, "log_scale", c.logScale);
  readField(j, "view", c.view, [](const json& v) { return viewFromName(v.get<std::string>()); });
  readField(j, "inspect_result", c.inspectResult);
  readField(j, "save_path", c.savePath);
}

}  // namespace ks
