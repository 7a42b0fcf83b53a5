#pragma once
// The interop paths as plain data (no GL, no OpenCL): names for the command line
// and the UI, and why each path is or is not usable on the current device.
#include <array>
#include <optional>
#include <string>
#include <vector>

namespace ks {

enum class InteropPath { GlSharing, External, Host };
constexpr std::array<InteropPath, 3> kInteropPaths = {InteropPath::GlSharing, InteropPath::External,
                                                      InteropPath::Host};
const char* interopPathName(InteropPath path);        // "gl-sharing", "external", "host"
const char* interopPathDescription(InteropPath path);  // "cl_khr_gl_sharing", ...
std::optional<InteropPath> parseInteropPath(const std::string& name);

// Why a path can or cannot be used with this device and GL context.
struct InteropPathStatus {
  InteropPath path;
  bool available = false;
  std::string reason;  // when unavailable: what is missing; when available: what it uses
  // Unavailable because a call that should have worked failed (an exception, a CL
  // error after the extensions were listed): `reason` is the real error text. A
  // path merely not offered (an extension not listed) has failed == false; tests
  // skip for that and fail for this.
  bool failed = false;
};

// The first available path in the order gl-sharing, external, host.
InteropPath preferredInteropPath(const std::vector<InteropPathStatus>& statuses);

}  // namespace ks
