#include "lab/run_record.h"

#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <functional>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <sstream>

#include "compute/device_catalog.h"
#include "lab/csv_number.h"

#ifndef KERNELSCOPE_GIT_DESCRIBE
#define KERNELSCOPE_GIT_DESCRIBE ""
#endif

namespace ks {
namespace fs = std::filesystem;
using nlohmann::json;

std::string RunMetadata::parameter(const std::string& key) const {
  for (const auto& [k, v] : parameters)
    if (k == key) return v;
  return {};
}

std::string kernelscopeVersion() {
  const std::string describe = KERNELSCOPE_GIT_DESCRIBE;
  return describe.empty() ? std::string(KERNELSCOPE_VERSION) : std::string(KERNELSCOPE_VERSION) + " (" + describe + ")";
}

std::string hexHash(uint64_t hash) {
  std::ostringstream o;
  o << std::hex << std::setw(16) << std::setfill('0') << hash;
  return o.str();
}

RunMetadata runMetadataFor(const DeviceDescriptor& device) {
  RunMetadata m;
  m.device = device.name;
  m.platform = device.platformName;
  m.driver = device.driverVersion;
  m.deviceKind = deviceKindName(device.kind);
  m.version = kernelscopeVersion();
  m.time = isoTimeNow();
  char host[256] = "";
  if (gethostname(host, sizeof host - 1) == 0) m.host = host;
  return m;
}

namespace {

// ---- the fixed columns, shared by the CSV writer and reader ---------------------

struct Column {
  std::string name;
  std::function<std::string(const RunRecord&)> get;
  std::function<void(RunRecord&, const std::string&)> set;
};

#define KS_TEXT(col, field) \
  Column { col, [](const RunRecord& r) { return r.field; }, [](RunRecord& r, const std::string& v) { r.field = v; } }
#define KS_NUMBER(col, field)                                             \
  Column {                                                                \
    col, [](const RunRecord& r) { return csvNumber(r.field); },              \
        [](RunRecord& r, const std::string& v) { r.field = static_cast<decltype(r.field)>(parseCsvNumber(v)); } \
  }

// The drift of the conserved quantities (N-body): CSV columns after the ceilings,
// keys of "measurements" in JSON; empty or null where none was measured.
struct DriftField {
  const char* key;
  double (*get)(const RunMeasurements&);
  void (*set)(RunMeasurements&, double);
};
const std::vector<DriftField>& driftFields() {
  static const std::vector<DriftField> fields = {
      {"energy_drift", [](const RunMeasurements& m) { return m.energyDrift; },
       [](RunMeasurements& m, double v) { m.energyDrift = v; }},
      {"momentum_drift", [](const RunMeasurements& m) { return m.momentumDrift; },
       [](RunMeasurements& m, double v) { m.momentumDrift = v; }},
      {"angular_momentum_drift", [](const RunMeasurements& m) { return m.angularMomentumDrift; },
       [](RunMeasurements& m, double v) { m.angularMomentumDrift = v; }},
      {"drift_steps", [](const RunMeasurements& m) { return static_cast<double>(m.driftSteps); },
       [](RunMeasurements& m, double v) { m.driftSteps = v > 0.0 ? static_cast<unsigned long long>(v) : 0; }},
  };
  return fields;
}

// "ceiling_copy_gbps": the ceilings' CSV columns, after the fixed ones.
std::string ceilingColumnName(size_t index) { return std::string("ceiling_") + ceilingName(ceilingAt(index)).key; }

const std::vector<Column>& columns() {
  static const std::vector<Column> table = {
      KS_TEXT("name", name),
      KS_TEXT("status", status),
      KS_TEXT("scene", meta.scene),
      KS_TEXT("device", meta.device),
      KS_TEXT("platform", meta.platform),
      KS_TEXT("driver", meta.driver),
      KS_TEXT("device_kind", meta.deviceKind),
      KS_TEXT("interop", meta.interop),
      KS_TEXT("kernelscope_version", meta.version),
      KS_TEXT("source_hash", meta.sourceHash),
      KS_TEXT("time", meta.time),
      KS_TEXT("host", meta.host),
      KS_NUMBER("frames", m.frames),
      KS_NUMBER("seconds", m.seconds),
      KS_NUMBER("fps", m.fps),
      KS_NUMBER("frame_samples", m.frameMs.count),
      KS_NUMBER("frame_ms_median", m.frameMs.median),
      KS_NUMBER("frame_ms_p95", m.frameMs.p95),
      KS_NUMBER("frame_ms_mean", m.frameMs.mean),
      KS_NUMBER("kernel_samples", m.kernelMs.count),
      KS_NUMBER("kernel_ms_median", m.kernelMs.median),
      KS_NUMBER("kernel_ms_p95", m.kernelMs.p95),
      KS_NUMBER("kernel_ms_min", m.kernelMs.min),
      KS_NUMBER("kernel_ms_max", m.kernelMs.max),
      KS_NUMBER("kernel_ms_mean", m.kernelMs.mean),
      KS_NUMBER("kernel_ms_stddev", m.kernelMs.stddev),
      KS_NUMBER("rate", m.rate),
      KS_TEXT("rate_unit", m.rateUnit),
      KS_TEXT("bound", m.bound),
  };
  static const std::vector<Column> withCeilings = [] {
    std::vector<Column> all = table;
    for (size_t i = 0; i < kCeilingCount; ++i)
      all.push_back({ceilingColumnName(i),
                     [i](const RunRecord& r) { return r.meta.ceilings[i] > 0.0 ? csvNumber(r.meta.ceilings[i]) : ""; },
                     [i](RunRecord& r, const std::string& v) { r.meta.ceilings[i] = parseCsvNumber(v); }});
    for (const RunEnergyField& f : runEnergyFields())
      all.push_back({f.name, [&f](const RunRecord& r) { return f.get(r.m.energy); },
                     [&f](RunRecord& r, const std::string& v) { f.set(r.m.energy, v); }});
    for (const DriftField& f : driftFields())
      all.push_back({f.key, [f](const RunRecord& r) { return r.m.hasDrift() ? csvNumber(f.get(r.m)) : ""; },
                     [f](RunRecord& r, const std::string& v) { f.set(r.m, parseCsvNumber(v)); }});
    for (const RunSplitField& f : runSplitFields())
      all.push_back({f.name, [f](const RunRecord& r) { return f.get(r.m.split); },
                     [f](RunRecord& r, const std::string& v) { f.set(r.m.split, v); }});
    return all;
  }();
  return withCeilings;
}
#undef KS_TEXT
#undef KS_NUMBER

constexpr const char* kParamPrefix = "param:";

std::string csvField(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

// RFC 4180 records: fields split on commas, quoted fields may hold commas,
// doubled quotes and line breaks.
std::vector<std::vector<std::string>> parseCsv(const std::string& text) {
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> row;
  std::string field;
  bool quoted = false, fieldStarted = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') field += '"', ++i;
      else if (c == '"') quoted = false;
      else field += c;
    } else if (c == '"' && field.empty()) {
      quoted = fieldStarted = true;
    } else if (c == ',') {
      row.push_back(std::move(field)), field.clear(), fieldStarted = true;
    } else if (c == '\n' || c == '\r') {
      if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
      row.push_back(std::move(field)), field.clear();
      rows.push_back(std::move(row)), row.clear();
      fieldStarted = false;
    } else {
      field += c, fieldStarted = true;
    }
  }
  if (quoted) throw std::runtime_error("unterminated quoted field");
  if (fieldStarted || !field.empty()) row.push_back(std::move(field)), rows.push_back(std::move(row));
  return rows;
}

json summaryJson(const SampleSummary& s) {
  return {{"count", s.count}, {"last", s.last}, {"mean", s.mean},   {"min", s.min},
          {"median", s.median}, {"p95", s.p95}, {"max", s.max}, {"stddev", s.stddev}};
}

SampleSummary summaryFrom(const json& j) {
  SampleSummary s;
  s.count = j.at("count").get<size_t>();
  s.last = j.at("last").get<double>();
  s.mean = j.at("mean").get<double>();
  s.min = j.at("min").get<double>();
  s.median = j.at("median").get<double>();
  s.p95 = j.at("p95").get<double>();
  s.max = j.at("max").get<double>();
  s.stddev = j.at("stddev").get<double>();
  return s;
}

std::string writeText(const std::string& text, const fs::path& file) {
  std::error_code ec;
  if (file.has_parent_path()) fs::create_directories(file.parent_path(), ec);
  std::ofstream out(file, std::ios::binary);
  if (!out) return "cannot write '" + file.string() + "'";
  out << text;
  out.close();
  if (!out) return "cannot write '" + file.string() + "'";
  return {};
}

}  // namespace

