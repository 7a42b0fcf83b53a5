#include "compute/gl_share_probe.h"

#include <CL/cl_gl.h>

#include <algorithm>
#include <string>

#include "compute/cl_error.h"

namespace ks {

std::vector<cl_context_properties> glSharingProperties(const GlContextHandles& gl, cl_platform_id platform) {
  if (gl.api == GlContextHandles::Api::NoGl || !gl.context) return {};
  const cl_context_properties displayKey = gl.api == GlContextHandles::Api::Glx ? CL_GLX_DISPLAY_KHR : CL_EGL_DISPLAY_KHR;
  return {CL_GL_CONTEXT_KHR,
          reinterpret_cast<cl_context_properties>(gl.context),
          displayKey,
          reinterpret_cast<cl_context_properties>(gl.display),
          CL_CONTEXT_PLATFORM,
          reinterpret_cast<cl_context_properties>(platform),
          0};
}

std::vector<std::string> probeGlSharing(std::vector<DeviceDescriptor>& devices, const GlContextHandles& gl) {
  std::vector<std::string> notes;
  for (auto& d : devices) d.sharesCurrentGlContext = false;
  if (gl.api == GlContextHandles::Api::NoGl) return notes;

  std::vector<cl_platform_id> asked;
  for (const auto& d : devices) {
    if (!d.hasGlSharing() || !d.platform) continue;
    if (std::find(asked.begin(), asked.end(), d.platform) != asked.end()) continue;
    asked.push_back(d.platform);

    auto getInfo = reinterpret_cast<clGetGLContextInfoKHR_fn>(
        clGetExtensionFunctionAddressForPlatform(d.platform, "clGetGLContextInfoKHR"));
    if (!getInfo) {
      notes.push_back(d.platformName + ": clGetGLContextInfoKHR not exported");
      continue;
    }
    auto props = glSharingProperties(gl, d.platform);
    size_t bytes = 0;
    cl_int status = getInfo(props.data(), CL_DEVICES_FOR_GL_CONTEXT_KHR, 0, nullptr, &bytes);
    if (status != CL_SUCCESS || bytes == 0) {
      notes.push_back(d.platformName + ": " + ClError(status, "clGetGLContextInfoKHR").what());
      continue;
    }
    std::vector<cl_device_id> sharing(bytes / sizeof(cl_device_id));
    status = getInfo(props.data(), CL_DEVICES_FOR_GL_CONTEXT_KHR, bytes, sharing.data(), nullptr);
    if (status != CL_SUCCESS) {
      notes.push_back(d.platformName + ": " + ClError(status, "clGetGLContextInfoKHR").what());
      continue;
    }
    for (auto& other : devices)
      if (std::find(sharing.begin(), sharing.end(), other.id) != sharing.end()) other.sharesCurrentGlContext = true;
  }
  return notes;
}

}  // namespace ks
