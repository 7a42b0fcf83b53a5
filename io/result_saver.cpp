#include "io/result_saver.h"

#include <filesystem>
#include <system_error>
#include <utility>

#include "io/png_writer.h"

namespace ks {
namespace {

std::string savePng(const HostImage& image, const std::string& path) {
  if (const Result<void> saved = savePngFile(image, path); !saved) return saved.error().what();
  // The whole path: a name typed without a folder lands in the working directory,
  // which the user may not know.
  std::error_code ec;
  const std::filesystem::path whole = std::filesystem::absolute(path, ec);
  return "saved the result to " + (ec ? path : whole.lexically_normal().string());
}

}  // namespace

ResultSaver::~ResultSaver() {
  if (worker_.joinable()) worker_.join();
}

bool ResultSaver::start(HostImage image, const std::string& path) {
  if (busy()) return false;
  image_ = std::move(image);
  path_ = path;
  since_ = std::chrono::steady_clock::now();
  done_.store(false);
  auto write = [this] {
    message_ = savePng(image_, path_);
    image_ = HostImage();
    done_.store(true, std::memory_order_release);
  };
  try {
    worker_ = std::thread(write);
  } catch (const std::system_error&) {
    write();  // no thread to be had: written here, the window waits
  }
  return true;
}

std::optional<std::string> ResultSaver::poll() {
  if (!done_.load(std::memory_order_acquire)) return std::nullopt;
  if (worker_.joinable()) worker_.join();
  done_.store(false);
  return std::move(message_);
}

double ResultSaver::busySeconds() const {
  return busy() ? std::chrono::duration<double>(std::chrono::steady_clock::now() - since_).count() : 0.0;
}

}  // namespace ks
