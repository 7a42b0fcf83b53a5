// ks::ProgramCache and ks::ComputeContext on a real OpenCL device (PoCL on the CI
// machine). Skips, with the reason, when the runtime offers no usable device.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <thread>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "compute/cl_objects.h"
#include "compute/compute_context.h"
#include "compute/device_catalog.h"
#include "compute/device_selection.h"
#include "compute/kernel_files.h"
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

const char* kSquareSource = R"CL(
__kernel void square(__global int* out) {
  const int i = get_global_id(0);
  out[i] = i * i;
}
)CL";

// An undeclared name: the compiler's log must say which.
const char* kBrokenSource = R"CL(
__kernel void broken(__global int* out) {
  out[get_global_id(0)] = undeclared_identifier_xyz;
}
)CL";

class ProgramCacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    KS_NEED("opencl", test::openClMissing());
    const DeviceCatalog catalog = enumerateDevices();
    const DeviceChoice choice = selectDevice(catalog.devices, {});
    ASSERT_TRUE(choice.index) << choice.reason;
    device_ = catalog.devices[*choice.index];
    compute_ = std::make_unique<ComputeContext>(device_, fs::path(KERNELSCOPE_SOURCE_KERNELS_DIR));
  }

  ProgramCache& cache() { return compute_->programs(); }

  // Runs fill() from a VALUE build over n items and returns what it wrote.
  std::vector<cl_int> runFill(const ProgramBuild& build, size_t n) {
    Kernel kernel(build.program.get(), "fill");
    Buffer out(compute_->context(), CL_MEM_WRITE_ONLY, n * sizeof(cl_int));
    kernel.setArg(0, out);
    compute_->queue().enqueueKernel(kernel, {n}, {});
    std::vector<cl_int> host(n, -1);
    compute_->queue().readBuffer(out, 0, n * sizeof(cl_int), host.data());
    return host;
  }

  DeviceDescriptor device_;
  std::unique_ptr<ComputeContext> compute_;
};

TEST_F(ProgramCacheTest, SameSourceAndOptionsIsAHit) {
  auto first = cache().get("square.cl", kSquareSource, "");
  ASSERT_TRUE(first->ok()) << first->error << "\n" << first->log;
  EXPECT_EQ(cache().misses(), 1u);
  EXPECT_EQ(cache().hits(), 0u);
  EXPECT_TRUE(first->error.empty());
  EXPECT_EQ(first->label, "square.cl");

  auto second = cache().get("square.cl", kSquareSource, "");
  EXPECT_EQ(second, first) << "a hit must return the very same build";
  EXPECT_EQ(cache().hits(), 1u);
  EXPECT_EQ(cache().misses(), 1u);
  EXPECT_EQ(cache().size(), 1u);

  // the label is not part of the key: same text under another name is still a hit
  auto renamed = cache().get("other-name.cl", kSquareSource, "");
  EXPECT_EQ(renamed, first);
  EXPECT_EQ(cache().hits(), 2u);

  // the cached program really works
  Kernel kernel(first->program.get(), "square");
  const size_t n = 16;
  Buffer out(compute_->context(), CL_MEM_WRITE_ONLY, n * sizeof(cl_int));
  kernel.setArg(0, out);
  Event done;
  compute_->queue().enqueueKernel(kernel, {n}, {}, &done);
  done.wait();
  EXPECT_GE(done.elapsedMs(), 0.0);
  std::vector<cl_int> host(n);
  compute_->queue().readBuffer(out, 0, n * sizeof(cl_int), host.data());
  for (size_t i = 0; i < n; ++i) EXPECT_EQ(host[i], static_cast<cl_int>(i * i)) << "item " << i;
}

TEST_F(ProgramCacheTest, ChangedSourceIsAMiss) {
  auto a = cache().get("value.cl", std::string(kValueSource), "-DVALUE=7");
  ASSERT_TRUE(a->ok()) << a->error << "\n" << a->log;
  // one more (harmless) character in the source: a different program
  auto b = cache().get("value.cl", std::string(kValueSource) + "\n", "-DVALUE=7");
  ASSERT_TRUE(b->ok()) << b->error << "\n" << b->log;
  EXPECT_NE(a, b);
  EXPECT_EQ(cache().misses(), 2u);
  EXPECT_EQ(cache().hits(), 0u);
  EXPECT_EQ(cache().size(), 2u);
  EXPECT_NE(hashSource(kValueSource), hashSource(std::string(kValueSource) + "\n"));
}

