// ks::selectDevice over fake device lists: no OpenCL runtime involved (null handles).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "compute/device_selection.h"
#include "test_devices.h"

namespace ks {
namespace {

DeviceDescriptor fake(int platformIndex, int deviceIndex, std::string platformName, std::string name,
                      DeviceKind kind, bool available = true, bool sharesGl = false) {
  DeviceDescriptor d = test::fakeDevice(platformIndex, deviceIndex, platformName, name, kind);
  d.platformVendor = d.platformName + " Vendor";
  d.vendor = "Vendor of " + d.name;
  d.available = available;
  d.sharesCurrentGlContext = sharesGl;
  return d;  // platform and id stay nullptr
}

DeviceRequest request(std::optional<std::string> platform, std::optional<std::string> device) {
  return DeviceRequest{std::move(platform), std::move(device)};
}

// Two platforms as the runtime would list them:
//   [0] platform 0 device 0  PoCL CPU
//   [1] platform 0 device 1  PoCL "basic" accelerator-ish (Other)
//   [2] platform 1 device 0  NVIDIA GPU A (no GL sharing)
//   [3] platform 1 device 1  NVIDIA GPU B (shares the GL context)
std::vector<DeviceDescriptor> twoPlatforms() {
  return {
      fake(0, 0, "Portable Computing Language", "pthread-skylake", DeviceKind::Cpu),
      fake(0, 1, "Portable Computing Language", "basic-other", DeviceKind::Other),
      fake(1, 0, "NVIDIA CUDA", "NVIDIA H100", DeviceKind::Gpu),
      fake(1, 1, "NVIDIA CUDA", "NVIDIA H200", DeviceKind::Gpu, true, /*sharesGl=*/true),
  };
}

TEST(DeviceSelection, DefaultPrefersGpuSharingGlContext) {
  const auto devices = twoPlatforms();
  const DeviceChoice choice = selectDevice(devices, {});
  ASSERT_TRUE(choice.index.has_value()) << choice.reason;
  EXPECT_EQ(*choice.index, 3u);
  EXPECT_NE(choice.reason.find("GPU sharing the GL context"), std::string::npos) << choice.reason;
}

TEST(DeviceSelection, DefaultOrderGpuThenCpuThenOther) {
  auto devices = twoPlatforms();
  devices[3].sharesCurrentGlContext = false;  // no sharing GPU: first plain GPU wins
  auto choice = selectDevice(devices, {});
  ASSERT_TRUE(choice.index);
  EXPECT_EQ(*choice.index, 2u);
  EXPECT_NE(choice.reason.find("GPU"), std::string::npos) << choice.reason;

  // no GPUs at all: the CPU, even though "Other" comes after it or before it
  std::vector<DeviceDescriptor> noGpu = {fake(0, 0, "X", "other-device", DeviceKind::Other),
                                         fake(0, 1, "X", "accel", DeviceKind::Accelerator),
                                         fake(1, 0, "Y", "cpu", DeviceKind::Cpu)};
  choice = selectDevice(noGpu, {});
  ASSERT_TRUE(choice.index);
  EXPECT_EQ(*choice.index, 2u);
  EXPECT_NE(choice.reason.find("CPU"), std::string::npos) << choice.reason;

  // only "other" kinds: the first of them
  std::vector<DeviceDescriptor> onlyOther = {fake(0, 0, "X", "accel", DeviceKind::Accelerator),
                                             fake(0, 1, "X", "custom", DeviceKind::Other)};
  choice = selectDevice(onlyOther, {});
  ASSERT_TRUE(choice.index);
  EXPECT_EQ(*choice.index, 0u);
  EXPECT_NE(choice.reason.find("another kind"), std::string::npos) << choice.reason;
}

TEST(DeviceSelection, SharingFlagOnCpuDoesNotOutrankGpu) {
  // Rank 0 is a *GPU* sharing GL; a CPU claiming to share still ranks as a CPU.
  std::vector<DeviceDescriptor> devices = {fake(0, 0, "P", "cpu", DeviceKind::Cpu, true, true),
                                           fake(0, 1, "P", "gpu", DeviceKind::Gpu)};
  const auto choice = selectDevice(devices, {});
  ASSERT_TRUE(choice.index);
  EXPECT_EQ(*choice.index, 1u);
}

TEST(DeviceSelection, UnavailableDevicesAreSkipped) {
  auto devices = twoPlatforms();
  devices[3].available = false;  // the sharing GPU
  devices[2].available = false;  // the other GPU
  auto choice = selectDevice(devices, {});
  ASSERT_TRUE(choice.index) << choice.reason;
  EXPECT_EQ(*choice.index, 0u);  // the CPU

  // explicitly asking for an unavailable device fails with a reason
  choice = selectDevice(devices, request(std::nullopt, "H200"));
  EXPECT_FALSE(choice.index);
  EXPECT_NE(choice.reason.find("not available"), std::string::npos) << choice.reason;

  for (auto& d : devices) d.available = false;
  choice = selectDevice(devices, {});
  EXPECT_FALSE(choice.index);
  EXPECT_FALSE(choice.reason.empty());
}

TEST(DeviceSelection, PlatformByIndex) {
  const auto devices = twoPlatforms();
  auto choice = selectDevice(devices, request("0", std::nullopt));
  ASSERT_TRUE(choice.index) << choice.reason;
  EXPECT_EQ(*choice.index, 0u);  // CPU beats Other within platform 0
  EXPECT_EQ(choice.reason, "matches the request");

  choice = selectDevice(devices, request("1", std::nullopt));
  ASSERT_TRUE(choice.index) << choice.reason;
  EXPECT_EQ(*choice.index, 3u);  // the GL-sharing GPU within platform 1

  choice = selectDevice(devices, request("7", std::nullopt));
  EXPECT_FALSE(choice.index);
  EXPECT_NE(choice.reason.find("'7'"), std::string::npos) << choice.reason;
}

TEST(DeviceSelection, PlatformByCaseInsensitiveNameSubstring) {
  const auto devices = twoPlatforms();
  auto choice = selectDevice(devices, request("portable", std::nullopt));
  ASSERT_TRUE(choice.index) << choice.reason;
  EXPECT_EQ(devices[*choice.index].platformIndex, 0);

  choice = selectDevice(devices, request("cUdA", std::nullopt));
  ASSERT_TRUE(choice.index) << choice.reason;
  EXPECT_EQ(devices[*choice.index].platformIndex, 1);

  // the platform vendor counts as well
  choice = selectDevice(devices, request("nvidia cuda vendor", std::nullopt));
  ASSERT_TRUE(choice.index) << choice.reason;
  EXPECT_EQ(devices[*choice.index].platformIndex, 1);
}

TEST(DeviceSelection, DeviceByGlobalIndexWithoutPlatform) {
  const auto devices = twoPlatforms();
  for (size_t i = 0; i < devices.size(); ++i) {
    const auto choice = selectDevice(devices, request(std::nullopt, std::to_string(i)));
    ASSERT_TRUE(choice.index) << "index " << i << ": " << choice.reason;
    EXPECT_EQ(*choice.index, i);  // the explicit choice wins over the default order
  }
  const auto choice = selectDevice(devices, request(std::nullopt, "4"));
  EXPECT_FALSE(choice.index);
  EXPECT_NE(choice.reason.find("'4'"), std::string::npos) << choice.reason;
}

TEST(DeviceSelection, DeviceByIndexWithinPlatform) {
  const auto devices = twoPlatforms();
  auto choice = selectDevice(devices, request("1", "0"));
  ASSERT_TRUE(choice.index) << choice.reason;
  EXPECT_EQ(*choice.index, 2u);  // platform 1, device 0 (not global device 0)

  choice = selectDevice(devices, request("portable", "1"));
  ASSERT_TRUE(choice.index) << choice.reason;
  EXPECT_EQ(*choice.index, 1u);

  choice = selectDevice(devices, request("0", "2"));  // platform 0 has only two devices
  EXPECT_FALSE(choice.index);
  EXPECT_NE(choice.reason.find("'2'"), std::string::npos) << choice.reason;
}

TEST(DeviceSelection, DeviceByNameSubstring) {
  const auto devices = twoPlatforms();
  auto choice = selectDevice(devices, request(std::nullopt, "h100"));
  ASSERT_TRUE(choice.index) << choice.reason;
  EXPECT_EQ(*choice.index, 2u);

  choice = selectDevice(devices, request(std::nullopt, "SKYLAKE"));
  ASSERT_TRUE(choice.index) << choice.reason;
  EXPECT_EQ(*choice.index, 0u);

  // several matches: the default order decides among them
  choice = selectDevice(devices, request(std::nullopt, "nvidia"));
  ASSERT_TRUE(choice.index) << choice.reason;
  EXPECT_EQ(*choice.index, 3u);

  // name plus platform
  choice = selectDevice(devices, request("cuda", "H100"));
  ASSERT_TRUE(choice.index) << choice.reason;
  EXPECT_EQ(*choice.index, 2u);
}

TEST(DeviceSelection, NoMatchGivesEmptyIndexAndNamesTheSelector) {
  const auto devices = twoPlatforms();
  auto choice = selectDevice(devices, request(std::nullopt, "radeon"));
  EXPECT_FALSE(choice.index);
  EXPECT_NE(choice.reason.find("radeon"), std::string::npos) << choice.reason;
  EXPECT_NE(choice.reason.find("device"), std::string::npos) << choice.reason;

  choice = selectDevice(devices, request("intel opencl", std::nullopt));
  EXPECT_FALSE(choice.index);
  EXPECT_NE(choice.reason.find("intel opencl"), std::string::npos) << choice.reason;
  EXPECT_NE(choice.reason.find("platform"), std::string::npos) << choice.reason;

  // platform matches, device within it does not
  choice = selectDevice(devices, request("cuda", "skylake"));
  EXPECT_FALSE(choice.index);
  EXPECT_NE(choice.reason.find("skylake"), std::string::npos) << choice.reason;
}

TEST(DeviceSelection, EmptyListGivesNoDevice) {
  const std::vector<DeviceDescriptor> none;
  auto choice = selectDevice(none, {});
  EXPECT_FALSE(choice.index);
  EXPECT_FALSE(choice.reason.empty());
  choice = selectDevice(none, request("0", "0"));
  EXPECT_FALSE(choice.index);
  EXPECT_FALSE(choice.reason.empty());
}

TEST(DeviceSelection, StableOrderAmongEquals) {
  // Equal rank: the runtime's own order wins, whatever the names.
  std::vector<DeviceDescriptor> gpus = {fake(0, 0, "P", "zeta-gpu", DeviceKind::Gpu),
                                        fake(0, 1, "P", "alpha-gpu", DeviceKind::Gpu),
                                        fake(1, 0, "Q", "beta-gpu", DeviceKind::Gpu)};
  auto choice = selectDevice(gpus, {});
  ASSERT_TRUE(choice.index);
  EXPECT_EQ(*choice.index, 0u);

  // An "other" device listed before several CPUs does not disturb their order.
  std::vector<DeviceDescriptor> mixed = {fake(0, 0, "P", "other", DeviceKind::Other),
                                         fake(0, 1, "P", "cpu-b", DeviceKind::Cpu),
                                         fake(1, 0, "Q", "cpu-a", DeviceKind::Cpu)};
  choice = selectDevice(mixed, {});
  ASSERT_TRUE(choice.index);
  EXPECT_EQ(*choice.index, 1u);

  // Same with a name filter matching several equals.
  choice = selectDevice(mixed, request(std::nullopt, "cpu"));
  ASSERT_TRUE(choice.index);
  EXPECT_EQ(*choice.index, 1u);

  // Unavailable first among equals: the next one in runtime order.
  gpus[0].available = false;
  choice = selectDevice(gpus, {});
  ASSERT_TRUE(choice.index);
  EXPECT_EQ(*choice.index, 1u);
}

TEST(DeviceSelection, NegativeOrMalformedIndexIsTreatedAsName) {
  // "-1" and "1x" are not indices; they are name substrings that match nothing here.
  const auto devices = twoPlatforms();
  auto choice = selectDevice(devices, request(std::nullopt, "-1"));
  EXPECT_FALSE(choice.index);
  EXPECT_NE(choice.reason.find("'-1'"), std::string::npos) << choice.reason;
  choice = selectDevice(devices, request(std::nullopt, "1x"));
  EXPECT_FALSE(choice.index);
  // ...and "H1" is a substring of "NVIDIA H100" / "NVIDIA H200"
  choice = selectDevice(devices, request(std::nullopt, "H1"));
  ASSERT_TRUE(choice.index);
  EXPECT_EQ(*choice.index, 2u);
}

}  // namespace
}  // namespace ks
