#pragma once
// Skip or fail when something the test needs is missing.
//
// A developer's machine may lack an OpenCL driver, EGL or Xvfb: the test skips
// and says what is missing. CI installs PoCL, Mesa llvmpipe and Xvfb itself, so
// there a missing one is a broken machine, not a reason to skip: .ci/run sets
//   KS_REQUIRE=opencl,gl,xvfb
// and KS_NEED then fails the test instead. Skips that stay skips everywhere
// (an extension PoCL lacks, running as root) use GTEST_SKIP() with their reason.
#include <gtest/gtest.h>

#include <cstdlib>
#include <sstream>
#include <string>
#include <string_view>

namespace ks::test {

// The capabilities KS_NEED knows: "opencl" (a usable OpenCL device), "gl" (a
// headless EGL context with GL), "xvfb" (xvfb-run, Xvfb and xauth).
inline bool knownCapability(std::string_view name) { return name == "opencl" || name == "gl" || name == "xvfb"; }

// Empty when $KS_REQUIRE (comma-separated) names only known capabilities, else what is wrong:
// a typo there would silently turn the CI mode off.
inline std::string requireListProblem() {
  const char* list = std::getenv("KS_REQUIRE");
  if (!list) return {};
  std::stringstream in(list);
  std::string item;
  while (std::getline(in, item, ','))
    if (!item.empty() && !knownCapability(item))
      return "KS_REQUIRE='" + std::string(list) + "' names an unknown capability '" + item +
             "' (known: opencl, gl, xvfb)";
  return {};
}

// Whether $KS_REQUIRE lists `capability`.
inline bool capabilityRequired(std::string_view capability) {
  const char* list = std::getenv("KS_REQUIRE");
  if (!list) return false;
  std::stringstream in(list);
  std::string item;
  while (std::getline(in, item, ','))
    if (item == capability) return true;
  return false;
}

}  // namespace ks::test

// In a test body or SetUp(): when `missing` (a std::string, empty if the
// capability is there) says something is missing, fail if KS_REQUIRE lists
// `capability`, else skip with `missing` as the reason.
#define KS_NEED(capability, missing)                                                                   \
  do {                                                                                                 \
    if (const std::string problem_ = ::ks::test::requireListProblem(); !problem_.empty()) FAIL() << problem_; \
    if (const std::string why_ = (missing); !why_.empty()) {                                           \
      if (::ks::test::capabilityRequired(capability))                                                  \
        FAIL() << "KS_REQUIRE lists " << (capability) << ", and it is missing: " << why_;             \
      GTEST_SKIP() << why_;                                                                            \
    }                                                                                                  \
  } while (0)
