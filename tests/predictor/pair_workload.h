// One predict + learn pair of the predictor benchmark's synthetic workload: job `id` of
// user id % users, submitted at time id, limit 600-4800 s, runtime id % 3000 s. Shared by
// bench_predictor (timings) and doc/results/learned/pair_loop.cpp (instruction counts),
// so both measure the same work.
#ifndef EASYPP_TESTS_PREDICTOR_PAIR_WORKLOAD_H
#define EASYPP_TESTS_PREDICTOR_PAIR_WORKLOAD_H

#include <cstdint>

#include "easypp/predictor.h"

namespace easypp::test {

// Returns the prediction.
inline std::int64_t predict_and_learn_pair(epp_predictor* p, std::uint64_t id, std::uint32_t users) {
  epp_job j{};
  j.job_id = id;
  j.user_id = static_cast<std::uint32_t>(id % users);
  j.submit = static_cast<std::int64_t>(id);
  j.estimate = 600 * static_cast<std::int64_t>(1 + id % 8);
  j.procs = 1;
  j.runtime = -1;
  const std::int64_t prediction = epp_predict(p, &j);
  epp_learn(p, &j, j.submit + 10, j.submit + 10 + static_cast<std::int64_t>(id % 3000), EPP_END_COMPLETED);
  return prediction;
}

}  // namespace easypp::test

#endif
