// Pure parts of easypp-replay: slice selection, time scaling and rounding, user mapping,
// the effective workload, accounting lines, and metrics computed from real records.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "replay/cli.h"
#include "replay/live_outcome.h"
#include "replay/replay_plan.h"
#include "replay/replay_report.h"
#include "replay/slice.h"
#include "replay/slurm_client.h"
#include "measure/metrics.h"
#include "sim/swf.h"

namespace {

using namespace easypp;
using namespace easypp::replay;

swf::Record rec(std::int64_t number, Time submit, Time runtime, int procs, Time estimate,
                std::int64_t user) {
  swf::Record r;
  r.job_number = number;
  r.submit = submit;
  r.runtime = runtime;
  r.allocated_procs = procs;
  r.requested_procs = procs;
  r.requested_time = estimate;
  r.user = user;
  r.status = 1;
  return r;
}

swf::Trace small_trace() {
  swf::Trace t;
  t.path = "small.swf";
  t.header.max_procs = 64;
  for (int i = 0; i < 10; ++i) t.records.push_back(rec(100 + i, 1000 + 600 * i, 300, 4, 3600, i % 3));
  return t;
}

TEST(Slice, FirstJobAndCount) {
  swf::Trace s = select_slice(small_trace(), SliceOptions{103, 4, -1, -1});
  ASSERT_EQ(s.records.size(), 4u);
  EXPECT_EQ(s.records.front().job_number, 103);
  EXPECT_EQ(s.records.back().job_number, 106);
  EXPECT_EQ(s.header.max_procs, 64);
}

// --first-job K starts at job K itself, even when a larger number is submitted earlier
// (records are in submit order); a K not in the trace is an error naming it.
TEST(Slice, FirstJobIsThatJobEvenAfterLargerNumbers) {
  swf::Trace t = small_trace();
  std::swap(t.records[2].job_number, t.records[4].job_number);  // 100 101 104 103 102 105...
  swf::Trace s = select_slice(t, SliceOptions{102, 2, -1, -1});
  ASSERT_EQ(s.records.size(), 2u);
  EXPECT_EQ(s.records[0].job_number, 102);
  EXPECT_EQ(s.records[1].job_number, 105);
  t.records.erase(t.records.begin() + 4);  // no job 102
  try {
    select_slice(t, SliceOptions{102, 2, -1, -1});
    FAIL() << "a missing first job must throw";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()), "small.swf: first-job=102: no job 102 in the trace");
  }
}

TEST(Slice, TimeWindowIsHalfOpen) {
  // submits 1000, 1600, 2200, ...: [1600, 2800) holds 1600 and 2200 only.
  swf::Trace s = select_slice(small_trace(), SliceOptions{-1, -1, 1600, 2800});
  ASSERT_EQ(s.records.size(), 2u);
  EXPECT_EQ(s.records[0].submit, 1600);
  EXPECT_EQ(s.records[1].submit, 2200);
}

TEST(Slice, EmptyOrContradictoryIsAnErrorNamingTheOption) {
  try {
    select_slice(small_trace(), SliceOptions{5000, 3, -1, -1});
    FAIL() << "an empty slice must throw";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("first-job=5000"), std::string::npos) << e.what();
  }
  EXPECT_THROW(select_slice(small_trace(), SliceOptions{-1, 0, -1, -1}), std::invalid_argument);
  EXPECT_THROW(select_slice(small_trace(), SliceOptions{-1, -1, 2000, 1000}), std::invalid_argument);
}

TEST(Scaling, LimitsRoundUpToWholeMinutesAtLeastOne) {
  EXPECT_EQ(limit_minutes(3600, 60), 1);   // exactly one minute
  EXPECT_EQ(limit_minutes(3601, 60), 2);   // a second more: next minute
  EXPECT_EQ(limit_minutes(60, 60), 1);     // 1 s of compressed time: the minimum
  EXPECT_EQ(limit_minutes(1, 1), 1);
  EXPECT_EQ(limit_minutes(7200, 1), 120);  // real time: the estimate itself
  EXPECT_EQ(limit_minutes(36000, 600), 1);
  EXPECT_EQ(limit_minutes(36001, 600), 2);
}

