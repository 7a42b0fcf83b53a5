#include "lab/sweep_runs.h"

#include <cstdio>

#include "compute/exit_code.h"
#include "compute/sample_stats.h"

namespace ks {
namespace {

std::string firstLine(const std::string& text) { return text.substr(0, text.find('\n')); }

}  // namespace

std::vector<std::pair<std::string, std::string>> nbodyParameters(const NBodyConfig& c) {
  std::vector<std::pair<std::string, std::string>> p = {{"variant", c.variant}};
  // work_group, unroll, bodies_per_item, split: the descriptor's names (compute/kernel_op.h).
  for (const auto& parameter : nbodyConfigParameters()) p.emplace_back(parameter.name, std::to_string(c.*parameter.member));
  p.insert(p.end(), {{"precision", c.fp64 ? "fp64" : "fp32"},
                     {"native_rsqrt", c.nativeRsqrt && !c.fp64 ? "1" : "0"},
                     {"fast_math", c.fastRelaxedMath ? "1" : "0"},
                     {"ftz", c.denormsAreZero ? "1" : "0"},
                     {"extra_options", c.extraOptions}});
  return p;
}

std::vector<std::pair<std::string, std::string>> transposeParameters(const TransposeConfig& c) {
  const ImageTransposeVariant* v = findImageTransposeVariant(c.variant);
  std::vector<std::pair<std::string, std::string>> p = {{"variant", c.variant}};
  const TransposeKind kind = v ? v->kind : TransposeKind::Naive;
  if (kind == TransposeKind::Naive) {
    p.emplace_back("work_group", std::to_string(c.workGroupX) + "x" + std::to_string(c.workGroupY));
  } else {
    p.emplace_back("tile", std::to_string(c.tile));
    if (kind == TransposeKind::Tiled) p.emplace_back("rows_per_item", std::to_string(c.rowsPerItem));
    else p.emplace_back("work_group", std::to_string(c.workGroup));
  }
  p.emplace_back("padded", v && v->padded ? "1" : "0");
  p.emplace_back("block_order", blockOrderName(v ? v->order : BlockOrder::Rows));
  return p;
}

RunRecord refusedNBodyRun(const DeviceDescriptor& device, const NBodyConfig& config, const std::string& why,
                          size_t bodies) {
  RunRecord r;
  r.name = describeNBodyConfig(config);
  // The short description leaves out what the variant does not use; a refused
  // combination may differ in exactly that, so name every value.
  if (!why.empty())
    r.name += " (unroll=" + std::to_string(config.unroll) + " B=" + std::to_string(config.bodiesPerItem) +
              " S=" + std::to_string(config.split) + ")";
  r.status = "refused: " + firstLine(why);
  r.meta = runMetadataFor(device);
  r.meta.scene = "nbody";
  r.meta.parameters = nbodyParameters(config);
  r.meta.parameters.emplace_back("bodies", std::to_string(bodies));
  r.m.rateUnit = "GFLOP/s";
  return r;
}

RunRecord nbodyRun(const DeviceDescriptor& device, const NBodyMeasurement& m, size_t bodies, int iterations) {
  RunRecord r = refusedNBodyRun(device, m.config, m.problem, bodies);
  r.meta.parameters.emplace_back("iterations", std::to_string(iterations));
  r.meta.sourceHash = m.sourceHash ? hexHash(m.sourceHash) : "";
  if (!m.problem.empty()) {
    r.status = (m.buildFailed ? "build failed: " : "failed: ") + firstLine(m.problem);
    return r;
  }
  r.status = "ok";
  r.m.kernelMs = summarize(m.stepMs);
  // The median step: one slow step (a clock change, another process) does not move it.
  const double n = static_cast<double>(bodies);
  if (r.m.kernelMs.median > 0)
    r.m.rate = n * n * nbodyFlopsPerInteraction(m.config) / (r.m.kernelMs.median * 1e-3) * 1e-9;
  return r;
}

RunRecord refusedTransposeRun(const DeviceDescriptor& device, const TransposeConfig& config, const ImageLayout& layout,
                              const std::string& why) {
  return refusedImageOpRun(transposeOp(), device, describeTransposeConfig(config), transposeParameters(config), layout,
                           why);
}

RunRecord refusedImageOpRun(const KernelOp& op, const DeviceDescriptor& device, const std::string& configuration,
                            std::vector<std::pair<std::string, std::string>> parameters, const ImageLayout& layout,
                            const std::string& why) {
  RunRecord r;
  r.name = op.name + " " + configuration;
  r.status = "refused: " + firstLine(why);
  r.meta = runMetadataFor(device);
  r.meta.scene = op.name;
  r.meta.parameters = std::move(parameters);
  r.meta.parameters.emplace_back("image", describeImageLayout(layout));
  r.m.rateUnit = op.figureOfMerit;
  return r;
}

RunRecord measuredImageRun(RunRecord r, const ImageRunTimes& times, int iterations) {
  r.meta.parameters.emplace_back("iterations", std::to_string(iterations));
  r.meta.sourceHash = times.sourceHash ? hexHash(times.sourceHash) : "";
  if (!times.problem.empty()) {
    r.status = "failed: " + firstLine(times.problem);
    return r;
  }
  r.status = "ok";
  r.m.kernelMs = summarize(times.runMs);
  r.m.rate = times.gigabytesPerSecond;
  return r;
}

RunRecord transposeRun(const DeviceDescriptor& device, const TransposeMeasurement& m, int iterations) {
  return measuredImageRun(refusedTransposeRun(device, m.config, m.layout, m.problem), m, iterations);
}

int bestRunIndex(const std::vector<RunRecord>& runs) {
  int best = -1;
  for (size_t i = 0; i < runs.size(); ++i)
    if (runs[i].ok() && runs[i].m.rate > 0 && (best < 0 || runs[i].m.rate > runs[static_cast<size_t>(best)].m.rate))
      best = static_cast<int>(i);
  return best;
}

int writeRunFiles(const std::vector<RunRecord>& runs, const std::optional<std::filesystem::path>& csv,
                  const std::optional<std::filesystem::path>& json) {
  int code = kExitOk;
  auto write = [&](const std::optional<std::filesystem::path>& file, auto writer, const char* what) {
    if (!file) return;
    if (const std::string error = writer(runs, *file); !error.empty()) {
      std::fprintf(stderr, "kernelscope: error: %s\n", error.c_str());
      code = kExitFailure;
    } else {
      std::printf("%s: %zu runs written to %s\n", what, runs.size(), file->c_str());
    }
  };
  write(csv, writeRunsCsv, "CSV");
  write(json, writeRunsJson, "JSON");
  return code;
}

}  // namespace ks
