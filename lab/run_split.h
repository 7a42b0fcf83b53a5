#pragma once
// A run split over several devices or ranks (issue 24): how many, each one's
// kernel time, what the exchange of positions cost, how evenly the work was
// shared and how close to ideal the speed-up was. Each field has one name, the
// CSV column and the JSON key (under "measurements"); runs on one device, and
// files from before these fields, read back as one device with the rest empty.
#include <string>
#include <vector>

namespace ks {

struct RunSplit {
  int devices = 1;                    // devices (or MPI ranks) the step was split over
  std::vector<double> deviceKernelMs; // median kernel time of each, in device order
  double exchangeMs = 0.0;            // median time a step spent beyond the slowest kernel (the exchange)
  double loadBalance = 0.0;           // mean kernel time over the slowest (1: all finish together)
  double parallelEfficiency = 0.0;    // one device's step time / (devices x the split step time)
  bool split() const { return devices > 1; }
};

// The fields as text, in CSV column order: name, read, write (write throws
// std::invalid_argument on a bad number). `number`: JSON writes it as a number
// (null when empty), else as text.
struct RunSplitField {
  const char* name;
  std::string (*get)(const RunSplit&);
  void (*set)(RunSplit&, const std::string&);
  bool number;
};
const std::vector<RunSplitField>& runSplitFields();

}  // namespace ks
