#include "compute/program_binary_cache.h"

#include <cstring>
#include <fstream>
#include <sstream>
#include <system_error>
#include <unistd.h>

#include "compute/atomic_file.h"
#include "compute/program_cache.h"

namespace ks {
namespace fs = std::filesystem;
namespace {

// "KSPB" + format version; a new layout gets a new version and old files are ignored.
constexpr char kMagic[8] = {'K', 'S', 'P', 'B', 'I', 'N', '0', '1'};

void putU64(std::string& out, uint64_t v) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

bool getU64(const std::string& in, size_t& pos, uint64_t& v) {
  if (pos > in.size() || in.size() - pos < 8) return false;
  v = 0;
  for (int i = 0; i < 8; ++i) v |= static_cast<uint64_t>(static_cast<unsigned char>(in[pos + i])) << (8 * i);
  pos += 8;
  return true;
}

std::string hex(uint64_t v) {
  std::ostringstream out;
  out << std::hex;
  out.width(16);
  out.fill('0');
  out << v;
  return out.str();
}

}  // namespace

std::string programBinaryKey(const std::string& deviceIdentity, uint64_t sourceHash, const std::string& options) {
  return deviceIdentity + "|source " + hex(sourceHash) + "|options " + options;
}

fs::path ProgramBinaryCache::pathFor(const std::string& key) const { return dir_ / (hex(hashSource(key)) + ".bin"); }

std::optional<std::string> ProgramBinaryCache::load(const std::string& key, std::string& problem) const {
  problem.clear();
  const fs::path path = pathFor(key);
  std::error_code ec;
  if (!fs::exists(path, ec)) return std::nullopt;
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  if (!in || !(text << in.rdbuf())) {
    problem = "cannot read " + path.string();
    return std::nullopt;
  }
  const std::string file = text.str();
  size_t pos = sizeof kMagic;
  uint64_t keyLength = 0, binaryLength = 0, checksum = 0;
  if (file.size() < sizeof kMagic || std::memcmp(file.data(), kMagic, sizeof kMagic) != 0) {
    problem = path.string() + " is not a kernelscope program binary (bad header)";
  } else if (!getU64(file, pos, keyLength) || keyLength > file.size() - pos) {
    problem = path.string() + " is truncated (key)";
  } else if (file.compare(pos, keyLength, key) != 0 || keyLength != key.size()) {
    problem = path.string() + " was written for another program (key mismatch)";
  } else if (pos += keyLength; !getU64(file, pos, binaryLength) || !getU64(file, pos, checksum)) {
    problem = path.string() + " is truncated (length)";
  } else if (binaryLength != file.size() - pos) {
    problem = path.string() + " is truncated or has trailing bytes (" + std::to_string(file.size() - pos) +
              " bytes of binary, header says " + std::to_string(binaryLength) + ")";
  } else {
    std::string binary = file.substr(pos);
    if (hashSource(binary) != checksum) {
      problem = path.string() + " is corrupt (checksum mismatch)";
      return std::nullopt;
    }
    if (binary.empty()) {
      problem = path.string() + " holds an empty binary";
      return std::nullopt;
    }
    return binary;
  }
  return std::nullopt;
}

std::string ProgramBinaryCache::store(const std::string& key, const std::string& binary) const {
  std::error_code ec;
  fs::create_directories(dir_, ec);
  if (ec) return "cannot create " + dir_.string() + ": " + ec.message();
  std::string file(kMagic, sizeof kMagic);
  putU64(file, key.size());
  file += key;
  putU64(file, binary.size());
  putU64(file, hashSource(binary));
  file += binary;
  return replaceFileAtomically(pathFor(key), file);
}

}  // namespace ks
