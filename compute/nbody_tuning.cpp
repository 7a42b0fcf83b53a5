#include "compute/nbody_tuning.h"

#include <algorithm>

namespace ks {
namespace {

NBodyConfig blocked(int wg, int unroll, int b, int split, bool nativeRsqrt, bool ftz) {
  NBodyConfig c;
  c.variant = "blocked";
  c.workGroup = wg;
  c.unroll = unroll;
  c.bodiesPerItem = b;
  c.split = split;
  c.nativeRsqrt = nativeRsqrt;
  c.denormsAreZero = ftz;
  return c;
}

}  // namespace

const std::vector<NBodyTunedEntry>& nbodyTunedTable() {
  // From the measurements in docs/BENCHMARKS.md: rsqrt with -cl-denorms-are-zero
  // (rsqrt.approx.ftz) beats native_rsqrt; B=2 wins at 262144; splitting each body
  // over 4 work-items wins at 65536.
  // Entries are ordered: the first match wins, so larger minBodies come first.
  static const std::vector<NBodyTunedEntry> table = {
      {"NVIDIA", DeviceKind::Gpu, 131072, blocked(256, 32, 2, 1, false, true)},
      {"NVIDIA", DeviceKind::Gpu, 0, blocked(256, 16, 2, 4, false, true)},
      {"", DeviceKind::Gpu, 0, blocked(256, 8, 1, 1, true, false)},
      // CPU devices (PoCL): small groups; the unroll keeps the loop cheap.
      {"", DeviceKind::Cpu, 0, blocked(64, 8, 1, 1, true, false)},
  };
  return table;
}

NBodyConfig tunedNBodyConfig(const DeviceDescriptor& device, size_t bodies) {
  for (const auto& e : nbodyTunedTable())
    if (e.kind == device.kind && bodies >= e.minBodies && device.name.find(e.deviceMatch) != std::string::npos &&
        nbodyConfigProblem(e.config, device).empty())
      return e.config;
  // Portable fallback: the tiled kernel at the largest power-of-two group the
  // device allows, down to 32.
  NBodyConfig c = blocked(256, 8, 1, 1, true, false);
  while (c.workGroup > kNBodyWorkGroupStep && !nbodyConfigProblem(c, device).empty()) c.workGroup /= 2;
  if (!nbodyConfigProblem(c, device).empty()) c.variant = "naive", c.unroll = 1;
  return c;
}

}  // namespace ks