TEST(Scaling, PayloadIsTheScaledRuntimeCappedAtTheEstimate) {
  EXPECT_DOUBLE_EQ(payload_seconds(600, 3600, 60), 10.0);
  EXPECT_DOUBLE_EQ(payload_seconds(7200, 3600, 60), 60.0);  // ran past its estimate
  EXPECT_DOUBLE_EQ(payload_seconds(1, 3600, 600), 0.002);   // millisecond precision
  EXPECT_DOUBLE_EQ(payload_seconds(0, 3600, 60), 0.0);
  // Never longer than the limit Slurm enforces.
  for (Time est : {1, 59, 61, 3599, 3600, 3601, 86400}) {
    EXPECT_LE(payload_seconds(est, est, 60), static_cast<double>(limit_minutes(est, 60) * 60));
  }
}

TEST(Users, AccountsInOrderOfFirstAppearance) {
  UserMap users("eppu");
  EXPECT_EQ(users.account(42), "eppu001");
  EXPECT_EQ(users.account(7), "eppu002");
  EXPECT_EQ(users.account(42), "eppu001");
  EXPECT_EQ(users.accounts().size(), 2u);
  UserMap many("u");
  for (UserId u = 0; u < 1000; ++u) many.account(u);
  EXPECT_EQ(many.account(998), "u999");
  EXPECT_EQ(many.account(999), "u1000");
}

sim::Workload workload_of(const swf::Trace& t) {
  sim::WorkloadOptions o;
  o.procs = 100000000;
  return sim::prepare(t, o);
}

TEST(Plan, OffsetsScaledProcsCappedEffectiveJobs) {
  swf::Trace t = small_trace();
  t.records[1].requested_procs = t.records[1].allocated_procs = 100;  // wider than 16
  t.records[2].runtime = 5000;                                       // past its estimate
  UserMap users;
  ReplayPlan plan = make_plan(workload_of(t), 60, 16, users);
  ASSERT_EQ(plan.jobs.size(), 10u);
  EXPECT_EQ(plan.trace_start, 1000);
  EXPECT_DOUBLE_EQ(plan.jobs[3].submit_offset, 30.0);  // 1800 s / 60
  EXPECT_EQ(plan.jobs[1].procs, 16);
  EXPECT_TRUE(plan.jobs[1].procs_capped);
  EXPECT_EQ(plan.procs_capped, 1);
  EXPECT_EQ(plan.runtime_capped, 1);
  EXPECT_DOUBLE_EQ(plan.jobs[2].payload, 60.0);
  EXPECT_EQ(plan.jobs[0].account, "eppu001");
  EXPECT_EQ(plan.jobs[3].account, "eppu001");  // trace user 0 again

  sim::Workload eff = effective_workload(plan, "small.swf");
  ASSERT_EQ(eff.jobs.size(), 10u);
  EXPECT_EQ(eff.procs, 16);
  EXPECT_EQ(eff.jobs[0].job.estimate, 3600);  // 1 minute x 60
  EXPECT_EQ(eff.jobs[0].runtime, 300);
  EXPECT_EQ(eff.jobs[2].runtime, 3600);        // capped
  EXPECT_EQ(eff.jobs[1].job.procs, 16);
  EXPECT_EQ(eff.jobs[4].job.submit, t.records[4].submit);

  EXPECT_THROW(make_plan(workload_of(t), 0.5, 16, users), std::invalid_argument);
  EXPECT_THROW(make_plan(workload_of(t), 60, 0, users), std::invalid_argument);
}

TEST(Plan, EffectiveSwfReadsBackAsTheSameJobs) {
  UserMap users;
  ReplayPlan plan = make_plan(workload_of(small_trace()), 60, 16, users);
  sim::Workload eff = effective_workload(plan, "small.swf");
  const std::string path = ::testing::TempDir() + "/replay_effective.swf";
  write_swf(eff, {"Someone, for the data"}, path);
  swf::Trace back = swf::read(path);
  EXPECT_EQ(back.header.max_procs, 16);
  ASSERT_EQ(back.header.acknowledge.size(), 1u);
  ASSERT_EQ(back.records.size(), eff.jobs.size());
  for (std::size_t i = 0; i < eff.jobs.size(); ++i) {
    EXPECT_EQ(back.records[i].submit, eff.jobs[i].job.submit);
    EXPECT_EQ(back.records[i].runtime, eff.jobs[i].runtime);
    EXPECT_EQ(back.records[i].requested_time, eff.jobs[i].job.estimate);
    EXPECT_EQ(back.records[i].requested_procs, eff.jobs[i].job.procs);
  }
  std::remove(path.c_str());
}

