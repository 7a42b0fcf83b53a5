#include "app/session.h"

#include <cstdlib>
#include <sstream>

#include "app/render_surface.h"
#include "compute/gl_share_probe.h"
#include "compute/kernel_files.h"
#include "render/gl_check.h"

namespace ks {

std::filesystem::path locateKernelsDir(const AppOptions& options) {
  try {
    return findKernelsDir(options.kernelsDir, executableDir());
  } catch (const KernelsDirError& e) {
    throw StartupError(kExitKernelsMissing, e.what());
  }
}

DeviceCatalog requireDevices() {
  DeviceCatalog catalog;
  try {
    catalog = enumerateDevices();
  } catch (const ClError& e) {
    throw StartupError(kExitNoOpenClPlatform, std::string("cannot list OpenCL platforms: ") + e.what());
  }
  if (catalog.platformCount == 0) {
    const char* vendors = std::getenv("OCL_ICD_VENDORS");
    throw StartupError(kExitNoOpenClPlatform,
                       std::string("no OpenCL platform found: the ICD loader found no driver in ") +
                           (vendors && *vendors ? vendors : "/etc/OpenCL/vendors") +
                           ".\nInstall one (for example the pocl-opencl-icd package for CPUs, or your GPU "
                           "vendor's OpenCL driver).");
  }
  if (catalog.devices.empty()) {
    std::string text = "no usable OpenCL device: " + std::to_string(catalog.platformCount) +
                       " platform(s) found, none lists a device";
    for (const auto& w : catalog.warnings) text += "\n  " + w;
    throw StartupError(kExitNoUsableDevice, text);
  }
  return catalog;
}

std::string describeDeviceList(const std::vector<DeviceDescriptor>& devices) {
  std::ostringstream out;
  for (size_t i = 0; i < devices.size(); ++i) {
    const auto& d = devices[i];
    out << "[" << i << "] platform " << d.platformIndex << " device " << d.deviceIndex << ": " << d.name << " ("
        << deviceKindName(d.kind) << ", " << d.platformName << ", " << d.deviceVersion << ")"
        << (d.available ? "" : " [unavailable]") << (d.sharesCurrentGlContext ? " [shares GL]" : "") << "\n";
  }
  return out.str();
}

Session::Session(const AppOptions& options, const Settings& settings, const RenderSurface& surface, AppState& state)
    : kernelsDir_(locateKernelsDir(options)) {
  DeviceCatalog catalog = requireDevices();
  for (const auto& w : catalog.warnings) state.report(w);
  for (const auto& note : probeGlSharing(catalog.devices, surface.glHandles())) state.report("GL sharing probe: " + note);
  state.devices = catalog.devices;

  DeviceRequest request{options.platform, options.device};
  DeviceChoice choice;
  if (!request.empty()) {
    choice = selectDevice(state.devices, request);
    if (!choice.index)
      throw StartupError(kExitNoUsableDevice,
                         "no usable OpenCL device: " + choice.reason + "\navailable:\n" + describeDeviceList(state.devices));
  } else {
    // The device chosen last time, if it is still there; otherwise the default order.
    if (!settings.deviceName.empty()) {
      for (size_t i = 0; i < state.devices.size(); ++i)
        if (state.devices[i].name == settings.deviceName && state.devices[i].platformName == settings.devicePlatform &&
            state.devices[i].available)
          choice = {i, "chosen last time"};
    }
    if (!choice.index) choice = selectDevice(state.devices, request);
    if (!choice.index)
      throw StartupError(kExitNoUsableDevice,
                         "no usable OpenCL device: " + choice.reason + "\n" + describeDeviceList(state.devices));
  }
  quad_ = std::make_unique<ImageQuad>();
  try {
    activate(state.devices, *choice.index, state);
  } catch (const KernelsDirError& e) {
    throw StartupError(kExitKernelsMissing, e.what());
  } catch (const std::exception& e) {
    throw StartupError(kExitNoUsableDevice, "cannot start on " + state.devices[*choice.index].displayName() + ": " + e.what());
  }
  state.deviceMessage = "using " + state.devices[*choice.index].displayName() + " (" + choice.reason + ")";
}

void Session::activate(const std::vector<DeviceDescriptor>& devices, size_t index, AppState& state) {
  auto compute = std::make_unique<ComputeContext>(devices[index], kernelsDir_);
  std::unique_ptr<PatternScene> scene;
  try {
    scene = std::make_unique<PatternScene>(*compute, state.pattern.size);
  } catch (const ProgramBuildError& e) {
    state.buildFailures.push_back({e.build().label, devices[index].displayName(), e.build().error, e.build().log});
    state.panels.buildLog = true;
    throw;
  }
  // Only now, with everything built, replace the running ones.
  scene_ = std::move(scene);
  compute_ = std::move(compute);
  state.activeDevice = index;
}

void Session::applyRequests(AppState& state) {
  if (!state.requestedDevice) return;
  const size_t index = *state.requestedDevice;
  state.requestedDevice.reset();
  if (index >= state.devices.size() || (state.activeDevice && *state.activeDevice == index)) return;
  const std::string name = state.devices[index].displayName();
  try {
    activate(state.devices, index, state);
    state.deviceMessage = "switched to " + name;
    state.report(state.deviceMessage);
  } catch (const std::exception& e) {
    state.deviceMessage = "could not switch to " + name + ", still on " + compute_->device().displayName() + ": " + e.what();
    state.report(state.deviceMessage);
  }
}

void Session::update(AppState& state, double seconds) {
  if (state.pattern.animate) animationTime_ += seconds * state.pattern.speed;
  try {
    scene_->update(*compute_, static_cast<float>(animationTime_), state.pattern);
  } catch (const std::exception& e) {
    // Keep running with the last image; say once what went wrong.
    if (state.log.empty() || state.log.back() != e.what()) state.report(e.what());
  }
}

void Session::draw(int viewportW, int viewportH) const { scene_->draw(*quad_, viewportW, viewportH); }

}  // namespace ks
