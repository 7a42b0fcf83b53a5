#pragma once
// One place where OpenCL status codes become readable errors.
#include <CL/cl.h>

#include <stdexcept>
#include <string>

#include "core/error.h"

namespace ks {

// "CL_INVALID_WORK_GROUP_SIZE" for -54; "CL_UNKNOWN_ERROR(-1234)" for codes we do not know.
std::string clErrorName(cl_int code);

// Thrown by every failed OpenCL call; says which call failed and why.
class ClError : public Error {
 public:
  ClError(cl_int code, const std::string& call, const std::string& detail = {});
  cl_int code() const { return code_; }
  const std::string& call() const { return call_; }

 private:
  cl_int code_;
  std::string call_;
};

// The single check every OpenCL call goes through.
inline void clCheck(cl_int code, const char* call) {
  if (code != CL_SUCCESS) throw ClError(code, call);
}

}  // namespace ks
