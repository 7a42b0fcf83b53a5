// The on-disk program binary cache: the file format on its own (no device), and
// ProgramCache with a cache directory on a real OpenCL device (PoCL here): a miss
// writes an entry, a second cache instance loads it and the kernel runs, corrupt
// or truncated entries are ignored and rewritten, options make separate entries.
#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "compute/cl_objects.h"
#include "compute/compute_context.h"
#include "compute/device_catalog.h"
#include "compute/device_selection.h"
#include "compute/program_binary_cache.h"
#include "compute/program_cache.h"
#include "test_devices.h"
#include "test_require.h"
#include "test_support.h"

namespace ks {
namespace {
namespace fs = std::filesystem;

const char* kValueSource = R"CL(
__kernel void fill(__global int* out) {
  out[get_global_id(0)] = VALUE;
}
)CL";

size_t binFiles(const fs::path& dir) {
  size_t n = 0;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) n += entry.path().extension() == ".bin";
  return n;
}

// The key an entry was written for, echoed in its header: magic (8 bytes), key length (8), key.
std::string keyOf(const fs::path& entry) {
  const std::string file = test::readFile(entry);
  uint64_t length = 0;
  for (int i = 0; i < 8; ++i) length |= uint64_t(static_cast<unsigned char>(file.at(8 + i))) << (8 * i);
  return file.substr(16, length);
}

bool mentions(const std::vector<std::string>& messages, const std::string& text) {
  for (const auto& m : messages)
    if (m.find(text) != std::string::npos) return true;
  return false;
}

// ---- the file format, no device needed ---------------------------------------

TEST(ProgramBinaryFile, RoundTripsAndReportsAMissingEntryWithoutAProblem) {
  test::TempDir dir;
  ProgramBinaryCache cache(dir / "nested" / "programs");
  std::string problem = "stale";
  EXPECT_FALSE(cache.load("key", problem));
  EXPECT_TRUE(problem.empty()) << problem;
  const std::string binary("\x00\x01 binary \xff bytes", 17);
  ASSERT_EQ(cache.store("key", binary), "");
  EXPECT_EQ(cache.load("key", problem), binary) << problem;
  EXPECT_EQ(cache.pathFor("key").parent_path(), dir / "nested" / "programs");
  EXPECT_NE(cache.pathFor("key"), cache.pathFor("key2"));
}

TEST(ProgramBinaryFile, DetectsEveryKindOfDamage) {
  test::TempDir dir;
  ProgramBinaryCache cache(dir.path());
  const std::string binary(4096, 'b');
  ASSERT_EQ(cache.store("key", binary), "");
  const fs::path path = cache.pathFor("key");
  const std::string good = test::readFile(path);
  std::string problem;

  test::writeFile(path, "garbage, not a cache file at all");
  EXPECT_FALSE(cache.load("key", problem));
  EXPECT_NE(problem.find("bad header"), std::string::npos) << problem;

  test::writeFile(path, good.substr(0, good.size() / 2));
  EXPECT_FALSE(cache.load("key", problem));
  EXPECT_NE(problem.find("truncated"), std::string::npos) << problem;

  test::writeFile(path, good.substr(0, 12));
  EXPECT_FALSE(cache.load("key", problem));
  EXPECT_NE(problem.find("truncated"), std::string::npos) << problem;

  std::string flipped = good;
  flipped[flipped.size() - 100] ^= 0x5a;
  test::writeFile(path, flipped);
  EXPECT_FALSE(cache.load("key", problem));
  EXPECT_NE(problem.find("checksum"), std::string::npos) << problem;

  // an intact file under another key's name (e.g. a hash collision or a copied file)
  test::writeFile(path, good);
  fs::copy_file(path, cache.pathFor("other"), fs::copy_options::overwrite_existing);
  EXPECT_FALSE(cache.load("other", problem));
  EXPECT_NE(problem.find("key mismatch"), std::string::npos) << problem;

  EXPECT_EQ(cache.load("key", problem), binary) << problem;
}

TEST(ProgramBinaryFile, KeyNamesDeviceSourceAndOptions) {
  const std::string a = programBinaryKey("PoCL|cpu|driver 5", 1, "-DVALUE=1");
  EXPECT_NE(a, programBinaryKey("PoCL|cpu|driver 6", 1, "-DVALUE=1"));
  EXPECT_NE(a, programBinaryKey("PoCL|cpu|driver 5", 2, "-DVALUE=1"));
  EXPECT_NE(a, programBinaryKey("PoCL|cpu|driver 5", 1, "-DVALUE=2"));
}