TEST(Sacct, LineWithFlags) {
  LiveRecord r;
  std::string err;
  ASSERT_EQ(parse_sacct_with_flags("17|eppu001|999|2026-11-22T03:03:59|2026-11-22T03:04:01|"
                                   "2026-11-22T03:04:11|2|4|COMPLETED|debug|epp15|SchedBackfill",
                                   r, err), 1) << err;
  EXPECT_EQ(r.record.job.job_id, 17u);
  EXPECT_EQ(r.record.job.procs, 4);
  EXPECT_EQ(r.record.end - r.record.start, 10);
  EXPECT_EQ(r.record.job.estimate, 120);
  EXPECT_EQ(r.state, "COMPLETED");
  EXPECT_TRUE(r.backfilled);
  LiveRecord c;
  ASSERT_EQ(parse_sacct_with_flags("18|eppu001|999|2026-11-22T03:03:59|2026-11-22T03:04:01|"
                                   "2026-11-22T03:04:02|2|4|CANCELLED by 0|debug|epp16|SchedMain",
                                   c, err), 1) << err;
  EXPECT_EQ(c.state, "CANCELLED by 0");
  EXPECT_EQ(c.record.end_state, EPP_END_CANCELLED);
  EXPECT_FALSE(c.backfilled);
  LiveRecord step;
  EXPECT_EQ(parse_sacct_with_flags("17.batch||||2026-11-22T03:04:01|2026-11-22T03:04:11||4|COMPLETED|||", step, err), 0);
  LiveRecord bad;
  EXPECT_EQ(parse_sacct_with_flags("no bars here", bad, err), -1);
  EXPECT_EQ(parse_sacct_with_flags("17|u|1|x|y|z|2|4|COMPLETED|debug|n|", bad, err), -1);
  EXPECT_FALSE(err.empty());
}

// sacct --duplicates lists a requeued job's killed runs as REQUEUED lines before its final
// one: each is a restart, its CPUs x (End - Start) lost work (4 CPUs x 30 s = 120 here).
TEST(Sacct, RequeuedRunsAreKilledRuns) {
  LiveRecord run;
  ASSERT_EQ(parse_sacct_requeued_run("19|eppu001|999|2026-11-22T03:03:59|2026-11-22T03:04:01|"
                                     "2026-11-22T03:04:31|2|4|REQUEUED|debug|epp17|SchedMain",
                                     run), 1);
  EXPECT_EQ(run.record.job.job_id, 19u);
  EXPECT_EQ(run.record.job.procs, 4);
  EXPECT_EQ(run.record.end - run.record.start, 30);
  LiveRecord other;
  EXPECT_EQ(parse_sacct_requeued_run("19|eppu001|999|2026-11-22T03:03:59|2026-11-22T03:05:01|"
                                     "2026-11-22T03:05:31|2|4|COMPLETED|debug|epp17|SchedMain",
                                     other), 0);
  EXPECT_EQ(parse_sacct_requeued_run("19.batch||||2026-11-22T03:04:01|2026-11-22T03:04:31||4|REQUEUED|||",
                                     other), 0) << "a step, not an allocation";
  EXPECT_EQ(parse_sacct_requeued_run("no bars", other), 0);
}

