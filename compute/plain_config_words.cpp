#include "compute/plain_config_words.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
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

// The variants whose ids are shorthand (compute/image_rotate.cpp, image_transpose.cpp,
// image_histogram.cpp), in words; the others' ids are words already.
struct PlainVariant {
  const char* operation;
  const char* id;
  const char* words;
};
constexpr PlainVariant kPlainVariants[] = {
    {"rotate", "forward", "forward mapping"},
    {"rotate", "nearest_local", "nearest from local memory"},
    {"rotate", "bilinear_local", "bilinear from local memory"},
    {"rotate", "nearest_image", "nearest through the texture unit"},
    {"rotate", "bilinear_image", "bilinear through the texture unit"},
    {"transpose", "tiled_padded", "padded tiles"},
    {"transpose", "tiled_diagonal", "padded tiles in diagonal order"},
    {"transpose", "block4x4", "4x4 blocks"},
    {"transpose", "block4x4_diagonal", "4x4 blocks in diagonal order"},
    {"transpose", "block4x4_columns", "4x4 blocks column by column"},
    {"transpose", "block4x16_gray", "4x16 gray blocks"},
    {"transpose", "block4x16_gray_columns", "4x16 gray blocks column by column"},
    {"histogram", "subhist_uchar", "byte sub-histograms"},
    {"histogram", "subhist_flush", "flushed sub-histograms"},
    {"histogram", "local_atomic", "local atomics"},
    {"histogram", "local_atomic_fused", "local atomics in one kernel"},
};

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

std::string plainVariantName(const std::string& operation, const std::string& variant) {
  for (const PlainVariant& v : kPlainVariants)
    if (operation == v.operation && variant == v.id) return v.words;
  return variant;
}

std::string plainVariantName(const std::string& variant) {
  for (const PlainVariant& v : kPlainVariants)
    if (variant == v.id) return v.words;
  return variant;
}

std::string variantIdsInWords(const std::string& text) {
  auto inId = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  std::string out;
  for (size_t at = 0; at < text.size();) {
    if (!inId(text[at])) {
      out += text[at++];
      continue;
    }
    size_t end = at;
    while (end < text.size() && inId(text[end])) ++end;
    const std::string word = text.substr(at, end - at);
    // Only ids no one would take for a word of the sentence ("forward" is one).
    const bool shorthand = word.find_first_of("_0123456789") != std::string::npos;
    out += shorthand ? plainVariantName(word) : word;
    at = end;
  }
  return out;
}

std::string plainConfigurationWords(const std::string& name) {
  // "rotate ... + histogram ...": a recording of the image lab's kernels, each in words.
  if (const size_t plus = name.find(" + "); plus != std::string::npos)
    return plainConfigurationWords(name.substr(0, plus)) + "; " + plainConfigurationWords(name.substr(plus + 3));
  const std::vector<std::string> tokens = tokensOf(name);
  const size_t first = settingsStart(tokens);
  if (first == tokens.size()) return name;  // nothing in shorthand ("interop pbo")
  const bool nbody = isNBodyName(tokens);
  std::string head;  // the operation and variant: the words before the first setting
  const std::string variant = first > 0 ? tokens[first - 1] : "";
  // The variant in words; an operation named before it says whose variant it is.
  const KernelOp* op = first > 1 ? findKernelOp(tokens[first - 2]) : nullptr;
  for (size_t i = 0; i + 1 < first; ++i) head += (head.empty() ? "" : " ") + tokens[i];
  if (first > 0)
    head += (head.empty() ? "" : " ") + (nbody ? variant : op ? plainVariantName(op->name, variant) : plainVariantName(variant));
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

std::string plainShortLabel(const std::string& name, const std::string& shown) {
  // The whole name says what its shown words belong to: an N-body configuration (its
  // precision), an image operation (the word before its variant).
  const std::vector<std::string> tokens = tokensOf(name);
  const size_t first = settingsStart(tokens);
  const bool nbody = isNBodyName(tokens);
  const KernelOp* op = first > 1 ? findKernelOp(tokens[first - 2]) : nullptr;
  std::string out;
  for (std::string t : tokensOf(shown)) {
    if (t.front() == '(') t.erase(0, 1);  // "(unroll=8 B=2)": a refused run's values
    if (t.size() > 1 && t.back() == ')') t.pop_back();
    const size_t eq = t.find('=');
    std::string words;
    bool setting = true;  // set off by a comma, as the table's words are
    if (eq != std::string::npos && t.front() != '[') {
      const std::string key = t.substr(0, eq), value = t.substr(eq + 1);
      // The two settings whose table words are long: the work-group (N-body's is also its
      // tile of bodies) and the unrolling.
      if (key == "wg") words = nbody ? value + " per group" : "work-group " + value;
      else if (key == "unroll") words = "unrolled " + value + " times";
      else words = keyInWords(key, value);
    } else if (const std::string flag = flagInWords(t); flag != t) {
      words = flag;
    } else {
      words = op ? plainVariantName(op->name, t) : variantIdsInWords(t);
      setting = false;
    }
    if (out.empty()) out = words;
    else out += (setting && out.back() != ':' ? ", " : " ") + words;
  }
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
    if (const KernelOpVariant* v = op->variant(variant)) return variantIdsInWords(v->description);
  return "";
}

namespace {

// The parameters recorded as 1 or 0 (app/run_recorder.cpp, lab/sweep_runs.cpp).
bool isSwitch(const std::string& key) {
  for (const char* k : {"vsync", "native_rsqrt", "fast_math", "ftz", "padded", "expand"})
    if (key == k) return true;
  return false;
}

// "30.000000" as "30", "12.500000" as "12.5": at most two decimals, no trailing zeros.
std::string shortNumber(const std::string& value) {
  char* end = nullptr;
  const double v = std::strtod(value.c_str(), &end);
  if (end == value.c_str() || *end != '\0') return value;
  char text[32];
  std::snprintf(text, sizeof text, "%.2f", v);
  std::string out = text;
  while (out.back() == '0') out.pop_back();
  if (out.back() == '.') out.pop_back();
  return out == "-0" ? "0" : out;
}

}  // namespace

std::string plainParameterWords(const std::string& key, const std::string& value) {
  std::string words = key;  // "steps_per_frame" as words; the record keeps its keys
  std::replace(words.begin(), words.end(), '_', ' ');
  if (isSwitch(key) && (value == "1" || value == "0")) return words + (value == "1" ? " on" : " off");
  if (key == "angle") return "angle " + shortNumber(value) + "\u00b0";
  // The image lab's operations name their running variant (or "off").
  if (key == "rotate" || key == "transpose" || key == "histogram") return words + " " + plainVariantName(key, value);
  if (key == "variant") return words + " " + plainVariantName(value);
  return words + " " + value;
}

}  // namespace ks
