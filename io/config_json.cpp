#include "io/config_json.h"

namespace ks {
using nlohmann::json;

namespace {

// The variant, then every parameter of the operation's list under its own name.
template <class Config>
json configJson(const Config& c, const std::vector<ConfigParameter<Config>>& parameters) {
  json j = {{"variant", c.variant}};
  for (const auto& p : parameters) j[p.name] = c.*p.member;
  return j;
}

template <class Config>
Config configFromJson(const json& j, const std::vector<ConfigParameter<Config>>& parameters) {
  Config c;
  c.variant = j.at("variant").template get<std::string>();
  for (const auto& p : parameters) c.*p.member = j.at(p.name).template get<int>();
  return c;
}

}  // namespace

json rotateConfigJson(const RotateConfig& c) { return configJson(c, rotateConfigParameters()); }
RotateConfig rotateConfigFromJson(const json& j) { return configFromJson(j, rotateConfigParameters()); }
json transposeConfigJson(const TransposeConfig& c) { return configJson(c, transposeConfigParameters()); }
TransposeConfig transposeConfigFromJson(const json& j) { return configFromJson(j, transposeConfigParameters()); }
json histogramConfigJson(const HistogramConfig& c) { return configJson(c, histogramConfigParameters()); }
HistogramConfig histogramConfigFromJson(const json& j) { return configFromJson(j, histogramConfigParameters()); }

}  // namespace ks
