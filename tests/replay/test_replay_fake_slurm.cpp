// easypp-replay run as a command, against fake Slurm commands on PATH: what it does to the
// jobs it submitted when a Slurm command fails or the wait times out, and an --out that
// cannot be written, refused before anything runs.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace easypp::test {
namespace {

namespace fs = std::filesystem;

struct CliResult {
  int status = -1;
  std::string out, err;
};

// sbatch numbers jobs from 1001 and logs them; squeue reports nothing queued (every job
// done) unless squeue-mode says to fail once jobs exist, or that every job runs forever; sacct fails (no records needed);
// scancel logs its arguments.
const char* kFakeSbatch =
    "#!/bin/sh\n"
    "n=$(( $(cat \"$FAKE_DIR/next\" 2>/dev/null || echo 1000) + 1 )); echo $n > \"$FAKE_DIR/next\"\n"
    "echo \"$*\" >> \"$FAKE_DIR/sbatch.log\"; echo $n\n";
const char* kFakeSqueue =
    "#!/bin/sh\n"
    "[ -s \"$FAKE_DIR/sbatch.log\" ] || exit 0\n"
    "case \"$(cat \"$FAKE_DIR/squeue-mode\")\" in\n"
    "  fail-always) echo 'squeue: error: Socket timed out on send/recv operation' >&2; exit 1;;\n"
    "  fail-once) [ -e \"$FAKE_DIR/squeue-failed\" ] && exit 0\n"
    "    : > \"$FAKE_DIR/squeue-failed\"; echo 'squeue: error: Socket timed out' >&2; exit 1;;\n"
    "  running) i=1001; while [ $i -le $(cat \"$FAKE_DIR/next\") ]; do echo \"$i RUNNING\"; i=$((i+1)); done;;\n"
    "esac\n";
const char* kFakeScancel = "#!/bin/sh\necho \"$*\" >> \"$FAKE_DIR/scancel.log\"\n";
const char* kFakeScontrol = "#!/bin/sh\necho 'SchedulerType           = sched/backfill'\n";
const char* kFakeSacct = "#!/bin/sh\necho 'sacct: error: no accounting storage' >&2; exit 1\n";

// Three one-CPU jobs submitted 10 s apart (0.1 s apart at --speedup 100).
const char* kThreeJobs =
    "; MaxProcs: 4\n"
    "1 0 0 60 1 -1 -1 1 120 -1 1 7 -1 -1 -1 -1 -1 -1\n"
    "2 10 0 60 1 -1 -1 1 120 -1 1 7 -1 -1 -1 -1 -1 -1\n"
    "3 20 0 60 1 -1 -1 1 120 -1 1 8 -1 -1 -1 -1 -1 -1\n";

class ReplayFakeSlurm : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "epp-replay-XXXXXX").string();
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
    fs::create_directory(dir_ / "bin");
    file("bin/sbatch", kFakeSbatch, true);
    file("bin/squeue", kFakeSqueue, true);
    file("bin/scancel", kFakeScancel, true);
    file("bin/scontrol", kFakeScontrol, true);
    file("bin/sacct", kFakeSacct, true);
    trace_ = file("three.swf", kThreeJobs);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string file(const std::string& name, const std::string& text, bool executable = false) {
    std::string path = (dir_ / name).string();
    std::ofstream(path) << text;
    if (executable) fs::permissions(path, fs::perms::owner_all);
    return path;
  }
  static std::string slurp(const std::string& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
  // Runs easypp-replay live (--as-self) on the three jobs with the fake commands first on PATH.
  CliResult replay(const std::string& squeue_mode, const std::string& extra = "--timeout 60",
                   const std::string& prefix = "") {
    file("squeue-mode", squeue_mode);
    const std::string out = (dir_ / "stdout").string(), err = (dir_ / "stderr").string();
    const std::string cmd = "FAKE_DIR=" + dir_.string() + " PATH=" + (dir_ / "bin").string() + ":$PATH " +
                            EASYPP_BUILDDIR "/src/replay/easypp-replay --trace " + trace_ +
                            " --speedup 100 --cpus 4 --as-self --progress 0.1 --out " +
                            (prefix.empty() ? (dir_ / "r").string() : prefix) + " " + extra + " >" + out +
                            " 2>" + err;
    const int rc = std::system(cmd.c_str());
    return CliResult{WIFEXITED(rc) ? WEXITSTATUS(rc) : -1, slurp(out), slurp(err)};
  }

  fs::path dir_;
  std::string trace_;
};

TEST_F(ReplayFakeSlurm, ATransientSqueueFailureIsRiddenOut) {
  CliResult r = replay("fail-once");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("keeping the last counts"), std::string::npos) << r.err;
  EXPECT_TRUE(fs::exists(dir_ / "r.json")) << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "scancel.log")) << slurp((dir_ / "scancel.log").string());
}

TEST_F(ReplayFakeSlurm, APersistentSqueueFailureCancelsEverySubmittedJob) {
  CliResult r = replay("fail-always");
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_NE(r.err.find("Socket timed out"), std::string::npos) << r.err;
  ASSERT_EQ(slurp((dir_ / "sbatch.log").string()).empty(), false);
  EXPECT_EQ(slurp((dir_ / "scancel.log").string()), "1001,1002,1003\n") << r.err;
}

// A timeout cancels the jobs, then still reads what accounting has and writes the outputs.
TEST_F(ReplayFakeSlurm, ATimeoutCancelsAndStillWritesTheOutputs) {
  CliResult r = replay("running", "--timeout 1");
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_NE(r.err.find("jobs still queued 1 s after the last submit"), std::string::npos) << r.err;
  EXPECT_EQ(slurp((dir_ / "scancel.log").string()), "1001,1002,1003\n") << r.err;
  EXPECT_TRUE(fs::exists(dir_ / "r.json")) << r.err;
  EXPECT_TRUE(fs::exists(dir_ / "r.jobs.csv")) << r.err;
}

// Refused before the plan is even made (a live run would have submitted, and only found
// out at the end).
TEST_F(ReplayFakeSlurm, AnOutPrefixInAMissingDirectoryIsRefusedFirst) {
  for (const char* mode : {"--simulate easy", ""}) {
    CliResult r = replay("fail-always", mode, "/nonexistent/x");
    EXPECT_EQ(r.status, 2) << mode << ": " << r.err;
    EXPECT_EQ(r.err, "easypp-replay: --out /nonexistent/x: directory /nonexistent: No such file or directory\n")
        << mode;
    EXPECT_FALSE(fs::exists(dir_ / "sbatch.log")) << mode;
  }
}

// A header value that is not a number is shown as the simulator shows it, naming the line.
TEST_F(ReplayFakeSlurm, UnusableHeaderValuesAreNoted) {
  trace_ = file("three.swf", std::string("; UnixStartTime: unknown\n") + kThreeJobs);
  CliResult r = replay("fail-always", "--simulate easy");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("easypp-replay: note: " + trace_ + ":1: UnixStartTime is not a number"),
            std::string::npos)
      << r.err;
}

}  // namespace
}  // namespace easypp::test
