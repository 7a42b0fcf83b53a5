#include "lab/tuning_cache.h"

#include <fstream>
#include <nlohmann/json.hpp>

#include "io/config_json.h"
#include "compute/nbody_tuning.h"
#include "lab/device_cache_file.h"

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

// An image operation's winners by channel count: {"1": {config..., "image", "gbps", "time"}, "4": ...}.
template <class Config>
json imageOpJson(const std::map<int, TunedImageOp<Config>>& winners, json (*configJson)(const Config&)) {
  json out = json::object();
  for (const auto& [channels, t] : winners) {
    json j = configJson(t.config);
    j["image"] = t.image;
    j["gbps"] = t.rate;
    j["time"] = t.time;
    out[std::to_string(channels)] = j;
  }
  return out;
}

// A key left out (a file written before that operation's winners were kept): none.
template <class Config>
std::map<int, TunedImageOp<Config>> imageOpFrom(const json& entry, const char* key, Config (*configFrom)(const json&)) {
  std::map<int, TunedImageOp<Config>> winners;
  if (!entry.contains(key)) return winners;
  for (const auto& item : entry.at(key).items()) {
    const json& j = item.value();
    TunedImageOp<Config> t;
    t.config = configFrom(j);
    t.image = j.at("image").get<std::string>();
    t.rate = j.at("gbps").get<double>();
    t.time = j.at("time").get<std::string>();
    winners[std::stoi(item.key())] = std::move(t);
  }
  return winners;
}

// The winner for `channels` when `problem` finds none with it.
template <class Config, class Problem>
std::optional<Config> runnableWinner(const std::map<int, TunedImageOp<Config>>& winners, int channels,
                                     Problem problem) {
  const auto it = winners.find(channels);
  if (it == winners.end() || !problem(it->second.config).empty()) return std::nullopt;
  return it->second.config;
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
  const DeviceCacheFile where{file, "tuning", TuningCache::kVersion};
  auto readEntry = [&](const std::string& key, const json& entry) {
    TuningEntry e;
    if (entry.contains("nbody")) e.nbody = nbodyFrom(entry["nbody"]);
    e.transpose = imageOpFrom(entry, "transpose", transposeConfigFromJson);
    e.rotate = imageOpFrom(entry, "rotate", rotateConfigFromJson);
    e.histogram = imageOpFrom(entry, "histogram", histogramConfigFromJson);
    cache.devices[key] = std::move(e);
  };
  const bool read =
      readDeviceCacheFile(where, readEntry, [&] { return saveTuningCache(TuningCache{}, file); }, warning);
  return read ? cache : TuningCache{};
}

std::string saveTuningCache(const TuningCache& cache, const fs::path& file) {
  json devices = json::object();
  for (const auto& [key, e] : cache.devices) {
    json entry = json::object();
    if (e.nbody) entry["nbody"] = nbodyJson(*e.nbody);
    if (!e.transpose.empty()) entry["transpose"] = imageOpJson(e.transpose, transposeConfigJson);
    if (!e.rotate.empty()) entry["rotate"] = imageOpJson(e.rotate, rotateConfigJson);
    if (!e.histogram.empty()) entry["histogram"] = imageOpJson(e.histogram, histogramConfigJson);
    devices[key] = entry;
  }
  return writeDeviceCacheFile({file, "tuning", TuningCache::kVersion}, devices);
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
  return runnableWinner(e->transpose, channels,
                        [&](const TransposeConfig& c) { return imageTransposeConfigProblem(c, device, channels); });
}

std::optional<RotateConfig> preferredRotateConfig(const TuningCache& cache, const DeviceDescriptor& device,
                                                  const ImageLayout& image, std::array<size_t, 2> maxImage2d) {
  const TuningEntry* e = cache.find(device);
  if (!e) return std::nullopt;
  return runnableWinner(e->rotate, image.channels, [&](const RotateConfig& c) -> std::string {
    const ImageRotateVariant* v = findImageRotateVariant(c.variant);
    const bool fits = static_cast<size_t>(image.width) <= maxImage2d[0] && static_cast<size_t>(image.height) <= maxImage2d[1];
    if (v && v->image && !fits) return "the image is larger than the device's 2D images";
    return imageRotateConfigProblem(c, device, image.channels);
  });
}

std::optional<HistogramConfig> preferredHistogramConfig(const TuningCache& cache, const DeviceDescriptor& device,
                                                        int channels) {
  const TuningEntry* e = cache.find(device);
  if (!e) return std::nullopt;
  return runnableWinner(e->histogram, channels,
                        [&](const HistogramConfig& c) { return imageHistogramConfigProblem(c, device, channels); });
}

}  // namespace ks
