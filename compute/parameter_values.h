#pragma once
// Names and value lists as text, for help texts and messages. The values a kernel
// parameter may take are in its operation's descriptor (compute/kernel_op.h).
#include <algorithm>
#include <string>
#include <vector>

namespace ks {

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
