// Helpers for predictor tests: a handle that frees itself and short job builders.
#ifndef EASYPP_TESTS_PREDICTOR_FIXTURE_H
#define EASYPP_TESTS_PREDICTOR_FIXTURE_H

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>

#include "easypp/predictor.h"

namespace easypp::test {

struct PredictorDeleter {
  void operator()(epp_predictor* p) const { epp_predictor_free(p); }
};
using Predictor = std::unique_ptr<epp_predictor, PredictorDeleter>;

inline Predictor make_predictor(const std::string& spec) {
  char err[256] = "";
  Predictor p(epp_predictor_new(spec.c_str(), err, sizeof err));
  EXPECT_NE(p, nullptr) << spec << ": " << err;
  return p;
}

inline epp_job job(std::uint64_t id, std::uint32_t user, std::int64_t estimate, std::int64_t submit = 1000,
                   std::int64_t runtime = -1) {
  epp_job j{};
  j.job_id = id;
  j.user_id = user;
  j.submit = submit;
  j.estimate = estimate;
  j.procs = 1;
  j.runtime = runtime;
  return j;
}

// Teaches a completed run: job `id` of `user` with `estimate` ran `runtime` seconds, ending
// at `end` (ends order the history).
inline int teach(epp_predictor* p, std::uint64_t id, std::uint32_t user, std::int64_t estimate,
                 std::int64_t runtime, std::int64_t end, int state = EPP_END_COMPLETED) {
  epp_job j = job(id, user, estimate, end - runtime - 10);
  return epp_learn(p, &j, end - runtime, end, state);
}

inline std::int64_t predict(epp_predictor* p, std::uint32_t user, std::int64_t estimate) {
  epp_job j = job(999999, user, estimate);
  return epp_predict(p, &j);
}

}  // namespace easypp::test

#endif
