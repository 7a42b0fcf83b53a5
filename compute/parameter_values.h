#pragma once
// What a kernel parameter may take, read from the variant tables (nbody_variants,
// image_rotate, image_transpose, image_histogram): every value that some variant
// offers, ascending, each once. The CLI checks, the sweep panel's choices and the
// combos offer these; whether one variant takes a value is its *ConfigProblem()'s
// answer. No list of values is written down anywhere else.
#include <algorithm>
#include <string>
#include <vector>

namespace ks {

template <class Variant>
std::vector<int> valuesOverVariants(const std::vector<Variant>& table, std::vector<int> Variant::*member) {
  std::vector<int> values;
  for (const Variant& v : table) values.insert(values.end(), (v.*member).begin(), (v.*member).end());
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  return values;
}

template <class Variant>
std::vector<std::string> variantNames(const std::vector<Variant>& table) {
  std::vector<std::string> names;
  for (const Variant& v : table) names.emplace_back(v.name);
  return names;
}

// "1, 2, 4" (for help texts and messages).
inline std::string joinValues(const std::vector<int>& values, const char* separator = ", ") {
  std::string text;
  for (size_t i = 0; i < values.size(); ++i) text += (i ? separator : "") + std::to_string(values[i]);
  return text;
}
inline std::string joinValues(const std::vector<std::string>& values, const char* separator = ", ") {
  std::string text;
  for (size_t i = 0; i < values.size(); ++i) text += (i ? separator : "") + values[i];
  return text;
}

}  // namespace ks
