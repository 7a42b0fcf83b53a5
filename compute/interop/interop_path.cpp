#include "compute/interop/interop_path.h"

namespace ks {

const char* interopPathName(InteropPath path) {
  switch (path) {
    case InteropPath::GlSharing: return "gl-sharing";
    case InteropPath::External: return "external";
    case InteropPath::Host: return "host";
  }
  return "?";
}

const char* interopPathDescription(InteropPath path) {
  switch (path) {
    case InteropPath::GlSharing: return "cl_khr_gl_sharing";
    case InteropPath::External: return "external memory (Vulkan export, GL + OpenCL import)";
    case InteropPath::Host: return "host copy";
  }
  return "?";
}

std::optional<InteropPath> parseInteropPath(const std::string& name) {
  for (InteropPath p : kInteropPaths)
    if (name == interopPathName(p)) return p;
  return std::nullopt;
}

InteropPath preferredInteropPath(const std::vector<InteropPathStatus>& statuses) {
  for (const auto& s : statuses)
    if (s.available) return s.path;
  return InteropPath::Host;
}

}  // namespace ks