// The jobcomp file, read when sacct has no records (slurmdbd lagging): a killed run is
// a line written at the requeue, the job already REQUEUED or PENDING again. Worked out by
// hand: job 27 (30 CPUs) ran 30 s, was requeued, ran 5 s, was requeued again, then ran
// to the end: 2 restarts, (30 + 5) x 30 = 1050 CPU-seconds lost, and it waits from its
// first submit (03:03:59; its last record says 03:04:46): 61 s to its last start.
TEST(Jobcomp, RequeuedRunsAreKilledRuns) {
  auto line = [](const char* id, const char* state, const char* submit, const char* start,
                 const char* end) {
    return std::string("JobId=") + id + " UserId=eppu001(999) GroupId=users(100) Name=epp17 " +
           "JobState=" + state + " Partition=debug TimeLimit=1 StartTime=2026-11-22T" + start +
           " EndTime=2026-11-22T" + end + " NodeList=n[1-2] NodeCnt=2 ProcCnt=30 WorkDir=/tmp " +
           "ReservationName= Tres=cpu=30,node=2 Account=(null) QOS=normal WcKey= Cluster=t " +
           "SubmitTime=2026-11-22T" + submit + " EligibleTime=2026-11-22T" + submit +
           " DerivedExitCode=0:0 ExitCode=0:0\n";
  };
  const std::string path = testing::TempDir() + "replay_jobcomp_requeued.txt";
  {
    std::ofstream f(path);
    f << line("27", "REQUEUED", "03:03:59", "03:04:01", "03:04:31")
      << line("28", "REQUEUED", "03:03:59", "03:04:01", "03:04:31")  // not replayed here
      << line("27", "PENDING", "03:04:32", "03:04:40", "03:04:45")
      << line("27", "COMPLETED", "03:04:46", "03:05:00", "03:05:10");
  }
  std::vector<std::string> problems;
  const auto records = jobcomp_records(path, {27}, problems);
  std::remove(path.c_str());
  EXPECT_TRUE(problems.empty()) << problems.front();
  ASSERT_EQ(records.size(), 1u);
  const LiveRecord& r = records.at(27);
  EXPECT_EQ(r.restarts, 2);
  EXPECT_DOUBLE_EQ(r.lost_cpu_seconds, 1050.0);
  EXPECT_EQ(r.record.start - r.record.job.submit, 61);
  EXPECT_EQ(r.state, "COMPLETED");
  LiveRecord other;
  EXPECT_EQ(parse_jobcomp_requeued_run(line("27", "COMPLETED", "03:04:46", "03:05:00",
                                            "03:05:10"), other), 0);
  EXPECT_EQ(parse_jobcomp_requeued_run("no state", other), 0);
}

// Three jobs on 10 CPUs at speedup 60, real epoch times from a made-up accounting.
struct LiveFixture {
  ReplayPlan plan;
  std::vector<RealTimes> real;
  LiveFixture() {
    swf::Trace t;
    t.path = "three.swf";
    t.records = {rec(1, 0, 600, 10, 600, 1), rec(2, 60, 600, 10, 1200, 2), rec(3, 120, 60, 5, 3600, 1)};
    UserMap users;
    plan = make_plan(workload_of(t), 60, 10, users);
    // real start 1000: job 1 runs 1000-1010, job 2 waits for it (1010-1020), job 3 waits
    // behind job 2 (1020-1021) and ends TIMEOUT (made up, to be counted).
    real.resize(3);
    real[0] = {true, 11, 1000, 1000, 1010, EPP_END_COMPLETED, "COMPLETED", false};
    real[1] = {true, 12, 1001, 1010, 1020, EPP_END_COMPLETED, "COMPLETED", false};
    real[2] = {true, 13, 1002, 1020, 1021, EPP_END_TIMEOUT, "TIMEOUT", true};
  }
};

TEST(LiveOutcome, TimesScaledBackAndMetricsFromTheSimulator) {
  LiveFixture f;
  LiveOutcome lo = live_outcome(f.plan, f.real, 1000.0, PolicyTraits{}, "live:test", "three.swf");
  const measure::SimOutcome& o = lo.outcome;
  ASSERT_EQ(o.jobs.size(), 3u);
  EXPECT_EQ(o.procs, 10);
  EXPECT_EQ(o.jobs[1].submit, 60);
  EXPECT_EQ(o.jobs[1].start, 600);
  EXPECT_EQ(o.jobs[1].runtime, 600);
  EXPECT_EQ(o.jobs[2].start, 1200);
  EXPECT_EQ(o.jobs[2].end, 1260);
  EXPECT_EQ(lo.timeouts, 1);
  EXPECT_EQ(lo.killed_before_limit, 0);
  EXPECT_EQ(lo.missing, 0);
  EXPECT_TRUE(o.jobs[2].backfilled);
  EXPECT_EQ(o.jobs[0].end_rank, 0);
  EXPECT_EQ(o.jobs[2].end_rank, 2);
  // Waits 0, 540, 1080 s; utilization (10*600 + 10*600 + 5*60) / (1260 * 10).
  measure::Metrics all = metrics_all_jobs(o, measure::MetricsOptions{});
  EXPECT_EQ(all.counted, 3);
  EXPECT_NEAR(all.avg_wait_min, (0 + 540 + 1080) / 3.0 / 60.0, 1e-9);
  EXPECT_NEAR(all.utilization_pct, 100.0 * 12300.0 / 12600.0, 1e-9);
  EXPECT_NEAR(mean_wait_all_min(o), 9.0, 1e-9);
  // The simulator's own rule leaves out jobs ending after the last arrival (t=120).
  EXPECT_EQ(measure::compute_metrics(o).counted, 0);
}

