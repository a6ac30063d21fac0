// The plugin's snapshot -> ClusterState translation and planning, without Slurm: what
// slurmctld's records become in the core's model (procs, estimates = time limits,
// predictions from history, corrections of outlived predictions), which policy plans
// which partition, deduplicated learning and history persistence. Each case is one
// partition on one node, so the hand-worked answers count CPUs as in a pool.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <unordered_set>

#include "easypp/predictor.h"
#include "plugin/cluster_model.h"
#include "plugin/config.h"
#include "plugin/planner.h"

namespace easypp::plugin {
namespace {

constexpr Time kNow = 1'700'000'000;

JobRecord job(JobId id, int procs, Time limit, UserId user = 1000, Time start = 0) {
  JobRecord r;
  r.id = id;
  r.user = user;
  r.submit = kNow - 100;
  r.start = start;
  r.limit = limit;
  r.procs = procs;
  return r;
}

FinishedJob finished(JobId id, UserId user, Time runtime, Time limit,
                     int state = EPP_END_COMPLETED) {
  FinishedJob f;
  f.job = job(id, 1, limit, user, kNow - 5000 + static_cast<Time>(id));
  f.job.submit = f.job.start - 10;
  f.end = f.job.start + runtime;
  f.end_state = state;
  return f;
}

Config config_with(const std::string& policy) {
  Config c;
  c.policy = policy;
  return c;
}

// One partition on one node of `procs` CPUs, as the Slurm glue would read it.
struct OnePartition {
  std::string name = "batch";
  Time now = kNow;
  int procs = 0;
  std::vector<JobRecord> running;  // each holds its procs on the node
  std::vector<JobRecord> waiting;  // each asks for procs CPUs (one task each)
};

// The plan of `p`'s cluster (its groups' machines dropped: the model they point to is
// local).
ClusterPlan plan_all(Planner& planner, const OnePartition& p) {
  ClusterSnapshot s;
  s.now = p.now;
  NodeRecord node;
  node.name = "n0";
  node.cpus = p.procs;
  s.nodes = {node};
  PartitionRecord part;
  part.name = p.name;
  part.nodes = {0};
  s.partitions = {part};
  for (JobRecord r : p.running) {
    r.shares = {ShareRecord{0, r.procs, 0, {}}};
    s.running.push_back(r);
  }
  for (JobRecord r : p.waiting) {
    r.request.tasks = r.procs;
    r.request.min_cpus = r.procs;
    r.request.partitions = {p.name};
    s.waiting.push_back(r);
  }
  const ClusterModel model = build_cluster_model(s);
  ClusterPlan plan = planner.plan_cluster(model, p.now);
  for (GroupPlan& g : plan.groups) g.state.machine = nullptr;
  return plan;
}

// The plan of the group planning `p`'s partition.
GroupPlan plan_one(Planner& planner, const OnePartition& p) {
  ClusterPlan plan = plan_all(planner, p);
  for (GroupPlan& g : plan.groups) {
    if (std::find(g.partitions.begin(), g.partitions.end(), 0u) == g.partitions.end()) continue;
    return std::move(g);
  }
  ADD_FAILURE() << "no group plans partition " << p.name;
  return {};
}

bool contains(const std::vector<JobId>& ids, JobId id) {
  return std::find(ids.begin(), ids.end(), id) != ids.end();
}

// The issue's shared-node case: one 64-CPU node, A = 48 CPUs running (5 min limit),
// B = 56 CPUs waiting, C = 8 CPUs / 10 min waiting. B's reservation is at A's kill time
// (5 min); at that moment 64 - 56 = 8 CPUs are left over, so C may use them now even
// though it runs past B's reservation: C starts, B keeps its reservation.
TEST(PluginPlanner, SharedNodeExtraProcessorsStartSmallJob) {
  Planner planner(config_with("easy"));
  OnePartition p{.name = "shared", .procs = 64};
  p.running = {job(1, 48, 300, 1000, kNow - 10)};
  p.waiting = {job(2, 56, 600), job(3, 8, 600)};
  const GroupPlan plan = plan_one(planner, p);
  EXPECT_EQ(plan.policy, "easy");
  ASSERT_EQ(plan.decision.start, std::vector<JobId>{3});
  EXPECT_TRUE(contains(plan.decision.backfilled, 3));
  ASSERT_FALSE(plan.decision.reservations.empty());
  EXPECT_EQ(plan.decision.reservations.front().job, 2u);
  EXPECT_EQ(plan.decision.reservations.front().start, kNow - 10 + 300);
}

// Without the extra-processors rule C could not start: with B needing 60 CPUs only 4 are
// left at B's reservation, and C (10 min) ends after it. Guards the test above.
TEST(PluginPlanner, SharedNodeNoExtraProcessorsNoStart) {
  Planner planner(config_with("easy"));
  OnePartition p{.name = "shared", .procs = 64};
  p.running = {job(1, 48, 300, 1000, kNow - 10)};
  p.waiting = {job(2, 60, 600), job(3, 8, 600)};
  EXPECT_TRUE(plan_one(planner, p).decision.start.empty());
}

TEST(PluginPlanner, TranslationKeepsLimitsAsEstimates) {
  Planner planner(config_with("easy"));
  OnePartition p{.procs = 16};
  p.running = {job(1, 16, 3600, 1000, kNow - 60)};
  p.waiting = {job(2, 4, 180, 1001)};
  const GroupPlan plan = plan_one(planner, p);
  const ClusterState& s = plan.state;
  EXPECT_EQ(s.now, kNow);
  EXPECT_EQ(s.procs, 16);
  ASSERT_EQ(s.running.size(), 1u);
  EXPECT_EQ(s.running[0].start, kNow - 60);
  EXPECT_EQ(s.running[0].job.procs, 16);
  EXPECT_EQ(s.running[0].kill_time(), kNow - 60 + 3600);
  // EASY plans on the user's limit.
  EXPECT_EQ(s.running[0].predicted_end(), kNow - 60 + 3600);
  ASSERT_EQ(s.waiting.size(), 1u);
  EXPECT_EQ(s.waiting[0].estimate, 180);
  EXPECT_EQ(s.waiting[0].prediction, 180);
  EXPECT_EQ(s.waiting[0].user, 1001u);
  EXPECT_EQ(s.waiting[0].procs, 4);
}

// easy++ predicts a user's job from the average of their two most recent finished jobs;
// the limit stays the estimate (kill time).
TEST(PluginPlanner, HistoryPredictsButLimitStaysKillTime) {
  Planner planner(config_with("easy++"));
  EXPECT_TRUE(planner.job_ended(finished(11, 7, 8, 180)));
  EXPECT_TRUE(planner.job_ended(finished(12, 7, 12, 180)));
  OnePartition p{.procs = 16};
  p.waiting = {job(20, 16, 180, 7)};
  const GroupPlan plan = plan_one(planner, p);
  ASSERT_EQ(plan.state.waiting.size(), 1u);
  EXPECT_EQ(plan.state.waiting[0].estimate, 180);
  EXPECT_EQ(plan.state.waiting[0].prediction, 10);
  EXPECT_EQ(plan.decision.start, std::vector<JobId>{20});
}

// A running job past its 10 s prediction is corrected (easy++'s default: up to its
// limit), so it no longer looks finished; its kill time does not move.
TEST(PluginPlanner, OutlivedPredictionIsCorrected) {
  Planner planner(config_with("easy++"));
  planner.job_ended(finished(11, 7, 10, 180));
  planner.job_ended(finished(12, 7, 10, 180));
  OnePartition p{.procs = 16};
  p.waiting = {job(20, 16, 180, 7)};
  ASSERT_EQ(plan_one(planner, p).state.waiting.at(0).prediction, 10);

  // Job 20 started 60 s ago; a 16-CPU job waits behind it.
  p.now = kNow + 60;
  p.running = {job(20, 16, 180, 7, kNow)};
  p.waiting = {job(21, 16, 600, 8)};
  const GroupPlan plan = plan_one(planner, p);
  ASSERT_EQ(plan.state.running.size(), 1u);
  const RunningJob& r = plan.state.running[0];
  EXPECT_GE(r.job.corrections, 1);
  EXPECT_GT(r.predicted_end(), p.now);
  EXPECT_EQ(r.predicted_end(), kNow + 180) << "correction=estimate: the limit";
  EXPECT_EQ(r.kill_time(), kNow + 180);
  EXPECT_GE(planner.corrections_made(), 1u);
  ASSERT_FALSE(plan.decision.reservations.empty());
  EXPECT_EQ(plan.decision.reservations.front().start, kNow + 180);
}

// Predictions are made once, when a job is first seen; history learnt later does not
// change them (the paper predicts at submission), until the job leaves the system.
TEST(PluginPlanner, PredictedOnceUntilForgotten) {
  Planner planner(config_with("easy+"));
  OnePartition p{.procs = 1};
  p.running = {job(1, 1, 3600, 99, kNow - 1)};
  p.waiting = {job(30, 1, 600, 5)};
  EXPECT_EQ(plan_one(planner, p).state.waiting.at(0).prediction, 600) << "no history: the limit";
  planner.job_ended(finished(31, 5, 100, 600));
  EXPECT_EQ(plan_one(planner, p).state.waiting.at(0).prediction, 600);
  planner.retain_active({1});  // job 30 left (say, cancelled) and came back as new
  EXPECT_EQ(plan_one(planner, p).state.waiting.at(0).prediction, 100);
}

// X2 (paper 000, section 5): the scheduler sees doubled user estimates; what Slurm
// enforces (JobRecord.limit) is not the planner's to change.
TEST(PluginPlanner, X2PlansOnDoubledLimits) {
  Planner planner(config_with("x2"));
  OnePartition p{.procs = 8};
  p.running = {job(1, 8, 300, 1000, kNow - 100)};
  p.waiting = {job(2, 8, 100)};
  const GroupPlan plan = plan_one(planner, p);
  ASSERT_EQ(plan.state.waiting.size(), 1u);
  EXPECT_EQ(plan.state.waiting[0].estimate, 200);
  EXPECT_EQ(plan.state.waiting[0].prediction, 200);
  EXPECT_EQ(plan.state.running.at(0).predicted_end(), kNow - 100 + 600);
  ASSERT_FALSE(plan.decision.reservations.empty());
  EXPECT_EQ(plan.decision.reservations.front().start, kNow - 100 + 600);
}

TEST(PluginPlanner, LearningIsDeduplicatedByJobId) {
  Planner planner(config_with("easy++"));
  EXPECT_TRUE(planner.job_ended(finished(40, 3, 50, 100)));
  EXPECT_FALSE(planner.job_ended(finished(40, 3, 50, 100)));
  EXPECT_EQ(planner.history_records(), 1u);
  // Once slurmctld purged the record, the id may be learnt again (a new source); the
  // predictor itself still refuses the duplicate.
  planner.retain_finished({});
  planner.job_ended(finished(40, 3, 50, 100));
  EXPECT_EQ(planner.history_records(), 1u);
}

// A bootstrap from slurmdbd retried late (slurmdbd was down at slurmctld's start) learns
// older jobs after newer ones learnt live: the prediction is still the average of the two
// that ended last (200 s and 300 s), not of the two learnt last (100 s and 200 s).
TEST(PluginPlanner, LateBootstrapKeepsTheUsersRunsInEndOrder) {
  Planner planner(config_with("easy++"));
  ASSERT_TRUE(planner.job_ended(finished(13, 7, 300, 600)));  // live: ended last
  ASSERT_TRUE(planner.job_ended(finished(11, 7, 100, 600)));  // the late bootstrap
  ASSERT_TRUE(planner.job_ended(finished(12, 7, 200, 600)));
  EXPECT_FALSE(planner.job_ended(finished(13, 7, 300, 600))) << "slurmdbd has it too";
  OnePartition p{.procs = 16};
  p.waiting = {job(20, 16, 600, 7)};
  EXPECT_EQ(plan_one(planner, p).state.waiting.at(0).prediction, 250);
}

// A job stock backfill reserves nothing for (QOS NoReserve, bf_min_prio_reserve,
// bf_min_age_reserve) waits: a policy that reserves every job alike says so once in the
// pass's notes, one that never backfills (fcfs, timed-run with base=fcfs: its traits, not
// its name) that the queue waits for it; a policy that honours the exemption says nothing.
TEST(PluginPlanner, PoliciesThatReserveExemptJobsSaySo) {
  struct Case {
    std::string policy;
    bool noted;
    bool never_backfills;
  };
  for (const Case& c :
       {Case{"easy++", false, false}, Case{"conservative", false, false}, Case{"fcfs", true, true},
        Case{"pv-easy", true, false}, Case{"timed-run:base=fcfs", true, true},
        Case{"timed-run", true, false}}) {
    Planner planner(config_with(c.policy));
    OnePartition p{.procs = 4};
    p.running = {job(1, 4, 600, 1000, kNow - 10)};
    p.waiting = {job(2, 4, 600)};
    p.waiting.front().reservable = false;
    const ClusterPlan plan = plan_all(planner, p);
    ASSERT_EQ(plan.notes.size(), c.noted ? 1u : 0u) << c.policy;
    if (!c.noted) continue;
    EXPECT_NE(plan.notes.front().find("easypp_policy " + c.policy), std::string::npos)
        << plan.notes.front();
    EXPECT_EQ(plan.notes.front().find("never backfills") != std::string::npos, c.never_backfills)
        << plan.notes.front();
  }
}

// squeue --start for a job refused for a limit: the first planned end of a running job
// still ahead (one past its prediction is not), else 500 s ahead, as stock shows.
TEST(PluginPlanner, LimitRefusedJobsAreShownTheNextPlannedEnd) {
  ClusterState state;
  state.now = kNow;
  EXPECT_EQ(limit_wait_shown(state), kNow + 500) << "nothing runs";
  auto running = [](Time start, Time prediction) {
    RunningJob r;
    r.start = start;
    r.job.prediction = prediction;
    r.job.estimate = 3600;
    return r;
  };
  state.running = {running(kNow - 100, 400), running(kNow - 50, 40), running(kNow - 10, 200)};
  EXPECT_EQ(limit_wait_shown(state), kNow + 190);
  state.running.pop_back();
  EXPECT_EQ(limit_wait_shown(state), kNow + 300);
  state.running = {running(kNow - 50, 40)};
  EXPECT_EQ(limit_wait_shown(state), kNow + 500) << "only an outlived prediction";
}

TEST(PluginPlanner, PerPartitionPolicies) {
  Config c;
  c.policy = "easy++";
  c.partition_policy = {{"debug", "easy"}, {"long", "easy-sjbf"}};
  Planner planner(c);
  OnePartition p{.procs = 4};
  for (const auto& [part, policy] : std::vector<std::pair<std::string, std::string>>{
           {"debug", "easy"}, {"long", "easy-sjbf"}, {"batch", "easy++"}}) {
    p.name = part;
    EXPECT_EQ(plan_one(planner, p).policy, policy) << part;
  }
}

TEST(PluginPlanner, HistorySurvivesSaveAndLoad) {
  const std::string dir = ::testing::TempDir() + "easypp_planner_" + std::to_string(::getpid());
  std::filesystem::create_directories(dir);
  const std::string path = dir + "/predictor.json";
  std::string err;
  {
    Planner planner(config_with("easy++"));
    planner.job_ended(finished(50, 9, 30, 600));
    planner.job_ended(finished(51, 9, 50, 600));
    ASSERT_TRUE(planner.save(path, err)) << err;
  }
  Planner restarted(config_with("easy++"));
  ASSERT_EQ(restarted.load(path, err), EPP_LOAD_OK) << err;
  EXPECT_EQ(restarted.history_records(), 2u);
  OnePartition p{.procs = 1};
  p.waiting = {job(52, 1, 600, 9)};
  EXPECT_EQ(plan_one(restarted, p).state.waiting.at(0).prediction, 40);
  std::filesystem::remove_all(dir);
}

// A reconfigure hands the history to the new planner in memory: a save that fails (here
// into a directory that does not exist, as a full disk would) loses nothing. Same numbers
// as above: user 9 ran 30 s and 50 s, so the new planner predicts (30 + 50) / 2 = 40.
TEST(PluginPlanner, HistoryHandedOverInMemoryWhenTheSaveFails) {
  Planner old(config_with("easy++"));
  old.job_ended(finished(50, 9, 30, 600));
  old.job_ended(finished(51, 9, 50, 600));
  std::string err;
  EXPECT_FALSE(old.save(::testing::TempDir() + "easypp_no_such_dir/predictor.json", err));
  Planner next(config_with("easy++"));
  ASSERT_EQ(next.take_history(old, err), EPP_LOAD_OK) << err;
  EXPECT_EQ(next.history_records(), 2u);
  EXPECT_FALSE(next.job_ended(finished(51, 9, 50, 600))) << "learnt once, before the handover";
  OnePartition p{.procs = 1};
  p.waiting = {job(52, 1, 600, 9)};
  EXPECT_EQ(plan_one(next, p).state.waiting.at(0).prediction, 40);
  // A planner of a policy that learns nothing has nothing to hand over, or to take.
  Planner plain(config_with("easy"));
  EXPECT_EQ(next.take_history(plain, err), EPP_LOAD_MISSING);
  EXPECT_EQ(plain.take_history(old, err), EPP_LOAD_MISSING);
  EXPECT_EQ(next.history_records(), 2u);
}

// A newer easypp's state file must survive a downgrade. With two learning policies the
// one that saves (the global easy++) must be the one that refused it: "easy+" sorts
// first, and loading stopped there, so easy++ never saw the file and replaced it.
TEST(PluginPlanner, NewerStateFileIsKeptWhateverThePolicyNamesSortLike) {
  const std::string dir = ::testing::TempDir() + "easypp_planner_newer_" + std::to_string(::getpid());
  std::filesystem::create_directories(dir);
  const std::string path = dir + "/predictor.json";
  const std::string newer = R"({"format":"easypp-predictor-state","schema":99,"spec":"","users":[]})";
  std::ofstream(path) << newer;
  Config c = config_with("easy++");
  c.partition_policy = {{"debug", "easy+"}};
  Planner planner(c);
  std::string err;
  EXPECT_EQ(planner.load(path, err), EPP_LOAD_ERROR);
  EXPECT_NE(err.find("newer"), std::string::npos) << err;
  planner.job_ended(finished(50, 9, 30, 600));
  EXPECT_FALSE(planner.save(path, err));
  std::ifstream in(path);
  std::string kept((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(kept, newer) << "left untouched";
  std::filesystem::remove_all(dir);
}

// Only a policy whose predictions learn has history to bootstrap from slurmdbd: easy plans
// on limits (the 30-day query at every start would teach nothing), easy++ learns.
TEST(PluginPlanner, LearnsOnlyWithALearningPolicy) {
  Config c;
  c.policy = "easy";
  EXPECT_FALSE(Planner(c).learns());
  c.policy = "easy++";
  EXPECT_TRUE(Planner(c).learns());
  c.policy = "easy";
  c.partition_policy = {{"p", "easy++"}};
  EXPECT_TRUE(Planner(c).learns()) << "a partition's policy learns";
}

// Partition names in the configuration that slurmctld does not have are errors (a typo
// would leave a policy or a requeue opt-in silently unused); partition names are
// case-sensitive, as in Slurm. One line each.
TEST(PluginPlanner, ConfiguredPartitionsSlurmDoesNotHaveAreErrors) {
  Config c;
  c.policy = "pv-easy";
  c.partition_policy = {{"Debug", "easy"}, {"debug", "easy"}};
  c.requeue_partitions = {"tset", "debug"};
  ClusterSnapshot s;
  s.now = 1000;
  NodeRecord n;
  n.name = "n0";
  n.cpus = 4;
  s.nodes = {n};
  PartitionRecord debug;
  debug.name = "debug";
  debug.nodes = {0};
  s.partitions = {debug};
  const ClusterPlan plan = Planner(c).plan_cluster(build_cluster_model(s), 1000);
  ASSERT_EQ(plan.errors.size(), 2u);
  EXPECT_NE(plan.errors[0].find("easypp_partition_policy=Debug:easy"), std::string::npos) << plan.errors[0];
  EXPECT_NE(plan.errors[1].find("easypp_requeue_partitions=tset"), std::string::npos) << plan.errors[1];
}

TEST(PluginPlanner, MissingHistoryFileIsNotAnError) {
  Planner planner(config_with("easy++"));
  std::string err;
  EXPECT_EQ(planner.load(::testing::TempDir() + "easypp_no_such_dir/predictor.json", err),
            EPP_LOAD_MISSING);
  EXPECT_EQ(planner.history_records(), 0u);
}

TEST(PluginPlanner, PredictorKeysFormTheHistorySpec) {
  Config c = config_with("easy++");
  c.window = 1;
  c.predictor_keys_given = true;
  Planner planner(c);
  planner.job_ended(finished(60, 4, 10, 600));
  planner.job_ended(finished(61, 4, 90, 600));
  OnePartition p{.procs = 1};
  p.waiting = {job(62, 1, 600, 4)};
  EXPECT_EQ(plan_one(planner, p).state.waiting.at(0).prediction, 90) << "window=1: the last job";
}

// The plugin refuses exactly the policies whose decisions kill running jobs.
// A policy with keys is the same object from pass to pass (it remembers: timed-run, which
// running jobs are on trial). 4 CPUs, 10-second trials, FCFS. X (2 CPUs) starts its
// trial at 0. Pass at 20: X's trial ended with no pass since, so X is terminable, and
// Y (4 CPUs) gets its trial by killing X. Had the policy been made anew (it was, when
// its name without keys was compared to the spec), X would count as committed: no kill.
// With a pass at 12 (no job waiting), X is committed then, and at 20 Y waits instead.
TEST(PluginPlanner, TimedRunRemembersItsTrialsAcrossPasses) {
  for (const bool pass_at_12 : {false, true}) {
    Config c = config_with("timed-run:base=fcfs:trial=10");
    c.requeue_partitions = {"batch"};
    Planner planner(c);
    OnePartition p{.procs = 4};
    p.waiting = {job(1, 2, 600)};
    p.waiting[0].requeueable = true;
    GroupPlan first = plan_one(planner, p);
    ASSERT_TRUE(contains(first.decision.start, 1)) << "X's trial";
    JobRecord x = job(1, 2, 600, 1000, kNow);
    x.requeueable = true;
    x.partition = "batch";
    p.running = {x};
    p.waiting.clear();
    if (pass_at_12) {
      p.now = kNow + 12;
      plan_one(planner, p);
    }
    p.now = kNow + 20;
    p.waiting = {job(2, 4, 60)};
    p.waiting[0].requeueable = true;
    GroupPlan later = plan_one(planner, p);
    if (pass_at_12) {
      EXPECT_TRUE(later.decision.kill_requeue.empty()) << "X was committed at 12";
      EXPECT_TRUE(later.decision.start.empty());
    } else {
      EXPECT_EQ(later.decision.kill_requeue, std::vector<JobId>{1}) << "X terminable since 10";
      EXPECT_TRUE(contains(later.decision.start, 2)) << "Y's trial";
    }
  }
}

TEST(PluginPlanner, KillingPoliciesAreTheOnesWithKillsTrait) {
  const std::vector<std::string> killing = killing_policy_names();
  EXPECT_NE(std::find(killing.begin(), killing.end(), "pv-easy"), killing.end());
  EXPECT_NE(std::find(killing.begin(), killing.end(), "timed-run"), killing.end());
  for (const char* live : {"easy", "easy+", "easy-sjbf", "easy++", "conservative", "mq"}) {
    EXPECT_EQ(std::find(killing.begin(), killing.end(), live), killing.end()) << live;
  }
}

}  // namespace
}  // namespace easypp::plugin

namespace easypp::plugin {
namespace {

// easypp_predictor goes to the policies the core says take a predictor
// (policy_takes_predictor, as easypp-sim --predictor): pv-easy (Last Model by default)
// too, not only those whose default is a history predictor. easy keeps the estimate.
// User 4's runs: 10 s and 90 s of 600. Job 62 asks 1200 s: history:window=3 predicts the
// mean, 50; pv-easy's own Last Model 90/600 x 1200 = 180; easy the estimate, 1200.
TEST(PluginPlanner, EasyppPredictorGoesToThePoliciesTheCoreSaysTakeOne) {
  const auto predicted = [](const Config& c, const std::string& partition) {
    Planner planner(c);
    planner.job_ended(finished(60, 4, 10, 600));
    planner.job_ended(finished(61, 4, 90, 600));
    OnePartition p{.procs = 1};
    p.name = partition;
    p.running = {job(59, 1, 100000, 9)};  // holds the CPU: job 62 waits
    p.waiting = {job(62, 1, 1200, 4)};
    return plan_one(planner, p).state.waiting.at(0).prediction;
  };
  Config c = config_with("pv-easy");
  EXPECT_EQ(predicted(c, "batch"), 180) << "pv-easy's own Last Model";
  c.predictor = "history:window=3";
  EXPECT_EQ(predicted(c, "batch"), 50) << "pv-easy plans with easypp_predictor";
  EXPECT_EQ(Planner(c).predictor_of("pv-easy").rfind("history:window=3,", 0), 0u)
      << Planner(c).predictor_of("pv-easy");
  c.predictor = "learned";
  EXPECT_EQ(Planner(c).predictor_of("pv-easy").rfind("learned:", 0), 0u);
  // The history keys, composed by predictor_spec(), follow the same rule.
  c.predictor.clear();
  c.window = 1;
  c.predictor_keys_given = true;
  EXPECT_EQ(predicted(c, "batch"), 90) << "window=1: the last run, as easypp_window says";

  c = config_with("easy");
  c.predictor = "history:window=3";
  EXPECT_EQ(predicted(c, "batch"), 1200) << "easy plans on the estimate";
  EXPECT_EQ(Planner(c).predictor_of("easy"), "estimate");

  // A partition's policy gets the same rule.
  c.partition_policy = {{"long", "pv-easy"}};
  EXPECT_EQ(predicted(c, "long"), 50);
  EXPECT_EQ(predicted(c, "batch"), 1200);
}

// The start-up log names the policies that do not plan with the configured predictor.
TEST(PluginPlanner, PredictorNoteNamesThePoliciesThatPlanOtherwise) {
  Config c = config_with("pv-easy");
  EXPECT_EQ(Planner(c).predictor_note(), "") << "none configured: each policy's own";
  c.predictor = "learned";
  EXPECT_EQ(Planner(c).predictor_note(), "predictor learned");
  c.policy = "easy";
  EXPECT_EQ(Planner(c).predictor_note(),
            "predictor learned (policy easy plans on the users' estimates)");
  c.partition_policy = {{"a", "x2"}, {"b", "easy++"}};
  EXPECT_EQ(Planner(c).predictor_note(),
            "predictor learned (policy easy plans on the users' estimates; policy x2 plans on "
            "the users' estimates doubled)");
}

}  // namespace
}  // namespace easypp::plugin