std::string runsToCsv(const std::vector<RunRecord>& runs) {
  std::vector<std::string> keys;
  for (const auto& r : runs)
    for (const auto& [k, v] : r.meta.parameters)
      if (std::find(keys.begin(), keys.end(), k) == keys.end()) keys.push_back(k);
  std::ostringstream o;
  bool first = true;
  for (const Column& c : columns()) o << (first ? "" : ",") << c.name, first = false;
  for (const auto& k : keys) o << ',' << csvField(kParamPrefix + k);
  o << '\n';
  for (const auto& r : runs) {
    first = true;
    for (const Column& c : columns()) o << (first ? "" : ",") << csvField(c.get(r)), first = false;
    for (const auto& k : keys) o << ',' << csvField(r.meta.parameter(k));
    o << '\n';
  }
  return o.str();
}

Result<std::vector<RunRecord>> runsFromCsv(const std::string& text) {
  try {
    const auto rows = parseCsv(text);
    if (rows.empty()) throw std::runtime_error("no header line");
    const auto& header = rows.front();
    const auto& cols = columns();
    if (header.empty() || header.front() != cols.front().name)
      throw std::runtime_error("column 1 is '" + (header.empty() ? std::string() : header.front()) + "', expected '" +
                               cols.front().name + "'");
    // Columns by name, not by place: a file from before a column was added (the first
    // versions wrote no bound, ceilings or energy) loads with that field left empty.
    std::vector<const Column*> known(header.size(), nullptr);
    for (size_t i = 0; i < header.size(); ++i) {
      const auto c = std::find_if(cols.begin(), cols.end(), [&](const Column& col) { return col.name == header[i]; });
      if (c != cols.end()) known[i] = &*c;
      else if (header[i].rfind(kParamPrefix, 0) != 0) throw std::runtime_error("unknown column '" + header[i] + "'");
    }
    std::vector<RunRecord> runs;
    for (size_t line = 1; line < rows.size(); ++line) {
      const auto& row = rows[line];
      if (row.size() != header.size())
        throw std::runtime_error("row " + std::to_string(line + 1) + " has " + std::to_string(row.size()) +
                                 " fields, the header " + std::to_string(header.size()));
      RunRecord r;
      for (size_t i = 0; i < header.size(); ++i) {
        if (known[i]) known[i]->set(r, row[i]);
        else if (!row[i].empty()) r.meta.parameters.emplace_back(header[i].substr(std::string(kParamPrefix).size()), row[i]);
      }
      runs.push_back(std::move(r));
    }
    return runs;
  } catch (const std::exception& e) {
    return Error(std::string("not a kernelscope runs CSV file: ") + e.what());
  }
}

