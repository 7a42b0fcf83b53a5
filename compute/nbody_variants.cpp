#include "compute/nbody_variants.h"

#include <algorithm>
#include <sstream>

#include "compute/kernel_op.h"
#include "compute/parameter_defines.h"

namespace ks {

const std::vector<NBodyVariant>& nbodyVariants() {
  static const std::vector<NBodyVariant> table = {
      {"naive", "nbody_naive",
       "every work-item reads all bodies from global memory (AMD's OpenCL University Kit nbody_sim_notile, "
       "its mistakes corrected)", false, {1}, {1},
       {1}},
      {"tiled", "nbody_tiled", "AMD's OpenCL University Kit nbody_sim: tiles of bodies in local memory, unrolled UNROLL times", true,
       {1, 2, 4, 8, 16, 32}, {1}, {1}},
      {"blocked", "nbody_tiled",
       "the tiled kernel (AMD's OpenCL University Kit nbody_sim) with register blocking: each work-item integrates "
       "several bodies, so each body read from local memory feeds that many interactions; and splitting: several "
       "work-items share one body, for small N",
       true, {1, 2, 4, 8, 16, 32}, {1, 2, 4}, {1, 2, 4}},
  };
  return table;
}

const NBodyVariant* findNBodyVariant(const std::string& name) {
  for (const auto& v : nbodyVariants())
    if (name == v.name) return &v;
  return nullptr;
}

std::string nbodyBuildOptions(const NBodyConfig& c) {
  std::ostringstream o;
  // The macros are the descriptor's (TILE, UNROLL, BODIES_PER_ITEM, SPLIT).
  o << parameterDefines(nbodyOp(), c.variant,
                        {{"work_group", c.workGroup}, {"unroll", c.unroll}, {"bodies_per_item", c.bodiesPerItem},
                         {"split", c.split}})
           .substr(1);
  if (c.fp64) o << " -DUSE_FP64";
  if (c.nativeRsqrt && !c.fp64) o << " -DUSE_NATIVE_RSQRT";
  if (c.fastRelaxedMath) o << " -cl-fast-relaxed-math";
  if (c.denormsAreZero) o << " -cl-denorms-are-zero";
  if (!c.extraOptions.empty()) o << ' ' << c.extraOptions;
  return o.str();
}

std::string describeNBodyConfig(const NBodyConfig& c) {
  std::ostringstream o;
  o << c.variant << " wg=" << c.workGroup;
  if (const NBodyVariant* v = findNBodyVariant(c.variant); v && v->localMemory) o << " unroll=" << c.unroll;
  if (c.variant == "blocked") o << " B=" << c.bodiesPerItem << " S=" << c.split;
  o << (c.fp64 ? " fp64" : " fp32");
  if (c.nativeRsqrt && !c.fp64) o << " native_rsqrt";
  if (c.fastRelaxedMath) o << " fast-math";
  if (c.denormsAreZero) o << " ftz";
  if (!c.extraOptions.empty()) o << " [" << c.extraOptions << ']';
  return o.str();
}

size_t nbodyBodiesPerGroup(const NBodyConfig& c) {
  return static_cast<size_t>(c.workGroup) * static_cast<size_t>(std::max(c.bodiesPerItem, 1));
}

size_t nbodyPaddedCount(size_t bodies, const NBodyConfig& c) {
  const size_t group = nbodyBodiesPerGroup(c);
  return std::max<size_t>(1, (bodies + group - 1) / group) * group;
}

size_t nbodyGlobalSize(size_t padded, const NBodyConfig& c) {
  return padded / static_cast<size_t>(std::max(c.bodiesPerItem, 1)) * static_cast<size_t>(std::max(c.split, 1));
}

size_t nbodyLocalMemoryBytes(const NBodyConfig& c) {
  const NBodyVariant* v = findNBodyVariant(c.variant);
  return v && v->localMemory ? static_cast<size_t>(c.workGroup) * (c.fp64 ? 32 : 16) : 0;
}

static bool contains(const std::vector<int>& values, int value) {
  return std::find(values.begin(), values.end(), value) != values.end();
}

std::string nbodyConfigProblem(const NBodyConfig& c, const DeviceDescriptor& device) {
  // The words of each refusal are the descriptor's (compute/kernel_ops.cpp).
  const KernelOp& op = nbodyOp();
  const NBodyVariant* v = findNBodyVariant(c.variant);
  if (!v) return op.refusal("variant", {{"variant", c.variant}});
  if (c.workGroup < kNBodyWorkGroupStep || c.workGroup % kNBodyWorkGroupStep != 0)
    return op.refusal("work_group_multiple", {{"items", c.workGroup}, {"step", kNBodyWorkGroupStep}});
  if (device.maxWorkGroupSize && static_cast<size_t>(c.workGroup) > device.maxWorkGroupSize)
    return op.refusal("work_group_items", {{"items", c.workGroup}, {"max", device.maxWorkGroupSize}});
  if (!device.maxWorkItemSizes.empty() && static_cast<size_t>(c.workGroup) > device.maxWorkItemSizes[0])
    return op.refusal("work_group_item_size", {{"items", c.workGroup}, {"max", device.maxWorkItemSizes[0]}});
  if (!contains(v->unrolls, c.unroll))
    return op.refusal("unroll_offered", {{"unroll", c.unroll}, {"variant", v->name}});
  if (v->localMemory && c.workGroup % c.unroll != 0)
    return op.refusal("unroll_divides_tile", {{"unroll", c.unroll}, {"items", c.workGroup}});
  if (!contains(v->bodiesPerItem, c.bodiesPerItem))
    return op.refusal("bodies_per_item_offered", {{"bodies", c.bodiesPerItem}, {"variant", v->name}});
  if (!contains(v->splits, c.split)) return op.refusal("split_offered", {{"split", c.split}, {"variant", v->name}});
  if (v->localMemory && (c.workGroup % c.split != 0 || (c.workGroup / c.split) % c.unroll != 0))
    return op.refusal("unroll_divides_slice", {{"unroll", c.unroll}, {"items", c.workGroup}, {"split", c.split}});
  if (c.fp64 && !device.hasExtension("cl_khr_fp64")) return op.refusal("fp64");
  const size_t local = nbodyLocalMemoryBytes(c);
  if (device.localMemBytes && local > device.localMemBytes)
    return op.refusal("local_memory", {{"bytes", local}, {"max", device.localMemBytes}});
  return {};
}

std::vector<int> nbodyWorkGroups() {
  std::vector<int> sizes;
  for (int wg = kNBodyWorkGroupStep; wg <= kNBodyLargestSweptWorkGroup; wg += kNBodyWorkGroupStep) sizes.push_back(wg);
  return sizes;
}

const std::vector<ConfigParameter<NBodyConfig>>& nbodyConfigParameters() {
  static const std::vector<ConfigParameter<NBodyConfig>> parameters = {
      {"work_group", &NBodyConfig::workGroup},
      {"unroll", &NBodyConfig::unroll},
      {"bodies_per_item", &NBodyConfig::bodiesPerItem},
      {"split", &NBodyConfig::split},
  };
  return parameters;
}

std::vector<int> nbodySweptWorkGroups() {
  std::vector<int> sizes;
  for (int wg = kNBodyWorkGroupStep; wg <= kNBodyLargestSweptWorkGroup; wg *= 2) sizes.push_back(wg);
  return sizes;
}

std::vector<NBodyConfig> allNBodyConfigs(const DeviceDescriptor& device, bool fp64) {
  std::vector<NBodyConfig> out;
  const size_t maxGroup = device.maxWorkGroupSize ? device.maxWorkGroupSize : kNBodyLargestSweptWorkGroup;
  for (const auto& v : nbodyVariants())
    for (int wg : nbodySweptWorkGroups()) {
      if (static_cast<size_t>(wg) > maxGroup) continue;
      for (int u : v.unrolls)
        for (int b : v.bodiesPerItem)
          for (int sp : v.splits) {
            NBodyConfig c;
            c.variant = v.name;
            c.workGroup = wg;
            c.unroll = u;
            c.bodiesPerItem = b;
            c.split = sp;
            c.fp64 = fp64;
            if (nbodyConfigProblem(c, device).empty()) out.push_back(c);
          }
    }
  return out;
}

}  // namespace ks
