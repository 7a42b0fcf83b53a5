#include "lab/tuning_cache.h"

#include <fstream>
#include <nlohmann/json.hpp>

#include "io/config_json.h"
#include "compute/atomic_file.h"
#include "compute/nbody_tuning.h"

namespace ks {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

json nbodyJson(const TunedNBody& t) {
  const NBodyConfig& c = t.config;
  json j = {{"variant", c.variant},         {"fp64", c.fp64},
            {"native_rsqrt", c.nativeRsqrt}, {"fast_math", c.fastRelaxedMath}, {"ftz", c.denormsAreZero},
            {"extra_options", c.extraOptions}, {"bodies", t.bodies}, {"gflops", t.rate}, {"time", t.time}};
  for (const auto& p : nbodyConfigParameters()) j[p.name] = c.*p.member;  // work_group, unroll, ...
  return j;
}

TunedNBody nbodyFrom(const json& j) {
  TunedNBody t;
  NBodyConfig& c = t.config;
  c.variant = j.at("variant").get<std::string>();
  for (const auto& p : nbodyConfigParameters()) c.*p.member = j.at(p.name).get<int>();
  c.fp64 = j.at("fp64").get<bool>();
  c.nativeRsqrt = j.at("native_rsqrt").get<bool>();
  c.fastRelaxedMath = j.at("fast_math").get<bool>();
  c.denormsAreZero = j.at("ftz").get<bool>();
  c.extraOptions = j.at("extra_options").get<std::string>();
  t.bodies = j.at("bodies").get<size_t>();
  t.rate = j.at("gflops").get<double>();
  t.time = j.at("time").get<std::string>();
  return t;
}

json transposeJson(const TunedTranspose& t) {
  json j = transposeConfigJson(t.config);
  j["image"] = t.image;
  j["gbps"] = t.rate;
  j["time"] = t.time;
  return j;
}

TunedTranspose transposeFrom(const json& j) {
  TunedTranspose t;
  t.config = transposeConfigFromJson(j);
  t.image = j.at("image").get<std::string>();
  t.rate = j.at("gbps").get<double>();
  t.time = j.at("time").get<std::string>();
  return t;
}

}  // namespace

const TuningEntry* TuningCache::find(const DeviceDescriptor& device) const {
  const auto it = devices.find(tuningKey(device));
  return it == devices.end() ? nullptr : &it->second;
}

std::string tuningKey(const DeviceDescriptor& device) {
  return device.platformName + " | " + device.name + " | " + device.driverVersion;
}

TuningCache loadTuningCache(const fs::path& file, std::string* warning) {
  TuningCache cache;
  std::ifstream in(file);
  if (!in) return cache;
  try {
    const json j = json::parse(in);
    if (!j.is_object() || j.value("format", "") != "kernelscope-tuning")
      throw std::runtime_error("not a kernelscope tuning file");
    if (const int v = j.value("version", 0); v != TuningCache::kVersion)
      throw std::runtime_error("version " + std::to_string(v) + ", this kernelscope reads version " +
                               std::to_string(TuningCache::kVersion));
    for (const auto& [key, entry] : j.at("devices").items()) {
      TuningEntry e;
      if (entry.contains("nbody")) e.nbody = nbodyFrom(entry["nbody"]);
      if (entry.contains("transpose"))
        for (const auto& [channels, t] : entry["transpose"].items()) e.transpose[std::stoi(channels)] = transposeFrom(t);
      cache.devices[key] = std::move(e);
    }
  } catch (const std::exception& e) {
    std::string message = "ignoring tuning cache '" + file.string() + "' (" + e.what() + ")";
    in.close();
    if (const std::string error = saveTuningCache(TuningCache{}, file); error.empty())
      message += "; rewritten empty";
    else
      message += "; cannot rewrite it: " + error;
    if (warning) *warning = message;
    return TuningCache{};
  }
  return cache;
}

std::string saveTuningCache(const TuningCache& cache, const fs::path& file) {
  json devices = json::object();
  for (const auto& [key, e] : cache.devices) {
    json entry = json::object();
    if (e.nbody) entry["nbody"] = nbodyJson(*e.nbody);
    if (!e.transpose.empty()) {
      json t = json::object();
      for (const auto& [channels, tuned] : e.transpose) t[std::to_string(channels)] = transposeJson(tuned);
      entry["transpose"] = t;
    }
    devices[key] = entry;
  }
  const json j = {{"format", "kernelscope-tuning"}, {"version", TuningCache::kVersion}, {"devices", devices}};
  if (std::string error = replaceFileAtomically(file, j.dump(2) + "\n"); !error.empty())
    return "tuning cache: " + error;
  return {};
}

NBodyConfig preferredNBodyConfig(const TuningCache& cache, const DeviceDescriptor& device, size_t bodies) {
  if (const TuningEntry* e = cache.find(device); e && e->nbody && nbodyConfigProblem(e->nbody->config, device).empty())
    return e->nbody->config;
  return tunedNBodyConfig(device, bodies);
}

std::optional<TransposeConfig> preferredTransposeConfig(const TuningCache& cache, const DeviceDescriptor& device,
                                                        int channels) {
  const TuningEntry* e = cache.find(device);
  if (!e) return std::nullopt;
  const auto it = e->transpose.find(channels);
  if (it == e->transpose.end() || !imageTransposeConfigProblem(it->second.config, device, channels).empty())
    return std::nullopt;
  return it->second.config;
}

}  // namespace ks