// ---- ProgramCache with a disk cache on a real device -------------------------

class DiskProgramCacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    KS_NEED("opencl", test::openClMissing());
    const DeviceCatalog catalog = enumerateDevices();
    const DeviceChoice choice = selectDevice(catalog.devices, {});
    ASSERT_TRUE(choice.index) << choice.reason;
    device_ = catalog.devices[*choice.index];
  }

  // A fresh context and in-memory cache on the same disk directory: a new run of the app.
  // Forced on, so that the cache code is tested on CI's PoCL too (where the app leaves it off).
  std::unique_ptr<ComputeContext> newRun() {
    return std::make_unique<ComputeContext>(device_, fs::path(KERNELSCOPE_SOURCE_KERNELS_DIR), GlContextHandles{},
                                            dir_.path(), DiskCacheOnStallingDevices::Force);
  }

  std::vector<cl_int> runFill(ComputeContext& compute, const ProgramBuild& build, size_t n) {
    Kernel kernel(build.program.get(), "fill");
    Buffer out(compute.context(), CL_MEM_WRITE_ONLY, n * sizeof(cl_int));
    kernel.setArg(0, out);
    compute.queue().enqueueKernel(kernel, {n}, {});
    std::vector<cl_int> host(n, -1);
    compute.queue().readBuffer(out, 0, n * sizeof(cl_int), host.data());
    return host;
  }

  DeviceDescriptor device_;
  test::TempDir dir_;
};

// Issue 22: reading binaries on PoCL compiles every kernel under a lock that kernel launches
// take, so the app's context (not forced) keeps no disk cache there and reads no binary.
TEST(DiskProgramCachePolicy, OnlyPoclCountsAsStalling) {
  DeviceDescriptor device;
  device.platformName = "Portable Computing Language";
  EXPECT_TRUE(readingBinariesStallsTheDevice(device));
  device.platformName = "NVIDIA CUDA";
  EXPECT_FALSE(readingBinariesStallsTheDevice(device));
}

TEST_F(DiskProgramCacheTest, OffOnPoclUnlessForcedAndSaysWhy) {
  if (!readingBinariesStallsTheDevice(device_)) GTEST_SKIP() << "the device is not PoCL: " << device_.platformName;
  ComputeContext compute(device_, fs::path(KERNELSCOPE_SOURCE_KERNELS_DIR), GlContextHandles{}, dir_.path());
  EXPECT_FALSE(compute.programs().diskCache());
  EXPECT_EQ(compute.programs().diskOffReason(), "PoCL keeps its own cache of built programs");
  auto built = compute.programs().get("value.cl", kValueSource, "-DVALUE=4");
  ASSERT_TRUE(built->ok()) << built->error << "\n" << built->log;
  EXPECT_FALSE(built->fromDisk);
  EXPECT_EQ(compute.programs().diskMisses(), 0u);
  EXPECT_EQ(binFiles(dir_.path()), 0u) << "no binary was read or written";
  EXPECT_TRUE(newRun()->programs().diskCache()) << "forced on, the cache is there";
}

TEST_F(DiskProgramCacheTest, MissThenHitInASecondRun) {
  auto first = newRun();
  auto built = first->programs().get("value.cl", kValueSource, "-DVALUE=5");
  ASSERT_TRUE(built->ok()) << built->error << "\n" << built->log;
  EXPECT_FALSE(built->fromDisk);
  EXPECT_EQ(first->programs().diskMisses(), 1u);
  EXPECT_EQ(first->programs().diskHits(), 0u);
  EXPECT_EQ(binFiles(dir_.path()), 1u) << "the miss wrote an entry";
  EXPECT_TRUE(first->programs().takeDiskMessages().empty());

  auto second = newRun();
  auto loaded = second->programs().get("value.cl", kValueSource, "-DVALUE=5");
  ASSERT_TRUE(loaded->ok()) << loaded->error << "\n" << loaded->log;
  EXPECT_TRUE(loaded->fromDisk);
  EXPECT_EQ(second->programs().diskHits(), 1u);
  EXPECT_EQ(second->programs().diskMisses(), 0u);
  EXPECT_EQ(runFill(*second, *loaded, 8), std::vector<cl_int>(8, 5)) << "the loaded binary runs";
  // and the in-memory cache still answers first
  EXPECT_EQ(second->programs().get("value.cl", kValueSource, "-DVALUE=5"), loaded);
  EXPECT_EQ(second->programs().diskHits(), 1u);
}

