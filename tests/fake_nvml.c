/* A stand-in for libnvidia-ml.so.1 with canned figures, so the NVML loader, the
 * sampler, the Profiler's text and the run records' energy fields are tested
 * without an NVIDIA GPU (KERNELSCOPE_NVML_LIBRARY points kernelscope at it).
 * Two devices: 0 "Fake GPU A" at PCI 0000:17:00.0, 1 "Fake GPU B" at 0000:65:00.0.
 * SM clock 1410 MHz, memory 1593 MHz, 57 C, power 150.5 W; the energy counter
 * climbs at 200 W (not the power reading: a test then sees which one was used).
 * Environment: FAKE_NVML_INIT_ERROR=<code> (nvmlInit_v2 fails with it),
 * FAKE_NVML_THROTTLE=<hex mask> (default 0), FAKE_NVML_NO_ENERGY=1 (no counter). */
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef int nvmlReturn_t;
typedef struct FakeDevice {
  const char* name;
  unsigned bus;
} FakeDevice;
typedef FakeDevice* nvmlDevice_t;

typedef struct {
  char busIdLegacy[16];
  unsigned domain, bus, device, pciDeviceId, pciSubSystemId;
  char busId[32];
} nvmlPciInfo_t;

static FakeDevice devices[2] = {{"Fake GPU A", 0x17}, {"Fake GPU B", 0x65}};
static int liveInits = 0;

enum { kSuccess = 0, kUninitialized = 1, kInvalidArgument = 2, kNotSupported = 3 };

static double nowSeconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int valid(nvmlDevice_t d) { return liveInits > 0 && (d == &devices[0] || d == &devices[1]); }

nvmlReturn_t nvmlInit_v2(void) {
  const char* error = getenv("FAKE_NVML_INIT_ERROR");
  if (error && *error) return atoi(error);
  ++liveInits;
  return kSuccess;
}

nvmlReturn_t nvmlShutdown(void) {
  if (liveInits == 0) return kUninitialized;
  --liveInits;
  return kSuccess;
}

/* Not NVML: how many nvmlInit_v2 calls have no nvmlShutdown yet (a test checks the loader's). */
int fakeNvmlLiveInits(void) { return liveInits; }

const char* nvmlErrorString(nvmlReturn_t r) {
  switch (r) {
    case kSuccess: return "Success";
    case kUninitialized: return "Uninitialized";
    case kInvalidArgument: return "Invalid Argument";
    case kNotSupported: return "Not Supported";
    case 9: return "Driver Not Loaded";
    default: return "Unknown Error";
  }
}

nvmlReturn_t nvmlDeviceGetCount_v2(unsigned* count) {
  if (liveInits == 0) return kUninitialized;
  if (!count) return kInvalidArgument;
  *count = 2;
  return kSuccess;
}

nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned index, nvmlDevice_t* device) {
  if (liveInits == 0) return kUninitialized;
  if (index >= 2 || !device) return kInvalidArgument;
  *device = &devices[index];
  return kSuccess;
}

nvmlReturn_t nvmlDeviceGetPciInfo_v3(nvmlDevice_t d, nvmlPciInfo_t* pci) {
  if (!valid(d) || !pci) return kInvalidArgument;
  memset(pci, 0, sizeof *pci);
  pci->bus = d->bus;
  pci->device = 0;
  pci->domain = 0;
  return kSuccess;
}

nvmlReturn_t nvmlDeviceGetName(nvmlDevice_t d, char* name, unsigned length) {
  if (!valid(d) || !name || length == 0) return kInvalidArgument;
  strncpy(name, d->name, length - 1);
  name[length - 1] = '\0';
  return kSuccess;
}

nvmlReturn_t nvmlDeviceGetClockInfo(nvmlDevice_t d, unsigned type, unsigned* mhz) {
  if (!valid(d) || !mhz) return kInvalidArgument;
  if (type == 1) *mhz = 1410;
  else if (type == 2) *mhz = 1593;
  else return kNotSupported;
  return kSuccess;
}

nvmlReturn_t nvmlDeviceGetPowerUsage(nvmlDevice_t d, unsigned* milliwatts) {
  if (!valid(d) || !milliwatts) return kInvalidArgument;
  *milliwatts = 150500;
  return kSuccess;
}

nvmlReturn_t nvmlDeviceGetTotalEnergyConsumption(nvmlDevice_t d, unsigned long long* millijoules) {
  if (!valid(d) || !millijoules) return kInvalidArgument;
  const char* none = getenv("FAKE_NVML_NO_ENERGY");
  if (none && *none == '1') return kNotSupported;
  /* 200 W since an arbitrary start long ago: a large count, as a driver up for days has. */
  *millijoules = 5000000000ULL + (unsigned long long)(nowSeconds() * 200.0 * 1000.0);
  return kSuccess;
}

nvmlReturn_t nvmlDeviceGetTemperature(nvmlDevice_t d, unsigned sensor, unsigned* celsius) {
  if (!valid(d) || !celsius) return kInvalidArgument;
  if (sensor != 0) return kNotSupported;
  *celsius = 57;
  return kSuccess;
}

nvmlReturn_t nvmlDeviceGetCurrentClocksThrottleReasons(nvmlDevice_t d, unsigned long long* reasons) {
  if (!valid(d) || !reasons) return kInvalidArgument;
  const char* mask = getenv("FAKE_NVML_THROTTLE");
  *reasons = mask && *mask ? strtoull(mask, NULL, 16) : 0ULL;
  return kSuccess;
}
