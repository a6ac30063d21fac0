// The easypp-predict command line: replay, import from each source, exit codes.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace easypp::test {
namespace {

namespace fs = std::filesystem;

struct CliResult {
  int status = -1;
  std::string out, err;
};

class EasyppPredict : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "epp-cli-XXXXXX").string();
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
    state_ = (dir_ / "state.json").string();
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
  // Runs easypp-predict with `args` (shell words), `env` prefixed (VAR=value ...).
  CliResult run(const std::string& args, const std::string& env = "TZ=UTC") {
    std::string out = (dir_ / "stdout").string(), err = (dir_ / "stderr").string();
    std::string cmd = env + " " EASYPP_BUILDDIR "/src/tools/easypp-predict " + args + " >" + out + " 2>" + err;
    int rc = std::system(cmd.c_str());
    return CliResult{WIFEXITED(rc) ? WEXITSTATUS(rc) : -1, slurp(out), slurp(err)};
  }

  fs::path dir_;
  std::string state_;
};

// job submit wait runtime alloc cpu mem req_procs req_time req_mem status user ...
const char* kTinySwf =
    "; MaxProcs: 4\n"
    "1 0 0 100 1 -1 -1 1 1000 -1 1 7 -1 -1 -1 -1 -1 -1\n"
    "2 50 0 300 1 -1 -1 1 1000 -1 1 7 -1 -1 -1 -1 -1 -1\n"
    "3 100 0 10 1 -1 -1 1 1000 -1 1 7 -1 -1 -1 -1 -1 -1\n"
    "4 400 0 10 1 -1 -1 1 200 -1 1 7 -1 -1 -1 -1 -1 -1\n"
    "5 400 0 10 1 -1 -1 1 500 -1 1 8 -1 -1 -1 -1 -1 -1\n"
    "6 410 0 5 1 -1 -1 1 -1 -1 1 7 -1 -1 -1 -1 -1 -1\n";

TEST_F(EasyppPredict, ReplayPredictsAtSubmitAndLearnsAtEnd) {
  std::string swf = file("tiny.swf", kTinySwf);
  CliResult r = run("replay --trace " + swf + " --format csv");
  ASSERT_EQ(r.status, 0) << r.err;
  // Job 3 is submitted when job 1 ends (learnt first); job 4 sees runs ending at 100, 110
  // and 350 and averages the last two (10, 300) = 155, under its estimate of 200.
  EXPECT_EQ(r.out,
            "job_id,user,estimate,prediction\n"
            "1,7,1000,1000\n2,7,1000,1000\n3,7,1000,100\n4,7,200,155\n5,8,500,500\n6,7,-1,-1\n");
}

// Job 2 is submitted at 200 and ends at 200 (no wait, no runtime): it is predicted from
// job 1 alone, not from its own zero runtime learnt first.
TEST_F(EasyppPredict, ReplayPredictsAJobBeforeLearningItsOwnEndAtTheSameTime) {
  std::string swf = file("tie.swf",
                         "1 0 0 100 1 -1 -1 1 1000 -1 1 7 1 -1 -1 -1 -1 -1\n"
                         "2 200 0 0 1 -1 -1 1 1000 -1 1 7 1 -1 -1 -1 -1 -1\n"
                         "3 500 0 50 1 -1 -1 1 1000 -1 1 7 1 -1 -1 -1 -1 -1\n");
  CliResult r = run("replay --trace " + swf + " --predictor last");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.substr(0, r.out.find("\n3,")), "job_id,user,estimate,prediction\n1,7,1000,1000\n2,7,1000,100") << r.out;
}

// Job 1 ends at 200, as job 2 is submitted and ends (no wait, no runtime): job 2 still
// learns from job 1 (another job's end comes before a submit at the same time), not from
// its own end.
TEST_F(EasyppPredict, ReplayStillLearnsAnotherJobsEndAtTheSameTime) {
  std::string swf = file("tie2.swf",
                         "1 100 0 100 1 -1 -1 1 1000 -1 1 7 1 -1 -1 -1 -1 -1\n"
                         "2 200 0 0 1 -1 -1 1 1000 -1 1 7 1 -1 -1 -1 -1 -1\n");
  CliResult r = run("replay --trace " + swf + " --predictor last");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "job_id,user,estimate,prediction\n1,7,1000,1000\n2,7,1000,100\n") << r.out;
}

