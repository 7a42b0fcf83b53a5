#include "ui/plain_config_words.h"

#include <sstream>
#include <utility>
#include <vector>

namespace ks {

namespace {

// key=value of the describe*Config functions (compute/image_rotate.cpp, image_transpose.cpp,
// image_histogram.cpp, nbody_variants.cpp), in words.
std::string keyInWords(const std::string& key, const std::string& value) {
  if (key == "wg") return "work-group " + value;
  if (key == "ppi") {
    // Rotation's image kernels: a block of pixels x rows ("2x4").
    if (value.find('x') != std::string::npos) return "a block of " + value + " pixels per work-item";
    return value + (value == "1" ? " pixel" : " pixels") + " per work-item";
  }
  if (key == "rpi" || key == "rows") return value + (value == "1" ? " row" : " rows") + " per work-item";
  if (key == "T") return "tile " + value;
  if (key == "copies") return value + (value == "1" ? " histogram copy" : " histogram copies") + " per group";
  if (key == "groups/CU") return value + (value == "1" ? " work-group" : " work-groups") + " per compute unit";
  if (key == "unroll") return "loop unrolled " + value + " times";
  if (key == "B") return value + (value == "1" ? " body" : " bodies") + " per work-item";
  if (key == "S") return value + (value == "1" ? " work-item" : " work-items") + " per body";
  return key + " " + value;
}

std::string flagInWords(const std::string& flag) {
  if (flag == "fp32") return "single precision";
  if (flag == "fp64") return "double precision";
  if (flag == "native_rsqrt") return "fast inverse square root";
  if (flag == "fast-math") return "fast relaxed maths";
  if (flag == "ftz") return "denormals flushed to zero";
  return flag;
}

}  // namespace

std::string plainConfigurationWords(const std::string& name) {
  std::istringstream in(name);
  std::vector<std::string> tokens;
  for (std::string t; in >> t;) tokens.push_back(t);
  std::string head;  // the operation and variant: the words before the first setting
  std::vector<std::string> settings;
  size_t i = 0;
  for (; i < tokens.size() && tokens[i].find('=') == std::string::npos; ++i) head += (head.empty() ? "" : " ") + tokens[i];
  if (i == tokens.size()) return name;  // nothing in shorthand ("interop pbo")
  for (; i < tokens.size(); ++i) {
    const std::string& t = tokens[i];
    if (t == "counting" || t.front() == '[') {
      // "counting R G B", "[-cl-opt ...]": the rest is one setting as it was written.
      std::string rest;
      for (; i < tokens.size(); ++i) rest += (rest.empty() ? "" : " ") + tokens[i];
      settings.push_back(rest);
      break;
    }
    const size_t eq = t.find('=');
    settings.push_back(eq == std::string::npos ? flagInWords(t) : keyInWords(t.substr(0, eq), t.substr(eq + 1)));
  }
  std::string out = head + ":";
  for (size_t k = 0; k < settings.size(); ++k) out += (k ? ", " : " ") + settings[k];
  return out;
}

}  // namespace ks
