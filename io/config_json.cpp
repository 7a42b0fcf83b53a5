#include "io/config_json.h"

namespace ks {
using nlohmann::json;

json rotateConfigJson(const RotateConfig& c) {
  return {{"variant", c.variant},
          {"work_group_x", c.workGroupX},
          {"work_group_y", c.workGroupY},
          {"pixels_per_item", c.pixelsPerItem},
          {"rows_per_item", c.rowsPerItem}};
}

RotateConfig rotateConfigFromJson(const json& j) {
  RotateConfig c;
  c.variant = j.at("variant").get<std::string>();
  c.workGroupX = j.at("work_group_x").get<int>();
  c.workGroupY = j.at("work_group_y").get<int>();
  c.pixelsPerItem = j.at("pixels_per_item").get<int>();
  c.rowsPerItem = j.at("rows_per_item").get<int>();
  return c;
}

json transposeConfigJson(const TransposeConfig& c) {
  return {{"variant", c.variant},           {"tile", c.tile},
          {"rows_per_item", c.rowsPerItem}, {"work_group", c.workGroup},
          {"work_group_x", c.workGroupX},   {"work_group_y", c.workGroupY}};
}

TransposeConfig transposeConfigFromJson(const json& j) {
  TransposeConfig c;
  c.variant = j.at("variant").get<std::string>();
  c.tile = j.at("tile").get<int>();
  c.rowsPerItem = j.at("rows_per_item").get<int>();
  c.workGroup = j.at("work_group").get<int>();
  c.workGroupX = j.at("work_group_x").get<int>();
  c.workGroupY = j.at("work_group_y").get<int>();
  return c;
}

json histogramConfigJson(const HistogramConfig& c) {
  return {{"variant", c.variant},
          {"work_group", c.workGroup},
          {"pixels_per_item", c.pixelsPerItem},
          {"copies", c.copies},
          {"groups_per_compute_unit", c.groupsPerComputeUnit}};
}

HistogramConfig histogramConfigFromJson(const json& j) {
  HistogramConfig c;
  c.variant = j.at("variant").get<std::string>();
  c.workGroup = j.at("work_group").get<int>();
  c.pixelsPerItem = j.at("pixels_per_item").get<int>();
  c.copies = j.at("copies").get<int>();
  c.groupsPerComputeUnit = j.at("groups_per_compute_unit").get<int>();
  return c;
}

}  // namespace ks