// A state whose stored spec this easypp cannot read is shown with the default predictor
// and a note, not refused as a bad --predictor the user never gave.
TEST_F(EasyppPredict, AStoredSpecThatCannotBeReadFallsBackToTheDefault) {
  std::string swf = file("tiny.swf", kTinySwf);
  ASSERT_EQ(run("import --state " + state_ + " --swf " + swf).status, 0);
  std::string text = slurp(state_);
  const std::string from = "\"spec\":\"", to = "\"spec\":\"bogus:x=1";
  const auto at = text.find(from);
  ASSERT_NE(at, std::string::npos) << text;
  text.replace(at, text.find('"', at + from.size()) - at, to);
  std::ofstream(state_) << text;
  CliResult r = run("stats --state " + state_);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("predictor bogus:x=1 is not one this easypp reads"), std::string::npos) << r.err;
}

TEST_F(EasyppPredict, ReplayWithPerfectAndABadSpec) {
  std::string swf = file("tiny.swf", kTinySwf);
  CliResult r = run("replay --trace " + swf + " --predictor perfect");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out,
            "job_id,user,estimate,prediction\n"
            "1,7,1000,100\n2,7,1000,300\n3,7,1000,10\n4,7,200,10\n5,8,500,10\n6,7,-1,-1\n");
  r = run("replay --trace " + swf + " --predictor history:window=99");
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err,
            "easypp-predict: --predictor: predictor spec: window=99: bad value (allowed: an integer 1-30)\n");
}

// Paper 003's evaluation kinds draw from each job's real runtime and the workload's
// categories: replay gives them the trace (virtual with error=0 is the runtime itself,
// capped at the estimate as every prediction is; it predicted the estimate, silently,
// without the workload); the state-file commands have no workload and refuse them.
TEST_F(EasyppPredict, EvaluationKindsReplayWithTheTraceAndAreRefusedElsewhere) {
  std::string swf = file("tiny.swf", kTinySwf);
  CliResult r = run("replay --trace " + swf + " --predictor virtual:error=0");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out,
            "job_id,user,estimate,prediction\n"
            "1,7,1000,100\n2,7,1000,300\n3,7,1000,10\n4,7,200,10\n5,8,500,10\n6,7,-1,-1\n");
  for (const char* command : {"stats", "show 7"}) {
    r = run(std::string(command) + " --state " + state_ + " --predictor quant");
    EXPECT_EQ(r.status, 1) << command;
    EXPECT_NE(r.err.find("--predictor: quant: needs each job's real runtime and the whole workload"),
              std::string::npos)
        << r.err;
  }
  r = run("import --state " + state_ + " --swf " + swf + " --predictor qual");
  EXPECT_EQ(r.status, 1);
  EXPECT_FALSE(fs::exists(state_));
}

TEST_F(EasyppPredict, ReplayImportAndStatsWithTheLearnedPredictor) {
  std::string swf = file("tiny.swf", kTinySwf);
  CliResult r = run("replay --trace " + swf + " --predictor 'learned:eta=0.3;under=4'");
  ASSERT_EQ(r.status, 0) << r.err;
  // Jobs 1 and 2 come before anything ended: a fresh model predicts its base, the
  // estimate (no runs). Later ones come from the model, within [1, estimate].
  std::istringstream lines(r.out);
  std::string line;
  std::getline(lines, line);
  EXPECT_EQ(line, "job_id,user,estimate,prediction");
  int n = 0;
  while (std::getline(lines, line)) {
    long long id, user, estimate, prediction;
    ASSERT_EQ(std::sscanf(line.c_str(), "%lld,%lld,%lld,%lld", &id, &user, &estimate, &prediction), 4) << line;
    if (id <= 2) {
      EXPECT_EQ(prediction, 1000) << line;
    }
    if (estimate > 0) {
      EXPECT_TRUE(prediction >= 1 && prediction <= estimate) << line;
    }
    ++n;
  }
  EXPECT_EQ(n, 6);
  r = run("import --state " + state_ + " --predictor learned --swf " + swf);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("learnt 5, not learnt 0"), std::string::npos) << r.out;
  EXPECT_NE(slurp(state_).find("\"schema\":2"), std::string::npos);
  r = run("stats --state " + state_ + " --predictor learned");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("predictor learned:target=log,"), std::string::npos) << r.out;
}

