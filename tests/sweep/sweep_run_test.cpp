// run_sweep end to end on two small synthetic traces: numbers equal a direct simulation,
// equivalent configurations get copies, and an interrupted sweep resumes where it stopped.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <utility>

#include "core/policy.h"
#include "measure/metrics.h"
#include "sim/simulator.h"
#include "sim/swf.h"
#include "sim/workload.h"
#include "sweep/config_space.h"
#include "sweep/results_file.h"
#include "sweep/sweep_run.h"
#include "sweep_test_support.h"

namespace easypp::sweep {
namespace {

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

using Numbers = std::map<std::pair<std::size_t, std::string>, std::pair<double, double>>;

Numbers numbers_of(const std::string& results) {
  Numbers n;
  for (const auto& r : read_results(results).rows) {
    n[{r.config, r.trace}] = {r.avg_wait_min, r.avg_bsld};
  }
  return n;
}

class SweepRun : public ::testing::Test {
 protected:
  void SetUp() override {
    testing::write_synthetic_swf(dir_.file("one.swf"), 500, 11);
    testing::write_synthetic_swf(dir_.file("two.swf"), 400, 12);
    // Two classes of two members each (E1/E2 and E4), and two singletons.
    const char* specs[] = {
        "history:window=1,type=all",                                     // class of index 0
        "history:window=1,type=all,fullness=full,metric=max,fallback=relative",
        "history:window=5,type=all,fullness=partial,fallback=relative",  // class of window 5
        "history:window=5,type=all,fullness=partial,fallback=estimate",
        "history:window=3,type=extended,metric=median",
        "history:window=2,type=immediate,fullness=full,propagation=on,correction=gradual"};
    std::ofstream list(dir_.file("configs.txt"));
    list << "# configurations for the test\n";
    for (const char* s : specs) {
      configs_.push_back(space_.index_of_spec(s));
      list << s << "\n";
    }
    options_.traces = parse_trace_list(dir_.file("one.swf") + ",second=" + dir_.file("two.swf"));
    options_.configs = dir_.file("configs.txt");
    options_.out = dir_.file("out");
    options_.threads = 2;
  }

  std::string results() const { return options_.out + "/results.csv"; }

