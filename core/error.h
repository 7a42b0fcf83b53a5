#pragma once
// One shape for every error kernelscope raises: a plain message for the user, the
// exit code a run that ends on it leaves with, and the details a reader may need
// (the OpenCL error's name, a kernel's build log, the file concerned). Every
// exception class of the libraries derives from Error, so one function
// (reportError) turns any of them into what the terminal, the log and the panels
// show. No OpenCL, GL or ImGui here: every library links this one.
#include <exception>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <utility>

#include "core/exit_code.h"

namespace ks {

struct ErrorDetails {
  std::string openClName;      // e.g. "CL_BUILD_PROGRAM_FAILURE"; empty when no OpenCL call failed
  std::string buildLog;        // the compiler's log of a kernel that did not build
  std::filesystem::path file;  // the file the error is about, when there is one
};

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message, int exitCode = kExitFailure, ErrorDetails details = {});
  int exitCode() const noexcept { return exitCode_; }
  const ErrorDetails& details() const noexcept { return details_; }

 private:
  int exitCode_;
  ErrorDetails details_;
};

// What the user is told about an error, and how a run that ends on it exits.
struct ErrorReport {
  int exitCode = kExitFailure;
  std::string message;   // one paragraph: for the log, the panels and the terminal
  std::string buildLog;  // the compiler's words when a kernel did not build; the terminal shows them too
  // The terminal's text: the message, then the build log under a heading.
  std::string text() const;
};

// The one reporting function. A ks::Error gives its own exit code and details;
// any other exception gives `fallbackExitCode` and its what().
ErrorReport reportError(const std::exception& error, int fallbackExitCode = kExitFailure);

// Prints "kernelscope: error: <text>" on stderr; returns the report's exit code.
int printError(const ErrorReport& report);

}  // namespace ks
