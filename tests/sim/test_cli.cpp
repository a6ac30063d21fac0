// easypp-sim's options, and the program's exit codes and outputs.
#include <gtest/gtest.h>

#include <fstream>
#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "sim/cli.h"
#include "sim/report.h"
#include "sim/schedule_file.h"
#include "sim_test_support.h"

namespace easypp::sim {
namespace {

CliOptions parse(std::vector<std::string> args) {
  args.insert(args.begin(), "easypp-sim");
  return parse_cli(args);
}

std::string usage_error(std::vector<std::string> args) {
  try {
    parse(std::move(args));
  } catch (const UsageError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(Cli, ParsesEveryOption) {
  CliOptions o = parse({"--trace", "t.swf", "--policy=easy,easy++", "--predictor", "last",
                        "--procs", "64", "--size-from", "allocated", "--runtime=cap",
                        "--load-factor", "0.9", "--estimate-factor=2", "--skip-bad",
                        "--seed", "7", "--format", "json"});
  EXPECT_EQ(o.trace, "t.swf");
  EXPECT_EQ(o.policies, (std::vector<std::string>{"easy", "easy++"}));
  EXPECT_EQ(o.predictor, "last");
  EXPECT_EQ(o.workload.procs, 64);
  EXPECT_EQ(o.workload.size_from, SizeFrom::allocated);
  EXPECT_EQ(o.sim.runtime, RuntimeMode::cap);
  EXPECT_DOUBLE_EQ(o.workload.load_factor, 0.9);
  EXPECT_DOUBLE_EQ(o.workload.estimate_factor, 2.0);
  EXPECT_TRUE(o.skip_bad);
  EXPECT_EQ(o.seed, 7u);
  EXPECT_EQ(o.format, Format::json);
}

// A policy's keys are separated by commas like the policies: key=value items continue
// the policy before them.
TEST(Cli, PolicyKeysStayWithTheirPolicy) {
  const CliOptions o = parse_cli({"easypp-sim", "--trace", "t.swf", "--policy",
                                  "easy,easy++:depth=2,x=1,timed-run:base=fcfs,trial=60,fcfs"});
  EXPECT_EQ(o.policies, (std::vector<std::string>{"easy", "easy++:depth=2,x=1",
                                                  "timed-run:base=fcfs,trial=60", "fcfs"}));
}

TEST(Cli, DefaultsAreDocumentedOnes) {
  CliOptions o = parse({"--trace", "t.swf", "--policy", "easy"});
  EXPECT_EQ(o.workload.size_from, SizeFrom::requested);
  EXPECT_EQ(o.sim.runtime, RuntimeMode::replay);
  EXPECT_EQ(o.workload.procs, 0);
  EXPECT_EQ(o.format, Format::table);
}

TEST(Cli, BadValuesNameOptionAndValue) {
  EXPECT_EQ(usage_error({"--trace", "t", "--policy", "easy", "--load-factor", "abc"}),
            "--load-factor=abc: expected a number > 0");
  EXPECT_EQ(usage_error({"--trace", "t", "--policy", "easy", "--runtime=exact"}),
            "--runtime=exact: expected replay or cap");
  EXPECT_EQ(usage_error({"--trace", "t", "--policy", "easy", "--procs", "0"}),
            "--procs=0: expected an integer in [1, 100000000]");
  EXPECT_EQ(usage_error({"--trace", "t", "--policy", "easy,,easy++"}),
            "--policy=easy,,easy++: empty policy name in the list");
  EXPECT_EQ(usage_error({"--trace", "t", "--policy", "easy", "--format", "xml"}),
            "--format=xml: expected table, csv or json");
  EXPECT_EQ(usage_error({"--trace", "t", "--policy", "easy", "--skip-bad=yes"}),
            "--skip-bad=yes: takes no value");
  EXPECT_EQ(usage_error({"--policy", "easy"}), "--trace: required");
  EXPECT_EQ(usage_error({"--trace", "t"}), "--policy: required");
  EXPECT_EQ(usage_error({"--trace"}), "--trace: needs a value");
  EXPECT_EQ(usage_error({"--frobnicate"}), "--frobnicate: unknown option (see --help)");
  // Scaled times must stay times: 1e300 once gave negative submits and waits.
  EXPECT_EQ(usage_error({"--trace", "t", "--policy", "easy", "--load-factor", "1e300"}),
            "--load-factor=1e300: expected a number > 0 and <= 1000");
  EXPECT_EQ(usage_error({"--trace", "t", "--policy", "easy", "--estimate-factor=1001"}),
            "--estimate-factor=1001: expected a number > 0 and <= 1000");
  EXPECT_EQ(parse({"--trace", "t", "--policy", "easy", "--load-factor", "1000"}).workload.load_factor, 1000);
}

struct Ran {
  int status = -1;
  std::string out;
};

// Runs the built easypp-sim with these arguments (stderr joined to stdout).
Ran run_program(const std::string& args) {
  std::string cmd = std::string(EASYPP_BUILDDIR) + "/src/sim/easypp-sim " + args + " 2>&1";
  Ran r;
  FILE* p = popen(cmd.c_str(), "r");
  if (p == nullptr) return r;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  int st = pclose(p);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return r;
}

TEST(Program, BadOptionExitsTwoNamingIt) {
  Ran r = run_program("--trace x --policy easy --load-factor=-1");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("--load-factor=-1: expected a number > 0"), std::string::npos) << r.out;
}

// Output that cannot be written (here /dev/full) is a failure, not status 0 over an empty
// or cut-off result.
TEST(Program, UnwritableOutputExitsOne) {
  // stderr to the pipe, then stdout to /dev/full (run_program joins both to the pipe).
  const std::string cmd = std::string(EASYPP_BUILDDIR) + "/src/sim/easypp-sim --trace " +
                          testing::data_path("fig1_easy.swf") + " --policy easy 2>&1 >/dev/full";
  FILE* p = popen(cmd.c_str(), "r");
  ASSERT_NE(p, nullptr);
  std::string err;
  char buf[512];
  for (size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) err.append(buf, n);
  const int st = pclose(p);
  EXPECT_EQ(WIFEXITED(st) ? WEXITSTATUS(st) : -1, 1);
  EXPECT_NE(err.find("easypp-sim: cannot write the output:"), std::string::npos) << err;
}

// A policy spec with a '/' names its schedule file with '_' there (it once named a
// directory that did not exist, and the run failed after simulating).
TEST(Program, SchedulePathOfASpecWithASlash) {
  EXPECT_EQ(easypp::sim::schedule_path("out/s.swf", "mq:limits=100/1000", true), "out/s.mq:limits=100_1000.swf");
  EXPECT_EQ(easypp::sim::schedule_path("out/s.swf", "mq:limits=100/1000", false), "out/s.swf");
}

TEST(Program, UnknownPolicyExitsTwo) {
  Ran r = run_program("--trace " + testing::data_path("fig1_easy.swf") + " --policy easy,nope");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("policy=nope"), std::string::npos) << r.out;
}

// --schedule on paper 000 Fig. 1 (hand-computed in the trace's header): EASY starts jobs
// 1, 2 at 0, backfills 5 at 2, starts 3 at 10 and 4 at 15. The CSV says so job by job, and
// the SWF schedule carries the simulated waits in the archive's 18 fields.
TEST(Program, ScheduleFileListsEveryJobsStart) {
  const std::string dir = ::testing::TempDir();
  Ran r = run_program("--trace " + testing::data_path("fig1_easy.swf") +
                      " --policy easy --schedule " + dir + "/fig1.csv");
  ASSERT_EQ(r.status, 0) << r.out;
  std::ifstream csv(dir + "/fig1.csv");
  std::string line;
  std::getline(csv, line);
  EXPECT_EQ(line.rfind("job,id,user,submit,start,end,wait,runtime,procs,estimate,"
                       "prediction_at_start,corrections,backfilled,restarts", 0), 0u);
  std::vector<std::string> rows;
  while (std::getline(csv, line)) rows.push_back(line);
  ASSERT_EQ(rows.size(), 5u);
  EXPECT_EQ(rows[0], "1,1,1,0,0,10,0,10,2,10,10,0,0,0");
  EXPECT_EQ(rows[2], "3,3,3,1,10,15,9,5,4,5,5,0,0,0");
  EXPECT_EQ(rows[3], "4,4,4,2,15,24,13,9,1,9,9,0,0,0");
  EXPECT_EQ(rows[4], "5,5,5,2,2,10,0,8,1,8,8,0,1,0") << "job 5 backfilled at 2";

  r = run_program("--trace " + testing::data_path("fig1_easy.swf") +
                  " --policy easy,fcfs --schedule " + dir + "/fig1.swf");
  ASSERT_EQ(r.status, 0) << r.out;
  std::ifstream swf(dir + "/fig1.fcfs.swf");
  ASSERT_TRUE(swf.good()) << "one file per policy, named after it";
  std::vector<std::string> jobs;
  while (std::getline(swf, line))
    if (!line.empty() && line[0] != ';') jobs.push_back(line);
  ASSERT_EQ(jobs.size(), 5u);
  // FCFS: job 5 waits for job 4 (starts at 15, ends 24) : starts at 15 too (1 proc each).
  EXPECT_EQ(jobs[4], "5 2 13 8 1 -1 -1 1 8 -1 1 5 -1 -1 -1 -1 -1 -1");
}

// Runs of one family with other keys are told apart: each is named by its spec (both
// timed-run runs were once "timed-run", and trial=600's schedule overwrote trial=30's in
// s.timed-run.csv), and each writes its own --schedule file.
TEST(Program, PoliciesWithOtherKeysWriteTheirOwnScheduleFiles) {
  const std::string s = ::testing::TempDir() + "/keys_sched";
  for (const char* name : {".timed-run", ".timed-run:trial=30", ".timed-run:trial=600",
                           ".easy++:depth=4"}) {
    std::remove((s + name + ".csv").c_str());
  }
  Ran r = run_program("--trace " + testing::data_path("trial_lengths.swf") +
                      " --policy timed-run:trial=30,timed-run:trial=600,easy++:depth=4"
                      " --schedule " + s + ".csv --format csv");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_TRUE(std::ifstream(s + ".timed-run:trial=30.csv").good());
  EXPECT_TRUE(std::ifstream(s + ".timed-run:trial=600.csv").good());
  EXPECT_TRUE(std::ifstream(s + ".easy++:depth=4.csv").good());
  EXPECT_FALSE(std::ifstream(s + ".timed-run.csv").good());
  // The header, then one row per policy, its spec first.
  std::vector<std::string> rows;
  for (std::size_t from = 0, nl; from < r.out.size(); from = nl + 1) {
    nl = r.out.find('\n', from);
    if (nl == std::string::npos) nl = r.out.size();
    rows.push_back(r.out.substr(from, nl - from));
  }
  ASSERT_EQ(rows.size(), 4u) << r.out;
  EXPECT_EQ(rows[1].rfind("timed-run:trial=30,", 0), 0u) << rows[1];
  EXPECT_EQ(rows[2].rfind("timed-run:trial=600,", 0), 0u) << rows[2];
  EXPECT_EQ(rows[3].rfind("easy++:depth=4,", 0), 0u) << rows[3];

  Ran mq = run_program("--trace " + testing::data_path("trial_lengths.swf") +
                       " --policy mq-vd:delay=600,mq-vd --format json");
  ASSERT_EQ(mq.status, 0) << mq.out;
  EXPECT_NE(mq.out.find("\"policy\": \"mq-vd:delay=600\""), std::string::npos) << mq.out;
  EXPECT_NE(mq.out.find("\"policy\": \"mq-vd\""), std::string::npos) << mq.out;
}

// Two runs that would still write one file (the same spec twice; --trial-length filling
// in the key the other gives) are refused before simulating, naming the file.
TEST(Program, RunsSharingAScheduleFileAreRefused) {
  const std::string s = ::testing::TempDir() + "/twice_sched.csv";
  Ran r = run_program("--trace " + testing::data_path("fig1_easy.swf") +
                      " --policy easy,easy --schedule " + s);
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(r.out.find("--schedule: policies easy and easy would both write"), std::string::npos)
      << r.out;
  r = run_program("--trace " + testing::data_path("fig1_easy.swf") +
                  " --policy timed-run,timed-run:trial=30 --trial-length 30 --schedule " + s);
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(r.out.find("timed-run:trial=30 and timed-run:trial=30 would both write"),
            std::string::npos) << r.out;
  // Without --schedule nothing is written, so the same spec twice is fine.
  EXPECT_EQ(run_program("--trace " + testing::data_path("fig1_easy.swf") +
                        " --policy easy,easy --format csv").status, 0);
}

// A timed-run spec's own keys are what it reports and what "short" means: trial=30,base=fcfs
// once reported base easy, trial_length 90 and 3 short jobs (the --base/--trial-length
// defaults). The older spelling --trial-length 30 --base fcfs reports the same.
TEST(Program, TimedRunReportsItsOwnBaseAndTrialLength) {
  for (const char* policy : {"timed-run:trial=30,base=fcfs",
                             "timed-run --trial-length 30 --base fcfs"}) {
    Ran r = run_program("--trace " + testing::data_path("trial_lengths.swf") + " --policy " +
                        policy + " --format json");
    ASSERT_EQ(r.status, 0) << r.out;
    EXPECT_NE(r.out.find("\"base\": \"fcfs\","), std::string::npos) << policy << ": " << r.out;
    EXPECT_NE(r.out.find("\"trial_length\": 30,"), std::string::npos) << policy << ": " << r.out;
    EXPECT_NE(r.out.find("\"jobs_short\": 1,"), std::string::npos) << policy << ": " << r.out;
  }
  // Other policies: the options (a short job there is one within --trial-length).
  Ran easy = run_program("--trace " + testing::data_path("trial_lengths.swf") +
                         " --policy easy --format json");
  ASSERT_EQ(easy.status, 0) << easy.out;
  EXPECT_NE(easy.out.find("\"trial_length\": 90,"), std::string::npos) << easy.out;
  EXPECT_NE(easy.out.find("\"jobs_short\": 3,"), std::string::npos) << easy.out;
}

// The SWF schedule's field 9 (requested time) is the log's: where the log had none (-1
// or 0) it stays -1, not the runtime the simulator used as the estimate (it once wrote
// 10 and 20 here).
TEST(Program, ScheduleKeepsAnUnknownRequestedTimeUnknown) {
  const std::string trace = ::testing::TempDir() + "/no_estimate.swf";
  const std::string out = ::testing::TempDir() + "/no_estimate.out.swf";
  std::ofstream(trace) << "; MaxProcs: 4\n"
                       << "1 0 -1 10 1 -1 -1 1 -1 -1 1 1 1 -1 -1 -1 -1 -1\n"
                       << "2 0 -1 20 1 -1 -1 1 0 -1 1 1 1 -1 -1 -1 -1 -1\n"
                       << "3 0 -1 30 1 -1 -1 1 60 -1 1 1 1 -1 -1 -1 -1 -1\n";
  Ran r = run_program("--trace " + trace + " --policy easy --schedule " + out);
  ASSERT_EQ(r.status, 0) << r.out;
  std::ifstream swf(out);
  std::vector<std::string> jobs;
  for (std::string line; std::getline(swf, line);)
    if (!line.empty() && line[0] != ';') jobs.push_back(line);
  ASSERT_EQ(jobs.size(), 3u);
  EXPECT_EQ(jobs[0], "1 0 0 10 1 -1 -1 1 -1 -1 1 1 -1 -1 -1 -1 -1 -1");
  EXPECT_EQ(jobs[1], "2 0 0 20 1 -1 -1 1 -1 -1 1 1 -1 -1 -1 -1 -1 -1");
  EXPECT_EQ(jobs[2], "3 0 0 30 1 -1 -1 1 60 -1 1 1 -1 -1 -1 -1 -1 -1");
  std::remove(trace.c_str());
  std::remove(out.c_str());
}

// --repeat adds to --seed, which goes up to 2^63 - 1: the next seed is 2^63, reported
// as such (it once printed -9223372036854775808 while the predictor's spec said ...808).
TEST(Program, RepeatSeedsPastTheLargestSignedSeedStayPositive) {
  Ran r = run_program("--trace " + testing::data_path("fig1_easy.swf") +
                      " --policy easy --seed 9223372036854775807 --repeat 2 --format json");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("\"seed\": 9223372036854775807,"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"seed\": 9223372036854775808,"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("\"seed\": -"), std::string::npos) << r.out;
}

// A log whose submit times go backwards is sorted, and the run says so once (it was
// sorted silently); a sorted log gives no note.
TEST(Program, UnsortedTraceIsSortedWithANote) {
  const std::string trace = ::testing::TempDir() + "/unsorted.swf";
  std::ofstream(trace) << "; MaxProcs: 4\n"
                       << "1 50 -1 10 1 -1 -1 1 10 -1 1 1 1 -1 -1 -1 -1 -1\n"
                       << "2 0 -1 10 1 -1 -1 1 10 -1 1 1 1 -1 -1 -1 -1 -1\n";
  Ran r = run_program("--trace " + trace + " --policy easy --format csv");
  ASSERT_EQ(r.status, 0) << r.out;
  const std::string note = "easypp-sim: note: " + trace + ": submit times go backwards; jobs sorted by submit time\n";
  EXPECT_NE(r.out.find(note), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find(note, r.out.find(note) + 1), std::string::npos) << "one note: " << r.out;
  std::remove(trace.c_str());
  r = run_program("--trace " + testing::data_path("fig1_easy.swf") + " --policy easy --format csv");
  EXPECT_EQ(r.out.find("note:"), std::string::npos) << r.out;
}

// The man page's OUTPUT section lists every JSON/CSV key in the order fields_of gives
// them: each key is the first word of a .B/.BR line (or after ".RB ( "). It once left out
// avg_slowdown_class1..4.
TEST(Program, ManPageListsTheOutputKeysInOrder) {
  std::ifstream man(std::string(EASYPP_SRCDIR) + "/doc/easypp-sim.1");
  ASSERT_TRUE(man.good());
  std::vector<std::string> listed;
  bool in_output = false;
  for (std::string line; std::getline(man, line);) {
    if (line.rfind(".SH ", 0) == 0) in_output = line == ".SH OUTPUT";
    if (!in_output) continue;
    std::string rest;
    if (line.rfind(".RB ( ", 0) == 0) {
      rest = line.substr(6);
    } else if (line.rfind(".B ", 0) == 0) {
      rest = line.substr(3);
    } else if (line.rfind(".BR ", 0) == 0) {
      rest = line.substr(4);
    } else {
      continue;
    }
    listed.push_back(rest.substr(0, rest.find(' ')));
  }
  Workload w;
  const CliOptions options;
  const RunContext context{&w, &options, 0, false};
  std::vector<std::string> keys;
  for (const Field& f : fields_of(RunReport{}, context)) keys.push_back(f.name);
  EXPECT_EQ(listed, keys);
}

// One --predictor for a run of several policies applies to those planning on predictions
// and leaves easy (estimates) as named, with a note.
TEST(Program, PredictorAppliesToPredictionPoliciesOfAMixedRun) {
  Ran r = run_program("--trace " + testing::data_path("fig1_easy.swf") +
                      " --policy easy,easy++ --predictor history:window=3 --format json");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("note: --predictor does not apply to easy"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("window=3"), std::string::npos) << r.out;
}

TEST(Program, MalformedTraceNamesFileLine) {
  std::string path = testing::data_path("malformed.swf");
  Ran r = run_program("--trace " + path + " --policy easy");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.out.find(path + ":3: expected 18 fields, found 17"), std::string::npos) << r.out;
}

// A header value that is not a number is a note, not a failure: with --procs the run
// goes on (it once exited 1 with "m.swf:1: MaxProcs is not a number").
TEST(Program, NonNumericMaxProcsWithProcsRuns) {
  const std::string path = ::testing::TempDir() + "/maxprocs_na.swf";
  std::ofstream(path) << "; MaxProcs: N/A\n1 0 -1 10 1 -1 -1 1 10 -1 1 1 1 -1 -1 -1 -1 -1\n";
  Ran r = run_program("--trace " + path + " --policy easy --procs 8 --format csv");
  EXPECT_EQ(r.status, 0) << r.out;
  const std::string note = "easypp-sim: note: " + path + ":1: MaxProcs is not a number: 'N/A': left unset\n";
  EXPECT_NE(r.out.find(note), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find(note, r.out.find(note) + 1), std::string::npos) << "one note: " << r.out;
  // Without --procs the size is unknown, and the run says what to give.
  r = run_program("--trace " + path + " --policy easy");
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(r.out.find("use --procs N"), std::string::npos) << r.out;
  std::remove(path.c_str());
}

TEST(Program, JsonHasOneLinePerPolicyWithRequiredKeys) {
  Ran r = run_program("--trace " + testing::data_path("fig1_easy.swf") +
                      " --policy easy,fcfs --format json");
  ASSERT_EQ(r.status, 0) << r.out;
  std::vector<std::string> lines;
  size_t from = 0;
  while (from < r.out.size()) {
    size_t nl = r.out.find('\n', from);
    lines.push_back(r.out.substr(from, nl - from));
    from = nl == std::string::npos ? r.out.size() : nl + 1;
  }
  ASSERT_EQ(lines.size(), 2u) << r.out;
  EXPECT_NE(lines[0].find("\"policy\": \"easy\""), std::string::npos);
  EXPECT_NE(lines[1].find("\"policy\": \"fcfs\""), std::string::npos);
  for (const char* key : {"policy", "trace", "jobs", "procs", "avg_wait_min", "avg_bsld",
                          "accuracy", "corrections_per_job", "utilization", "max_wait_min",
                          "sim_seconds", "peak_rss_mb", "reservation_rate", "delay_rate",
                          "stalled_rate", "stall_time_min", "thieves_avg", "avg_slowdown"}) {
    EXPECT_NE(lines[0].find("\"" + std::string(key) + "\": "), std::string::npos) << key;
  }
  EXPECT_NE(lines[0].find("\"jobs\": 5,"), std::string::npos) << lines[0];
  EXPECT_NE(lines[0].find("\"procs\": 4,"), std::string::npos) << lines[0];
}

TEST(Program, TableComparesWithTheFirstPolicy) {
  Ran r = run_program("--trace " + testing::data_path("fig1_easy.swf") + " --policy easy,fcfs");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("fig1_easy.swf: 5 jobs on 4 processors"), std::string::npos) << r.out;
  // fcfs makes job 5 wait 13 s instead of 0, so its wait is worse than easy's.
  EXPECT_NE(r.out.find("fcfs"), std::string::npos);
  EXPECT_NE(r.out.find("%"), std::string::npos);
}

TEST(Program, HelpExitsZero) {
  Ran r = run_program("--help");
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.out.find("usage: easypp-sim"), std::string::npos);
}

}  // namespace
}  // namespace easypp::sim
