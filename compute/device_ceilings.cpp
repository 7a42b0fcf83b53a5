#include "compute/device_ceilings.h"

#include <cstdio>


namespace ks {
namespace {

// FP32 lanes per compute unit, by device-name pattern, first match wins (so
// "A100" comes before "A10", "L40" before "L4"). Only parts whose lane count per
// CU is documented by the vendor; CL_DEVICE_MAX_CLOCK_FREQUENCY is the boost clock
// on these drivers, so the figure is the vendor's peak, not a sustained rate.
struct PeakRule {
  const char* vendor;       // substring of CL_DEVICE_VENDOR (case-sensitive, as drivers report it)
  const char* namePattern;  // substring of CL_DEVICE_NAME; "" matches any GPU of the vendor
  int lanesPerCu;
  const char* family;
};

constexpr PeakRule kPeakRules[] = {
    {"NVIDIA", "H100", 128, "NVIDIA Hopper"},
    {"NVIDIA", "H200", 128, "NVIDIA Hopper"},
    {"NVIDIA", "H800", 128, "NVIDIA Hopper"},
    {"NVIDIA", "GH200", 128, "NVIDIA Hopper"},
    {"NVIDIA", "L40", 128, "NVIDIA Ada"},
    {"NVIDIA", "L4", 128, "NVIDIA Ada"},
    {"NVIDIA", "RTX 40", 128, "NVIDIA Ada"},
    {"NVIDIA", "RTX 30", 128, "NVIDIA Ampere GA10x"},
    {"NVIDIA", "A100", 64, "NVIDIA Ampere GA100"},
    {"NVIDIA", "A30", 64, "NVIDIA Ampere GA100"},
    {"NVIDIA", "A40", 128, "NVIDIA Ampere GA10x"},
    {"NVIDIA", "A10", 128, "NVIDIA Ampere GA10x"},
    {"NVIDIA", "V100", 64, "NVIDIA Volta"},
    {"NVIDIA", "TITAN V", 64, "NVIDIA Volta"},
    {"NVIDIA", "T4", 64, "NVIDIA Turing"},
    {"NVIDIA", "RTX 20", 64, "NVIDIA Turing"},
    {"NVIDIA", "GTX 16", 64, "NVIDIA Turing"},
    {"NVIDIA", "GTX 10", 128, "NVIDIA Pascal GP10x"},
    // Intel GPUs report execution units as compute units; each has 8 FP32 lanes (Gen9 to Xe).
    {"Intel", "", 8, "Intel Gen9-Xe (EUs)"},
};

bool contains(const std::string& text, const char* part) { return text.find(part) != std::string::npos; }

}  // namespace

std::optional<PeakFp32> peakFp32(const DeviceDescriptor& device, std::string* why) {
  auto unknown = [&](const std::string& reason) -> std::optional<PeakFp32> {
    if (why) *why = reason;
    return std::nullopt;
  };
  if (device.kind != DeviceKind::Gpu)
    return unknown("not a GPU: OpenCL does not report a CPU's SIMD width, so no peak is claimed");
  if (device.computeUnits == 0 || device.clockMHz == 0)
    return unknown("the driver reports no compute units or clock");
  for (const PeakRule& rule : kPeakRules) {
    if (!contains(device.vendor, rule.vendor) || !contains(device.name, rule.namePattern)) continue;
    PeakFp32 peak;
    peak.gflops = 2.0 * rule.lanesPerCu * device.computeUnits * device.clockMHz * 1e-3;
    char text[160];
    std::snprintf(text, sizeof text, "2 flops (FMA) x %d lanes x %u CUs x %u MHz (%s)", rule.lanesPerCu,
                  device.computeUnits, device.clockMHz, rule.family);
    peak.formula = text;
    return peak;
  }
  return unknown("no entry for " + device.vendor + " " + device.name + " in the peak table");
}

}  // namespace ks
