#pragma once
// The measured ceilings of a device as plain data: what each figure is called
// (one key, used in the cache file, run records and the state dump), its unit,
// and for each measured figure how it was measured.
#include <array>
#include <cstddef>
#include <string>

namespace ks {

enum class Ceiling { Copy, Read, Fp32Mad, Fp64Mad, Rsqrt, NativeRsqrt, LocalBandwidth, LocalAtomics, Count };
constexpr size_t kCeilingCount = static_cast<size_t>(Ceiling::Count);

struct CeilingName {
  const char* key;    // "copy_gbps": cache, run records ("ceiling_copy_gbps" in CSV), state dump
  const char* label;  // what users read: "Global memory copy"
  const char* unit;   // "GB/s"
};
const CeilingName& ceilingName(Ceiling c);
Ceiling ceilingAt(size_t index);

struct CeilingFigure {
  double value = 0.0;  // in the unit of its name; 0 when there is none
  std::string method;  // "8 float4 multiply-add chains x 4096 iterations per work-item, ..."
  std::string error;   // why there is no value ("not available: no fp64")
  bool measured() const { return value > 0.0; }
};

struct MeasuredCeilings {
  std::array<CeilingFigure, kCeilingCount> figures;
  std::string time;  // ISO 8601 UTC, when measured; empty: never measured
  CeilingFigure& operator[](Ceiling c) { return figures[static_cast<size_t>(c)]; }
  const CeilingFigure& operator[](Ceiling c) const { return figures[static_cast<size_t>(c)]; }
  double value(Ceiling c) const { return (*this)[c].value; }
  bool empty() const { return time.empty(); }
};

// Just the values, index by index as Ceiling: what a run record carries.
using CeilingValues = std::array<double, kCeilingCount>;
CeilingValues ceilingValues(const MeasuredCeilings& ceilings);


}  // namespace ks
