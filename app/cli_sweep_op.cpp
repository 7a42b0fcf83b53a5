#include "app/cli_sweep_op.h"

#include <algorithm>
#include <cstdlib>
#include <optional>

#include "compute/kernel_op.h"
#include "compute/parameter_values.h"

namespace ks {

namespace {

bool contains(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

std::vector<const KernelOp*> sweptOperations() {
  std::vector<const KernelOp*> ops;
  for (const KernelOp* op : kernelOps())
    if (op != &copyOp()) ops.push_back(op);
  return ops;
}

// One --param text taken apart: "tile=8,16" -> "tile", {8, 16}.
struct ParamText {
  std::string name;
  std::vector<int> values;
};

std::optional<ParamText> parseParam(const std::string& text) {
  const size_t equals = text.find('=');
  if (equals == std::string::npos || equals == 0 || equals + 1 == text.size()) return std::nullopt;
  ParamText out{text.substr(0, equals), {}};
  std::string rest = text.substr(equals + 1) + ",";
  size_t start = 0;
  for (size_t comma = rest.find(','); comma != std::string::npos; start = comma + 1, comma = rest.find(',', start)) {
    const std::string number = rest.substr(start, comma - start);
    char* end = nullptr;
    const long value = std::strtol(number.c_str(), &end, 10);
    if (number.empty() || *end != '\0' || value < -(1L << 30) || value > (1L << 30)) return std::nullopt;
    out.values.push_back(static_cast<int>(value));
  }
  return out;
}

// "1|2|4", or "32 to 1024 in steps of 32" for a long evenly spaced list (the N-body work-groups).
std::string describeValues(const std::vector<int>& values) {
  bool even = values.size() > 6;
  for (size_t i = 2; even && i < values.size(); ++i) even = values[i] - values[i - 1] == values[1] - values[0];
  if (!even) return joinValues(values, "|");
  return std::to_string(values.front()) + " to " + std::to_string(values.back()) + " in steps of " +
         std::to_string(values[1] - values[0]);
}

std::vector<std::string> parameterNames(const KernelOp& op) {
  std::vector<std::string> names;
  for (const KernelParameter& p : op.parameters) names.push_back(p.name);
  return names;
}

// A CLI11 check for --variant: a variant of some operation (which one is known
// only after parsing, when --op has been read; finishSweepOpOptions checks that).
std::string anyVariantProblem(const std::string& text) {
  std::string listed;
  for (const KernelOp* op : sweptOperations()) {
    if (contains(op->variantNames(), text)) return {};
    listed += (listed.empty() ? "" : "; ") + op->name + ": " + joinValues(op->variantNames());
  }
  return "unknown variant '" + text + "'; the variants (--op picks the operation, default nbody): " + listed;
}

std::string checkParamText(const std::string& text) {
  const std::optional<ParamText> param = parseParam(text);
  if (!param) return "'" + text + "' is not NAME=VALUE[,VALUE...] with whole numbers (e.g. pixels_per_item=2,4)";
  for (const KernelOp* op : sweptOperations())
    if (contains(parameterNames(*op), param->name)) return {};
  std::string listed;
  for (const KernelOp* op : sweptOperations())
    listed += (listed.empty() ? "" : "; ") + op->name + ": " + joinValues(parameterNames(*op));
  return "unknown parameter '" + param->name + "'; the parameters: " + listed;
}

// Where the values of one parameter of `op` go in the options; false when that
// operation's sweep cannot narrow this parameter.
bool storeValues(const std::string& op, const ParamText& p, AppOptions& o, std::vector<int>& naiveWidths,
                 std::vector<int>& naiveHeights) {
  if (p.name == "channels" && op != nbodyOp().name) {
    o.transpose.channels = p.values;  // --channels: the pixel sizes every image sweep runs
    return true;
  }
  if (op == nbodyOp().name) {
    NBodyOptions& nb = o.nbody;
    std::vector<int>* list = p.name == "work_group"        ? &nb.workGroups
                             : p.name == "unroll"          ? &nb.unrolls
                             : p.name == "bodies_per_item" ? &nb.bodiesPerItem
                             : p.name == "split"           ? &nb.splits
                                                           : nullptr;
    if (list) *list = p.values;
    return list != nullptr;
  }
  if (op == transposeOp().name) {
    TransposeOptions& tr = o.transpose;
    std::vector<int>* list = p.name == "tile"            ? &tr.tiles
                             : p.name == "rows_per_item" ? &tr.rowsPerItem
                             : p.name == "work_group"    ? &tr.workGroups
                             : p.name == "work_group_x"  ? &naiveWidths
                             : p.name == "work_group_y"  ? &naiveHeights
                                                         : nullptr;
    if (list) *list = p.values;
    return list != nullptr;
  }
  if (op == rotateOp().name) {
    o.rotateSweep.values[p.name] = p.values;
    return true;
  }
  if (op == histogramOp().name) {
    o.histogramSweep.values[p.name] = p.values;
    return true;
  }
  return false;
}

// The variants given with --variant go to the operation's own variant list.
std::vector<std::string>* variantList(const std::string& op, AppOptions& o) {
  if (op == rotateOp().name) return &o.rotateSweep.variants;
  if (op == transposeOp().name) return &o.transpose.variants;
  if (op == histogramOp().name) return &o.histogramSweep.variants;
  return nullptr;  // N-body: they stay in --variant's own list
}

}  // namespace

std::vector<std::string> sweptOperationNames() {
  std::vector<std::string> names;
  for (const KernelOp* op : sweptOperations()) names.push_back(op->name);
  return names;
}

void addSweepOpOptions(CLI::App& app, std::string& op, std::vector<std::string>& params) {
  auto* group = app.add_option_group("Sweep", "kernelscope --sweep --op OPERATION [--variant ...] [--param NAME=...]");
  group->add_option("--op", op,
                    "The operation --sweep measures: " + joinValues(sweptOperationNames()) +
                        " (default nbody); --csv/--json record its runs")
      ->check(CLI::IsMember(sweptOperationNames()));
  std::string help = "With --sweep: the values of one parameter of the operation to sweep (repeat it for more; the "
                     "others take every value each variant offers). The parameters and their values: ";
  for (const KernelOp* o : sweptOperations()) {
    help += "\n  " + o->name + ":";
    for (const KernelParameter& p : o->parameters) help += " " + p.name + " (" + describeValues(p.values) + ")";
  }
  group->add_option("--param", params, help)->type_name("NAME=V1,V2")->check(checkParamText);
}

CLI::Validator anyOperationVariant() { return CLI::Validator(anyVariantProblem, "VARIANT"); }

std::string finishSweepOpOptions(const CLI::App& app, const std::string& opGiven,
                                 const std::vector<std::string>& params, AppOptions& options) {
  const std::vector<std::string> swept = sweptOperationNames();
  const bool sweep = options.nbody.sweep;
  if (!opGiven.empty()) {
    if (!sweep && options.bench.empty())
      return "--op: picks the operation that --sweep measures (kernelscope --sweep --op " + opGiven + " ...)";
    if (!options.bench.empty() && options.bench != opGiven)
      return "--op " + opGiven + ": not with --bench " + options.bench + " (--sweep --op " + opGiven +
             " runs the " + opGiven + " sweep)";
  }
  // The operation the variants and parameters are of.
  std::string op = opGiven;
  if (op.empty()) op = contains(swept, options.bench) ? options.bench : nbodyOp().name;
  const KernelOp& desc = *findKernelOp(op);
  if (sweep && op != nbodyOp().name) {
    options.bench = op;
    // N-body options would be ignored by another operation's sweep without a word: refused.
    for (const char* name : {"--n", "--wg", "--unroll", "--bodies-per-item", "--split", "--fp64", "--fast-math", "--ftz",
                             "--precise-rsqrt", "--precision", "--cl-options", "--build-log", "--dump-program", "--verify",
                             "--drift-steps", "--dt"})
      if (app.count(name) > 0)
        return std::string(name) + ": an N-body option, not for --op " + op + "; its parameters go as --param NAME=" +
               "VALUES: " + joinValues(parameterNames(desc));
  }
  std::vector<std::string>& variants = options.nbody.variants;
  for (const std::string& v : variants)
    if (!contains(desc.variantNames(), v))
      return "--variant: '" + v + "' is not one of the " + op + " variants: " + joinValues(desc.variantNames()) +
             (opGiven.empty() ? std::string(" (--op picks the operation)") : std::string());
  if (std::vector<std::string>* list = variantList(op, options); list && !variants.empty()) {
    list->insert(list->end(), variants.begin(), variants.end());
    variants.clear();
  }
  if (params.empty()) return {};
  if (!sweep && !contains(swept, options.bench))
    return "--param: for --sweep (kernelscope --sweep --op OPERATION --param NAME=VALUES)";
  std::vector<int> naiveWidths, naiveHeights;
  for (const std::string& text : params) {
    const ParamText p = *parseParam(text);  // checked while parsing
    const std::vector<std::string> names = parameterNames(desc);
    if (!contains(names, p.name))
      return "--param " + text + ": the " + op + " operation has no parameter '" + p.name + "'; its parameters: " +
             joinValues(names);
    const std::vector<int>& allowed = desc.parameter(p.name).values;
    for (int value : p.values)
      if (std::find(allowed.begin(), allowed.end(), value) == allowed.end())
        return "--param " + text + ": " + std::to_string(value) + " is not a value of " + op + "'s " + p.name +
               "; the values: " + joinValues(allowed);
    if (!storeValues(op, p, options, naiveWidths, naiveHeights))
      return "--param " + text + ": the " + op + " sweep does not narrow " + p.name;
  }
  if (naiveWidths.empty() != naiveHeights.empty())
    return "--param: the transpose's naive work-group shapes need both work_group_x and work_group_y";
  for (int w : naiveWidths)
    for (int h : naiveHeights) options.transpose.naiveShapes.emplace_back(w, h);
  return {};
}

}  // namespace ks