// Without --predictor the state's own spec is used: a learned model survives a later
// import, show and stats; a --predictor that differs is used, with one line saying so.
TEST_F(EasyppPredict, StateKeepsItsPredictorWhenNoneIsGiven) {
  std::string swf = file("tiny.swf", kTinySwf);
  ASSERT_EQ(run("import --state " + state_ + " --predictor 'learned:eta=0.3' --swf " + swf).status, 0);
  std::string more = file("more.swf", "7 500 0 20 1 -1 -1 1 100 -1 1 7 -1 -1 -1 -1 -1 -1\n");
  CliResult r = run("import --state " + state_ + " --swf " + more);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_NE(r.out.find("learnt 1, not learnt 0"), std::string::npos) << r.out;
  EXPECT_NE(slurp(state_).find("\"schema\":2"), std::string::npos) << slurp(state_);
  r = run("show --state " + state_ + " 7");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("predictor learned:target=log,"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("eta=0.3"), std::string::npos) << r.out;
  r = run("stats --state " + state_);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("predictor learned:target=log,"), std::string::npos) << r.out;
  r = run("stats --state " + state_ + " --predictor history");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("predictor history:"), std::string::npos) << r.out;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find("differs from " + state_ + "'s learned:"), std::string::npos) << r.err;
}

TEST_F(EasyppPredict, ReplayOfAMissingTraceIsASourceError) {
  CliResult r = run("replay --trace " + (dir_ / "nope.swf").string());
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("nope.swf"), std::string::npos) << r.err;
}

// An option another command reads is an error, not silently ignored (stats --trace and
// import --format once exited 0); output that cannot be written exits non-zero.
TEST_F(EasyppPredict, OptionsOfAnotherCommandAndUnwritableOutputAreErrors) {
  for (const std::string& args : std::vector<std::string>{"stats --state " + state_ + " --trace x",
                                                          "replay --trace x --state y",
                                                          "import --state " + state_ + " --swf x --format csv"}) {
    CliResult r = run(args);
    EXPECT_EQ(r.status, 1) << args;
    EXPECT_NE(r.err.find(": unknown option for "), std::string::npos) << args << ": " << r.err;
  }
  const std::string err = (dir_ / "stderr").string();
  const int rc = std::system((EASYPP_BUILDDIR "/src/tools/easypp-predict configs >/dev/full 2>" + err).c_str());
  EXPECT_EQ(WIFEXITED(rc) ? WEXITSTATUS(rc) : -1, 1);
  EXPECT_NE(slurp(err).find("easypp-predict: cannot write the output:"), std::string::npos) << slurp(err);
}

TEST_F(EasyppPredict, ImportSwfThenShowAndStats) {
  std::string swf = file("tiny.swf", kTinySwf);
  CliResult r = run("import --state " + state_ + " --swf " + swf);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("learnt 5, not learnt 0"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("2 users, 5 runs kept"), std::string::npos) << r.out;
  r = run("show --state " + state_ + " --estimate 1000 7");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("user 7: 4 runs kept"), std::string::npos) << r.out;
  // Ends: job 1 at 100, job 3 at 110, job 2 at 350, job 4 at 410: (300 + 10) / 2.
  EXPECT_NE(r.out.find("next prediction for estimate 1000 s: 155 s"), std::string::npos) << r.out;
  r = run("stats --state " + state_);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("2 users, 5 runs kept"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("under-predicted"), std::string::npos) << r.out;
}