  testing::TempDir dir_;
  ConfigSpace space_;
  std::vector<std::size_t> configs_;
  SweepOptions options_;
};

TEST_F(SweepRun, NumbersCopiesAndCosts) {
  const SweepReport r = run_sweep(options_, space_, nullptr);
  EXPECT_EQ(r.configs, 6u);
  EXPECT_EQ(r.lines_wanted, 12u);
  EXPECT_EQ(r.simulations, 8u);  // 4 classes x 2 traces
  EXPECT_EQ(r.lines_copied, 4u);
  EXPECT_EQ(r.lines_present, 0u);

  const auto rows = read_results(results()).rows;
  ASSERT_EQ(rows.size(), 12u);
  std::map<std::pair<std::size_t, std::string>, ResultRow> by_key;
  double seconds = 0;
  int costed = 0;
  for (const auto& row : rows) {
    by_key[{row.config, row.trace}] = row;
    EXPECT_EQ(row.spec, space_.spec(row.config));
    EXPECT_EQ(row.simulated_as, space_.representative(row.config));
    seconds += row.sim_seconds;
    costed += row.sim_seconds > 0;
  }
  EXPECT_GT(seconds, 0);
  auto at = [&](std::size_t config, const std::string& trace) -> const ResultRow& {
    return by_key.at(std::make_pair(config, trace));
  };
  EXPECT_EQ(costed, 8);  // one line per simulation carries its cost
  for (const std::string trace : {"one", "second"}) {
    EXPECT_EQ(at(configs_[1], trace).avg_wait_min, at(configs_[0], trace).avg_wait_min);
    EXPECT_EQ(at(configs_[1], trace).sim_seconds, 0);  // a copy carries no cost
    EXPECT_EQ(at(configs_[3], trace).avg_bsld, at(configs_[2], trace).avg_bsld);
  }
  // The metrics are the simulator's own, for the configuration's own spec.
  const sim::Workload w = sim::prepare(swf::read(dir_.file("two.swf")), {});
  PolicyOptions po;
  po.predictor = space_.spec(configs_[5]);
  auto policy = make_policy("easy++", po);
  const measure::Metrics m = measure::compute_metrics(sim::simulate(w, *policy));
  EXPECT_EQ(at(configs_[5], "second").avg_wait_min, m.avg_wait_min);
  EXPECT_EQ(at(configs_[5], "second").avg_bsld, m.avg_bsld);
  EXPECT_NE(at(configs_[5], "second").avg_wait_min, at(configs_[4], "second").avg_wait_min);

  SweepSettings s;
  ASSERT_TRUE(read_settings(options_.out + "/sweep.conf", s));
  ASSERT_EQ(s.traces.size(), 2u);
  EXPECT_EQ(s.traces[1].label, "second");
  EXPECT_EQ(s.traces[1].jobs, 400u);
  EXPECT_EQ(s.traces[1].procs, 64);
}

TEST_F(SweepRun, ResumesAfterInterruption) {
  run_sweep(options_, space_, nullptr);
  const Numbers complete = numbers_of(results());
  const std::string text = slurp(results());
  // Lose the last three lines, the third cut mid-line, as a kill during a write leaves it.
  std::size_t cut = text.size() - 1;
  for (int i = 0; i < 3; ++i) cut = text.rfind('\n', cut - 1);
  const std::string kept = text.substr(0, cut + 1 + 20);
  std::ofstream(results(), std::ios::trunc | std::ios::binary) << kept;

  const SweepReport r = run_sweep(options_, space_, nullptr);
  EXPECT_TRUE(r.dropped_truncated_line);
  EXPECT_EQ(r.lines_present, 9u);
  EXPECT_EQ(r.lines_copied + r.simulations, 3u);  // missing lines of a class may be copies
  EXPECT_GE(r.simulations, 1u);
  const ResultsContent after = read_results(results());
  EXPECT_FALSE(after.truncated_tail);
  EXPECT_EQ(after.rows.size(), 12u);
  EXPECT_EQ(numbers_of(results()), complete);

  const SweepReport again = run_sweep(options_, space_, nullptr);
  EXPECT_EQ(again.simulations, 0u);
  EXPECT_EQ(again.lines_present, 12u);
  EXPECT_EQ(read_results(results()).rows.size(), 12u);
}

TEST_F(SweepRun, CopiesFromAnEquivalentLineOnResume) {
  // Only configs_[0] first; then configs_[1] (same class) is filled without simulating.
  options_.configs = std::to_string(configs_[0]);
  EXPECT_EQ(run_sweep(options_, space_, nullptr).simulations, 2u);
  options_.configs = std::to_string(configs_[0]) + "," + std::to_string(configs_[1]);
  const SweepReport r = run_sweep(options_, space_, nullptr);
  EXPECT_EQ(r.simulations, 0u);
  EXPECT_EQ(r.lines_copied, 2u);
  EXPECT_EQ(read_results(results()).rows.size(), 4u);
}

TEST_F(SweepRun, OtherSettingsAreRefused) {
  options_.configs = std::to_string(configs_[4]);
  run_sweep(options_, space_, nullptr);
  SweepOptions other = options_;
  other.policy = "easy+";
  try {
    run_sweep(other, space_, nullptr);
    FAIL() << "a results.csv of another policy must not be extended";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("policy: easy++ -> easy+"), std::string::npos) << e.what();
  }
  other = options_;
  other.max_jobs_per_trace = 100;
  EXPECT_THROW(run_sweep(other, space_, nullptr), std::invalid_argument);
  other = options_;
  other.traces = parse_trace_list("second=" + dir_.file("two.swf") + ":procs=128");
  EXPECT_THROW(run_sweep(other, space_, nullptr), std::invalid_argument);
}

TEST_F(SweepRun, MaxJobsPerTrace) {
  options_.configs = std::to_string(configs_[4]);
  options_.max_jobs_per_trace = 50;
  run_sweep(options_, space_, nullptr);
  SweepSettings s;
  ASSERT_TRUE(read_settings(options_.out + "/sweep.conf", s));
  EXPECT_EQ(s.max_jobs_per_trace, 50u);
  EXPECT_EQ(s.traces[0].jobs, 50u);
}

TEST_F(SweepRun, PolicyWithoutReplaceablePredictorIsRefused) {
  options_.policy = "easy";
  EXPECT_THROW(run_sweep(options_, space_, nullptr), std::invalid_argument);
  EXPECT_FALSE(std::filesystem::exists(results()));
}

TEST(TraceList, Forms) {
  testing::TempDir dir;
  testing::write_synthetic_swf(dir.file("b.swf"), 5);
  testing::write_synthetic_swf(dir.file("a.swf"), 5);
  std::ofstream(dir.file("notes.txt")) << "x";
  auto t = parse_trace_list(dir.path());
  ASSERT_EQ(t.size(), 2u);
  EXPECT_EQ(t[0].label, "a");
  EXPECT_EQ(t[1].label, "b");
  t = parse_trace_list(dir.file("a.swf") + ":procs=512,X=" + dir.file("b.swf") + ":procs=7");
  ASSERT_EQ(t.size(), 2u);
  EXPECT_EQ(t[0].label, "a@512");
  EXPECT_EQ(t[0].procs, 512);
  EXPECT_EQ(t[1].label, "X");
  EXPECT_EQ(t[1].path, dir.file("b.swf"));
  EXPECT_EQ(t[1].procs, 7);
  auto error_of = [](const std::string& text) -> std::string {
    try {
      parse_trace_list(text);
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
    return "no error";
  };
  EXPECT_EQ(error_of(dir.file("c.swf")), "traces: " + dir.file("c.swf") + ": no such file");
  EXPECT_EQ(error_of(dir.file("a.swf") + ":procs=0"),
            "traces: " + dir.file("a.swf") + ":procs=0: procs=0: expected a positive integer");
  for (const char* bad : {" 5", "+5", "5 ", "0x10", ""}) {
    EXPECT_EQ(error_of(dir.file("a.swf") + ":procs=" + bad),
              "traces: " + dir.file("a.swf") + ":procs=" + bad + ": procs=" + bad + ": expected a positive integer")
        << "procs='" << bad << "'";
  }
  EXPECT_NE(error_of(dir.file("a.swf") + "," + dir.file("a.swf")).find("label a used twice"),
            std::string::npos);
  EXPECT_NE(error_of(dir.file("a.swf") + ",").find("empty item"), std::string::npos);
  // sweep.conf keeps LABEL|FILE|PROCS|JOBS: a '|' in the file name once made a sweep
  // whose resume and rank could not read their own sweep.conf.
  testing::write_synthetic_swf(dir.file("a|b.swf"), 5);
  EXPECT_EQ(error_of("x=" + dir.file("a|b.swf")),
            "traces: x=" + dir.file("a|b.swf") + ": a trace file's name may not contain '|' or a newline");
}

TEST(ConfigSelection, Forms) {
  const ConfigSpace space;
  EXPECT_EQ(space.size(), 8640u);
  EXPECT_EQ(space.select("all").size(), 8640u);
  EXPECT_EQ(space.select("3,0-2,2"), (std::vector<std::size_t>{0, 1, 2, 3}));
  EXPECT_THROW(space.select("8640"), std::invalid_argument);
  EXPECT_THROW(space.select("5-2"), std::invalid_argument);
  EXPECT_THROW(space.select("x"), std::invalid_argument);
  // Paper 000's chosen subspace: 30 windows x 4 metrics x 2 fullness x 2 fallbacks x 2.
  EXPECT_EQ(space.select("type=all,correction=estimate").size(), 960u);
  const auto small = space.select("type=all, correction=estimate,window=1|2,metric=avg");
  EXPECT_EQ(small.size(), 16u);
  for (std::size_t c : small) {
    EXPECT_EQ(space.parameters(c)[1], "all");
    EXPECT_TRUE(space.parameters(c)[0] == "1" || space.parameters(c)[0] == "2");
  }
  EXPECT_THROW(space.select("colour=red"), std::invalid_argument);
  EXPECT_THROW(space.select("window=31"), std::invalid_argument);
  EXPECT_EQ(space.index_of_spec("history:window=2"), 1u);
  EXPECT_EQ(space.spec(1).rfind("history:window=2,type=all,fullness=partial,metric=avg,", 0), 0u);
  try {
    space.index_of_spec("history:window=2,scale=2");
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("not in the sweep space"), std::string::npos);
  }
  testing::TempDir dir;
  std::ofstream(dir.file("c.txt")) << "# two\n7\n\nhistory:window=3 # spec\nbogus\n";
  try {
    space.select(dir.file("c.txt"));
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()).rfind(dir.file("c.txt") + ":5: ", 0), 0u) << e.what();
  }
}

}  // namespace
}  // namespace easypp::sweep
