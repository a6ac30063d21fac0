// JobLedger, the rules both drivers share, on hand-made jobs with the library's default
// history predictor (average of the user's last two runtimes, capped at the estimate;
// corrections straight to the estimate, paper 000 section 3.2).
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "core/job_ledger.h"
#include "core/policy.h"

namespace easypp {
namespace {

JobFacts facts(JobId id, UserId user, Time limit, Time start = 0) {
  JobFacts f;
  f.id = id;
  f.user = user;
  f.submit = 0;
  f.procs = 1;
  f.limit = limit;
  f.start = start;
  return f;
}

// X2 doubles the estimate the scheduler sees (3600 -> 7200) but the predictor learns the
// user's own limit: after two runs of 600 and 1000 s, the next job of that user is
// predicted (600 + 1000) / 2 = 800, doubled by x2+'s prediction factor to 1600.
TEST(JobLedger, X2ScalesWhatTheSchedulerSeesNotWhatIsLearnt) {
  auto policy = make_policy("x2+");
  JobLedger ledger(policy->traits());
  const Job first = ledger.admit(facts(1, 7, 3600));
  EXPECT_EQ(first.estimate, 7200);
  ledger.ended(facts(1, 7, 3600, 100), 700, 0);
  ledger.ended(facts(2, 7, 3600, 100), 1100, 0);
  const Job third = ledger.admit(facts(3, 7, 3600));
  EXPECT_EQ(third.estimate, 7200);
  EXPECT_EQ(third.prediction, 1600);
}

// Predicted once: a later admit of the same job keeps the first prediction, even after the
// user's history changed (no propagation by default). The history is the user's last two
// runs by end time: 1000 s and 3000 s give 2000; after a 100 s run ending last, 1550.
TEST(JobLedger, PredictsOnceWhenFirstSeen) {
  JobLedger ledger(make_policy("easy++")->traits());
  ledger.ended(facts(1, 7, 5000, 0), 1000, 0);
  ledger.ended(facts(2, 7, 5000, 0), 3000, 0);
  EXPECT_EQ(ledger.admit(facts(3, 7, 5000)).prediction, 2000);
  ledger.ended(facts(4, 7, 5000, 3000), 3100, 0);  // the user's latest run: 100 s
  EXPECT_EQ(ledger.admit(facts(3, 7, 5000)).prediction, 2000);
  EXPECT_EQ(ledger.admit(facts(5, 7, 5000)).prediction, 1550) << "(3000 + 100) / 2";
}

// Propagation's re-prediction in the snapshot form: a waiting job the ledger admitted
// keeps the new prediction (history 1000, 3000 gives 2000; after a 100-s run ending last,
// 1550) under its own limit, so the next admit keeps it; a job it never admitted leaves no
// memory (before, it was remembered under a limit of 0 and predicted again when admitted).
TEST(JobLedger, RepredictRemembersOnlyAdmittedJobs) {
  JobLedger ledger(make_policy("easy++")->traits());
  ledger.ended(facts(1, 7, 5000, 0), 1000, 0);
  ledger.ended(facts(2, 7, 5000, 0), 3000, 0);
  Job waiting = ledger.admit(facts(3, 7, 5000));
  EXPECT_EQ(waiting.prediction, 2000);
  ledger.ended(facts(4, 7, 5000, 3000), 3100, 0);
  EXPECT_EQ(ledger.repredict(waiting), 1550);
  EXPECT_EQ(ledger.admit(facts(3, 7, 5000)).prediction, 1550);
  EXPECT_EQ(ledger.remembered(), 1u);
  Job unseen = ledger.admit(facts(9, 7, 5000));
  ledger.retain({3});
  ASSERT_EQ(ledger.remembered(), 1u);
  EXPECT_EQ(ledger.repredict(unseen), 1550);
  EXPECT_EQ(ledger.remembered(), 1u) << "job 9 was forgotten: re-predicting it adds no memory";
}

// A waiting job whose time limit is changed (scontrol update) is predicted again under the
// new limit: under easy the prediction is the limit (60 -> 3600, then 120), under easy++
// the user's history (2000) capped by the limit (60, then 2000). Kept stale, a job raised
// from 1 min to 60 was planned (and backfilled) as a 1-min job, in front of the head
// (review finding, reproduced live, under easy and easy++). A running job's limit lowered
// below its prediction caps the prediction: it is killed by then.
TEST(JobLedger, ChangedLimitIsPredictedAgain) {
  JobLedger easy(make_policy("easy")->traits());
  EXPECT_EQ(easy.admit(facts(3, 7, 60)).prediction, 60);
  EXPECT_EQ(easy.admit(facts(3, 7, 3600)).prediction, 3600);
  EXPECT_EQ(easy.admit(facts(3, 7, 3600)).prediction, 3600);
  EXPECT_EQ(easy.admit(facts(3, 7, 120)).prediction, 120);
  JobLedger ledger(make_policy("easy++")->traits());
  ledger.ended(facts(1, 7, 5000, 0), 1000, 0);
  ledger.ended(facts(2, 7, 5000, 0), 3000, 0);
  EXPECT_EQ(ledger.admit(facts(3, 7, 60)).prediction, 60);
  EXPECT_EQ(ledger.admit(facts(3, 7, 3600)).prediction, 2000);
  const RunningJob ran = ledger.running(facts(3, 7, 3600, 100), 200);
  EXPECT_EQ(ran.job.prediction, 2000);
  const RunningJob cut = ledger.running(facts(3, 7, 1200, 100), 300);
  EXPECT_EQ(cut.job.prediction, 1200) << "killed at its new limit";
}

// A running job past its prediction is corrected to its estimate (the default rule) at
// the next sync, remembered, and an ended job is learnt once only.
TEST(JobLedger, CorrectsAtSyncAndLearnsOnce) {
  auto policy = make_policy("easy++");
  JobLedger ledger(policy->traits());
  ledger.ended(facts(1, 7, 5000, 0), 100, 0);
  ledger.ended(facts(2, 7, 5000, 0), 100, 0);
  std::vector<JobFacts> running{facts(3, 7, 5000, 1000)};
  const Decision& d = ledger.sync(*policy, 1050, 4, nullptr, running, {});
  EXPECT_TRUE(d.start.empty());
  EXPECT_EQ(ledger.state().running[0].job.prediction, 100);
  ledger.sync(*policy, 1100, 4, nullptr, running, {});
  EXPECT_EQ(ledger.state().running[0].job.prediction, 5000) << "corrected to the estimate";
  EXPECT_EQ(ledger.state().running[0].job.corrections, 1);
  EXPECT_EQ(ledger.corrections_made(), 1u);
  EXPECT_TRUE(ledger.ended(facts(3, 7, 5000, 1000), 2000, 0).learnt);
  EXPECT_FALSE(ledger.ended(facts(3, 7, 5000, 1000), 2000, 0).learnt) << "once per id";
}

// A job whose run is over while Slurm releases its nodes (completing) is planned free from
// now, as the simulator frees a job at its end, and never corrected. Under x2++ (estimates
// doubled) J ran 0..20000 with a limit of 36000 and a remembered prediction of 30000;
// completing, its limit reads 20000 (end - start), so its estimate becomes 40000 and,
// before, it stayed planned busy until 30000. Its predicted end is now, 20001.
TEST(JobLedger, ReleasingJobIsPlannedFreeFromNow) {
  auto policy = make_policy("x2++");
  JobLedger ledger(policy->traits());
  ledger.ended(facts(1, 7, 36000, 0), 30000, 0);
  ledger.ended(facts(2, 7, 36000, 0), 30000, 0);
  std::vector<JobFacts> running{facts(3, 7, 36000, 0)};
  ledger.sync(*policy, 10000, 100, nullptr, running, {});
  EXPECT_EQ(ledger.state().running[0].predicted_end(), 30000 * 2) << "x2++ doubles predictions";
  running[0].limit = 20000;
  running[0].releasing = true;
  ledger.sync(*policy, 20001, 100, nullptr, running, {});
  EXPECT_EQ(ledger.state().running[0].predicted_end(), 20001);
  EXPECT_EQ(ledger.state().running[0].kill_time(), 20001) << "not 2 x its runtime";
  EXPECT_EQ(ledger.corrections_made(), 0u);
}

// Propagation re-predicts a user's waiting jobs when one of theirs ends, not a job the
// last pass started (still marked waiting until the next sync): X, started at 5 with the
// estimate as prediction (no history), kept 10000 after Y's 50 s run ended, where it was
// predicted again from that run (50) and its planned end went back in time.
TEST(JobLedger, PropagationLeavesAJustStartedJobsPrediction) {
  auto policy = make_policy("easy++");
  JobLedger ledger(policy->traits(), "history:propagation=on");
  std::vector<JobFacts> running{facts(1, 7, 10000, 0)};
  std::vector<JobFacts> waiting{facts(2, 7, 10000), facts(3, 7, 10000)};
  waiting[1].procs = 8;  // waits: wider than the free processors
  const Decision& d = ledger.sync(*policy, 5, 4, nullptr, running, waiting);
  ASSERT_EQ(d.start, std::vector<JobId>{2});
  ASSERT_TRUE(ledger.ended(facts(1, 7, 10000, 0), 50, 0).learnt);
  running = {facts(2, 7, 10000, 5)};
  waiting = {facts(3, 7, 10000)};
  waiting[0].procs = 8;
  ledger.sync(*policy, 52, 4, nullptr, running, waiting);
  EXPECT_EQ(ledger.state().running[0].job.prediction, 10000) << "started before the end: kept";
  EXPECT_EQ(ledger.state().waiting[0].prediction, 50) << "waiting: predicted again from Y's run";
}

// One ledger may plan several groups at one moment (the plugin's partition sets). A job
// the first group's sync started counts as running even though a second sync at the same
// moment started nothing: propagation (a job of the same user ends) keeps its prediction.
TEST(JobLedger, StartsOfEveryGroupAtAMomentCountAsRunning) {
  auto policy = make_policy("easy++");
  JobLedger ledger(policy->traits(), "history:propagation=on");
  std::vector<JobFacts> running{facts(1, 7, 10000, 0)};
  std::vector<JobFacts> group_a{facts(2, 7, 10000)};
  const Decision& d = ledger.sync(*policy, 5, 4, nullptr, running, group_a);
  ASSERT_EQ(d.start, std::vector<JobId>{2});
  std::vector<JobFacts> group_b{facts(3, 8, 10000)};
  group_b[0].procs = 8;  // waits
  EXPECT_TRUE(ledger.sync(*policy, 5, 4, nullptr, running, group_b).start.empty());
  ASSERT_TRUE(ledger.ended(facts(1, 7, 10000, 0), 50, 0).learnt);
  running = {facts(2, 7, 10000, 5)};
  ledger.sync(*policy, 52, 4, nullptr, running, {});
  EXPECT_EQ(ledger.state().running[0].job.prediction, 10000) << "started at 5 by the first group: kept";
}

}  // namespace
}  // namespace easypp