// A malformed SWF line is named FILE:LINE: reason, as the sacct and jobcomp sources name
// theirs (easypp-predict(1)); the good lines are imported, exit status 4.
TEST_F(EasyppPredict, MalformedSwfLinesAreNamed) {
  std::string swf = file("bad.swf", std::string(kTinySwf) + "7 420 0 5 1\n8 x 0 5 1 -1 -1 1 -1 -1 1 7 -1 -1 -1 -1 -1 -1\n");
  CliResult r = run("import --state " + state_ + " --swf " + swf);
  EXPECT_EQ(r.status, 4) << r.err;
  EXPECT_NE(r.err.find(swf + ":8: expected 18 fields, found 5"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(swf + ":9: "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("2 malformed lines skipped"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("learnt 5"), std::string::npos) << r.out;
}

// A header value that is not a number is a note naming its line, not a failure.
TEST_F(EasyppPredict, UnusableHeaderValuesAreNoted) {
  std::string swf = file("note.swf", std::string("; UnixStartTime: unknown\n") + kTinySwf);
  CliResult r = run("import --state " + state_ + " --swf " + swf);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("note: " + swf + ":1: UnixStartTime is not a number"), std::string::npos) << r.err;
}

TEST_F(EasyppPredict, ReimportDoesNotCountTwice) {
  std::string swf = file("tiny.swf", kTinySwf);
  ASSERT_EQ(run("import --state " + state_ + " --swf " + swf).status, 0);
  CliResult r = run("import --state " + state_ + " --swf " + swf);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("learnt 0, not learnt 5"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("5 runs kept"), std::string::npos) << r.out;
}

TEST_F(EasyppPredict, ImportJobcompReportsMalformedLinesWithFileAndLine) {
  std::string log = file("jobcomp.log",
                         "JobId=12 UserId=alice(1001) GroupId=users(100) Name=x JobState=COMPLETED Partition=p "
                         "TimeLimit=10 StartTime=2026-11-22T01:00:00 EndTime=2026-11-22T01:05:00 NodeList=n1 "
                         "NodeCnt=1 ProcCnt=4 WorkDir=/ ReservationName= Tres= Account= QOS= WcKey= Cluster=c "
                         "SubmitTime=2026-11-22T00:59:00 EligibleTime=2026-11-22T00:59:00 DerivedExitCode=0:0 "
                         "ExitCode=0:0 \n"
                         "JobId=13 UserId=alice(bad) GroupId=users(100) Name=x JobState=COMPLETED Partition=p "
                         "TimeLimit=10 StartTime=2026-11-22T01:00:00 EndTime=2026-11-22T01:05:00 NodeList=n1 "
                         "NodeCnt=1 ProcCnt=4\n");
  CliResult r = run("import --state " + state_ + " --jobcomp " + log);
  EXPECT_EQ(r.status, 4);
  EXPECT_EQ(r.err, log + ":2: UserId=alice(bad): expected name(uid)\n");
  EXPECT_NE(r.out.find("learnt 1"), std::string::npos) << r.out;
  EXPECT_TRUE(fs::exists(state_));  // the good records were kept
}

// A directory is not a record file: it was read as empty and the import "succeeded".
TEST_F(EasyppPredict, ADirectoryAsTheRecordFileIsASourceError) {
  fs::create_directory(dir_ / "logs");
  for (const char* option : {"--sacct-file", "--jobcomp", "--swf"}) {
    CliResult r = run("import --state " + state_ + " " + option + " " + (dir_ / "logs").string());
    EXPECT_EQ(r.status, 2) << option << ": " << r.out << r.err;
    EXPECT_NE(r.err.find((dir_ / "logs").string() + ": "), std::string::npos) << option << ": " << r.err;
    EXPECT_FALSE(fs::exists(state_)) << option;
  }
}

TEST_F(EasyppPredict, ImportRunsSacctWithTheFixedFormatAndTheUsersArguments) {
  std::string args_file = (dir_ / "sacct-args").string();
  std::string fake = file("sacct",
                          "#!/bin/sh\n"
                          "echo \"$@\" > " + args_file + "\n"
                          "echo '41|bob|1002|2026-11-22T00:59:00|2026-11-22T01:00:00|2026-11-22T01:05:00|30|8|"
                          "COMPLETED|batch|job'\n"
                          "echo '41.batch||1002|2026-11-22T00:59:00|2026-11-22T01:00:00|2026-11-22T01:05:00||8|"
                          "COMPLETED||batch'\n"
                          "echo '42|bob|1002|2026-11-22T01:00:00|2026-11-22T01:10:00|Unknown|30|8|RUNNING|batch|j'\n",
                          true);
  CliResult r = run("import --state " + state_ + " --sacct -a -S 2026-11-01", "TZ=UTC EASYPP_SACCT=" + fake);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(slurp(args_file),
            "--parsable2 --noheader --format=JobIDRaw,User,UID,Submit,Start,End,TimelimitRaw,NCPUS,State,"
            "Partition,JobName -a -S 2026-11-01\n");
  EXPECT_NE(r.out.find("3 lines, 1 ended jobs, 2 skipped, 0 malformed; learnt 1"), std::string::npos) << r.out;
}

TEST_F(EasyppPredict, FailingSacctLeavesTheStateAlone) {
  std::string fake = file("sacct", "#!/bin/sh\necho 'sacct: error: slurmdbd down' >&2\nexit 1\n", true);
  CliResult r = run("import --state " + state_ + " --sacct", "EASYPP_SACCT=" + fake);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("exited with status 1"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(state_));
}

TEST_F(EasyppPredict, CorruptStateIsSetAsideAndRebuilt) {
  file("state.json", "{\"trunc");
  std::string swf = file("tiny.swf", kTinySwf);
  CliResult r = run("import --state " + state_ + " --swf " + swf);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("corrupt state"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("learnt 5"), std::string::npos) << r.out;
}

TEST_F(EasyppPredict, UnreadableSourceLeavesACorruptStateInPlace) {
  file("state.json", "{\"trunc");
  CliResult r = run("import --state " + state_ + " --swf " + (dir_ / "missing.swf").string());
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_EQ(r.err.find("corrupt state"), std::string::npos) << r.err;
  EXPECT_EQ(slurp(state_), "{\"trunc");
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir_)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"state.json", "stderr", "stdout"}));
}

