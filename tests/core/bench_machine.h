// The set-up the node benchmarks share (bench_nodes, bench_partitions): a machine of
// identical nodes, a seeded random draw, running and waiting jobs with random users,
// estimates and predictions, and a planning pass timed over and over.
#ifndef EASYPP_TESTS_CORE_BENCH_MACHINE_H
#define EASYPP_TESTS_CORE_BENCH_MACHINE_H

#include <benchmark/benchmark.h>

#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <utility>

#include "core/decision.h"
#include "core/job.h"
#include "core/job_request.h"
#include "core/machine.h"
#include "core/policy.h"

namespace easypp::bench {

// Integers drawn uniformly in [lo, hi] from a fixed seed: every run plans the same jobs.
class Uniform {
 public:
  std::int64_t operator()(std::int64_t lo, std::int64_t hi) {
    return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng_);
  }

 private:
  std::mt19937_64 rng_{42};
};

// Adds `count` nodes n0, n1, ... of `capacity` each.
inline void add_nodes(Machine& m, int count, const Resources& capacity) {
  for (int n = 0; n < count; ++n) {
    Node node;
    node.name = "n" + std::to_string(n);
    node.capacity = capacity;
    m.add_node(node);
  }
}

// A job of one of `users` users running since before `now` (some predictions expired),
// without allocation: the caller gives it one.
inline RunningJob running(JobId id, Time now, int users, Uniform& uniform) {
  RunningJob r;
  r.job.id = id;
  r.job.user = static_cast<UserId>(uniform(1, users));
  r.job.estimate = uniform(600, 86'400);
  r.job.prediction = uniform(60, r.job.estimate);
  r.start = now - uniform(0, r.job.prediction + 600);
  return r;
}

// A waiting job of `procs` processors asking `request`, of one of `users` users.
inline Job waiting(JobId id, Time submit, int procs, JobRequest request, int users,
                   Uniform& uniform) {
  Job j;
  j.id = id;
  j.user = static_cast<UserId>(uniform(1, users));
  j.submit = submit;
  j.procs = procs;
  j.estimate = uniform(60, 86'400);
  j.prediction = uniform(30, j.estimate);
  j.request = std::make_shared<const JobRequest>(std::move(request));
  return j;
}

// Times one pass of `policy_name` over `state` per iteration; the last pass's decision.
inline Decision passes(benchmark::State& st, const char* policy_name, const ClusterState& state) {
  const auto policy = make_policy(policy_name);
  Decision d;
  for (auto _ : st) {
    d = policy->plan(state);
    benchmark::DoNotOptimize(d);
  }
  return d;
}

}  // namespace easypp::bench

#endif
