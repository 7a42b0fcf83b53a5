// --bench nbody --distributed under mpirun (issue 24, mpi/): two ranks on PoCL's
// CPU driver listed twice give one device's final state bit for bit, and bad
// starts (a rank without a device, ranks that disagree on N) end every rank
// with one message from rank 0 instead of a hang. Built only with MPI.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "test_devices.h"
#include "test_require.h"
#include "test_support.h"

namespace ks {
namespace {

namespace fs = std::filesystem;
const fs::path kBinary = KERNELSCOPE_BINARY;
const fs::path kKernels = KERNELSCOPE_SOURCE_KERNELS_DIR;
constexpr int kTimeoutSeconds = 60;  // a hang ends here, below the ctest TIMEOUT

std::string quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// One kernelscope command line (its options after the binary).
std::string kernelscope(const std::vector<std::string>& args) {
  std::string cmd = quote(kBinary.string()) + " --kernels-dir " + quote(kKernels.string());
  for (const std::string& a : args) cmd += " " + quote(a);
  return cmd;
}

// mpirun with the given POCL_DEVICES; `apps` joined by " : " (one app per rank group).
test::ShellResult mpirun(const test::TempDir& dir, const std::string& poclDevices, const std::vector<std::string>& apps) {
  std::string cmd = "env -u DISPLAY -u WAYLAND_DISPLAY POCL_DEVICES=" + quote(poclDevices) +
                    " mpirun --oversubscribe --allow-run-as-root";
  for (size_t i = 0; i < apps.size(); ++i) cmd += (i ? " : " : " ") + apps[i];
  return test::runShell(cmd, dir.path(), kTimeoutSeconds);
}

class Distributed : public ::testing::Test {
 protected:
  void SetUp() override {
    KS_NEED("opencl", test::openClMissing());
    if (!test::findInPath("mpirun")) GTEST_SKIP() << "mpirun is not in PATH (openmpi-bin; scripts/deps.sh installs it)";
  }
  // The same run everywhere; N 1100 unless `bodies` says otherwise.
  static std::vector<std::string> with(std::vector<std::string> extra, const std::string& bodies = "1100") {
    std::vector<std::string> args = {"--headless", "--bench", "nbody", "--platform", "portable", "--n", bodies,
                                     "--iterations", "3", "--variant", "blocked", "--wg", "64"};
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
  }
};

TEST_F(Distributed, TwoRanksGiveOneDevicesFinalStateBitForBit) {
  test::TempDir dir("ks-mpi");
  const fs::path one = dir / "one.bin", ranks = dir / "ranks.bin";
  const test::ShellResult single =
      test::runShell("POCL_DEVICES=pthread " + kernelscope(with({"--positions-out", one.string()})), dir.path(),
                     kTimeoutSeconds);
  ASSERT_EQ(single.exitCode, 0) << single.describe();
  const test::ShellResult r =
      mpirun(dir, "pthread pthread", {"-np 2 " + kernelscope(with({"--distributed", "--positions-out", ranks.string()}))});
  ASSERT_EQ(r.exitCode, 0) << r.describe();
  for (const char* line : {"over 2 MPI ranks", "1100 bodies, total time for 3 iterations: ",
                           "billion interactions per second", "rank 0 ", "rank 1 ", "communication: ",
                           "parallel efficiency "})
    EXPECT_NE(r.out.find(line), std::string::npos) << line << "\n" << r.describe();
  EXPECT_EQ(test::readFile(one), test::readFile(ranks)) << "two ranks' final state differs from one device's";
}

TEST_F(Distributed, ARankWithoutADeviceEndsEveryRankWithOneMessage) {
  test::TempDir dir("ks-mpi-nodevice");
  const test::ShellResult r = mpirun(dir, "pthread", {"-np 2 " + kernelscope(with({"--distributed"}))});
  EXPECT_FALSE(r.timedOut) << r.describe();
  EXPECT_NE(r.exitCode, 0) << r.describe();
  EXPECT_NE(r.err.find("the distributed N-body run cannot start (2 ranks):\n  rank 1: finds no device"),
            std::string::npos)
      << r.describe();
}

TEST_F(Distributed, RanksThatDisagreeOnTheBodiesDoNotStart) {
  test::TempDir dir("ks-mpi-mismatch");
  const test::ShellResult r =
      mpirun(dir, "pthread pthread",
             {"-np 1 " + kernelscope(with({"--distributed"})),
              "-np 1 " + kernelscope(with({"--distributed"}, "2000"))});
  EXPECT_FALSE(r.timedOut) << r.describe();
  EXPECT_NE(r.exitCode, 0) << r.describe();
  EXPECT_NE(r.err.find("rank 1 has 2000 bodies, rank 0 1100"), std::string::npos) << r.describe();
}

// --scaling over MPI ranks: the first 1, then 2 ranks run the same steps from the
// same start; one table row and one run record each, with its rank count.
TEST_F(Distributed, ScalingRunsOneRankThenTwoAndRecordsEach) {
  test::TempDir dir("ks-mpi-scaling");
  const fs::path csv = dir / "scaling.csv";
  const test::ShellResult r =
      mpirun(dir, "pthread pthread", {"-np 2 " + kernelscope(with({"--distributed", "--scaling", "--csv", csv.string()}))});
  ASSERT_EQ(r.exitCode, 0) << r.describe();
  EXPECT_NE(r.out.find("strong scaling over MPI ranks, 1100 bodies"), std::string::npos) << r.describe();
  // One row per rank count: the count first, then the step time, rate, speed-up and efficiency.
  for (const char* row : {"\n       1 ", "\n       2 "})
    EXPECT_NE(r.out.find(row), std::string::npos) << "no row for" << row << "\n" << r.describe();
  EXPECT_EQ(r.out.find("over 2 MPI ranks, one device each"), std::string::npos) << "the full report is for one run";
  const std::string file = test::readFile(csv);
  const size_t header = file.find('\n');
  ASSERT_NE(header, std::string::npos) << file;
  size_t rows = 0;
  for (size_t at = header + 1; at < file.size(); at = file.find('\n', at) + 1) ++rows;
  EXPECT_EQ(rows, 2u) << file;
  EXPECT_NE(file.find("over 1 MPI rank"), std::string::npos) << file;
  EXPECT_EQ(file.find("over 1 MPI ranks"), std::string::npos) << file;
  EXPECT_NE(file.find("over 2 MPI ranks"), std::string::npos) << file;
}

}  // namespace
}  // namespace ks
