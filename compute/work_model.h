#pragma once
// What one launch of each kernel does, counted by hand from its source as a
// function of its parameters (issue 23), and which measured ceiling that work
// meets first: "FP32 issue: 70 %", "DRAM read: 52 %", "local atomics: 81 %".
// Rates compare against compute/ceilings' measured figures, never a data sheet.
#include <string>
#include <vector>

#include "compute/ceilings.h"
#include "compute/image_histogram.h"
#include "compute/image_layout.h"
#include "compute/image_transpose.h"
#include "compute/nbody_variants.h"

namespace ks {

struct KernelWork {
  double dramBytes = 0.0;       // global memory read + written, each byte once (what a perfect cache leaves)
  bool readOnly = false;        // nearly all of it read: compared with the read ceiling, not the copy
  double fp32Instructions = 0;  // arithmetic instructions (an FMA is one)
  double fp64Instructions = 0;
  double rsqrtOps = 0;          // reciprocal square roots
  bool nativeRsqrt = false;     // native_rsqrt (compared with its own rate)
  double localBytes = 0;        // local memory read + written
  double localAtomics = 0;      // atomic increments on local memory
  std::string counted;          // how it was counted, in words
};

// N-body step: 12 arithmetic instructions and one rsqrt per interaction (3 subtractions,
// 3 for |d|^2 + eps^2, 3 for m / r^3, 3 FMAs into the acceleration), N^2 interactions.
KernelWork nbodyStepWork(size_t bodies, const NBodyConfig& config);
// `work` with every amount times `fraction` (a share of a launch, as one device's slice of a split step).
KernelWork scaledWork(KernelWork work, double fraction);
KernelWork transposeWork(const ImageLayout& in, const TransposeConfig& config);
KernelWork histogramWork(const ImageLayout& in, const HistogramConfig& config);
KernelWork rotateWork(const ImageLayout& in, const ImageLayout& out);

// One resource a kernel uses, against its measured ceiling.
struct ResourceUse {
  Ceiling ceiling;
  const char* label;  // "FP32 issue", "DRAM read", "DRAM", "local memory", "local atomics", "inverse square root"
  double achieved;    // in the ceiling's unit (instructions are counted as 2 flops: the ceiling's MAD rate)
  double limit;       // the ceiling's value
  double fraction() const { return limit > 0.0 ? achieved / limit : 0.0; }
};

struct KernelBound {
  std::vector<ResourceUse> uses;  // only resources the kernel uses and the device has a figure for
  int binding = -1;               // index into uses of the largest fraction; -1: none
  // "FP32 issue: 70 %"; "" when nothing is measured.
  std::string label() const;
  // Operations per DRAM byte and their rate (G/s) for the roofline: the binding
  // resource's operations (instructions, rsqrts, atomics), or bytes when memory binds.
  double intensity = 0.0, opsRate = 0.0;
};

// `ms`: the kernel's time per launch.
KernelBound kernelBound(const KernelWork& work, double ms, const MeasuredCeilings& ceilings);

}  // namespace ks
