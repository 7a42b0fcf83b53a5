// ks::Error, the one reporting function and ks::Result: what every exception class
// of the libraries carries (exit code, OpenCL name, build log, file) reaches the
// terminal, the log and the exit code. No OpenCL runtime needed.
#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>

#include "app/render_surface.h"
#include "app/session.h"
#include "compute/cl_error.h"
#include "compute/image_layout.h"
#include "compute/interop/interop.h"
#include "compute/interop/vulkan_exporter.h"
#include "compute/kernel_files.h"
#include "compute/nbody_gpu.h"
#include "compute/nbody_model.h"
#include "compute/program_cache.h"
#include "core/error.h"
#include "core/result.h"
#include "io/image_file.h"
#include "render/egl_headless.h"
#include "render/gl_check.h"

namespace ks {
namespace {

namespace fs = std::filesystem;

TEST(Error, CarriesMessageExitCodeAndDetails) {
  const Error e("kernels/x.cl did not build", kExitKernelBuildFailed,
                ErrorDetails{"CL_BUILD_PROGRAM_FAILURE", "x.cl:3: error: use of undeclared identifier", "x.cl"});
  EXPECT_STREQ(e.what(), "kernels/x.cl did not build");
  EXPECT_EQ(e.exitCode(), 7);
  EXPECT_EQ(e.details().openClName, "CL_BUILD_PROGRAM_FAILURE");
  EXPECT_EQ(e.details().buildLog, "x.cl:3: error: use of undeclared identifier");
  EXPECT_EQ(e.details().file, fs::path("x.cl"));
  const Error plain("something failed");
  EXPECT_EQ(plain.exitCode(), kExitFailure);
  EXPECT_TRUE(plain.details().openClName.empty());
}

TEST(Error, ReportKeepsTheExitCodeAndTheBuildLog) {
  const Error e("cannot start on PoCL: clBuildProgram failed", kExitKernelBuildFailed,
                ErrorDetails{"CL_BUILD_PROGRAM_FAILURE", "line 3: broken", "nbody.cl"});
  const ErrorReport report = reportError(e);
  EXPECT_EQ(report.exitCode, 7);
  EXPECT_EQ(report.message, "cannot start on PoCL: clBuildProgram failed");
  EXPECT_EQ(report.buildLog, "line 3: broken");
  EXPECT_EQ(report.text(), "cannot start on PoCL: clBuildProgram failed\nbuild log:\nline 3: broken");
  // Caught as the base of everything: the exit code and log still come through.
  try {
    throw StartupError(kExitKernelBuildFailed, "cannot start", ErrorDetails{{}, "the log", {}});
  } catch (const std::exception& any) {
    const ErrorReport r = reportError(any, kExitFailure);
    EXPECT_EQ(r.exitCode, 7);
    EXPECT_EQ(r.text(), "cannot start\nbuild log:\nthe log");
  }
}

TEST(Error, ReportOfAForeignExceptionUsesTheFallback) {
  const ErrorReport report = reportError(std::runtime_error("disk full"), kExitNoUsableDevice);
  EXPECT_EQ(report.exitCode, kExitNoUsableDevice);
  EXPECT_EQ(report.message, "disk full");
  EXPECT_EQ(report.text(), "disk full");  // no log: no heading
  EXPECT_EQ(reportError(std::runtime_error("x")).exitCode, kExitFailure);
}

TEST(Error, PrintErrorWritesTheTextAndReturnsTheCode) {
  testing::internal::CaptureStderr();
  const int code = printError(reportError(Error("no window", kExitGraphicsFailed)));
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "kernelscope: error: no window\n");
  EXPECT_EQ(code, kExitGraphicsFailed);
  testing::internal::CaptureStderr();
  printError(reportError(Error("a kernel did not build", kExitKernelBuildFailed, ErrorDetails{{}, "the log", {}})));
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "kernelscope: error: a kernel did not build\nbuild log:\nthe log\n");
}

// The classes kept their names for their catch sites; each is a ks::Error now,
// with the exit code --help gives for it.
template <class E, class... Args>
int exitCodeThrough(Args&&... args) {
  try {
    throw E(std::forward<Args>(args)...);
  } catch (const Error& e) {
    return e.exitCode();
  }
}

