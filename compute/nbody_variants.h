#pragma once
// The N-body kernel variants as data: the UI, the benchmark CLI, the sweeps and
// the tests all iterate over this one table, and over nbodyConfigProblem() to
// know which combinations a device can run.
#include <cstddef>
#include <string>
#include <vector>

#include "compute/config_parameters.h"
#include "compute/device_catalog.h"

namespace ks {

struct NBodyVariant {
  const char* name;         // "naive", "tiled", "blocked"
  const char* kernel;       // kernel function in kernels/nbody.cl
  const char* description;
  bool localMemory;         // stages tiles in local memory (work-group size = tile size)
  std::vector<int> unrolls;        // allowed UNROLL values
  std::vector<int> bodiesPerItem;  // allowed BODIES_PER_ITEM values
  std::vector<int> splits;         // allowed SPLIT values (work-items per body)
};

const std::vector<NBodyVariant>& nbodyVariants();
const NBodyVariant* findNBodyVariant(const std::string& name);
constexpr const char* kNBodyKernelFile = "nbody.cl";
constexpr int kNBodyWorkGroupStep = 32;  // work-group sizes are multiples of 32, from 32 up
constexpr int kNBodyLargestSweptWorkGroup = 1024;
// Every work-group size the UI offers: the multiples of kNBodyWorkGroupStep up to
// kNBodyLargestSweptWorkGroup (a device may refuse the larger ones).
std::vector<int> nbodyWorkGroups();
// The work-group sizes sweeps try: powers of two from kNBodyWorkGroupStep to
// kNBodyLargestSweptWorkGroup (any multiple of 32 runs; these are the ones worth timing).
std::vector<int> nbodySweptWorkGroups();

// One runnable configuration of a variant.
struct NBodyConfig {
  std::string variant = "blocked";
  int workGroup = 256;
  int unroll = 8;
  int bodiesPerItem = 2;
  int split = 1;                // work-items sharing one body
  bool fp64 = false;
  bool nativeRsqrt = true;      // native_rsqrt instead of rsqrt (fp32 only)
  bool fastRelaxedMath = false; // -cl-fast-relaxed-math
  bool denormsAreZero = false;  // -cl-denorms-are-zero
  std::string extraOptions;     // appended as is (e.g. -cl-nv-maxrregcount=64, -DLET_COMPILER_UNROLL)
  bool operator==(const NBodyConfig&) const = default;
};

// Its whole-number parameters by name (compute/config_parameters.h), as runs and
// tuning.json name them.
const std::vector<ConfigParameter<NBodyConfig>>& nbodyConfigParameters();

std::string nbodyBuildOptions(const NBodyConfig& config);
std::string describeNBodyConfig(const NBodyConfig& config);  // "blocked wg=256 unroll=8 B=2 fp32 native_rsqrt"

// Bodies per work-group, and the padded body count a configuration runs on
// (a multiple of work-group x bodies per item, so tiles never run past the end).
size_t nbodyBodiesPerGroup(const NBodyConfig& config);
size_t nbodyPaddedCount(size_t bodies, const NBodyConfig& config);
size_t nbodyGlobalSize(size_t padded, const NBodyConfig& config);  // work-items per step
// Bytes of local memory the variant uses for this configuration.
size_t nbodyLocalMemoryBytes(const NBodyConfig& config);

// Empty when the device can run the configuration before building it; otherwise
// why not (unknown variant, unroll or B outside the variant's range, work-group
// not a multiple of 32 or above the device's limit, local memory overflow, fp64
// without cl_khr_fp64). The kernel's own limit (CL_KERNEL_WORK_GROUP_SIZE) is
// checked after the build by the simulation.
std::string nbodyConfigProblem(const NBodyConfig& config, const DeviceDescriptor& device);

// Every configuration of the table the device can run (for sweeps), fp32 or fp64.
std::vector<NBodyConfig> allNBodyConfigs(const DeviceDescriptor& device, bool fp64);

}  // namespace ks