TEST_F(ProgramCacheTest, ChangedOptionsIsAMissAndChangesTheResult) {
  auto one = cache().get("value.cl", kValueSource, "-DVALUE=1");
  ASSERT_TRUE(one->ok()) << one->error << "\n" << one->log;
  auto two = cache().get("value.cl", kValueSource, "-DVALUE=2");
  ASSERT_TRUE(two->ok()) << two->error << "\n" << two->log;
  EXPECT_NE(one, two);
  EXPECT_EQ(cache().misses(), 2u);
  EXPECT_EQ(cache().hits(), 0u);
  EXPECT_EQ(one->options, "-DVALUE=1");
  EXPECT_EQ(two->options, "-DVALUE=2");

  const size_t n = 8;
  EXPECT_EQ(runFill(*one, n), std::vector<cl_int>(n, 1));
  EXPECT_EQ(runFill(*two, n), std::vector<cl_int>(n, 2));

  // and both stay cached
  EXPECT_EQ(cache().get("value.cl", kValueSource, "-DVALUE=1"), one);
  EXPECT_EQ(cache().get("value.cl", kValueSource, "-DVALUE=2"), two);
  EXPECT_EQ(cache().hits(), 2u);
}

TEST_F(ProgramCacheTest, BuildFailureReportsLogAndIsNotCached) {
  auto bad = cache().get("broken.cl", kBrokenSource, "");
  EXPECT_FALSE(bad->ok());
  EXPECT_FALSE(bad->program);
  EXPECT_FALSE(bad->log.empty()) << "no build log for a failed build";
  EXPECT_NE(bad->log.find("undeclared_identifier_xyz"), std::string::npos) << bad->log;
  EXPECT_NE(bad->log.find("error"), std::string::npos) << bad->log;
  EXPECT_NE(bad->error.find("CL_BUILD_PROGRAM_FAILURE"), std::string::npos) << bad->error;
  EXPECT_NE(bad->error.find("clBuildProgram"), std::string::npos) << bad->error;
  EXPECT_NE(bad->error.find("broken.cl"), std::string::npos) << bad->error;
  EXPECT_EQ(cache().size(), 0u);
  ASSERT_EQ(cache().failures().count("broken.cl"), 1u);
  EXPECT_EQ(cache().failures().at("broken.cl"), bad);

  // not cached: asking again builds again (a miss, not a hit)
  auto again = cache().get("broken.cl", kBrokenSource, "");
  EXPECT_FALSE(again->ok());
  EXPECT_NE(again, bad);
  EXPECT_EQ(cache().hits(), 0u);
  EXPECT_EQ(cache().misses(), 2u);

  // the fixed file (same label) builds, is cached, and clears the failure
  const std::string fixed = R"CL(
__kernel void broken(__global int* out) {
  out[get_global_id(0)] = 42;
}
)CL";
  auto good = cache().get("broken.cl", fixed, "");
  ASSERT_TRUE(good->ok()) << good->error << "\n" << good->log;
  EXPECT_TRUE(good->error.empty());
  EXPECT_EQ(cache().size(), 1u);
  EXPECT_EQ(cache().failures().count("broken.cl"), 0u);
  EXPECT_EQ(cache().get("broken.cl", fixed, ""), good);
  EXPECT_EQ(cache().hits(), 1u);
}

TEST_F(ProgramCacheTest, BadOptionsFail) {
  auto build = cache().get("square.cl", kSquareSource, "-cl-no-such-option-at-all");
  EXPECT_FALSE(build->ok());
  EXPECT_FALSE(build->error.empty());
  EXPECT_NE(build->error.find("-cl-no-such-option-at-all"), std::string::npos) << build->error;
  EXPECT_EQ(cache().size(), 0u);
}

TEST_F(ProgramCacheTest, ClearForgetsEverything) {
  auto first = cache().get("square.cl", kSquareSource, "");
  ASSERT_TRUE(first->ok()) << first->error;
  cache().clear();
  EXPECT_EQ(cache().size(), 0u);
  auto second = cache().get("square.cl", kSquareSource, "");
  ASSERT_TRUE(second->ok()) << second->error;
  EXPECT_NE(first, second);
  EXPECT_EQ(cache().misses(), 2u);
}