TEST(LiveOutcome, AccuracyOfEstimatesIsRuntimeOverLimit) {
  LiveFixture f;
  LiveOutcome lo = live_outcome(f.plan, f.real, 1000.0, PolicyTraits{}, "live:test", "three.swf");
  // "estimate" predictions: the Slurm limit in trace time (1 min x 60 = 3600 s).
  EXPECT_NEAR(lo.outcome.jobs[0].accuracy, 600.0 / 3600.0, 1e-9);
  EXPECT_NEAR(lo.outcome.jobs[2].accuracy, 60.0 / 3600.0, 1e-9);
}

TEST(LiveOutcome, HistoryPredictionsLearnFromEarlierEnds) {
  LiveFixture f;
  PolicyTraits history;
  history.predictor = "history";
  history.correct_predictions = true;
  LiveOutcome lo = live_outcome(f.plan, f.real, 1000.0, history, "live:test", "three.swf");
  // Job 3 (user 1) is submitted at t=120, before job 1 of the same user ends (t=600):
  // no history yet, so it is predicted at its estimate like job 1.
  EXPECT_NEAR(lo.outcome.jobs[2].accuracy, 60.0 / 3600.0, 1e-9);
  // Submitted after job 1 ended (real 1011 -> t=660 > 600): predicted at job 1's 600 s.
  f.real[2].submit = 1011;
  LiveOutcome later = live_outcome(f.plan, f.real, 1000.0, history, "live:test", "three.swf");
  EXPECT_NEAR(later.outcome.jobs[2].accuracy, 60.0 / 600.0, 1e-9);
}

TEST(LiveOutcome, MissingRecordsAreCountedNotInvented) {
  LiveFixture f;
  f.real[1].recorded = false;
  LiveOutcome lo = live_outcome(f.plan, f.real, 1000.0, PolicyTraits{}, "live:test", "three.swf");
  EXPECT_EQ(lo.missing, 1);
  ASSERT_EQ(lo.outcome.jobs.size(), 2u);
  EXPECT_EQ(lo.plan_index[1], 2u);
}

TEST(Cli, BadValuesNameTheOption) {
  auto parse = [](std::vector<std::string> a) {
    a.insert(a.begin(), "easypp-replay");
    return parse_cli(a);
  };
  ReplayOptions o = parse({"--trace", "t.swf", "--speedup", "60", "--jobs", "10", "--out", "x"});
  EXPECT_EQ(o.slice.jobs, 10);
  EXPECT_DOUBLE_EQ(o.speedup, 60);
  try {
    parse({"--trace", "t.swf", "--speedup", "0.5", "--out", "x"});
    FAIL();
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("--speedup=0.5"), std::string::npos) << e.what();
  }
  EXPECT_THROW(parse({"--trace", "t.swf", "--speedup", "60"}), UsageError);  // no --out
  EXPECT_THROW(parse({"--trace", "t.swf", "--speedup", "60", "--out", "x", "--window", "5:5"}), UsageError);
  EXPECT_THROW(parse({"--trace", "t.swf", "--speedup", "60", "--out", "x", "--simulate", "easy"}), UsageError);
  EXPECT_THROW(parse({"--trace", "t.swf", "--speedup", "60", "--out", "x", "--user-prefix", "Bad"}), UsageError);
  EXPECT_THROW(parse({"--trace", "t.swf", "--speedup", "60", "--out", "x", "--bogus"}), UsageError);
}

}  // namespace