// show and stats inspect (often the plugin's file, as root): a corrupt state is reported,
// exit status 3, and stays where and as it was, nothing beside it; import still sets it
// aside and rebuilds it.
TEST_F(EasyppPredict, ShowAndStatsLeaveACorruptStateWhereAndAsItWas) {
  file("state.json", "{\"trunc");
  const auto names = [&] {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(dir_)) out.push_back(e.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
  };
  for (const std::string& command : {"stats --state " + state_, "show --state " + state_ + " 7"}) {
    CliResult r = run(command);
    EXPECT_EQ(r.status, 3) << command << ": " << r.out << r.err;
    // One line: the file, where and what is wrong (jansson's words), that it is left alone.
    EXPECT_EQ(r.err.rfind("easypp-predict: " + state_ + ":1:", 0), 0u) << command << ": " << r.err;
    EXPECT_NE(r.err.find(": corrupt state: not valid JSON ("), std::string::npos) << command << ": " << r.err;
    const std::string tail = "; left in place, unchanged (read-only load)\n";
    EXPECT_TRUE(r.err.size() > tail.size() && r.err.compare(r.err.size() - tail.size(), tail.size(), tail) == 0)
        << command << ": " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << command << ": " << r.err;
    EXPECT_EQ(r.out, "") << command;
    EXPECT_EQ(slurp(state_), "{\"trunc") << command;
    EXPECT_EQ(names(), (std::vector<std::string>{"state.json", "stderr", "stdout"})) << command;
  }
  std::string swf = file("tiny.swf", kTinySwf);
  CliResult r = run("import --state " + state_ + " --swf " + swf);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("set aside as " + state_ + ".corrupt-"), std::string::npos) << r.err;
  const auto after = names();
  const auto aside = std::find_if(after.begin(), after.end(),
                                  [](const std::string& n) { return n.rfind("state.json.corrupt-", 0) == 0; });
  ASSERT_NE(aside, after.end());
  EXPECT_EQ(slurp((dir_ / *aside).string()), "{\"trunc");
  EXPECT_NE(slurp(state_), "{\"trunc");
}

TEST_F(EasyppPredict, UsageErrorsExitOne) {
  EXPECT_EQ(run("").status, 1);
  EXPECT_EQ(run("frobnicate").status, 1);
  EXPECT_EQ(run("import --state x").status, 1);
  EXPECT_EQ(run("show --state " + state_).status, 1);
  EXPECT_EQ(run("show --state " + state_ + " 7").status, 3);  // no state file yet
  EXPECT_EQ(run("replay --trace x --format json").status, 1);
  EXPECT_EQ(run("--help").status, 0);
}

TEST_F(EasyppPredict, ConfigsListsTheSweep) {
  CliResult r = run("configs");
  ASSERT_EQ(r.status, 0);
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 8640);
}

TEST_F(EasyppPredict, ReplayOfARealTrace) {
  const char* traces = std::getenv("EASYPP_TRACES");
  std::string kth = traces ? std::string(traces) + "/KTH-SP2-1996-2.1-cln.swf.gz" : "";
  if (kth.empty() || !fs::exists(kth)) GTEST_SKIP() << "EASYPP_TRACES/KTH-SP2-1996-2.1-cln.swf.gz not found";
  CliResult r = run("replay --trace " + kth);
  ASSERT_EQ(r.status, 0) << r.err;
  std::istringstream in(r.out);
  std::string line;
  std::getline(in, line);
  int rows = 0, changed = 0;
  while (std::getline(in, line)) {
    long long id, user, estimate, prediction;
    ASSERT_EQ(std::sscanf(line.c_str(), "%lld,%lld,%lld,%lld", &id, &user, &estimate, &prediction), 4) << line;
    ASSERT_GE(prediction, 1) << line;
    ASSERT_LE(prediction, estimate) << line;
    changed += prediction != estimate;
    ++rows;
  }
  EXPECT_EQ(rows, 28476);  // every job of the cleaned KTH log
  EXPECT_GT(changed, rows / 2);  // history replaced most estimates
}

}  // namespace
}  // namespace easypp::test