namespace {

// In stage order: an array, since a JSON object's keys have none.
// By key; null for a ceiling the run's device had none of.
json ceilingsJson(const CeilingValues& values) {
  json j = json::object();
  for (size_t i = 0; i < kCeilingCount; ++i)
    j[ceilingName(ceilingAt(i)).key] = values[i] > 0.0 ? json(values[i]) : json(nullptr);
  return j;
}

// The energy fields beside the other measurements, under their CSV column names;
// a number not measured is null.
void addEnergyJson(json& measurements, const RunEnergy& energy) {
  for (const RunEnergyField& f : runEnergyFields()) {
    const std::string text = f.get(energy);
    switch (f.kind) {
      case RunEnergyField::Kind::Text: measurements[f.name] = text; break;
      case RunEnergyField::Kind::Number: measurements[f.name] = text.empty() ? json(nullptr) : json(parseCsvNumber(text)); break;
      case RunEnergyField::Kind::Flag: measurements[f.name] = text == "1"; break;
    }
  }
}

// Files from before these fields lack them: they stay empty.
void readEnergyJson(const json& measurements, RunEnergy& energy) {
  for (const RunEnergyField& f : runEnergyFields()) {
    const auto v = measurements.find(f.name);
    if (v == measurements.end() || v->is_null()) continue;
    f.set(energy, v->is_string() ? v->get<std::string>() : v->is_boolean() ? (v->get<bool>() ? "1" : "0")
                                                                           : csvNumber(v->get<double>()));
  }
}

json stagesJson(const std::vector<std::pair<std::string, double>>& stages) {
  json list = json::array();
  for (const auto& [stage, ms] : stages) list.push_back({{"stage", stage}, {"ms", ms}});
  return list;
}

}  // namespace

