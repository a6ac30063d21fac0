// Paper 003's error models driven through the simulator: the workload reaches the
// predictor (bounds, applications), --seed reaches its draws, deadline-missed extension
// keeps underpredicted jobs running, and --repeat's mean and spread.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "core/policy.h"
#include "sim/cli.h"
#include "sim/repeat_summary.h"
#include "sim/simulator.h"
#include "sim/swf.h"
#include "sim/workload.h"

namespace easypp::sim {
namespace {

// 300 jobs on 16 processors: sizes 1-16, runtimes from 30 s to ~3 h, estimates 1.5-4 x
// the runtime, arrivals every 2 minutes (a loaded machine, so predictions matter).
Workload busy_workload() {
  Workload w;
  w.trace = "hand-made";
  w.procs = 16;
  for (int i = 0; i < 300; ++i) {
    SimJob s;
    s.job.id = static_cast<JobId>(i + 1);
    s.job.user = static_cast<UserId>(i % 7);
    s.job.submit = 120 * i;
    s.job.procs = 1 + (i * 7) % 16;
    s.runtime = 30 + (i * 2654435761u) % 10000;
    s.job.estimate = s.runtime * (3 + i % 6) / 2;
    s.job.prediction = s.job.estimate;
    s.application = i % 5;
    s.swf_job = i + 1;
    w.jobs.push_back(s);
  }
  return w;
}

std::vector<Time> starts(const measure::SimOutcome& o) {
  std::vector<Time> v;
  for (const measure::JobOutcome& j : o.jobs) v.push_back(j.start);
  return v;
}

measure::SimOutcome run(const Workload& w, const std::string& policy, const std::string& predictor,
                        std::uint64_t seed) {
  auto p = make_policy(policy, {.predictor = predictor});
  SimOptions options;
  options.seed = seed;
  return simulate(w, *p, options);
}

TEST(SimErrorModels, SeedReachesTheDrawsAndRepeats) {
  const Workload w = busy_workload();
  const std::string spec = "quant:category=short,error=400,stdev=20";
  const measure::SimOutcome a = run(w, "easy++", spec, 3);
  const measure::SimOutcome b = run(w, "easy++", spec, 3);
  const measure::SimOutcome c = run(w, "easy++", spec, 4);
  EXPECT_EQ(starts(a), starts(b));
  EXPECT_NE(starts(a), starts(c));
  EXPECT_NE(a.predictor.find("seed=3"), std::string::npos) << a.predictor;
  EXPECT_NE(c.predictor.find("seed=4"), std::string::npos) << c.predictor;
}

TEST(SimErrorModels, ZeroErrorSchedulesLikePerfectPredictions) {
  // quant with error 0 predicts each job's runtime exactly: the same plan as the
  // clairvoyant predictor, which only works if the simulator handed over the workload
  // (without it quant would predict the estimate).
  const Workload w = busy_workload();
  const measure::SimOutcome quant = run(w, "lxf-w+", "quant:error=0,stdev=0", 1);
  const measure::SimOutcome perfect = run(w, "lxf-w+", "perfect", 1);
  const measure::SimOutcome estimates = run(w, "lxf-w+", "estimate", 1);
  EXPECT_EQ(starts(quant), starts(perfect));
  EXPECT_NE(starts(quant), starts(estimates));
}

TEST(SimErrorModels, DeadlineMissedExtendsInsteadOfKilling) {
  // large2short on every large job: they are predicted far too short, reach their
  // prediction, get extended (corrections) and still run their whole runtime.
  const Workload w = busy_workload();
  const measure::SimOutcome o = run(w, "easy+", "qual:kind=large2short,percent=100,stdev=0", 1);
  int corrected = 0;
  for (std::size_t i = 0; i < o.jobs.size(); ++i) {
    const measure::JobOutcome& j = o.jobs[i];
    EXPECT_EQ(j.end - j.start, w.jobs[i].runtime) << "job " << i + 1;
    if (j.corrections > 0) ++corrected;
  }
  EXPECT_GT(corrected, 10);
}

TEST(SimErrorModels, ApplicationComesFromSwfField14) {
  swf::Trace t;
  t.header.max_procs = 8;
  swf::Record r;
  r.job_number = 1;
  r.submit = 0;
  r.runtime = 100;
  r.requested_procs = 2;
  r.allocated_procs = 2;
  r.requested_time = 200;
  r.user = 1;
  r.status = 1;
  r.executable = 7;
  t.records.push_back(r);
  r.job_number = 2;
  r.executable = -1;
  t.records.push_back(r);
  WorkloadOptions options;
  options.procs = 8;
  const Workload w = prepare(t, options);
  ASSERT_EQ(w.jobs.size(), 2u);
  EXPECT_EQ(w.jobs[0].application, 7);
  EXPECT_EQ(w.jobs[1].application, -1);
}

TEST(SimErrorModels, BadPredictorSpecIsNamed) {
  EXPECT_THROW(
      {
        try {
          auto p = make_policy("easy++", {.predictor = "quant:category=huge"});
          simulate(busy_workload(), *p);
        } catch (const std::invalid_argument& e) {
          EXPECT_NE(std::string(e.what()).find("category=huge"), std::string::npos) << e.what();
          throw;
        }
      },
      std::invalid_argument);
}

TEST(RepeatSummary, MeanAndSampleSpread) {
  const Spread s = spread_of({1, 2, 3, 4});
  EXPECT_DOUBLE_EQ(s.mean, 2.5);
  EXPECT_NEAR(s.sd, std::sqrt(5.0 / 3.0), 1e-12);
  EXPECT_EQ(s.min, 1);
  EXPECT_EQ(s.max, 4);
  EXPECT_EQ(spread_of({5}).sd, 0);

  std::vector<RunReport> runs(3);
  const double bsld[3] = {2, 4, 9};
  for (int i = 0; i < 3; ++i) {
    runs[i].policy = "easy++";
    runs[i].predictor = "quant:seed=" + std::to_string(10 + i);
    runs[i].metrics.avg_bsld = bsld[i];
    runs[i].metrics.avg_wait_min = 10.0 * i;
  }
  const RepeatSummary r = summarize(runs, 10);
  EXPECT_EQ(r.runs, 3);
  EXPECT_DOUBLE_EQ(r.avg_bsld.mean, 5);
  EXPECT_DOUBLE_EQ(r.avg_bsld.sd, std::sqrt(13.0));  // ((9 + 1 + 16) / 2)
  EXPECT_DOUBLE_EQ(r.avg_wait_min.mean, 10);
  const std::string json = summary_json(r);
  EXPECT_NE(json.find("\"summary\":\"repeat\""), std::string::npos) << json;
  EXPECT_NE(json.find("\"avg_bsld_mean\":5,"), std::string::npos) << json;
  EXPECT_NE(json.find("\"first_seed\":10"), std::string::npos) << json;
  const std::string table = summary_table({r});
  EXPECT_NE(table.find("10-12"), std::string::npos) << table;
}

TEST(RepeatCli, RepeatIsParsedAndChecked) {
  EXPECT_EQ(parse_cli({"easypp-sim", "--trace", "x", "--policy", "easy", "--repeat", "5"}).repeat, 5);
  EXPECT_EQ(parse_cli({"easypp-sim", "--trace", "x", "--policy", "easy"}).repeat, 1);
  EXPECT_THROW(parse_cli({"easypp-sim", "--trace", "x", "--policy", "easy", "--repeat", "0"}), UsageError);
}

}  // namespace
}  // namespace easypp::sim
