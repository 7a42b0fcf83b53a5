#include "lab/run_energy.h"

#include "lab/csv_number.h"

#include <algorithm>
#include <stdexcept>

namespace ks {
namespace {

// 0 is "not measured": an empty cell.
std::string numberText(double v) { return v == 0.0 ? std::string() : csvNumber(v); }

#define KS_ENERGY_TEXT(col, field) \
  RunEnergyField { col, [](const RunEnergy& e) { return e.field; }, [](RunEnergy& e, const std::string& v) { e.field = v; }, RunEnergyField::Kind::Text }
#define KS_ENERGY_NUMBER(col, field)                                                   \
  RunEnergyField {                                                                     \
    col, [](const RunEnergy& e) { return numberText(e.field); },                       \
        [](RunEnergy& e, const std::string& v) { e.field = parseCsvNumber(v); }, RunEnergyField::Kind::Number \
  }

}  // namespace

const std::vector<RunEnergyField>& runEnergyFields() {
  static const std::vector<RunEnergyField> fields = {
      KS_ENERGY_TEXT("energy_source", source),
      KS_ENERGY_NUMBER("energy_j", joules),
      KS_ENERGY_NUMBER("power_w", watts),
      KS_ENERGY_NUMBER("energy_per_unit", perUnit),
      KS_ENERGY_TEXT("energy_unit", unit),
      KS_ENERGY_NUMBER("sm_clock_mhz", smClockMHz),
      RunEnergyField{"throttled", [](const RunEnergy& e) { return std::string(e.throttled ? "1" : "0"); },
                     [](RunEnergy& e, const std::string& v) {
                       if (v != "0" && v != "1" && !v.empty()) throw std::invalid_argument("throttled is '" + v + "'");
                       e.throttled = v == "1";
                     },
                     RunEnergyField::Kind::Flag},
      KS_ENERGY_TEXT("throttle_reasons", throttleReasons),
  };
  return fields;
}
#undef KS_ENERGY_TEXT
#undef KS_ENERGY_NUMBER

double joulesPerUnit(double joules, double units) { return units > 0.0 ? joules / units : 0.0; }

void RecordingEnergy::begin(const GpuTelemetryState& telemetry, double now) {
  samples_.clear();
  start_ = now;
  lastSeen_ = -1.0;
  // The newest sample before the start: the energy counter's slope and the
  // throttle reasons need a reading at the start, and samples come 5 times a second.
  if (!telemetry.history.empty()) {
    samples_.push_back(telemetry.history.back());
    lastSeen_ = telemetry.history.back().seconds;
  }
}

void RecordingEnergy::onFrame(const GpuTelemetryState& telemetry) {
  for (const auto& s : telemetry.history)
    if (s.seconds > lastSeen_) samples_.push_back(s), lastSeen_ = s.seconds;
}

RunEnergy RecordingEnergy::finish(const GpuTelemetryState& telemetry, double now, double units,
                                  const std::string& unit) {
  onFrame(telemetry);
  RunEnergy e;
  if (!telemetry.available) {
    e.source = telemetry.status;
    return e;
  }
  const EnergyEstimate estimate = energyOver(samples_, start_, now);
  if (estimate.source.empty()) {
    e.source = "no power readings during the recording";
    return e;
  }
  e.source = estimate.source;
  e.joules = estimate.joules;
  e.watts = estimate.watts;
  e.perUnit = joulesPerUnit(estimate.joules, units);
  if (e.perUnit > 0.0) e.unit = unit;
  std::vector<double> clocks;
  for (const auto& s : samples_)
    if (s.smClockMHz && s.seconds >= start_) clocks.push_back(*s.smClockMHz);
  if (!clocks.empty()) {
    std::nth_element(clocks.begin(), clocks.begin() + static_cast<std::ptrdiff_t>(clocks.size() / 2), clocks.end());
    e.smClockMHz = clocks[clocks.size() / 2];
  }
  const uint64_t reasons = throttleReasonsOver(samples_, start_, now);
  e.throttled = clockThrottled(reasons);
  if (e.throttled) {
    const std::string text = throttleText(reasons);
    e.throttleReasons = text.substr(text.find(": ") + 2);
  }
  return e;
}

}  // namespace ks