std::string runsToJson(const std::vector<RunRecord>& runs) {
  json list = json::array();
  for (const auto& r : runs) {
    json params = json::array();
    for (const auto& [k, v] : r.meta.parameters) params.push_back({{"name", k}, {"value", v}});
    list.push_back({{"name", r.name},
                    {"status", r.status},
                    {"metadata",
                     {{"scene", r.meta.scene},
                      {"device", r.meta.device},
                      {"platform", r.meta.platform},
                      {"driver", r.meta.driver},
                      {"device_kind", r.meta.deviceKind},
                      {"interop", r.meta.interop},
                      {"kernelscope_version", r.meta.version},
                      {"source_hash", r.meta.sourceHash},
                      {"time", r.meta.time},
                      {"host", r.meta.host},
                      {"ceilings", ceilingsJson(r.meta.ceilings)},
                      {"parameters", params}}},
                    {"measurements",
                     {{"frames", r.m.frames},
                      {"seconds", r.m.seconds},
                      {"fps", r.m.fps},
                      {"frame_ms", summaryJson(r.m.frameMs)},
                      {"kernel_ms", summaryJson(r.m.kernelMs)},
                      {"rate", r.m.rate},
                      {"rate_unit", r.m.rateUnit},
                      {"bound", r.m.bound},
                      {"stage_ms_median", stagesJson(r.m.stageMedianMs)}}}});
    addEnergyJson(list.back()["measurements"], r.m.energy);
    json& measurements = list.back()["measurements"];
    for (const DriftField& f : driftFields())
      measurements[f.key] = r.m.hasDrift() ? json(f.get(r.m)) : json(nullptr);
    for (const RunSplitField& f : runSplitFields()) {
      const std::string text = f.get(r.m.split);
      measurements[f.name] = !f.number ? json(text) : text.empty() ? json(nullptr) : json(parseCsvNumber(text));
    }
  }
  const json doc = {{"format", "kernelscope-runs"}, {"version", kRunFileVersion}, {"runs", list}};
  return doc.dump(2) + "\n";
}

