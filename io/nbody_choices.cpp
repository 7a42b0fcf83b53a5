#include "io/nbody_choices.h"

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <type_traits>
#include <nlohmann/json.hpp>

namespace ks {
using nlohmann::json;

namespace {

// Reads j[key] when it is there: `parse` turns the value into a T or throws saying
// why; a value that fails keeps `into` and adds "'key': why" to `problems`.
template <typename T, typename Parse>
void readChecked(const json& j, const std::string& key, T& into, std::vector<std::string>& problems, Parse parse) {
  if (!j.contains(key)) return;
  try {
    into = parse(j.at(key));
  } catch (const std::exception& e) {
    problems.push_back("'" + key + "' " + j.at(key).dump() + ": " + e.what());
  }
}

template <typename T>
T typed(const json& v, const char* kind) {
  if constexpr (std::is_same_v<T, bool>) {
    if (!v.is_boolean()) throw std::runtime_error(std::string("not ") + kind);
  } else if constexpr (std::is_integral_v<T>) {
    if (!v.is_number_integer()) throw std::runtime_error(std::string("not ") + kind);
  } else if constexpr (std::is_floating_point_v<T>) {
    if (!v.is_number()) throw std::runtime_error(std::string("not ") + kind);
  } else {
    if (!v.is_string()) throw std::runtime_error(std::string("not ") + kind);
  }
  return v.get<T>();
}

auto intIn(long long lo, long long hi) {
  return [lo, hi](const json& v) {
    const auto n = typed<long long>(v, "a whole number");
    if (n < lo || n > hi)
      throw std::runtime_error("out of range (" + std::to_string(lo) + " to " + std::to_string(hi) + ")");
    return static_cast<int>(n);
  };
}

// A finite number above `lo` (or at it when `lo` is allowed) and at most `hi`.
auto floatIn(float lo, bool loAllowed, float hi) {
  return [=](const json& v) {
    const double x = typed<double>(v, "a number");
    if (!std::isfinite(x) || x > hi || x < lo || (!loAllowed && x == lo))
      throw std::runtime_error("out of range (" + std::string(loAllowed ? "" : "above ") + json(lo).dump() + " to " +
                               json(hi).dump() + ")");
    return static_cast<float>(x);
  };
}

const auto boolean = [](const json& v) { return typed<bool>(v, "true or false"); };

NBodyPreset presetFrom(const json& v) {
  if (auto preset = parseNBodyPreset(typed<std::string>(v, "a preset's name"))) return *preset;
  throw std::runtime_error("no such preset (cube, shell, disk or collision)");
}

ParticleDrawing drawingFrom(const json& v) {
  const auto name = typed<std::string>(v, "a word");
  for (ParticleDrawing d : kParticleDrawings)
    if (name == particleDrawingName(d)) return d;
  throw std::runtime_error("not a way of drawing (auto, sprites or compute)");
}

json configJson(const NBodyConfig& c) {
  json j = {{"variant", c.variant},         {"fp64", c.fp64},
            {"native_rsqrt", c.nativeRsqrt}, {"fast_math", c.fastRelaxedMath},
            {"ftz", c.denormsAreZero},       {"extra_options", c.extraOptions}};
  for (const auto& p : nbodyConfigParameters()) j[p.name] = c.*p.member;  // work_group, unroll, ...
  return j;
}

// A whole configuration or none: a part of one is not what the user chose.
NBodyConfig configFrom(const json& j) {
  if (!j.is_object()) throw std::runtime_error("not a JSON object");
  NBodyConfig c;
  auto field = [&j](const char* key) -> const json& {
    if (!j.contains(key)) throw std::runtime_error(std::string("no '") + key + "'");
    return j.at(key);
  };
  c.variant = typed<std::string>(field("variant"), "a variant's name");
  if (!findNBodyVariant(c.variant)) throw std::runtime_error("no variant '" + c.variant + "' in this kernelscope");
  for (const auto& p : nbodyConfigParameters()) {
    const auto n = typed<long long>(field(p.name), "a whole number");
    if (n < 1 || n > 65536) throw std::runtime_error(std::string("'") + p.name + "' out of range (1 to 65536)");
    c.*p.member = static_cast<int>(n);
  }
  c.fp64 = typed<bool>(field("fp64"), "true or false");
  c.nativeRsqrt = typed<bool>(field("native_rsqrt"), "true or false");
  c.fastRelaxedMath = typed<bool>(field("fast_math"), "true or false");
  c.denormsAreZero = typed<bool>(field("ftz"), "true or false");
  c.extraOptions = typed<std::string>(field("extra_options"), "text");
  return c;
}

}  // namespace

void to_json(json& j, const NBodyChoices& c) {
  const ParticleStyle& s = c.style;
  j = {{"bodies", c.bodies},
       {"preset", nbodyPresetName(c.preset)},
       {"seed", c.seed},
       {"steps_per_frame", c.stepsPerFrame},
       {"style",
        {{"point_size", s.pointSize},
         {"brightness", s.brightness},
         {"color_map", s.colorMap},
         {"max_speed", s.maxSpeed},
         {"attenuation_distance", s.attenuationDistance},
         {"drawing", particleDrawingName(s.drawing)}}},
       {"auto_speed_scale", c.autoSpeedScale},
       {"conservation", {{"on", c.conservation.on}, {"every_steps", c.conservation.everySteps}}}};
  // The tuned configuration follows the device (and the tuning cache): only a chosen one is kept.
  if (c.configFromUser) j["config"] = configJson(c.config);
}

std::vector<std::string> readNBodyChoices(const json& j, NBodyChoices& c) {
  std::vector<std::string> problems;
  if (!j.is_object()) return {"not a JSON object"};
  readChecked(j, "bodies", c.bodies, problems, intIn(1, 1 << 30));
  readChecked(j, "preset", c.preset, problems, presetFrom);
  readChecked(j, "seed", c.seed, problems, intIn(INT32_MIN, INT32_MAX));
  bool stepsRead = false, brightnessRead = false;
  readChecked(j, "steps_per_frame", c.stepsPerFrame, problems, [&](const json& v) {
    const int n = intIn(1, 1000)(v);
    stepsRead = true;
    return n;
  });
  if (j.contains("style")) {
    const json& s = j.at("style");
    if (!s.is_object()) {
      problems.push_back("'style' " + s.dump() + ": not a JSON object");
    } else {
      // Keys named as the section spells them, so that a message points at the line.
      std::vector<std::string> styleProblems;
      readChecked(s, "point_size", c.style.pointSize, styleProblems, floatIn(0.0f, false, 256.0f));
      readChecked(s, "brightness", c.style.brightness, styleProblems, [&](const json& v) {
        const float b = floatIn(0.0f, false, 100.0f)(v);
        brightnessRead = true;
        return b;
      });
      readChecked(s, "color_map", c.style.colorMap, styleProblems, intIn(0, kParticleColorMapCount - 1));
      readChecked(s, "max_speed", c.style.maxSpeed, styleProblems, floatIn(0.0f, false, 1e6f));
      readChecked(s, "attenuation_distance", c.style.attenuationDistance, styleProblems, floatIn(0.0f, true, 1e6f));
      readChecked(s, "drawing", c.style.drawing, styleProblems, drawingFrom);
      for (auto& p : styleProblems) problems.push_back("style " + p);
    }
  }
  readChecked(j, "auto_speed_scale", c.autoSpeedScale, problems, boolean);
  if (j.contains("conservation")) {
    const json& k = j.at("conservation");
    if (!k.is_object()) {
      problems.push_back("'conservation' " + k.dump() + ": not a JSON object");
    } else {
      std::vector<std::string> checkProblems;
      readChecked(k, "on", c.conservation.on, checkProblems, boolean);
      readChecked(k, "every_steps", c.conservation.everySteps, checkProblems, intIn(1, 100000));
      for (auto& p : checkProblems) problems.push_back("conservation " + p);
    }
  }
  readChecked(j, "config", c.config, problems, [&](const json& v) {
    NBodyConfig config = configFrom(v);
    c.configFromUser = true;
    return config;
  });
  c.keepSavedStepsAndBrightness = stepsRead && brightnessRead;
  return problems;
}

}  // namespace ks
