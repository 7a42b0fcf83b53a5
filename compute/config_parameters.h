#pragma once
// A kernel configuration's whole-number parameters as data: one name per parameter,
// the key under which settings.json and tuning.json keep it (io/config_json), and
// the member of the configuration struct that holds it. Each operation lists its
// parameters once, beside its variant table (image_rotate.h, image_transpose.h,
// image_histogram.h); a new parameter is one line there.
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace ks {

template <class Config>
struct ConfigParameter {
  const char* name;      // "work_group_x"
  int Config::*member;   // &RotateConfig::workGroupX
};

// The value of parameter `name` in `config`; throws std::out_of_range for a name
// the list does not have (a programming error).
template <class Config>
int configValue(const std::vector<ConfigParameter<Config>>& parameters, const Config& config, std::string_view name) {
  for (const ConfigParameter<Config>& p : parameters)
    if (name == p.name) return config.*p.member;
  throw std::out_of_range("no configuration parameter '" + std::string(name) + "'");
}

}  // namespace ks
