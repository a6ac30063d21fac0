// Running out of memory inside the library (it runs in slurmctld): a learn that fails
// changes nothing, so its retry leaves the handle as one that never failed. In its own
// binary: it replaces the global operator new.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <new>
#include <sstream>
#include <string>
#include <vector>

#include "predictor_fixture.h"

namespace {

// Allocations to let through before one fails (negative: none fails), and how many fail
// in a row from there.
int allocations_before_failure = -1;
int failures_in_a_row = 1;

}  // namespace

// This operator new is malloc, so free is its match; g++ sees the inlined delete's free
// beside a `new` and cannot tell.
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"

void* operator new(std::size_t n) {
  if (allocations_before_failure == 0) {
    if (--failures_in_a_row <= 0) {
      allocations_before_failure = -1;
      failures_in_a_row = 1;
    }
    throw std::bad_alloc();
  }
  if (allocations_before_failure > 0) --allocations_before_failure;
  void* p = std::malloc(n != 0 ? n : 1);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

namespace easypp::test {
namespace {

constexpr std::uint32_t kUser = 7;

// Run i of the user: end 1000 i, a runtime that varies, two estimates (so type=extended
// keeps two rings).
int teach_run(epp_predictor* p, int i) {
  return teach(p, static_cast<std::uint64_t>(i), kUser, i % 2 == 0 ? 3600 : 7200, 100 + 37 * (i % 5), 1000 * i);
}

// Predicts run i's job as a scheduler would before it runs (the learned kind then learns
// from the features it predicted with).
void predict_run(epp_predictor* p, int i) {
  epp_job j = job(static_cast<std::uint64_t>(i), kUser, i % 2 == 0 ? 3600 : 7200, 1000 * i - (100 + 37 * (i % 5)) - 10);
  epp_predict(p, &j);
}

std::vector<epp_run> runs_of(const epp_predictor* p) {
  std::vector<epp_run> runs(64);
  runs.resize(epp_user_runs(p, kUser, runs.data(), runs.size()));
  return runs;
}

void expect_same_handles(epp_predictor* a, epp_predictor* b, const std::string& where) {
  const auto ra = runs_of(a), rb = runs_of(b);
  ASSERT_EQ(ra.size(), rb.size()) << where;
  for (std::size_t i = 0; i < ra.size(); ++i) {
    EXPECT_EQ(ra[i].job_id, rb[i].job_id) << where << " run " << i;
    EXPECT_EQ(ra[i].runtime, rb[i].runtime) << where << " run " << i;
  }
  EXPECT_EQ(epp_predictor_records(a), epp_predictor_records(b)) << where;
  double ma = 0, mb = 0;
  std::uint64_t ca = 0, cb = 0;
  EXPECT_EQ(epp_user_accuracy(a, kUser, &ma, &ca), epp_user_accuracy(b, kUser, &mb, &cb)) << where;
  EXPECT_EQ(ma, mb) << where;
  EXPECT_EQ(ca, cb) << where;
  for (std::int64_t estimate : {3600, 7200, 5000}) EXPECT_EQ(predict(a, kUser, estimate), predict(b, kUser, estimate)) << where;
}

// For every allocation k of the learn of run `failing` (after runs 1..failing-1), fail it,
// retry the learn, then teach more runs: the handle matches one that never failed.
void check_spec(const std::string& spec, bool predicted = false) {
  int failures = 0;
  const auto teach_predicted = [predicted](epp_predictor* p, int i) {
    if (predicted) predict_run(p, i);
    return teach_run(p, i);
  };
  for (int failing = 1; failing <= 20; ++failing) {
    for (int k = 0;; ++k) {
      const std::string where = spec + ", run " + std::to_string(failing) + ", allocation " + std::to_string(k);
      Predictor failed = make_predictor(spec), clean = make_predictor(spec);
      // Predicted before the runs before it were learnt: its features differ from those
      // it would get at its learn.
      if (predicted) {
        predict_run(failed.get(), failing);
        predict_run(clean.get(), failing);
      }
      for (int i = 1; i < failing; ++i) {
        teach_predicted(failed.get(), i);
        teach_predicted(clean.get(), i);
      }
      allocations_before_failure = k;
      const int first = teach_run(failed.get(), failing);
      const bool failure_happened = allocations_before_failure == -1;
      allocations_before_failure = -1;
      ASSERT_EQ(teach_run(clean.get(), failing), 1) << where;
      if (!failure_happened) {  // the learn needed fewer allocations: every one was tried
        EXPECT_EQ(first, 1) << where;
        expect_same_handles(failed.get(), clean.get(), where);
        break;
      }
      ++failures;
      EXPECT_EQ(first, 0) << where;
      EXPECT_EQ(teach_run(failed.get(), failing), 1) << where << " (retry)";
      // Later runs grow the storage again and read what the failed learn left.
      for (int i = failing + 1; i < failing + 20; ++i) {
        teach_predicted(failed.get(), i);
        teach_predicted(clean.get(), i);
      }
      expect_same_handles(failed.get(), clean.get(), where);
      if (::testing::Test::HasFailure()) return;
    }
  }
  EXPECT_GE(failures, 10) << spec << ": the first learn and every growth of a ring allocate";
  std::printf("%s: %d learns failed and were retried\n", spec.c_str(), failures);
}

TEST(LearnOutOfMemory, LearnedRetryMatchesAHandleThatNeverFailed) { check_spec("learned"); }
// The job was predicted: its retry learns from the features it was predicted with, as
// the handle that never failed does.
TEST(LearnOutOfMemory, LearnedRetryOfAPredictedJobMatchesAHandleThatNeverFailed) { check_spec("learned", true); }
TEST(LearnOutOfMemory, HistoryRetryMatchesAHandleThatNeverFailed) { check_spec("history"); }
TEST(LearnOutOfMemory, ExtendedHistoryRetryMatchesAHandleThatNeverFailed) { check_spec("history:type=extended"); }
TEST(LearnOutOfMemory, LastRetryMatchesAHandleThatNeverFailed) { check_spec("last"); }

constexpr std::uint32_t kNewUser = 8;

// What epp_save writes for the handle.
std::string saved(const epp_predictor* p) {
  const std::string path = ::testing::TempDir() + "/easypp-out-of-memory-saved.json";
  char err[256] = "";
  EXPECT_EQ(epp_save(p, path.c_str(), err, sizeof err), 0) << err;
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  std::remove(path.c_str());
  return text.str();
}

std::vector<std::uint32_t> user_ids(const epp_predictor* p) {
  std::vector<std::uint32_t> ids(16);
  ids.resize(epp_predictor_user_ids(p, ids.data(), ids.size()));
  return ids;
}

// The first learn of a user the handle has never learnt from, failing at each allocation
// in turn and not retried: the handle matches one that never tried it (the user once stayed
// counted and saved, with no run; a predicted job went back to the end of the user's
// pending list, saved in another order).
void check_new_user(const std::string& spec, bool predicted = false) {
  int failures = 0;
  for (int k = 0;; ++k) {
    const std::string where = spec + ", allocation " + std::to_string(k);
    Predictor failed = make_predictor(spec), clean = make_predictor(spec);
    for (int i = 1; i <= 5; ++i) {
      teach_run(failed.get(), i);
      teach_run(clean.get(), i);
    }
    epp_job j = job(100, kNewUser, 3600, 9000), other = job(101, kNewUser, 7200, 9001);
    if (predicted) {  // the learned kind's pending jobs: the user's entry exists, without history
      for (epp_job* pending : {&j, &other}) {
        epp_predict(failed.get(), pending);
        epp_predict(clean.get(), pending);
      }
    }
    allocations_before_failure = k;
    const int learnt = epp_learn(failed.get(), &j, 9100, 9400, EPP_END_COMPLETED);
    const bool failure_happened = allocations_before_failure == -1;
    allocations_before_failure = -1;
    if (!failure_happened) {  // the learn needed fewer allocations: every one was tried
      EXPECT_EQ(learnt, 1) << where;
      break;
    }
    ++failures;
    EXPECT_EQ(learnt, 0) << where;
    EXPECT_EQ(epp_predictor_users(failed.get()), epp_predictor_users(clean.get())) << where;
    EXPECT_EQ(user_ids(failed.get()), user_ids(clean.get())) << where;
    EXPECT_EQ(epp_predictor_records(failed.get()), epp_predictor_records(clean.get())) << where;
    EXPECT_EQ(epp_user_runs(failed.get(), kNewUser, nullptr, 0), 0u) << where;
    EXPECT_EQ(epp_user_accuracy(failed.get(), kNewUser, nullptr, nullptr), 0) << where;
    EXPECT_EQ(saved(failed.get()), saved(clean.get())) << where;
    EXPECT_EQ(predict(failed.get(), kNewUser, 3600), predict(clean.get(), kNewUser, 3600)) << where;
    // Learnt afterwards, it is learnt as by the handle that never failed.
    EXPECT_EQ(epp_learn(failed.get(), &j, 9100, 9400, EPP_END_COMPLETED), 1) << where << " (retry)";
    EXPECT_EQ(epp_learn(clean.get(), &j, 9100, 9400, EPP_END_COMPLETED), 1) << where;
    EXPECT_EQ(epp_predictor_users(failed.get()), epp_predictor_users(clean.get())) << where;
    EXPECT_EQ(predict(failed.get(), kNewUser, 3600), predict(clean.get(), kNewUser, 3600)) << where;
    if (::testing::Test::HasFailure()) return;
  }
  EXPECT_GE(failures, 2) << spec << ": the user's entry and its first run allocate";
  std::printf("%s: %d learns of a new user failed\n", spec.c_str(), failures);
}

TEST(LearnOutOfMemory, AFailedLearnOfANewUserLeavesNoUser) {
  for (const char* spec : {"history", "history:type=extended", "last", "learned"}) check_new_user(spec);
}
TEST(LearnOutOfMemory, AFailedLearnOfAPredictedNewUserLeavesNoUser) { check_new_user("learned", true); }

// `call` with allocation k and the one after it failing (the second, if the first throws,
// in the catch handler's message); nothing fails afterwards.
template <class F>
int failing_twice_from(int k, F call) {
  allocations_before_failure = k;
  failures_in_a_row = 2;
  const int rc = call();
  allocations_before_failure = -1;
  failures_in_a_row = 1;
  return rc;
}

// A save or load whose catch handler runs out of memory too still answers with an error
// (the handler's message used to be built with std::string: terminate).
TEST(OutOfMemory, SaveAndLoadFailTwiceInARowAndAnswer) {
  Predictor p = make_predictor("history");
  for (int i = 1; i <= 5; ++i) teach_run(p.get(), i);
  const std::string path = ::testing::TempDir() + "/easypp-out-of-memory-state-file-with-a-long-name.json";
  char err[256] = "";
  ASSERT_EQ(epp_save(p.get(), path.c_str(), err, sizeof err), 0) << err;
  for (int k = 0; k < 3; ++k) {
    err[0] = '\0';
    EXPECT_EQ(failing_twice_from(k, [&] { return epp_save(p.get(), path.c_str(), err, sizeof err); }), -1) << k;
    EXPECT_EQ(std::string(err), path + ": std::bad_alloc") << "allocation " << k;
    err[0] = '\0';
    EXPECT_EQ(failing_twice_from(k, [&] { return epp_load(p.get(), path.c_str(), err, sizeof err); }), EPP_LOAD_ERROR)
        << "allocation " << k;
    EXPECT_EQ(std::string(err), path + ": std::bad_alloc") << "allocation " << k;
  }
  // Still usable, and the file still the one saved.
  EXPECT_EQ(epp_load(p.get(), path.c_str(), err, sizeof err), EPP_LOAD_OK) << err;
  EXPECT_EQ(runs_of(p.get()).size(), 5u);
  // A message longer than the buffer is cut, not overrun.
  char small[8] = "";
  EXPECT_EQ(failing_twice_from(0, [&] { return epp_save(p.get(), path.c_str(), small, sizeof small); }), -1);
  EXPECT_EQ(std::string(small), path.substr(0, 7));
  std::remove(path.c_str());
}

}  // namespace
}  // namespace easypp::test
