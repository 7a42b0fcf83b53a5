#include "compute/gpu_telemetry.h"

#include <algorithm>
#include <chrono>
#include <cstdio>

namespace ks {

double steadySeconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

const std::vector<ThrottleReasonName>& throttleReasonNames() {
  static const std::vector<ThrottleReasonName> names = {
      {0x1, "GPU idle", false},
      {0x2, "applications clocks setting", false},
      {0x4, "power cap", true},
      {0x8, "HW slowdown", true},
      {0x10, "sync boost", true},
      {0x20, "thermal (software)", true},
      {0x40, "HW thermal slowdown", true},
      {0x80, "HW power brake", true},
      {0x100, "display clock setting", true},
  };
  return names;
}

std::vector<std::string> throttleReasonWords(uint64_t mask) {
  std::vector<std::string> words;
  uint64_t known = 0;
  for (const auto& n : throttleReasonNames()) {
    known |= n.bit;
    if (mask & n.bit) words.emplace_back(n.words);
  }
  for (uint64_t bit = 1; bit != 0; bit <<= 1)
    if ((mask & bit) && !(known & bit)) {
      char text[32];
      std::snprintf(text, sizeof text, "reason 0x%llx", static_cast<unsigned long long>(bit));
      words.emplace_back(text);
    }
  return words;
}

bool clockThrottled(uint64_t mask) {
  uint64_t harmless = 0;
  for (const auto& n : throttleReasonNames())
    if (!n.throttles) harmless |= n.bit;
  return (mask & ~harmless) != 0;
}

namespace {

std::string joined(const std::vector<std::string>& words) {
  std::string text;
  for (const auto& w : words) text += (text.empty() ? "" : ", ") + w;
  return text;
}

}  // namespace

std::string throttleText(uint64_t mask) {
  uint64_t harmless = 0;
  for (const auto& n : throttleReasonNames())
    if (!n.throttles) harmless |= n.bit;
  if (clockThrottled(mask)) return "throttled: " + joined(throttleReasonWords(mask & ~harmless));
  if (mask == 0) return "not throttled";
  return "not throttled (" + joined(throttleReasonWords(mask)) + ")";
}

NvmlMatch matchNvmlDevice(const OpenClDeviceKey& key, const std::vector<NvmlDeviceInfo>& devices) {
  char text[160];
  if (key.forcedIndex) {
    for (const auto& d : devices)
      if (d.index == *key.forcedIndex) {
        std::snprintf(text, sizeof text, "KERNELSCOPE_NVML_DEVICE=%u", *key.forcedIndex);
        return {d.index, text};
      }
    return {std::nullopt, "KERNELSCOPE_NVML_DEVICE=" + std::to_string(*key.forcedIndex) + ": NVML has " +
                              std::to_string(devices.size()) + " devices"};
  }
  if (!key.nvidia) return {std::nullopt, "not an NVIDIA device"};
  if (devices.empty()) return {std::nullopt, "NVML lists no devices"};
  if (key.pciBus && key.pciSlot) {
    // OpenCL gives no PCI domain: a bus and slot seen in two domains is ambiguous.
    std::vector<unsigned> found;
    for (const auto& d : devices)
      if (d.hasPci && d.pciBus == *key.pciBus && d.pciDevice == *key.pciSlot) found.push_back(d.index);
    std::snprintf(text, sizeof text, "PCI bus 0x%02x, slot %u", *key.pciBus, *key.pciSlot);
    if (found.size() == 1) return {found.front(), text};
    if (found.empty()) return {std::nullopt, std::string("no NVML device at ") + text};
  }
  std::vector<unsigned> sameName;
  for (const auto& d : devices)
    if (d.name == key.name) sameName.push_back(d.index);
  if (sameName.size() == 1) return {sameName.front(), "name (" + key.name + ")"};
  // Both lists follow PCI order on the usual drivers; said as the weakest match.
  if (key.nvidiaIndex >= 0 && static_cast<size_t>(key.nvidiaIndex) < devices.size()) {
    const auto& d = devices[static_cast<size_t>(key.nvidiaIndex)];
    return {d.index, "index " + std::to_string(key.nvidiaIndex) + " among NVIDIA devices (no PCI ID; " +
                         (sameName.empty() ? "names differ" : "several alike") + ")"};
  }
  return {std::nullopt, "no NVML device matches " + key.name};
}

EnergyEstimate energyOver(const std::vector<GpuSample>& samples, double t0, double t1) {
  EnergyEstimate e;
  const double span = t1 - t0;
  if (span <= 0.0) return e;
  // The counter: from the last reading at or before t0 (else the first) to the last at or before t1.
  const GpuSample *from = nullptr, *to = nullptr;
  for (const auto& s : samples) {
    if (!s.energyJ || s.seconds > t1) continue;
    if (s.seconds <= t0 || !from) from = &s;
    to = &s;
  }
  if (from && to && to->seconds - from->seconds >= 0.5 && *to->energyJ >= *from->energyJ) {
    e.watts = (*to->energyJ - *from->energyJ) / (to->seconds - from->seconds);
    e.joules = e.watts * span;
    e.source = "energy counter";
    return e;
  }
  double sum = 0.0;
  int count = 0;
  const GpuSample* before = nullptr;
  for (const auto& s : samples) {
    if (!s.powerW) continue;
    if (s.seconds < t0) before = &s;
    else if (s.seconds <= t1) sum += *s.powerW, ++count;
  }
  if (count == 0 && before) sum = *before->powerW, count = 1;
  if (count == 0) return e;
  e.watts = sum / count;
  e.joules = e.watts * span;
  e.source = "power x time";
  return e;
}

uint64_t throttleReasonsOver(const std::vector<GpuSample>& samples, double t0, double t1) {
  uint64_t mask = 0, before = 0;
  bool inside = false;
  for (const auto& s : samples) {
    if (!s.throttleReasons) continue;
    if (s.seconds < t0) before = *s.throttleReasons;
    else if (s.seconds <= t1) mask |= *s.throttleReasons, inside = true;
  }
  return inside ? mask : before;
}

std::vector<std::string> telemetryLines(const GpuTelemetryState& state) {
  if (!state.available) return {state.status};
  if (state.history.empty()) return {"NVML: waiting for the first sample (" + state.nvmlDevice + ")"};
  const GpuSample& s = state.history.back();
  auto figure = [](const std::optional<double>& v, const char* format) {
    if (!v) return std::string("-");
    char text[32];
    std::snprintf(text, sizeof text, format, *v);
    return std::string(text);
  };
  std::vector<std::string> lines;
  lines.push_back("SM clock " + figure(s.smClockMHz, "%.0f MHz") + ", memory clock " + figure(s.memClockMHz, "%.0f MHz"));
  lines.push_back("power " + figure(s.powerW, "%.1f W") + ", temperature " + figure(s.temperatureC, "%.0f \xC2\xB0" "C"));
  lines.push_back(s.throttleReasons ? throttleText(*s.throttleReasons) : "throttle reasons: -");
  lines.push_back(state.nvmlDevice + " (matched by " + state.status + ")");
  return lines;
}

}  // namespace ks
