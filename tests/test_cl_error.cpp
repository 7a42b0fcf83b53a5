// ks::clErrorName, ks::ClError and ks::clCheck: no OpenCL runtime needed.
#include <gtest/gtest.h>

#include <CL/cl_ext.h>

#include <string>

#include "compute/cl_error.h"

namespace ks {
namespace {

TEST(ClError, NamesKnownCodes) {
  EXPECT_EQ(clErrorName(CL_SUCCESS), "CL_SUCCESS");
  EXPECT_EQ(clErrorName(0), "CL_SUCCESS");
  EXPECT_EQ(clErrorName(-54), "CL_INVALID_WORK_GROUP_SIZE");
  EXPECT_EQ(clErrorName(CL_INVALID_WORK_GROUP_SIZE), "CL_INVALID_WORK_GROUP_SIZE");
  EXPECT_EQ(clErrorName(-11), "CL_BUILD_PROGRAM_FAILURE");
  EXPECT_EQ(clErrorName(-1001), "CL_PLATFORM_NOT_FOUND_KHR");
  EXPECT_EQ(clErrorName(CL_PLATFORM_NOT_FOUND_KHR), "CL_PLATFORM_NOT_FOUND_KHR");
  EXPECT_EQ(clErrorName(-1), "CL_DEVICE_NOT_FOUND");
  EXPECT_EQ(clErrorName(-5), "CL_OUT_OF_RESOURCES");
  EXPECT_EQ(clErrorName(-30), "CL_INVALID_VALUE");
  EXPECT_EQ(clErrorName(-46), "CL_INVALID_KERNEL_NAME");
}

TEST(ClError, UnknownCodeKeepsTheNumber) {
  EXPECT_EQ(clErrorName(-12345), "CL_UNKNOWN_ERROR(-12345)");
  EXPECT_EQ(clErrorName(7), "CL_UNKNOWN_ERROR(7)");
}

TEST(ClError, MessageNamesCallAndError) {
  const ClError e(CL_INVALID_WORK_GROUP_SIZE, "clEnqueueNDRangeKernel", "julia");
  const std::string what = e.what();
  EXPECT_NE(what.find("clEnqueueNDRangeKernel"), std::string::npos) << what;
  EXPECT_NE(what.find("CL_INVALID_WORK_GROUP_SIZE"), std::string::npos) << what;
  EXPECT_NE(what.find("-54"), std::string::npos) << what;
  EXPECT_NE(what.find("julia"), std::string::npos) << what;
  EXPECT_EQ(e.code(), CL_INVALID_WORK_GROUP_SIZE);
  EXPECT_EQ(e.call(), "clEnqueueNDRangeKernel");

  const ClError plain(-12345, "clFoo");
  EXPECT_STREQ(plain.what(), "clFoo failed: CL_UNKNOWN_ERROR(-12345) (-12345)");
  // a ClError is a std::runtime_error: main's generic handler still reports it
  const std::runtime_error& base = plain;
  EXPECT_NE(std::string(base.what()).find("clFoo"), std::string::npos);
}

TEST(ClError, ClCheckThrowsOnlyOnFailure) {
  EXPECT_NO_THROW(clCheck(CL_SUCCESS, "clFinish"));
  EXPECT_THROW(clCheck(CL_OUT_OF_HOST_MEMORY, "clFinish"), ClError);
  try {
    clCheck(CL_BUILD_PROGRAM_FAILURE, "clBuildProgram");
    FAIL() << "clCheck did not throw";
  } catch (const ClError& e) {
    EXPECT_EQ(e.code(), CL_BUILD_PROGRAM_FAILURE);
    EXPECT_EQ(e.call(), "clBuildProgram");
    EXPECT_NE(std::string(e.what()).find("CL_BUILD_PROGRAM_FAILURE"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace ks
