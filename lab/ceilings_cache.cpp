#include "lab/ceilings_cache.h"

#include <nlohmann/json.hpp>
#include <stdexcept>

#include "lab/device_cache_file.h"
#include "lab/tuning_cache.h"

namespace ks {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

json ceilingsJson(const MeasuredCeilings& c) {
  json figures = json::object();
  for (size_t i = 0; i < kCeilingCount; ++i) {
    const CeilingFigure& f = c.figures[i];
    figures[ceilingName(ceilingAt(i)).key] = {{"value", f.value}, {"method", f.method}, {"error", f.error}};
  }
  return {{"time", c.time}, {"figures", figures}};
}

// Every figure must be there: an entry from an older kernelscope that lacks one is damaged.
MeasuredCeilings ceilingsFrom(const json& j) {
  MeasuredCeilings c;
  c.time = j.at("time").get<std::string>();
  if (c.time.empty()) throw std::runtime_error("an entry without a time");
  const json& figures = j.at("figures");
  for (size_t i = 0; i < kCeilingCount; ++i) {
    const json& f = figures.at(ceilingName(ceilingAt(i)).key);
    CeilingFigure& figure = c.figures[i];
    figure.value = f.at("value").get<double>();
    figure.method = f.at("method").get<std::string>();
    figure.error = f.at("error").get<std::string>();
    if (!(figure.value >= 0.0)) throw std::runtime_error(std::string("a negative ") + ceilingName(ceilingAt(i)).key);
  }
  return c;
}

}  // namespace

const MeasuredCeilings* CeilingsCache::find(const DeviceDescriptor& device) const {
  const auto it = devices.find(tuningKey(device));
  return it == devices.end() ? nullptr : &it->second;
}

CeilingsCache loadCeilingsCache(const fs::path& file, std::string* warning) {
  CeilingsCache cache;
  const DeviceCacheFile where{file, "ceilings", CeilingsCache::kVersion};
  const bool read = readDeviceCacheFile(
      where, [&](const std::string& key, const json& entry) { cache.devices[key] = ceilingsFrom(entry); },
      [&] { return saveCeilingsCache(CeilingsCache{}, file); }, warning);
  return read ? cache : CeilingsCache{};
}

std::string saveCeilingsCache(const CeilingsCache& cache, const fs::path& file) {
  json devices = json::object();
  for (const auto& [key, c] : cache.devices) devices[key] = ceilingsJson(c);
  return writeDeviceCacheFile({file, "ceilings", CeilingsCache::kVersion}, devices);
}

}  // namespace ks
