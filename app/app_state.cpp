#include "app/app_state.h"

#include <cstdio>

namespace ks {

void AppState::report(const std::string& message) {
  // Also on stderr: headless runs and bug reports need it without the UI.
  std::fprintf(stderr, "kernelscope: %s\n", message.c_str());
  log.push_back(message);
  while (log.size() > 200) log.pop_front();
}

void ImageLabState::stepFileSet(int delta, CommandQueue& commands) {
  if (fileSet.size() < 2) return;
  const long n = static_cast<long>(fileSet.size());
  fileIndex = static_cast<size_t>(((static_cast<long>(fileIndex) + delta) % n + n) % n);
  commands.push(OpenImages{{fileSet[fileIndex]}});
}

}  // namespace ks