TEST(Error, EveryClassIsAKsErrorWithItsExitCode) {
  EXPECT_EQ(exitCodeThrough<KernelsDirError>("kernels directory '/x' does not exist"), kExitKernelsMissing);
  EXPECT_EQ(exitCodeThrough<GraphicsError>("no display"), kExitGraphicsFailed);
  EXPECT_EQ(exitCodeThrough<NBodyConfigError>("work-group size 3"), kExitUsage);
  EXPECT_EQ(exitCodeThrough<StartupError>(kExitNoUsableDevice, "no device"), kExitNoUsableDevice);
  EXPECT_EQ(exitCodeThrough<ClError>(CL_INVALID_VALUE, "clFoo"), kExitFailure);
  EXPECT_EQ(exitCodeThrough<ImageFileError>("'a.png' is empty"), kExitFailure);
  EXPECT_EQ(exitCodeThrough<NBodyFileError>("N-body file 'a': short"), kExitFailure);
  EXPECT_EQ(exitCodeThrough<ImageConfigError>("too big"), kExitFailure);
  EXPECT_EQ(exitCodeThrough<InteropError>("no sharing"), kExitFailure);
  EXPECT_EQ(exitCodeThrough<VulkanError>("vkCreate failed"), kExitFailure);
  EXPECT_EQ(exitCodeThrough<VulkanMissing>("no libvulkan"), kExitFailure);
  EXPECT_EQ(exitCodeThrough<GlError>("GL_INVALID_ENUM"), kExitFailure);
  EXPECT_EQ(exitCodeThrough<EglError>("no EGL"), kExitFailure);
}

TEST(Error, ClErrorNamesTheOpenClError) {
  const ClError e(CL_INVALID_WORK_GROUP_SIZE, "clEnqueueNDRangeKernel", "nbody");
  EXPECT_EQ(e.details().openClName, "CL_INVALID_WORK_GROUP_SIZE");
  EXPECT_EQ(e.code(), CL_INVALID_WORK_GROUP_SIZE);
  EXPECT_NE(std::string(e.what()).find("CL_INVALID_WORK_GROUP_SIZE"), std::string::npos) << e.what();
}

TEST(Error, ProgramBuildErrorCarriesTheLogTheStatusAndTheFile) {
  auto build = std::make_shared<ProgramBuild>();
  build->label = "nbody.cl";
  build->log = "nbody.cl:12:3: error: use of undeclared identifier 'x'";
  build->status = CL_BUILD_PROGRAM_FAILURE;
  build->error = "clBuildProgram failed: CL_BUILD_PROGRAM_FAILURE (-11): nbody.cl";
  const ProgramBuildError e(build);
  EXPECT_EQ(e.exitCode(), kExitKernelBuildFailed);
  EXPECT_EQ(e.details().openClName, "CL_BUILD_PROGRAM_FAILURE");
  EXPECT_EQ(e.details().buildLog, build->log);
  EXPECT_EQ(e.details().file, fs::path("nbody.cl"));
  EXPECT_EQ(reportError(e).text(), build->error + "\nbuild log:\n" + build->log);
}

TEST(Result, HoldsAValueOrTheError) {
  const Result<int> good = 42;
  ASSERT_TRUE(good.ok());
  EXPECT_EQ(good.value(), 42);
  const Result<int> bad = Error("'x' is empty", kExitFailure, ErrorDetails{{}, {}, "x"});
  ASSERT_FALSE(bad.ok());
  EXPECT_FALSE(static_cast<bool>(bad));
  EXPECT_STREQ(bad.error().what(), "'x' is empty");
  EXPECT_EQ(bad.error().details().file, fs::path("x"));
  EXPECT_THROW((void)bad.value(), Error);  // for a caller that wants the exception after all

  const Result<void> done;
  EXPECT_TRUE(done.ok());
  const Result<void> failed = Error("cannot write");
  ASSERT_FALSE(failed.ok());
  EXPECT_STREQ(failed.error().what(), "cannot write");
}

TEST(Result, FileReadersReportInsteadOfThrowing) {
  const fs::path missing = fs::path(testing::TempDir()) / "ks-error-no-such-file";
  fs::remove(missing);
  const Result<HostImage> image = readImageFile(missing, ImageLimits{1024, uint64_t{1} << 20});
  ASSERT_FALSE(image.ok());
  EXPECT_NE(std::string(image.error().what()).find("does not exist"), std::string::npos) << image.error().what();
  EXPECT_EQ(image.error().details().file, missing);

  const Result<NBodySystem> bodies = readNBodySystem(missing);
  ASSERT_FALSE(bodies.ok());
  EXPECT_NE(std::string(bodies.error().what()).find(missing.string()), std::string::npos) << bodies.error().what();
  EXPECT_EQ(bodies.error().details().file, missing);
}

}  // namespace
}  // namespace ks
