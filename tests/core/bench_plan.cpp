// One planning pass on a big synthetic state: 10,000 waiting jobs, 1,000 running,
// 16,000 processors (the plugin's target: <= 20 ms per pass for easy++).
#include <benchmark/benchmark.h>

#include <random>

#include "core/policy.h"

namespace easypp {
namespace {

ClusterState big_state() {
  std::mt19937_64 rng(42);
  auto uniform = [&rng](Time lo, Time hi) {
    return std::uniform_int_distribution<Time>(lo, hi)(rng);
  };
  ClusterState s;
  s.now = 1'000'000;
  s.procs = 16'000;
  JobId id = 1;
  // 1,000 running jobs of 1-31 processors (about 15,900 busy): a nearly full machine, so
  // the head blocks and every pass backfills on the few idle processors.
  int busy = 0;
  for (int i = 0; i < 1000; ++i) {
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
  // Top up so only a handful of processors are idle.
  s.running.front().job.procs += s.procs - busy - 8;
  for (int i = 0; i < 10'000; ++i) {
    Job j;
    j.id = id++;
    j.user = static_cast<UserId>(uniform(1, 500));
    j.submit = s.now - 10'000 + i;
    j.procs = i == 0 ? 4'000 : static_cast<int>(uniform(1, 256));
    j.estimate = uniform(60, 86'400);
    j.prediction = uniform(30, j.estimate);
    s.waiting.push_back(j);
  }
  return s;
}

void plan_pass(benchmark::State& st, const char* policy_name) {
  const ClusterState s = big_state();
  const auto policy = make_policy(policy_name);
  int started = 0;
  for (auto _ : st) {
    Decision d = policy->plan(s);
    started = static_cast<int>(d.start.size());
    benchmark::DoNotOptimize(d);
  }
  st.counters["started"] = started;
}

BENCHMARK_CAPTURE(plan_pass, easy, "easy")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(plan_pass, easy_plus_plus, "easy++")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(plan_pass, sjf_plus, "sjf+")->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace easypp
