#include "core/error.h"

#include <cstdio>

namespace ks {

Error::Error(const std::string& message, int exitCode, ErrorDetails details)
    : std::runtime_error(message), exitCode_(exitCode), details_(std::move(details)) {}

std::string ErrorReport::text() const {
  if (buildLog.empty()) return message;
  return message + "\nbuild log:\n" + buildLog;
}

ErrorReport reportError(const std::exception& error, int fallbackExitCode) {
  ErrorReport report;
  report.message = error.what();
  report.exitCode = fallbackExitCode;
  if (const auto* ours = dynamic_cast<const Error*>(&error)) {
    report.exitCode = ours->exitCode();
    report.buildLog = ours->details().buildLog;
  }
  return report;
}

int printError(const ErrorReport& report) {
  std::fprintf(stderr, "kernelscope: error: %s\n", report.text().c_str());
  return report.exitCode;
}

}  // namespace ks
