#pragma once
// What the board's power sensor said during a recorded run (NVML; issue 23):
// energy, mean power, energy per unit of work, the SM clock, and whether the
// clock throttled. Each field has one name, the CSV column and the JSON key
// (under "measurements"); files from before these fields read back empty.
#include <functional>
#include <string>
#include <vector>

#include "compute/gpu_telemetry.h"

namespace ks {

struct RunEnergy {
  std::string source;     // "energy counter", "power x time", or why none ("not an NVIDIA device")
  double joules = 0.0;    // board energy over the recording (0: none)
  double watts = 0.0;     // mean board power
  double perUnit = 0.0;   // joules per G interactions (N-body) or per GB (image pipeline)
  std::string unit;       // "J/G interactions", "J/GB"; empty: no work figure
  double smClockMHz = 0.0;  // median SM clock over the recording
  bool throttled = false;   // a reason other than idle / applications clocks held the clock down
  std::string throttleReasons;  // those reasons in words, ", " between
  bool measured() const { return joules > 0.0; }
};

// The fields as text, in CSV column order: name, read, write (write throws on a bad number).
struct RunEnergyField {
  const char* name;
  std::function<std::string(const RunEnergy&)> get;
  std::function<void(RunEnergy&, const std::string&)> set;
  enum class Kind { Text, Number, Flag } kind;  // JSON: a string, a number (null when empty), true/false
};
const std::vector<RunEnergyField>& runEnergyFields();

// Joules per unit of work: per G interactions or per GB (0 when there was no work).
double joulesPerUnit(double joules, double units);

// Collects the telemetry of one recording: begin at its first frame, onFrame
// every frame after (keeps the samples the monitor published since), finish at
// its end with the work done meanwhile (units: G interactions or GB).
class RecordingEnergy {
 public:
  void begin(const GpuTelemetryState& telemetry, double now);
  void onFrame(const GpuTelemetryState& telemetry);
  RunEnergy finish(const GpuTelemetryState& telemetry, double now, double units, const std::string& unit);

 private:
  std::vector<GpuSample> samples_;
  double start_ = 0.0;
  double lastSeen_ = -1.0;  // the newest sample's time kept
};

}  // namespace ks
