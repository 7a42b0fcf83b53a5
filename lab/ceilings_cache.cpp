#include "lab/ceilings_cache.h"

#include <fstream>
#include <nlohmann/json.hpp>

#include "compute/atomic_file.h"
#include "lab/tuning_cache.h"

namespace ks {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr const char* kFormat = "kernelscope-ceilings";

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
  std::ifstream in(file);
  if (!in) return cache;
  try {
    const json j = json::parse(in);
    if (!j.is_object() || j.value("format", "") != kFormat) throw std::runtime_error("not a kernelscope ceilings file");
    if (const int v = j.value("version", 0); v != CeilingsCache::kVersion)
      throw std::runtime_error("version " + std::to_string(v) + ", this kernelscope reads version " +
                               std::to_string(CeilingsCache::kVersion));
    for (const auto& [key, entry] : j.at("devices").items()) cache.devices[key] = ceilingsFrom(entry);
  } catch (const std::exception& e) {
    std::string message = "ignoring ceilings cache '" + file.string() + "' (" + e.what() + ")";
    in.close();
    if (const std::string error = saveCeilingsCache(CeilingsCache{}, file); error.empty())
      message += "; rewritten empty";
    else
      message += "; cannot rewrite it: " + error;
    if (warning) *warning = message;
    return CeilingsCache{};
  }
  return cache;
}

std::string saveCeilingsCache(const CeilingsCache& cache, const fs::path& file) {
  json devices = json::object();
  for (const auto& [key, c] : cache.devices) devices[key] = ceilingsJson(c);
  const json j = {{"format", kFormat}, {"version", CeilingsCache::kVersion}, {"devices", devices}};
  if (std::string error = replaceFileAtomically(file, j.dump(2) + "\n"); !error.empty()) return "ceilings cache: " + error;
  return {};
}

}  // namespace ks
