#include "compute/work_model.h"

#include <cstdio>

namespace ks {

KernelWork scaledWork(KernelWork work, double fraction) {
  work.dramBytes *= fraction;
  work.fp32Instructions *= fraction;
  work.fp64Instructions *= fraction;
  work.rsqrtOps *= fraction;
  work.localBytes *= fraction;
  work.localAtomics *= fraction;
  return work;
}

KernelWork nbodyStepWork(size_t bodies, const NBodyConfig& c) {
  const double n = static_cast<double>(bodies), interactions = n * n;
  const double real4Bytes = c.fp64 ? 32.0 : 16.0;
  KernelWork w;
  // positions in and out, velocities in and out, the display's float4 out
  w.dramBytes = n * (4.0 * real4Bytes + 16.0);
  (c.fp64 ? w.fp64Instructions : w.fp32Instructions) = 12.0 * interactions;
  w.rsqrtOps = interactions;
  w.nativeRsqrt = c.nativeRsqrt && !c.fp64;
  if (findNBodyVariant(c.variant) && c.variant != "naive") {
    // Each body is staged in local memory once per work-group, and each local read
    // feeds BODIES_PER_ITEM interactions.
    const double groups = n / std::max(1, c.workGroup * c.bodiesPerItem / std::max(1, c.split));
    w.localBytes = interactions * real4Bytes / std::max(1, c.bodiesPerItem) + groups * n * real4Bytes;
  }
  w.counted = "12 arithmetic instructions and 1 rsqrt per interaction, N^2 interactions; bodies read and written "
              "once per step";
  return w;
}

KernelWork transposeWork(const ImageLayout& in, const TransposeConfig& c) {
  KernelWork w;
  w.dramBytes = 2.0 * static_cast<double>(in.bytes());
  if (c.variant != "naive") w.localBytes = 2.0 * static_cast<double>(in.bytes());  // through a tile: written, read
  w.counted = "every byte read once and written once";
  return w;
}

KernelWork histogramWork(const ImageLayout& in, const HistogramConfig& c) {
  KernelWork w;
  w.dramBytes = static_cast<double>(in.bytes());
  w.readOnly = true;
  int counted = 1;
  if (in.channels == 4) {
    counted = 0;
    for (int bit = 0; bit < 5; ++bit) counted += (c.countedChannels >> bit) & 1;
  }
  if (c.variant.rfind("local_atomic", 0) == 0) {
    w.localAtomics = static_cast<double>(in.pixels()) * counted;
    w.counted = "the picture read once; one local atomic increment per pixel and counted channel";
  } else {
    w.counted = "the picture read once (counts kept in private or local words without atomics)";
  }
  return w;
}

KernelWork rotateWork(const ImageLayout& in, const ImageLayout& out) {
  KernelWork w;
  w.dramBytes = static_cast<double>(in.bytes() + out.bytes());
  w.counted = "the source read once and the result written once; the texture units' fetch rate is not measured";
  return w;
}

std::string KernelBound::label() const {
  if (binding < 0) return "";
  char text[96];
  std::snprintf(text, sizeof text, "%s: %.0f %%", uses[static_cast<size_t>(binding)].label,
                100.0 * uses[static_cast<size_t>(binding)].fraction());
  return text;
}

KernelBound kernelBound(const KernelWork& w, double ms, const MeasuredCeilings& ceilings) {
  KernelBound b;
  if (!(ms > 0.0)) return b;
  const double perSecond = 1e3 / ms;  // launches per second
  struct Candidate {
    Ceiling ceiling;
    const char* label;
    double amount;      // per launch, in the ceiling's unit times a second
    double opsPerUnit;  // operations per unit of the ceiling (a MAD instruction is 2 flops)
  };
  const Candidate candidates[] = {
      {w.readOnly ? Ceiling::Read : Ceiling::Copy, w.readOnly ? "DRAM read" : "DRAM", w.dramBytes * 1e-9, 1e9},
      {Ceiling::Fp32Mad, "FP32 issue", 2.0 * w.fp32Instructions * 1e-9, 0.5e9},
      {Ceiling::Fp64Mad, "FP64 issue", 2.0 * w.fp64Instructions * 1e-9, 0.5e9},
      // The roofline and the Profiler show the label: words, not the OpenCL function's name.
      {w.nativeRsqrt ? Ceiling::NativeRsqrt : Ceiling::Rsqrt,
       w.nativeRsqrt ? "fast inverse square root" : "inverse square root",
       w.rsqrtOps * 1e-9, 1e9},
      {Ceiling::LocalBandwidth, "local memory", w.localBytes * 1e-9, 1e9},
      {Ceiling::LocalAtomics, "local atomics", w.localAtomics * 1e-9, 1e9},
  };
  for (const Candidate& c : candidates) {
    const double limit = ceilings.value(c.ceiling);
    if (c.amount <= 0.0 || limit <= 0.0) continue;
    b.uses.push_back({c.ceiling, c.label, c.amount * perSecond, limit});
    if (b.binding < 0 || b.uses.back().fraction() > b.uses[static_cast<size_t>(b.binding)].fraction())
      b.binding = static_cast<int>(b.uses.size()) - 1;
  }
  if (b.binding >= 0 && w.dramBytes > 0.0) {
    const ResourceUse& u = b.uses[static_cast<size_t>(b.binding)];
    const Candidate* c = nullptr;
    for (const Candidate& k : candidates)
      if (k.ceiling == u.ceiling) c = &k;
    const double ops = c->amount * c->opsPerUnit;  // per launch
    b.intensity = ops / w.dramBytes;
    b.opsRate = ops * perSecond * 1e-9;
  }
  return b;
}

}  // namespace ks
