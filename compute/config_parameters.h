#pragma once
// A kernel configuration's whole-number parameters as data: one name per parameter,
// the key under which settings.json and tuning.json keep it (io/config_json), and
// the member of the configuration struct that holds it. Each operation lists its
// parameters once, beside its variant table (image_rotate.h, image_transpose.h,
// image_histogram.h); a new parameter is one line there.
namespace ks {

template <class Config>
struct ConfigParameter {
  const char* name;      // "work_group_x"
  int Config::*member;   // &RotateConfig::workGroupX
};

}  // namespace ks