TEST_F(DiskProgramCacheTest, DifferentOptionsOrSourceAreDifferentEntries) {
  auto run = newRun();
  auto one = run->programs().get("value.cl", kValueSource, "-DVALUE=1");
  auto two = run->programs().get("value.cl", kValueSource, "-DVALUE=2");
  auto three = run->programs().get("value.cl", std::string(kValueSource) + "\n", "-DVALUE=2");
  ASSERT_TRUE(one->ok() && two->ok() && three->ok()) << one->error << two->error << three->error;
  EXPECT_EQ(binFiles(dir_.path()), 3u);
  EXPECT_EQ(run->programs().diskMisses(), 3u);

  auto again = newRun();
  auto loaded = again->programs().get("value.cl", kValueSource, "-DVALUE=2");
  ASSERT_TRUE(loaded->fromDisk);
  EXPECT_EQ(runFill(*again, *loaded, 4), std::vector<cl_int>(4, 2)) << "the entry of the asked options";
}

TEST_F(DiskProgramCacheTest, CorruptAndTruncatedEntriesAreIgnoredAndRewritten) {
  {
    auto run = newRun();
    ASSERT_TRUE(run->programs().get("value.cl", kValueSource, "-DVALUE=3")->ok());
  }
  ASSERT_EQ(binFiles(dir_.path()), 1u);
  const fs::path entry = fs::directory_iterator(dir_.path())->path();
  const std::string good = test::readFile(entry);
  const std::string key = keyOf(entry);

  for (const std::string& damaged : {std::string("garbage bytes instead of a binary"), good.substr(0, good.size() / 2)}) {
    test::writeFile(entry, damaged);
    auto run = newRun();
    auto build = run->programs().get("value.cl", kValueSource, "-DVALUE=3");
    ASSERT_TRUE(build->ok()) << build->error << "\n" << build->log;
    EXPECT_FALSE(build->fromDisk);
    EXPECT_EQ(run->programs().diskHits(), 0u);
    EXPECT_EQ(run->programs().diskMisses(), 1u);
    const auto messages = run->programs().takeDiskMessages();
    EXPECT_TRUE(mentions(messages, "ignored")) << (messages.empty() ? "no message" : messages.front());
    EXPECT_EQ(runFill(*run, *build, 4), std::vector<cl_int>(4, 3));
    // Rewritten whole (PoCL's binary size varies between builds, so no byte comparison).
    std::string problem;
    EXPECT_TRUE(ProgramBinaryCache(dir_.path()).load(key, problem)) << "the entry was rewritten: " << problem;

    auto next = newRun();
    EXPECT_TRUE(next->programs().get("value.cl", kValueSource, "-DVALUE=3")->fromDisk);
  }
}

TEST_F(DiskProgramCacheTest, ABinaryTheDriverRejectsIsIgnored) {
  {
    auto run = newRun();
    ASSERT_TRUE(run->programs().get("value.cl", kValueSource, "-DVALUE=4")->ok());
  }
  const fs::path entry = fs::directory_iterator(dir_.path())->path();
  // A well-formed cache file whose payload is not a program: the header checks pass,
  // the driver has to refuse it.
  const std::string key = keyOf(entry);
  ProgramBinaryCache disk(dir_.path());
  ASSERT_EQ(disk.pathFor(key), entry);
  ASSERT_EQ(disk.store(key, std::string(256, '\x7f') + "not a device binary"), "");
  auto run = newRun();
  auto build = run->programs().get("value.cl", kValueSource, "-DVALUE=4");
  ASSERT_TRUE(build->ok()) << build->error << "\n" << build->log;
  EXPECT_FALSE(build->fromDisk);
  const auto messages = run->programs().takeDiskMessages();
  EXPECT_TRUE(mentions(messages, "rejected by the driver")) << (messages.empty() ? "no message" : messages.front());
  EXPECT_EQ(runFill(*run, *build, 4), std::vector<cl_int>(4, 4));
}

}  // namespace
}  // namespace ks
