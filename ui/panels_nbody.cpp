// The N-body panel: kernel variant and parameters (combinations the device
// cannot run are shown disabled with the reason), simulation, drawing, checks.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <string>

#include "app/app_state.h"
#include "ui/layout.h"
#include "ui/panels.h"
#include "lab/tuning_cache.h"
#include "compute/kernel_op.h"
#include "compute/plain_config_words.h"
#include "compute/nbody_tuning.h"

namespace ks {
namespace {

const DeviceDescriptor* activeDevice(const AppState& state) {
  return state.activeDevice ? &state.devices[*state.activeDevice] : nullptr;
}

// One combo over candidate values of one config field; values the device cannot
// run with the rest of the configuration are disabled, their reason in a tooltip.
template <typename T, typename Apply>
bool configCombo(const char* label, const std::string& current, const std::vector<T>& values, const AppState& state,
                 const NBodyConfig& config, Apply apply, std::string (*name)(const T&)) {
  bool changed = false;
  const DeviceDescriptor* device = activeDevice(state);
  fitNextItemBesideLabel(label);
  if (ImGui::BeginCombo(label, current.c_str())) {
    for (const T& v : values) {
      NBodyConfig candidate = config;
      apply(candidate, v);
      const std::string problem = device ? nbodyConfigProblem(candidate, *device) : std::string("no device");
      const bool selected = name(v) == current;
      if (ImGui::Selectable(name(v).c_str(), selected, problem.empty() ? 0 : ImGuiSelectableFlags_Disabled) &&
          !selected) {
        apply(const_cast<NBodyConfig&>(config), v);
        changed = true;
      }
      if (!problem.empty() && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
        ImGui::SetTooltip("%s", problem.c_str());
    }
    ImGui::EndCombo();
  }
  return changed;
}

std::string intName(const int& v) { return std::to_string(v); }
std::string stringName(const std::string& v) { return v; }

void kernelSection(AppState& state, NBodyChoices& choices, const NBodyReadings& readings) {
  NBodyConfig& c = choices.config;
  const DeviceDescriptor* device = activeDevice(state);
  bool changed = false;

  const KernelOp& op = nbodyOp();
  const std::vector<std::string> variants = op.variantNames();
  changed |= configCombo<std::string>(
      "variant", c.variant, variants, state, c,
      [](NBodyConfig& k, const std::string& v) {
        k.variant = v;
        const NBodyVariant* info = findNBodyVariant(v);
        if (info->unrolls.size() == 1) k.unroll = info->unrolls.front();
        if (info->bodiesPerItem.size() == 1) k.bodiesPerItem = info->bodiesPerItem.front();
        if (info->splits.size() == 1) k.split = info->splits.front();
      },
      stringName);
  if (const NBodyVariant* v = findNBodyVariant(c.variant); v && ImGui::IsItemHovered())
    ImGui::SetTooltip("%s", v->description);

  std::vector<int> groups;
  const int maxGroup = device ? static_cast<int>(std::min<size_t>(device->maxWorkGroupSize, 1024)) : 256;
  for (int wg : op.parameter("work_group").values)
    if (wg <= maxGroup) groups.push_back(wg);
  changed |= configCombo<int>("work-group", std::to_string(c.workGroup), groups, state, c,
                              [](NBodyConfig& k, const int& v) { k.workGroup = v; }, intName);
  if (const KernelOpVariant* v = op.variant(c.variant)) {
    const std::vector<int>& unrolls = v->parameter("unroll")->values;
    const std::vector<int>& bodiesPerItem = v->parameter("bodies_per_item")->values;
    const std::vector<int>& splits = v->parameter("split")->values;
    if (unrolls.size() > 1)
      changed |= configCombo<int>("unroll", std::to_string(c.unroll), unrolls, state, c,
                                  [](NBodyConfig& k, const int& u) { k.unroll = u; }, intName);
    if (bodiesPerItem.size() > 1)
      changed |= configCombo<int>("bodies / item", std::to_string(c.bodiesPerItem), bodiesPerItem, state, c,
                                  [](NBodyConfig& k, const int& b) { k.bodiesPerItem = b; }, intName);
    if (splits.size() > 1)
      changed |= configCombo<int>("items / body", std::to_string(c.split), splits, state, c,
                                  [](NBodyConfig& k, const int& s) { k.split = s; }, intName);
  }
  const bool hasFp64 = device && device->hasExtension("cl_khr_fp64");
  ImGui::BeginDisabled(!hasFp64);
  changed |= ImGui::Checkbox("fp64", &c.fp64);
  ImGui::EndDisabled();
  if (!hasFp64 && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
    ImGui::SetTooltip("the device lacks cl_khr_fp64");
  ImGui::SameLine();
  ImGui::BeginDisabled(c.fp64);
  changed |= ImGui::Checkbox("native_rsqrt", &c.nativeRsqrt);
  ImGui::EndDisabled();
  changed |= ImGui::Checkbox("-cl-fast-relaxed-math", &c.fastRelaxedMath);
  sameLineIfCheckboxFits("-cl-denorms-are-zero");
  changed |= ImGui::Checkbox("-cl-denorms-are-zero", &c.denormsAreZero);
  if (changed) choices.configFromUser = true;
  if (device && ImGui::Button("Tuned for this device")) {
    choices.config = preferredNBodyConfig(state.runs.tuning, *device, readings.runningBodies);
    choices.configFromUser = false;
  }
  const KernelInfo& k = readings.kernelInfo;
  // The configuration in words (the records and the state dump keep the short name);
  // what the variant is and where it comes from on hover.
  const std::string running = describeNBodyConfig(readings.runningConfig);
  hintText("running the %s", plainConfigurationWords(running).c_str());
  if (ImGui::IsItemHovered()) tooltipText(configurationVariantDescription(running).c_str());
  hintText("the compiled kernel takes at most %zu work-items per group (best in multiples of %zu) and uses %llu bytes "
           "of local memory per group, %llu bytes of private memory per work-item",
           k.workGroupSize, k.preferredMultiple, static_cast<unsigned long long>(k.localMemBytes),
           static_cast<unsigned long long>(k.privateMemBytes));
  if (ImGui::IsItemHovered())
    tooltipText("What OpenCL says of the built kernel: CL_KERNEL_WORK_GROUP_SIZE, "
                "CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, CL_KERNEL_LOCAL_MEM_SIZE, CL_KERNEL_PRIVATE_MEM_SIZE.");
  hintText("build options: %s", nbodyBuildOptions(readings.runningConfig).c_str());
}

void simulationSection(AppState& state, NBodyChoices& choices) {
  int bodies = choices.bodies;
  ImGui::SetNextItemWidth(140);
  if (ImGui::InputInt("bodies (Enter)", &bodies, 1024, 16384, ImGuiInputTextFlags_EnterReturnsTrue))
    choices.bodies = std::max(1, bodies);
  const char* presetNames[std::size(kNBodyPresets)];
  for (size_t i = 0; i < std::size(kNBodyPresets); ++i) presetNames[i] = nbodyPresetName(kNBodyPresets[i]);
  int preset = static_cast<int>(choices.preset);
  ImGui::SetNextItemWidth(140);
  if (ImGui::Combo("preset", &preset, presetNames, static_cast<int>(std::size(kNBodyPresets)))) {
    choices.preset = kNBodyPresets[preset];
    state.commands.push(ResetNBody{});
  }
  ImGui::SameLine();
  ImGui::SetNextItemWidth(90);
  ImGui::InputInt("seed", &choices.seed);
  if (ImGui::Button(choices.paused ? "Run (Space)" : "Pause (Space)")) choices.paused = !choices.paused;
  ImGui::SameLine();
  ImGui::BeginDisabled(!choices.paused);
  if (ImGui::Button("Step (N)")) state.commands.push(StepNBody{});
  ImGui::EndDisabled();
  ImGui::SameLine();
  if (ImGui::Button("Reset (R)")) state.commands.push(ResetNBody{});
  ImGui::SliderInt("steps / frame", &choices.stepsPerFrame, 1, 32);
  float dt = static_cast<float>(choices.params.dt), eps2 = static_cast<float>(choices.params.softening2);
  float g = static_cast<float>(choices.params.gravity), damping = static_cast<float>(choices.params.damping);
  if (ImGui::SliderFloat("dt", &dt, 1e-5f, 0.1f, "%.5f", ImGuiSliderFlags_Logarithmic)) choices.params.dt = dt;
  if (ImGui::SliderFloat("softening eps^2", &eps2, 1e-6f, 1.0f, "%.6f", ImGuiSliderFlags_Logarithmic))
    choices.params.softening2 = std::max(eps2, 1e-9f);  // eps^2 > 0: the self-interaction stays 0
  if (ImGui::SliderFloat("G x mass", &g, 0.01f, 100.0f, "%.3f", ImGuiSliderFlags_Logarithmic))
    choices.params.gravity = g;
  if (ImGui::SliderFloat("damping", &damping, 0.9f, 1.0f, "%.5f")) choices.params.damping = damping;
}

void drawingSection(AppState& state, NBodyChoices& choices, const NBodyReadings& readings) {
  ImGui::SliderFloat("point size", &choices.style.pointSize, 1.0f, 16.0f, "%.1f");
  if (ImGui::BeginCombo("drawn with", particleDrawingLabel(choices.style.drawing))) {
    for (ParticleDrawing d : kParticleDrawings)
      if (ImGui::Selectable(particleDrawingLabel(d), d == choices.style.drawing)) choices.style.drawing = d;
    ImGui::EndCombo();
  }
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("Point sprites use GL's point drawing; compute shaders draw the same picture with GL 4.3\n"
                      "compute shaders, faster where few of the GPU's cores run GL's point drawing\n"
                      "(NVIDIA's H100 and H200). Automatic times both on the GPU and keeps the faster.");
  if (!readings.particleDrawing.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("%s", readings.particleDrawing.c_str());
    ImGui::PopStyleColor();
  }
  ImGui::SliderFloat("brightness", &choices.style.brightness, 0.01f, 4.0f, "%.2f", ImGuiSliderFlags_Logarithmic);
  int count = 0;
  const char* const* maps = ParticleRenderer::colorMapNames(&count);
  ImGui::Combo("colour by speed", &choices.style.colorMap, maps, count);
  ImGui::BeginDisabled(choices.autoSpeedScale);
  ImGui::SliderFloat("speed at top", &choices.style.maxSpeed, 1e-3f, 100.0f, "%.3f", ImGuiSliderFlags_Logarithmic);
  ImGui::EndDisabled();
  ImGui::SameLine();
  ImGui::Checkbox("auto", &choices.autoSpeedScale);
  if (ImGui::Button("Reset camera (C)")) state.commands.push(ResetCamera{});
  ImGui::SameLine();
  ImGui::Checkbox("vsync (V)", &state.vsync);
}

// One line under the speed: how well the running kernel keeps energy.
void conservationLine(const NBodyChoices& choices, const NBodyReadings& readings) {
  const NBodyConservationReadings& c = readings.conservation;
  if (!choices.conservation.on) return;
  if (!c.unavailable.empty()) return ImGui::TextDisabled("energy drift: not measured (see Accuracy)");
  // Paused, no step moves the system from its baseline: "measuring..." waited for nothing.
  if (!c.hasDrift && choices.paused) return ImGui::TextDisabled("energy drift: measured once the simulation runs");
  if (!c.hasDrift) return ImGui::TextDisabled("energy drift: measuring...");
  ImGui::Text("energy drift %+.2e over %llu steps", c.drift.energy, c.lastStep - c.baselineStep);
  if (ImGui::IsItemHovered())
    tooltipText("(E - E0) / |E0|: total energy (kinetic + softened potential) now against the first measurement "
                "since the system, its parameters or the kernel last changed. Open Accuracy for the plot and momenta.");
}

void accuracySection(NBodyChoices& choices, const NBodyReadings& readings) {
  NBodyConservationChoices& asked = choices.conservation;
  const NBodyConservationReadings& c = readings.conservation;
  ImGui::Checkbox("measure every", &asked.on);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6.0f);
  if (ImGui::InputInt("steps", &asked.everySteps, 10, 100)) asked.everySteps = std::clamp(asked.everySteps, 1, 100000);
  if (!c.unavailable.empty()) {
    ImGui::TextColored(ImVec4(1, 0.45f, 0.4f, 1), "%s", c.unavailable.c_str());
    return;
  }
  if (!asked.on) return;
  hintText("computed on the device from every pair of bodies (as costly as a step: keep the interval large for big N), "
           "summed in %s; the last took %.2f ms",
           c.sumsInDouble ? "double precision" : "single precision with Kahan's compensation (no fp64 here)",
           c.kernelMs);
  hintText("from %s", c.baseline.empty() ? "the first measurement" : c.baseline.c_str());
  if (!c.hasDrift) return;
  ImGui::Text("energy           %+.3e", c.drift.energy);
  ImGui::Text("momentum         %.3e", c.drift.momentum);
  ImGui::Text("angular momentum %.3e", c.drift.angularMomentum);
  if (ImGui::IsItemHovered())
    tooltipText("Momentum and angular momentum: the length of their change against the largest their sums could be "
                "(sum of |m v| and of |p x m v|, bounded from the kinetic energy), since their totals can be zero.");
  if (!c.energyDrift.empty()) {
    const auto [lo, hi] = std::minmax_element(c.energyDrift.begin(), c.energyDrift.end());
    const float span = std::max(std::max(std::abs(*lo), std::abs(*hi)), 1e-12f);
    char overlay[96];
    std::snprintf(overlay, sizeof overlay, "energy drift, %zu measurements (scale +-%.1e)", c.energyDrift.size(),
                  static_cast<double>(span));
    ImGui::PlotLines("##energy drift", c.energyDrift.data(), static_cast<int>(c.energyDrift.size()), 0, overlay, -span,
                     span, ImVec2(ImGui::GetContentRegionAvail().x, ImGui::GetFontSize() * 5.0f));
  }
  if (choices.params.damping != 1.0)
    hintText("damping %.5f takes energy out on purpose: the drift measures it as well as the integrator",
             choices.params.damping);
}

}  // namespace

void drawNBodyPanel(AppState& state) {
  if (state.scene != SceneKind::NBody || !state.panels.nbody) return;
  NBodyState& nb = state.nbody;
  NBodyChoices& choices = nb.choices;
  const NBodyReadings& readings = nb.readings();
  placePanel(state, "N-body");
  if (!ImGui::Begin("N-body", &state.panels.nbody)) {
    ImGui::End();
    return;
  }
  const double flops = readings.runningConfig.fp64 ? 30.0 : 20.0;
  ImGui::Text("%zu bodies   step %llu", readings.runningBodies, readings.steps);
  // How the figures are counted in a tooltip: as a paragraph under them it pushed the
  // work-group controls below the panel's edge at 1024x700.
  char howCounted[320];
  std::snprintf(howCounted, sizeof howCounted,
                "%.0f flops per interaction (NVIDIA nbody convention); kernel time from OpenCL events. The steps run "
                "while GL draws the previous positions, and the GPU shares its time between the two: the time "
                "includes GL's share (--bench nbody times the kernel alone)",
                flops);
  ImGui::Text("%.1f G interactions/s   %.1f GFLOP/s", readings.interactionsPerSecond * 1e-9,
              readings.interactionsPerSecond * flops * 1e-9);
  if (ImGui::IsItemHovered()) tooltipText(howCounted);
  ImGui::Text("kernel %.3f ms/step   %.1f steps/s", readings.kernelMs, readings.stepsPerSecond);
  if (ImGui::IsItemHovered()) tooltipText(howCounted);
  conservationLine(choices, readings);
  if (ImGui::CollapsingHeader("Kernel", ImGuiTreeNodeFlags_DefaultOpen)) kernelSection(state, choices, readings);
  if (ImGui::CollapsingHeader("Simulation", ImGuiTreeNodeFlags_DefaultOpen)) simulationSection(state, choices);
  if (ImGui::CollapsingHeader("Drawing")) drawingSection(state, choices, readings);
  if (ImGui::CollapsingHeader("Accuracy (energy, momentum)")) accuracySection(choices, readings);
  if (ImGui::CollapsingHeader("Check, save, load")) {
    if (ImGui::Button("Verify against CPU reference")) state.commands.push(VerifyNBody{});
    if (!readings.verification.empty()) ImGui::TextWrapped("%s", readings.verification.c_str());
    ImGui::InputText("file", nb.statePath, sizeof nb.statePath);
    if (ImGui::Button("Save state")) state.commands.push(SaveNBodyState{});
    ImGui::SameLine();
    if (ImGui::Button("Load state")) state.commands.push(LoadNBodyState{});
  }
  if (!readings.message.empty()) {
    ImGui::Separator();
    ImGui::TextWrapped("%s", readings.message.c_str());
  }
  ImGui::End();
}

}  // namespace ks
