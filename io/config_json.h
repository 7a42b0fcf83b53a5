#pragma once
// The image kernels' configurations as JSON objects, one spelling for every file
// that keeps them (settings.json, tuning.json). Reading throws nlohmann::json's
// exceptions on a missing key or a wrong type; the callers say which file was bad.
#include <nlohmann/json.hpp>

#include "compute/image_histogram.h"
#include "compute/image_rotate.h"
#include "compute/image_transpose.h"

namespace ks {

nlohmann::json rotateConfigJson(const RotateConfig& c);
RotateConfig rotateConfigFromJson(const nlohmann::json& j);
nlohmann::json transposeConfigJson(const TransposeConfig& c);
TransposeConfig transposeConfigFromJson(const nlohmann::json& j);
// countedChannels is not kept: the lab derives it from the channels shown.
nlohmann::json histogramConfigJson(const HistogramConfig& c);
HistogramConfig histogramConfigFromJson(const nlohmann::json& j);

}  // namespace ks