Result<std::vector<RunRecord>> runsFromJson(const std::string& text) {
  auto fail = [](const std::string& why) -> Result<std::vector<RunRecord>> { return Error(why); };
  json doc;
  try {
    doc = json::parse(text);
  } catch (const std::exception& e) {
    return fail(std::string("not JSON: ") + e.what());
  }
  if (!doc.is_object() || doc.value("format", "") != "kernelscope-runs")
    return fail("not a kernelscope runs file (no \"format\": \"kernelscope-runs\")");
  if (!doc.contains("version") || !doc["version"].is_number_integer())
    return fail("the runs file has no version number");
  if (const int v = doc["version"].get<int>(); v != kRunFileVersion)
    return fail("the runs file is version " + std::to_string(v) + "; this kernelscope reads version " +
                std::to_string(kRunFileVersion) + (v < kRunFileVersion ? " (an older file)" : " (a newer file)"));
  try {
    std::vector<RunRecord> runs;
    for (const json& j : doc.at("runs")) {
      RunRecord r;
      r.name = j.at("name").get<std::string>();
      r.status = j.at("status").get<std::string>();
      const json& m = j.at("metadata");
      r.meta.scene = m.at("scene").get<std::string>();
      r.meta.device = m.at("device").get<std::string>();
      r.meta.platform = m.at("platform").get<std::string>();
      r.meta.driver = m.at("driver").get<std::string>();
      r.meta.deviceKind = m.at("device_kind").get<std::string>();
      r.meta.interop = m.at("interop").get<std::string>();
      r.meta.version = m.at("kernelscope_version").get<std::string>();
      r.meta.sourceHash = m.at("source_hash").get<std::string>();
      r.meta.time = m.at("time").get<std::string>();
      r.meta.host = m.at("host").get<std::string>();
      if (const auto ceilings = m.find("ceilings"); ceilings != m.end())  // files before them lack them
        for (size_t i = 0; i < kCeilingCount; ++i)
          if (const auto v = ceilings->find(ceilingName(ceilingAt(i)).key); v != ceilings->end() && !v->is_null())
            r.meta.ceilings[i] = v->get<double>();
      for (const json& p : m.at("parameters"))
        r.meta.parameters.emplace_back(p.at("name").get<std::string>(), p.at("value").get<std::string>());
      const json& x = j.at("measurements");
      r.m.frames = x.at("frames").get<size_t>();
      r.m.seconds = x.at("seconds").get<double>();
      r.m.fps = x.at("fps").get<double>();
      r.m.frameMs = summaryFrom(x.at("frame_ms"));
      r.m.kernelMs = summaryFrom(x.at("kernel_ms"));
      r.m.rate = x.at("rate").get<double>();
      r.m.rateUnit = x.at("rate_unit").get<std::string>();
      r.m.bound = x.value("bound", std::string());  // files before it lack it
      if (const auto stages = x.find("stage_ms_median"); stages != x.end())  // files before it lack it
        for (const json& stage : *stages)
          r.m.stageMedianMs.emplace_back(stage.at("stage").get<std::string>(), stage.at("ms").get<double>());
      readEnergyJson(x, r.m.energy);
      for (const DriftField& f : driftFields())  // files before drift lack it; null: none measured
        if (const auto v = x.find(f.key); v != x.end() && !v->is_null()) f.set(r.m, v->get<double>());
      for (const RunSplitField& f : runSplitFields())  // files before the split lack it: one device
        if (const auto v = x.find(f.name); v != x.end() && !v->is_null())
          f.set(r.m.split, v->is_string() ? v->get<std::string>() : csvNumber(v->get<double>()));
      runs.push_back(std::move(r));
    }
    return runs;
  } catch (const std::exception& e) {
    return fail(std::string("malformed runs file: ") + e.what());
  }
}

std::string writeRunsCsv(const std::vector<RunRecord>& runs, const fs::path& file) {
  return writeText(runsToCsv(runs), file);
}

std::string writeRunsJson(const std::vector<RunRecord>& runs, const fs::path& file) {
  return writeText(runsToJson(runs), file);
}

std::optional<std::vector<RunRecord>> readRunsJson(const fs::path& file, std::string* error) {
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    if (error) *error = "cannot read '" + file.string() + "'";
    return std::nullopt;
  }
  std::ostringstream text;
  text << in.rdbuf();
  auto runs = runsFromJson(text.str());
  if (!runs) {
    if (error) *error = file.string() + ": " + runs.error().what();
    return std::nullopt;
  }
  return std::move(runs).value();
}

ExportOutcome exportRuns(const std::vector<RunRecord>& runs, const std::string& base, bool json) {
  if (base.empty()) return {false, "give the file a name first"};
  std::error_code ec;
  std::filesystem::path file = std::filesystem::absolute(base + (json ? ".json" : ".csv"), ec);
  if (ec) file = base + (json ? ".json" : ".csv");
  const std::string error = json ? writeRunsJson(runs, file) : writeRunsCsv(runs, file);
  if (!error.empty()) return {false, error};
  return {true, "wrote " + std::to_string(runs.size()) + (runs.size() == 1 ? " run to " : " runs to ") +
                    file.lexically_normal().string()};
}

}  // namespace ks
