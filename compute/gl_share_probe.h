#pragma once
// Which OpenCL devices can share objects with the current GL context
// (cl_khr_gl_sharing). Kept free of GL headers: the window layer hands over the
// native context and display as opaque pointers.
#include <CL/cl.h>

#include <vector>

#include "compute/device_catalog.h"

namespace ks {

struct GlContextHandles {
  enum class Api { NoGl, Glx, Egl };
  Api api = Api::NoGl;
  void* context = nullptr;  // GLXContext or EGLContext
  void* display = nullptr;  // Display* or EGLDisplay
};

// CL context properties that tie a context to the GL context (for clCreateContext
// and clGetGLContextInfoKHR); empty when there is no GL context to share.
std::vector<cl_context_properties> glSharingProperties(const GlContextHandles& gl, cl_platform_id platform);

// Sets sharesCurrentGlContext on the devices the runtime names for this GL
// context. Only platforms whose devices list cl_khr_gl_sharing are asked: PoCL
// accepts the properties and then aborts inside clCreateFromGLBuffer. Returns
// notes on platforms that refused (for the log), never throws.
std::vector<std::string> probeGlSharing(std::vector<DeviceDescriptor>& devices, const GlContextHandles& gl);

}  // namespace ks
