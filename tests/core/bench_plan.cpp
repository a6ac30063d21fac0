// One planning pass on a big synthetic state: 10,000 waiting jobs, 1,000 running,
// 16,000 processors (the plugin's target: <= 20 ms per pass for easy++). Two machines:
// nearly full (8 processors idle: the common case, few candidates fit) and with 3,000
// idle processors (hundreds of candidates fit and many backfill). Conservative, whose
// pass grows with the queue, is measured on 1,000 waiting jobs as well.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <random>

#include "core/policy.h"
#include "core/start_forecast.h"

namespace easypp {
namespace {

ClusterState big_state(int idle, int nwaiting, int procs = 16'000, int nrunning = 1000) {
  std::mt19937_64 rng(42);
  auto uniform = [&rng](Time lo, Time hi) {
    return std::uniform_int_distribution<Time>(lo, hi)(rng);
  };
  ClusterState s;
  s.now = 1'000'000;
  s.procs = procs;
  JobId id = 1;
  // 1,000 running jobs of 1-30 processors; the first absorbs the rest of the machine.
  int busy = 0;
  for (int i = 0; i < nrunning; ++i) {
    RunningJob r;
    r.job.id = id++;
    r.job.user = static_cast<UserId>(uniform(1, 500));
    r.job.procs = static_cast<int>(uniform(1, 30));
    r.job.estimate = uniform(600, 86'400);
    r.job.prediction = uniform(60, r.job.estimate);
    r.start = s.now - uniform(0, r.job.prediction + 600);  // some predictions expired
    busy += r.job.procs;
    s.running.push_back(r);
  }
  // Adjust the first job so exactly `idle` processors are idle.
  s.running.front().job.procs += s.procs - busy - idle;
  for (int i = 0; i < nwaiting; ++i) {
    Job j;
    j.id = id++;
    j.user = static_cast<UserId>(uniform(1, 500));
    j.submit = s.now - 10'000 + i;
    j.procs = i == 0 ? procs / 4 : static_cast<int>(uniform(1, std::min(256, procs / 8)));
    j.estimate = uniform(60, 86'400);
    j.prediction = uniform(30, j.estimate);
    s.waiting.push_back(j);
  }
  return s;
}

void plan_pass(benchmark::State& st, const char* policy_name, int idle, int nwaiting,
               int procs = 16'000, int nrunning = 1000) {
  const ClusterState s = big_state(idle, nwaiting, procs, nrunning);
  const auto policy = make_policy(policy_name);
  Decision d;
  for (auto _ : st) {
    d = policy->plan(s);
    benchmark::DoNotOptimize(d);
  }
  st.counters["started"] = static_cast<double>(d.start.size());
  st.counters["examined"] = d.examined;
}

// The plugin's squeue --start forecasts after an easy++ pass (easypp_start_estimates jobs),
// measured on their own; the pass itself is plan_pass/easy_plus_plus_full.
void forecast_after_pass(benchmark::State& st, std::size_t limit) {
  const ClusterState s = big_state(8, 10'000);
  const auto policy = make_policy("easy++");
  const Decision d = policy->plan(s);
  StartForecast forecast;
  std::vector<Reservation> f;
  for (auto _ : st) {
    f = forecast.forecast(s, d, limit);
    benchmark::DoNotOptimize(f);
  }
  st.counters["forecasts"] = static_cast<double>(f.size());
}

BENCHMARK_CAPTURE(plan_pass, easy_full, "easy", 8, 10'000)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(forecast_after_pass, default_100, 100)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(forecast_after_pass, jobs_1000, 1000)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(plan_pass, easy_plus_plus_full, "easy++", 8, 10'000)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(plan_pass, sjf_plus_full, "sjf+", 8, 10'000)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(plan_pass, easy_idle3000, "easy", 3000, 10'000)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(plan_pass, easy_plus_plus_idle3000, "easy++", 3000, 10'000)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(plan_pass, easy_plus_plus_dbook_idle3000, "easy++-dbook", 3000, 10'000)
    ->Unit(benchmark::kMillisecond);
// A typical simulator pass on SDSC-BLUE's size: 1,152 processors, 60 running, 40 waiting.
BENCHMARK_CAPTURE(plan_pass, easy_plus_plus_blue_sized, "easy++", 100, 40, 1152, 60)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(plan_pass, conservative_1000_waiting, "conservative", 3000, 1'000)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(plan_pass, conservative_10000_waiting, "conservative", 3000, 10'000)
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace easypp