// A build started on a worker thread: get() takes it over (one miss, no second
// compile), several prefetches of one program start one build, and a failed
// build comes back with its log like a synchronous one.
TEST_F(ProgramCacheTest, PrefetchBuildsOnAWorkerThreadAndGetTakesItOver) {
  EXPECT_FALSE(cache().ready(kValueSource, "-DVALUE=7")) << "nothing asked for yet";
  cache().prefetch("value.cl", kValueSource, "-DVALUE=7");
  cache().prefetch("value.cl", kValueSource, "-DVALUE=7");
  EXPECT_EQ(cache().pending(), 1u) << "one build per program, however often it is asked for";
  cache().prefetch("value.cl", kValueSource, "-DVALUE=8");
  EXPECT_EQ(cache().pending(), 2u);
  EXPECT_EQ(cache().size(), 0u) << "nothing is kept before get()";

  auto seven = cache().get("value.cl", kValueSource, "-DVALUE=7");  // waits for the worker if needed
  ASSERT_TRUE(seven->ok()) << seven->error << "\n" << seven->log;
  EXPECT_EQ(cache().pending(), 1u);
  EXPECT_EQ(cache().misses(), 1u);
  EXPECT_TRUE(cache().ready(kValueSource, "-DVALUE=7"));
  EXPECT_EQ(cache().get("value.cl", kValueSource, "-DVALUE=7"), seven);
  EXPECT_EQ(cache().hits(), 1u);
  for (cl_int v : runFill(*seven, 5)) EXPECT_EQ(v, 7);

  // ready() turns true by itself once the worker is done (within a generous time)
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (!cache().ready(kValueSource, "-DVALUE=8") && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  ASSERT_TRUE(cache().ready(kValueSource, "-DVALUE=8"));
  auto eight = cache().get("value.cl", kValueSource, "-DVALUE=8");
  ASSERT_TRUE(eight->ok()) << eight->error;
  for (cl_int v : runFill(*eight, 3)) EXPECT_EQ(v, 8);
  EXPECT_EQ(cache().pending(), 0u);
  EXPECT_EQ(cache().size(), 2u);

  cache().prefetch("value.cl", kValueSource, "-DVALUE=8");
  EXPECT_EQ(cache().pending(), 0u) << "a cached program is not built again";

  cache().prefetch("broken.cl", kBrokenSource, "");
  auto bad = cache().get("broken.cl", kBrokenSource, "");
  EXPECT_FALSE(bad->ok());
  EXPECT_NE(bad->log.find("undeclared_identifier_xyz"), std::string::npos) << bad->log;
  EXPECT_NE(bad->error.find("CL_BUILD_PROGRAM_FAILURE"), std::string::npos) << bad->error;
  ASSERT_EQ(cache().failures().count("broken.cl"), 1u);
  EXPECT_EQ(cache().size(), 2u) << "a failed build is not cached";

  // Builds still under way when the cache goes away are waited for, not leaked or cut off.
  cache().prefetch("value.cl", kValueSource, "-DVALUE=9");
  cache().clear();
  EXPECT_EQ(cache().pending(), 0u);
  EXPECT_EQ(cache().size(), 0u);
  cache().prefetch("value.cl", kValueSource, "-DVALUE=10");
  compute_.reset();
}

// ---- the real kernels/ directory --------------------------------------------------

TEST_F(ProgramCacheTest, BuildKernelFileBuildsPatternCl) {
  auto build = compute_->buildKernelFile("pattern.cl");
  ASSERT_TRUE(build->ok()) << build->error << "\n" << build->log;
  EXPECT_EQ(build->label, "pattern.cl");
  EXPECT_GT(build->buildMs, 0.0);
  EXPECT_EQ(compute_->buildKernelFile("pattern.cl"), build);
  EXPECT_EQ(cache().hits(), 1u);
  EXPECT_NO_THROW(Kernel(build->program.get(), "julia"));
  try {
    Kernel(build->program.get(), "no_such_kernel");
    FAIL() << "clCreateKernel accepted an unknown kernel name";
  } catch (const ClError& e) {
    EXPECT_EQ(e.code(), CL_INVALID_KERNEL_NAME);
    EXPECT_NE(std::string(e.what()).find("no_such_kernel"), std::string::npos) << e.what();
  }
  EXPECT_THROW(compute_->buildKernelFile("no-such-file.cl"), KernelsDirError);
}

TEST_F(ProgramCacheTest, JuliaWritesOnlyInBoundsPixelsOnOddSize) {
  auto build = compute_->buildKernelFile("pattern.cl");
  ASSERT_TRUE(build->ok()) << build->error << "\n" << build->log;
  Kernel julia(build->program.get(), "julia");

  const int width = 17, height = 13;
  size_t local = 8;
  while (local > 1 && local * local > julia.workGroupSize(device_.id)) local /= 2;
  const size_t globalX = (width + local - 1) / local * local;
  const size_t globalY = (height + local - 1) / local * local;
  ASSERT_GT(globalX * globalY, static_cast<size_t>(width * height)) << "the test needs a rounded-up NDRange";

  // Room for every work-item of the rounded-up range, so a missing bounds check
  // would land in the guard region instead of outside the buffer.
  const size_t pixels = static_cast<size_t>(width) * height;
  const size_t guardPixels = globalX * globalY;
  const size_t bytes = (pixels + guardPixels) * 4;
  const unsigned char sentinel = 0xA5;
  std::vector<unsigned char> host(bytes, sentinel);
  Buffer out(compute_->context(), CL_MEM_READ_WRITE, bytes);
  compute_->queue().writeBuffer(out, 0, bytes, host.data());

  julia.setArg(0, out);
  julia.setArg(1, static_cast<cl_int>(width));
  julia.setArg(2, static_cast<cl_int>(height));
  julia.setArg(3, 1.25f);
  julia.setArg(4, static_cast<cl_int>(64));
  Event done;
  compute_->queue().enqueueKernel(julia, {globalX, globalY}, {local, local}, &done);
  done.wait();
  std::fill(host.begin(), host.end(), 0);
  compute_->queue().readBuffer(out, 0, bytes, host.data());

  size_t untouched = 0;
  std::set<uint32_t> colours;
  for (size_t p = 0; p < pixels; ++p) {
    const unsigned char* px = &host[p * 4];
    EXPECT_EQ(px[3], 255) << "alpha of pixel " << p % width << "," << p / width;
    if (px[0] == sentinel && px[1] == sentinel && px[2] == sentinel && px[3] == sentinel) ++untouched;
    colours.insert(static_cast<uint32_t>(px[0]) | px[1] << 8 | px[2] << 16);
  }
  EXPECT_EQ(untouched, 0u) << "in-bounds pixels the kernel did not write";
  EXPECT_GT(colours.size(), 10u) << "the Julia set came out (nearly) flat";

  size_t guardWrites = 0;
  for (size_t i = pixels * 4; i < bytes; ++i)
    if (host[i] != sentinel) ++guardWrites;
  EXPECT_EQ(guardWrites, 0u) << "the kernel wrote past width*height (bytes changed in the guard region)";
}

// KernelInfo reads CL_KERNEL_COMPILE_WORK_GROUP_SIZE: a kernel compiled for a fixed
// group (reqd_work_group_size) may be launched at that size even where a driver
// reports a smaller CL_KERNEL_WORK_GROUP_SIZE (NVIDIA: 256 for a kernel compiled for 1024).
TEST_F(ProgramCacheTest, KernelInfoKnowsTheCompiledWorkGroupSize) {
  const std::string source =
      "__kernel __attribute__((reqd_work_group_size(16, 2, 1))) void fixed(__global int* out) {\n"
      "  out[get_global_id(1) * get_global_size(0) + get_global_id(0)] = (int)get_local_size(0) * 10 + "
      "(int)get_local_size(1);\n}\n"
      "__kernel void free_size(__global int* out) { out[get_global_id(0)] = 1; }\n";
  auto build = cache().get("fixed.cl", source, "");
  ASSERT_TRUE(build->ok()) << build->error << "\n" << build->log;
  const KernelInfo fixed = Kernel(build->program.get(), "fixed").info(device_.id);
  EXPECT_EQ(fixed.compileWorkGroup[0], 16u);
  EXPECT_EQ(fixed.compileWorkGroup[1], 2u);
  EXPECT_EQ(fixed.compileWorkGroup[2], 1u);
  EXPECT_GE(fixed.launchableWorkGroupSize(), 32u);
  EXPECT_GE(fixed.launchableWorkGroupSize(), fixed.workGroupSize);
  const KernelInfo free = Kernel(build->program.get(), "free_size").info(device_.id);
  EXPECT_EQ(free.compileWorkGroup[0] * free.compileWorkGroup[1] * free.compileWorkGroup[2], 0u);
  EXPECT_EQ(free.launchableWorkGroupSize(), free.workGroupSize);
  // And the fixed kernel really runs at its compiled size.
  Kernel kernel(build->program.get(), "fixed");
  Buffer out(compute_->context(), CL_MEM_WRITE_ONLY, 64 * sizeof(cl_int));
  kernel.setArg(0, out);
  compute_->queue().enqueueKernel(kernel, {32, 2}, {16, 2});
  std::vector<cl_int> host(64, 0);
  compute_->queue().readBuffer(out, 0, host.size() * sizeof(cl_int), host.data());
  for (size_t i = 0; i < host.size(); ++i) EXPECT_EQ(host[i], 162) << i;
}

}  // namespace
}  // namespace ks
