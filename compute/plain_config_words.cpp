#include "compute/plain_config_words.h"

#include <algorithm>
#include <sstream>
#include <vector>

#include "compute/kernel_op.h"
#include "compute/nbody_variants.h"

namespace ks {

namespace {

std::string count(const std::string& value, const char* one, const char* many) {
  return value + " " + (value == "1" ? one : many);
}

// key=value of the describe*Config functions (compute/image_rotate.cpp, image_transpose.cpp,
// image_histogram.cpp, nbody_variants.cpp), in words.
std::string keyInWords(const std::string& key, const std::string& value) {
  if (key == "wg") return "work-group " + value;
  if (key == "ppi") {
    // Rotation's image kernels: a block of pixels x rows ("2x4").
    if (value.find('x') != std::string::npos) return "a block of " + value + " pixels per work-item";
    return count(value, "pixel", "pixels") + " per work-item";
  }
  if (key == "rpi" || key == "rows") return count(value, "row", "rows") + " per work-item";
  if (key == "T") return "tile " + value;
  if (key == "copies") return count(value, "histogram copy", "histogram copies") + " per group";
  if (key == "groups/CU") return count(value, "work-group", "work-groups") + " per compute unit";
  if (key == "unroll") return "loop unrolled " + value + " times";
  if (key == "B") return count(value, "body", "bodies") + " per work-item";
  if (key == "S") return count(value, "work-item", "work-items") + " per body";
  return key + " " + value;
}

// The N-body kernels' settings (kernels/nbody.cl): the work-group is also the tile of
// bodies the tiled kernels stage in local memory (TILE = work-group size).
std::string nbodyKeyInWords(const std::string& variant, const std::string& key, const std::string& value) {
  if (key == "wg") {
    std::string words = value + " work-items per group";
    if (const NBodyVariant* v = findNBodyVariant(variant); v && v->localMemory)
      words += ", tiles of " + value + " bodies in local memory";
    return words;
  }
  if (key == "unroll") return "inner loop unrolled " + value + " times";
  return keyInWords(key, value);
}

std::string flagInWords(const std::string& flag) {
  if (flag == "fp32") return "single precision";
  if (flag == "fp64") return "double precision";
  if (flag == "native_rsqrt") return "fast inverse square root";
  if (flag == "fast-math") return "fast relaxed maths";
  if (flag == "ftz") return "denormals flushed to zero";
  return flag;
}

std::vector<std::string> tokensOf(const std::string& name) {
  std::istringstream in(name);
  std::vector<std::string> tokens;
  for (std::string t; in >> t;) tokens.push_back(t);
  return tokens;
}

size_t settingsStart(const std::vector<std::string>& tokens) {
  size_t i = 0;
  while (i < tokens.size() && tokens[i].find('=') == std::string::npos) ++i;
  return i;
}

// describeNBodyConfig always names the precision; no image configuration does.
bool isNBodyName(const std::vector<std::string>& tokens) {
  return std::any_of(tokens.begin(), tokens.end(), [](const std::string& t) { return t == "fp32" || t == "fp64"; });
}

}  // namespace

std::string plainConfigurationWords(const std::string& name) {
  const std::vector<std::string> tokens = tokensOf(name);
  const size_t first = settingsStart(tokens);
  if (first == tokens.size()) return name;  // nothing in shorthand ("interop pbo")
  const bool nbody = isNBodyName(tokens);
  std::string head;  // the operation and variant: the words before the first setting
  for (size_t i = 0; i < first; ++i) head += (head.empty() ? "" : " ") + tokens[i];
  const std::string variant = first > 0 ? tokens[first - 1] : "";
  if (nbody && !head.empty()) head += " kernel";
  std::vector<std::string> settings;
  bool bracketed = false;  // "(unroll=8 B=2 S=1)": every value of a refused N-body run
  for (size_t i = first; i < tokens.size(); ++i) {
    std::string t = tokens[i];
    if (t == "counting" || t == "on" || t.front() == '[') {
      // "counting R G B", "on 2 devices", "[-cl-opt ...]": the rest as it was written.
      std::string rest;
      for (; i < tokens.size(); ++i) rest += (rest.empty() ? "" : " ") + tokens[i];
      settings.push_back(rest);
      break;
    }
    const bool opens = t.front() == '(', closes = t.size() > 1 && t.back() == ')';
    if (opens) t.erase(0, 1);
    if (closes) t.pop_back();
    const size_t eq = t.find('=');
    std::string words = eq == std::string::npos ? flagInWords(t)
                        : nbody ? nbodyKeyInWords(variant, t.substr(0, eq), t.substr(eq + 1))
                                : keyInWords(t.substr(0, eq), t.substr(eq + 1));
    if (bracketed && !opens) settings.back() += ", " + words;
    else settings.push_back(opens ? "(" + words : words);
    if (opens) bracketed = true;
    if (closes && bracketed) settings.back() += ")", bracketed = false;
  }
  std::string out = head.empty() ? "" : head + ": ";  // "unroll=8 B=2" (what differs between runs): no head
  for (size_t k = 0; k < settings.size(); ++k) out += (k ? ", " : "") + settings[k];
  return out;
}

std::string configurationVariantDescription(const std::string& name) {
  const std::vector<std::string> tokens = tokensOf(name);
  const size_t first = settingsStart(tokens);
  if (first == 0) return "";
  const std::string& variant = tokens[first - 1];
  std::vector<const KernelOp*> ops;
  if (isNBodyName(tokens)) {
    ops = {&nbodyOp()};
  } else {
    for (size_t i = 0; i + 1 < first; ++i)
      if (const KernelOp* op = findKernelOp(tokens[i])) ops = {op};
    if (ops.empty()) ops = {&rotateOp(), &transposeOp(), &histogramOp()};
  }
  for (const KernelOp* op : ops)
    if (const KernelOpVariant* v = op->variant(variant)) return v->description;
  return "";
}

}  // namespace ks
