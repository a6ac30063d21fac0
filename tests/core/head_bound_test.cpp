// The bound on EASY++'s head (head_bound.h) and aged shortest-first backfilling
// (job_order.h), on hand-made snapshots whose decisions are worked out in the comments.
#include <gtest/gtest.h>

#include <memory>

#include "core/head_bound.h"
#include "core/job_order.h"
#include "core/job_request.h"
#include "core/machine.h"
#include "core/policy.h"
#include "core/profile.h"
#include "snapshot.h"

namespace easypp {
namespace {

// The jobs a fresh policy of SPEC backfills in one pass on STATE, in start order.
std::vector<JobId> backfilled(const std::string& spec, const ClusterState& state) {
  return make_policy(spec)->plan(state).backfilled;
}

using test::backfills;
using test::running;
using test::starts;
using test::waiting;

TEST(HeadBound, PromiseIsTheFirstKillTimeStartPlusSlackAndTheGuardSticks) {
  HeadBound b(BoundRule{10, false});
  // Head 7 first seen: kill-time start 20, promise 30; planned 5 <= 30: not guarded.
  EXPECT_FALSE(b.deadline(7, 5, 20));
  EXPECT_EQ(b.promise(), 30);
  // Its kill-time start moved to 40 (a backfill outlived its prediction): the promise stays.
  EXPECT_FALSE(b.deadline(7, 30, 40));
  EXPECT_EQ(b.promise(), 30);
  // Planned 31 > 30: guarded; the deadline is the later of promise and kill-time start.
  EXPECT_EQ(b.deadline(7, 31, 40), 40);
  // Planned back to 10: still guarded (sticky) until another head.
  EXPECT_EQ(b.deadline(7, 10, 25), 30);
  // Head 8: new promise 50 + 10 = 60, not guarded.
  EXPECT_FALSE(b.deadline(8, 50, 50));
  EXPECT_EQ(b.promise(), 60);
  // A head that cannot be placed on kill times is not guarded.
  EXPECT_FALSE(b.deadline(9, 1, kNever));
}

TEST(HeadBound, GuardAlwaysGuardsFromTheFirstPass) {
  HeadBound b(BoundRule{0, true});
  EXPECT_EQ(b.deadline(7, 5, 20), 20);
}

TEST(HeadBound, GuardTightFollowsTheKillTimeReservationDown) {
  // guard=tight with slack 10: head 7 first seen with kill-time start 20: promise 30,
  // deadline min(30, 20 + 10) = 30. Jobs end early, its kill-time start is 12: deadline
  // 12 + 10 = 22 (guard=always keeps 30). Never past the promise: start 25 -> 30.
  HeadBound b(BoundRule{10, true, kNever, kNever, 0, true});
  EXPECT_EQ(b.deadline(7, 5, 20), 30);
  EXPECT_EQ(b.deadline(7, 5, 12), 22);
  EXPECT_EQ(b.deadline(7, 5, 25), 30);
  HeadBound always(BoundRule{10, true});
  EXPECT_EQ(always.deadline(7, 5, 20), 30);
  EXPECT_EQ(always.deadline(7, 5, 12), 30);
  // Slack 0: the deadline is the head's current kill-time reservation, as EASY's shadow.
  HeadBound easy_like(BoundRule{0, true, kNever, kNever, 0, true});
  EXPECT_EQ(easy_like.deadline(7, 5, 20), 20);
  EXPECT_EQ(easy_like.deadline(7, 5, 12), 12);
  // The key: guard=tight needs a bound, like the others.
  EXPECT_THROW(make_policy("easy++:guard=tight"), std::invalid_argument);
  EXPECT_NO_THROW(make_policy("easy++:bound=0:guard=tight:split=short"));
}

// 12 processors, now 0. A (6 procs) started at 0, predicted 5, kill time 20; 6 idle.
// H (11 procs, 10 s) does not fit: head. Predictions: 6 free on [0,5), 12 from 5: shadow 5,
// extra 1. Kill times: 6 free on [0,20), 12 from 20: H's kill-time start is 20.
// B (4 procs, predicted 5, estimate 30) ends by the shadow on its prediction: EASY++
// backfills it. Its kill time 30 is past 20, and 4 > 12 - 11 = 1 extra on kill times.
ClusterState first_pass() {
  ClusterState s;
  s.now = 0;
  s.procs = 12;
  s.running = {running(1, 6, 0, 5, 20)};
  s.waiting = {waiting(2, 11, 10), waiting(3, 4, 5, 30)};
  return s;
}

TEST(HeadBound, FirstPassUnguardedBackfillsAsEasyPlusPlus) {
  for (const char* policy : {"easy++:bound=off", "easy++:bound=0"}) {
    const Decision d = make_policy(policy)->plan(first_pass());
    EXPECT_TRUE(backfills(d, 3)) << policy;
    ASSERT_EQ(d.reservations.size(), 1u);
    EXPECT_EQ(d.reservations[0].start, 5) << policy;
  }
}

TEST(HeadBound, GuardAlwaysKeepsBackfillsInsideThePromise) {
  // Deadline 20: B could run to 30 on 4 processors H needs: it waits.
  EXPECT_FALSE(starts(make_policy("easy++:bound=0:guard=always")->plan(first_pass()), 3));
  // Slack 10: promise 30, B's kill time 30 is within it.
  EXPECT_TRUE(backfills(make_policy("easy++:bound=10:guard=always")->plan(first_pass()), 3));
}

// With depth > 1 a job that fits between two reservations is a backfill too, held to
// what the backfill loop holds backfills to (review finding: it was started on its
// prediction, unguarded). First pass above: H reserved at 5; B fits now on its
// prediction (ends at 5), but the guard (deadline 20, B's kill time 30 on 4 of the 1
// extra processor) and the safe variants (B's estimate ends at 30, past H's 5) refuse it
// at any depth; B is then reserved as the second blocked job. Unguarded EASY++ starts it.
TEST(HeadBound, DepthTwoBackfillsBetweenReservationsAreHeldToTheSameRules) {
  for (const char* policy : {"easy++:bound=0:guard=always", "easy++:bound=0:guard=always:depth=2",
                             "easy++-safe", "easy++-safe:depth=2"}) {
    const Decision d = make_policy(policy)->plan(first_pass());
    EXPECT_FALSE(starts(d, 3)) << policy;
    EXPECT_EQ(d.reservations.at(0).job, 2u) << policy;
  }
  EXPECT_EQ(make_policy("easy++-safe:depth=2")->plan(first_pass()).reservations.size(), 2u);
  for (const char* policy : {"easy++", "easy++:depth=2", "easy++:bound=0:depth=2"})
    EXPECT_TRUE(backfills(make_policy(policy)->plan(first_pass()), 3)) << policy;
}

// The second pass at 6, after B was backfilled at 0 in the first (promise 20 for H).
// A outlived its prediction: corrected to 14 (kill time 20); B to 26 (kill time 30).
// Idle 12 - 6 - 4 = 2. Predictions: 2 free on [6,14), 8 on [14,26), 12 from 26: H's
// planned start 26 has slipped past its promise 20, so H is guarded. Kill times: 2 free
// on [6,20), 8 on [20,30), 12 from 30: kill-time start 30 > 20, deadline 30, extra on
// kill times 12 - 11 = 1.
// C (2 procs, predicted 1, estimate 100) ends by 26 on its prediction (EASY++ starts it)
// but could hold 2 > 1 processors at 30: the guard stops it. D (2 procs, predicted 2,
// estimate 24) ends by 30 on its kill time: it starts instead.
ClusterState second_pass() {
  ClusterState s;
  s.now = 6;
  s.procs = 12;
  s.running = {running(1, 6, 0, 14, 20), running(3, 4, 0, 26, 30)};
  s.waiting = {waiting(2, 11, 10), waiting(4, 2, 1, 100), waiting(5, 2, 2, 24)};
  return s;
}

TEST(HeadBound, SlippedHeadIsGuardedOnTheSecondPass) {
  auto bounded = make_policy("easy++:bound=0");
  ASSERT_TRUE(backfills(bounded->plan(first_pass()), 3));
  const Decision d = bounded->plan(second_pass());
  EXPECT_FALSE(starts(d, 4));
  EXPECT_EQ(d.backfilled, std::vector<JobId>{5});
  ASSERT_EQ(d.reservations.size(), 1u);
  EXPECT_EQ(d.reservations[0].start, 26);  // the planned start itself is not changed
  // Unbounded, or a fresh policy (whose promise would be today's kill-time start 30, not
  // yet slipped past): C starts.
  auto unbounded = make_policy("easy++:bound=off");
  unbounded->plan(first_pass());
  EXPECT_EQ(unbounded->plan(second_pass()).backfilled, std::vector<JobId>{4});
  EXPECT_EQ(backfilled("easy++:bound=0", second_pass()),
            std::vector<JobId>{4});
}

// The same two passes on two nodes of 6 CPUs: A holds node0, H asks 11 CPUs (both nodes;
// first fit: 6 on node0, 5 on node1), the others are CPU-only. Guarded, H is reserved on
// kill times at the deadline on both nodes, leaving node1 one CPU: B (first pass, guard
// always) would hold 4 of node1's CPUs at 20 and waits; in the second pass (B on node1
// until its kill time 30) C would hold 2 of node1's CPUs past 30 and waits, D ends by 30.
Node cpu_node(const std::string& name) {
  Node n;
  n.name = name;
  n.capacity[kCpu] = 6;
  return n;
}

void place(RunningJob& r, std::vector<std::pair<NodeIndex, int>> cpus) {
  auto a = std::make_shared<Allocation>();
  for (auto [n, c] : cpus) {
    Resources amount;
    amount[kCpu] = c;
    a->shares.push_back({n, c, amount});
  }
  r.allocation = std::move(a);
}

TEST(HeadBound, OnNodesAsOnThePool) {
  Machine m;
  m.add_node(cpu_node("n0"));
  m.add_node(cpu_node("n1"));
  ClusterState first = first_pass();
  first.machine = &m;
  place(first.running[0], {{0, 6}});
  EXPECT_TRUE(backfills(make_policy("easy++:bound=off")->plan(first), 3));
  EXPECT_FALSE(starts(make_policy("easy++:bound=0:guard=always")->plan(first), 3));
  EXPECT_TRUE(backfills(make_policy("easy++:bound=10:guard=always")->plan(first), 3));

  ClusterState second = second_pass();
  second.machine = &m;
  place(second.running[0], {{0, 6}});
  place(second.running[1], {{1, 4}});
  auto bounded = make_policy("easy++:bound=0");
  ASSERT_TRUE(backfills(bounded->plan(first), 3));
  EXPECT_EQ(bounded->plan(second).backfilled, std::vector<JobId>{5});
  auto unbounded = make_policy("easy++:bound=off");
  unbounded->plan(first);
  EXPECT_EQ(unbounded->plan(second).backfilled, std::vector<JobId>{4});
}

// now 100; jobs 1 (submitted 0, predicted 50), 2 (90, 5), 3 (10, 40).
TEST(AgedShortestFirst, OldJobsFirstInQueueOrderThenShortest) {
  ClusterState s;
  s.now = 100;
  s.waiting = {waiting(1, 1, 50), waiting(2, 1, 5), waiting(3, 1, 40)};
  s.waiting[0].submit = 0;
  s.waiting[1].submit = 90;
  s.waiting[2].submit = 10;
  std::vector<std::uint32_t> p{0, 1, 2};
  // Age 80: 1 (waited 100) and 3 (90) are old, in queue order; then 2.
  AgedShortestFirst(80).arrange(s, p);
  EXPECT_EQ(p, (std::vector<std::uint32_t>{0, 2, 1}));
  // Age 95: only 1 is old; then shortest first: 2 (5), 3 (40).
  p = {0, 1, 2};
  AgedShortestFirst(95).arrange(s, p);
  EXPECT_EQ(p, (std::vector<std::uint32_t>{0, 1, 2}));
}

// The starvation threshold (starve=, head_bound.h), worked out by hand. 12 processors,
// now 100. A (6 procs) started at 0, predicted 110, kill time 200; 6 idle. Queue order:
// H (8 procs, 10 s, submitted 0): does not fit, the head; O (10 procs, 10 s, submitted 10,
// waited 90); C (2 procs, predicted 3, estimate 5, submitted 20, waited 80); B (4 procs,
// predicted 5, estimate 115, submitted 95).
// Predictions: shadow 110 (A's end), C and B end by it: EASY++ backfills both.
// Kill times: H at A's kill time 200 (bound=0, guard=always: deadline 200), 12 - 8 = 4
// processors free beside it. B's kill time 215 > 200 but its 4 processors fit beside H:
// without a threshold B is backfilled. With starve=80, O and C are guarded: O reserved on
// kill times at 210 (4 free at 200 < 10), C fits now so is left unreserved (its own
// reservation would block it). B would hold 4 processors to 215, leaving 8 < 10 for O at
// 210: it waits. C (2 procs, ends 105) delays nobody: it starts. With starve=81 only O
// (waited 90) is guarded: the same for B, C still starts.
ClusterState starving_pass() {
  ClusterState s;
  s.now = 100;
  s.procs = 12;
  s.running = {running(1, 6, 0, 110, 200)};
  s.waiting = {waiting(2, 8, 10), waiting(3, 10, 10), waiting(5, 2, 3, 5),
               waiting(4, 4, 5, 115)};
  s.waiting[0].submit = 0;
  s.waiting[1].submit = 10;
  s.waiting[2].submit = 20;
  s.waiting[3].submit = 95;
  return s;
}

TEST(HeadBound, StarvedJobsAreGuardedOnKillTimes) {
  const Decision plain = make_policy("easy++:bound=0:guard=always")->plan(starving_pass());
  EXPECT_TRUE(backfills(plain, 4));
  EXPECT_TRUE(backfills(plain, 5));
  for (const char* policy : {"easy++:bound=0:guard=always:starve=80",
                             "easy++:bound=0:guard=always:starve=81"}) {
    const Decision d = make_policy(policy)->plan(starving_pass());
    EXPECT_FALSE(starts(d, 4)) << policy;
    EXPECT_TRUE(backfills(d, 5)) << policy;
    ASSERT_FALSE(d.reservations.empty());
    EXPECT_EQ(d.reservations[0].start, 110) << policy;  // the head's, on predictions
  }
  // Threshold 91: nobody has waited that long (H is the head, not behind it): as plain.
  const Decision late = make_policy("easy++:bound=0:guard=always:starve=91")->plan(starving_pass());
  EXPECT_TRUE(backfills(late, 4));
}

TEST(HeadBound, StarvingIsAWaitOfAtLeastTheThreshold) {
  const ClusterState s = starving_pass();  // longest wait: H's 100
  EXPECT_TRUE(HeadBound(BoundRule{0, false, 100}).starving(s));
  EXPECT_FALSE(HeadBound(BoundRule{0, false, 101}).starving(s));
  EXPECT_FALSE(HeadBound(BoundRule{0, false}).starving(s));  // no threshold
}

TEST(HeadBound, ProtectedNextJobsAreGuardedWhateverTheirWait) {
  // protect=1 guards O, the first job behind the head (waited 90), as starve=81 does:
  // B waits, C starts. protect=2 guards C too, but C fits now: left unreserved, the same.
  for (const char* policy : {"easy++:bound=0:guard=always:protect=1",
                             "easy++:bound=0:guard=always:protect=2"}) {
    const Decision d = make_policy(policy)->plan(starving_pass());
    EXPECT_FALSE(starts(d, 4)) << policy;
    EXPECT_TRUE(backfills(d, 5)) << policy;
  }
}

// The fair start (fair=, head_bound.h), worked out by hand over two passes; the head's
// slack of 1000 keeps its own guard out of the way. 12 processors.
// Pass 1 at 100: A (6 procs) started at 0, predicted 110, kill time 200; 6 idle. H (8
// procs, 10 s): the head, promise 200 + 1000, reserved there on kill times. O (11 procs,
// 10 s), first seen: its earliest kill-time start 200 (A's kill time): promise 200 +
// fair. Nothing fits.
// Pass 2 at 101: X (2 procs) started at 100, predicted 105, kill time 215; idle 4. O's
// earliest kill-time start is now 215 (10 free at 200). B (4 procs, predicted 5, estimate
// 115) ends at 106, before H's planned start 110: EASY++ backfills it. With fair=0 O has
// slipped (215 > 200): reserved at 215, and B, holding 4 processors to 216, would leave
// 1 < 11: B waits. With fair=15 (promise 215) O has not slipped: B starts.
ClusterState fair_pass(int pass) {
  ClusterState s;
  s.procs = 12;
  s.now = pass == 1 ? 100 : 101;
  s.running = {running(1, 6, 0, 110, 200)};
  s.waiting = {waiting(2, 8, 10), waiting(3, 11, 10)};
  if (pass == 2) {
    s.running.push_back(running(9, 2, 100, 5, 115));
    s.waiting.push_back(waiting(4, 4, 5, 115));
    s.waiting.back().submit = 95;
  }
  s.waiting[1].submit = 10;
  return s;
}

TEST(HeadBound, FairStartGuardsAJobThatSlippedPastItsFirstKillTimeStart) {
  auto strict = make_policy("easy++:bound=1000:guard=always:fair=0");
  EXPECT_TRUE(strict->plan(fair_pass(1)).start.empty());
  EXPECT_FALSE(starts(strict->plan(fair_pass(2)), 4));
  auto slack = make_policy("easy++:bound=1000:guard=always:fair=15");
  EXPECT_TRUE(slack->plan(fair_pass(1)).start.empty());
  EXPECT_TRUE(backfills(slack->plan(fair_pass(2)), 4));
  // Without fair= only the head is guarded: B starts.
  auto plain = make_policy("easy++:bound=1000:guard=always");
  plain->plan(fair_pass(1));
  EXPECT_TRUE(backfills(plain->plan(fair_pass(2)), 4));
  // A promise is taken when a job is first seen: seen first in pass 2, O's is 215.
  auto late = make_policy("easy++:bound=1000:guard=always:fair=0");
  EXPECT_TRUE(backfills(late->plan(fair_pass(2)), 4));
}

// Old jobs before newcomers (keys lookahead=, front=, oldfirst=; easy_pass.h), worked
// out by hand. 12 processors, now 100. A (6 procs) started at 0, predicted 110, kill time
// 200; 6 idle. Queue order: H (8 procs, submitted 0, waited 100): the head, shadow 110,
// extra 12 - 8 = 4. X (10 procs, submitted 5, waited 95): never fits the 6 idle. O (4 procs,
// predicted 50, submitted 10, waited 90): ends at 150 > 110 but fits the 4 extra. N (4
// procs, predicted 5, submitted 95, waited 5): ends at 105 by the shadow. Only one of O and
// N fits the 6 idle processors. Shortest first (EASY++): N starts, O waits.
ClusterState newcomer_pass() {
  ClusterState s;
  s.now = 100;
  s.procs = 12;
  s.running = {running(1, 6, 0, 110, 200)};
  s.waiting = {waiting(2, 8, 10), waiting(3, 10, 10), waiting(4, 4, 50), waiting(5, 4, 5)};
  s.waiting[0].submit = 0;
  s.waiting[1].submit = 5;
  s.waiting[2].submit = 10;
  s.waiting[3].submit = 95;
  return s;
}

TEST(OldFirst, NewcomersOvertakeUnderPlainEasyPlusPlus) {
  const Decision d = make_policy("easy++")->plan(newcomer_pass());
  EXPECT_EQ(d.backfilled, std::vector<JobId>{5});
}

TEST(OldFirst, LookaheadLimitsTheCandidatesToTheFirstJobsAfterTheHead) {
  // Window 1: only X, which does not fit: nothing starts. Window 2: X and O: O starts,
  // N is outside it.
  EXPECT_TRUE(make_policy("easy++:lookahead=1")->plan(newcomer_pass()).start.empty());
  EXPECT_EQ(backfilled("easy++:lookahead=2", newcomer_pass()),
            std::vector<JobId>{4});
  EXPECT_EQ(backfilled("easy++:lookahead=3", newcomer_pass()),
            std::vector<JobId>{5});
}

TEST(OldFirst, FrontJobsGoFirstInQueueOrder) {
  // front=1: X first (does not fit), then shortest first: N. front=2: X, O, then N: O.
  EXPECT_EQ(backfilled("easy++:front=1", newcomer_pass()),
            std::vector<JobId>{5});
  EXPECT_EQ(backfilled("easy++:front=2", newcomer_pass()),
            std::vector<JobId>{4});
}

TEST(OldFirst, JobsWaitingAShareOfTheHeadsWaitGoFirst) {
  // The head has waited 100. oldfirst=90: X (95) and O (90) are old: O starts.
  // oldfirst=91: only X (95): then N, shortest first.
  EXPECT_EQ(backfilled("easy++:oldfirst=90", newcomer_pass()),
            std::vector<JobId>{4});
  EXPECT_EQ(backfilled("easy++:oldfirst=91", newcomer_pass()),
            std::vector<JobId>{5});
}

// Split backfilling (keys split=, splitby=, splitn=, classes=; easy_pass.h), worked out by
// hand. 12 processors, now 100. A (6 procs) started at 0, predicted 110, kill time 200; 6
// idle. Queue order: H (10 procs, predicted 10, submitted 0): the head, shadow 110, extra
// 12 - 10 = 2; on kill times it starts at 200 with 2 extra. X (12 procs, submitted 5):
// never fits the 6 idle. O (2 procs, predicted 50, estimate 60, submitted 10): ends at
// 150 > 110, so it can only take the extra processors. M (2 procs, predicted 20, estimate
// 30, submitted 80): ends at 120, extra too. N (4 procs, predicted 5, submitted 95): ends
// at 105, before the shadow; its estimate is `n_estimate` (kill time 100 + n_estimate).
ClusterState split_pass(Time n_estimate = 10) {
  ClusterState s;
  s.now = 100;
  s.procs = 12;
  s.running = {running(1, 6, 0, 110, 200)};
  s.waiting = {waiting(2, 10, 10, 100), waiting(6, 12, 10), waiting(3, 2, 50, 60),
               waiting(4, 2, 20, 30), waiting(5, 4, 5, n_estimate)};
  s.waiting[0].submit = 0;
  s.waiting[1].submit = 5;
  s.waiting[2].submit = 10;
  s.waiting[3].submit = 80;
  s.waiting[4].submit = 95;
  return s;
}

TEST(SplitBackfill, ShortestFirstGivesTheExtraProcessorsToTheShortestNewcomer) {
  // N (idle 6 -> 2), M (120 > 110, 2 <= extra 2: idle 0): O, the older, waits.
  EXPECT_EQ(backfilled("easy++", split_pass()),
            (std::vector<JobId>{5, 4}));
}

TEST(SplitBackfill, EndingBeforeTheHeadShortestFirstThenExtraInQueueOrder) {
  // split=short: N (ends by 110; idle 2), then O before M in queue order: O takes the 2
  // extra processors (idle 0). split=extra: O first (idle 4, extra 0), M no longer fits
  // the extra processors, N (4 <= 4 idle, ends by 110) starts.
  EXPECT_EQ(backfilled("easy++:split=short", split_pass()),
            (std::vector<JobId>{5, 3}));
  EXPECT_EQ(backfilled("easy++:split=extra", split_pass()),
            (std::vector<JobId>{3, 5}));
  // The same with the head guarded: every kill time (N 110, O 160, M 130) is by the
  // deadline 200, so nothing changes.
  EXPECT_EQ(backfilled("easy++:bound=0:guard=always:split=short", split_pass()),
            (std::vector<JobId>{5, 3}));
}

TEST(SplitBackfill, KillOrdersTheExtraPhaseByShortestEstimate) {
  // split=kill: N, then the extra phase by estimate: M (30) before O (60): M takes the 2
  // extra processors. split=short gives them to O (queue order).
  EXPECT_EQ(backfilled("easy++:split=kill", split_pass()),
            (std::vector<JobId>{5, 4}));
  EXPECT_EQ(backfilled("easy++:split=short", split_pass()),
            (std::vector<JobId>{5, 3}));
}

TEST(SplitBackfill, WindowLimitsTheExtraPhaseToTheFirstJobsAfterTheHead) {
  // splitn=1: only X (which does not fit) may take the extra processors: just N.
  // splitn=2: X and O: N, then O.
  EXPECT_EQ(backfilled("easy++:split=short:splitn=1", split_pass()),
            std::vector<JobId>{5});
  EXPECT_EQ(backfilled("easy++:split=short:splitn=2", split_pass()),
            (std::vector<JobId>{5, 3}));
}

TEST(SplitBackfill, KillTimesDecideTheClassWhenGuardedOrAsked) {
  // N's estimate 150: kill time 250, past H's kill-time start 200.
  // Not guarded (guard=slipped: planned 110 <= promise 200), split by predictions: N is
  // before the head: N, O. splitby=kill: N is in the extra phase too: O, M (no extra
  // left), N (ends by 110 on its prediction, 4 <= 4 idle).
  EXPECT_EQ(backfilled("easy++:bound=0:split=short", split_pass(150)),
            (std::vector<JobId>{5, 3}));
  EXPECT_EQ(backfilled("easy++:bound=0:split=short:splitby=kill", split_pass(150)),
            (std::vector<JobId>{3, 5}));
  // splitby=safe: before the head only if the kill time is by the shadow 110: N with
  // estimate 10 (kill time 110) is, O (160) and M (130) are not: N, O; with estimate 150
  // N is not either: O, N.
  EXPECT_EQ(backfilled("easy++:split=short:splitby=safe", split_pass()),
            (std::vector<JobId>{5, 3}));
  EXPECT_EQ(backfilled("easy++:split=short:splitby=safe", split_pass(150)),
            (std::vector<JobId>{3, 5}));
  // Guarded: N's kill time 250 > deadline 200 and 4 > 2 extra on kill times: N never
  // starts. Plain shortest-first: M takes the 2 extra processors; split: O does.
  EXPECT_EQ(backfilled("easy++:bound=0:guard=always", split_pass(150)),
            std::vector<JobId>{4});
  EXPECT_EQ(backfilled("easy++:bound=0:guard=always:split=short", split_pass(150)),
            std::vector<JobId>{3});
}

TEST(SplitBackfill, CoarseClassesKeepQueueOrderWithinAClass) {
  // classes=10: N (5) in class 0, M (20) and O (50) in class 1, in queue order: N, O.
  // classes=100: all in class 0, queue order O (idle 4, extra 0), M no, N: O, N.
  EXPECT_EQ(backfilled("easy++:classes=10", split_pass()),
            (std::vector<JobId>{5, 3}));
  EXPECT_EQ(backfilled("easy++:classes=100", split_pass()),
            (std::vector<JobId>{3, 5}));
  // classes=2: 5 -> 2, 20 -> 4, 50 -> 5: exact shortest-first here.
  EXPECT_EQ(backfilled("easy++:classes=2", split_pass()),
            (std::vector<JobId>{5, 4}));
}

TEST(SplitBackfill, OnNodesAsOnThePool) {
  // One node of 12 CPUs, and two of 6 (A on n0; H reserved on 6 CPUs of n0 and 4 of n1,
  // leaving n1 2 CPUs past 110): the same decisions.
  Machine one = Machine::single_node(12);
  Machine two;
  two.add_node(cpu_node("n0"));
  two.add_node(cpu_node("n1"));
  for (Machine* m : {&one, &two}) {
    auto on = [m](ClusterState s) {
      s.machine = m;
      place(s.running[0], {{0, 6}});
      return s;
    };
    EXPECT_EQ(backfilled("easy++", on(split_pass())),
              (std::vector<JobId>{5, 4}));
    EXPECT_EQ(backfilled("easy++:split=short", on(split_pass())),
              (std::vector<JobId>{5, 3}));
    EXPECT_EQ(backfilled("easy++:split=extra", on(split_pass())),
              (std::vector<JobId>{3, 5}));
    EXPECT_EQ(backfilled("easy++:split=short:splitn=1", on(split_pass())),
              std::vector<JobId>{5});
    EXPECT_EQ(make_policy("easy++:bound=0:split=short:splitby=kill")
                  ->plan(on(split_pass(150)))
                  .backfilled,
              (std::vector<JobId>{3, 5}));
    EXPECT_EQ(make_policy("easy++:bound=0:guard=always:split=short")
                  ->plan(on(split_pass(150)))
                  .backfilled,
              std::vector<JobId>{3});
    EXPECT_EQ(backfilled("easy++:classes=100", on(split_pass())),
              (std::vector<JobId>{3, 5}));
  }
}

TEST(HeadBound, KeysAreCheckedByThePolicy) {
  EXPECT_THROW(make_policy("easy++:bound=-1"), std::invalid_argument);
  EXPECT_THROW(make_policy("easy++:bound=soon"), std::invalid_argument);
  EXPECT_THROW(make_policy("easy++:guard=never"), std::invalid_argument);
  EXPECT_THROW(make_policy("easy++:age=x"), std::invalid_argument);
  // A guard without a bound would silently run unbounded.
  EXPECT_THROW(make_policy("easy++:guard=always"), std::invalid_argument);
  EXPECT_THROW(make_policy("easy++:bound=off:guard=always"), std::invalid_argument);
  // Aging reorders shortest-first backfilling: not on easy (queue order), one order at a time.
  EXPECT_THROW(make_policy("easy:age=3600"), std::invalid_argument);
  EXPECT_THROW(make_policy("easy++:age=3600:lxfw=20"), std::invalid_argument);
  EXPECT_NO_THROW(make_policy("easy-sjbf:age=3600"));
  EXPECT_NO_THROW(make_policy("easy++:bound=3600:guard=always:age=86400"));
  EXPECT_NO_THROW(make_policy("easy:bound=0"));
  // The starvation threshold guards on kill times: it needs the bound.
  EXPECT_THROW(make_policy("easy++:starve=86400"), std::invalid_argument);
  EXPECT_THROW(make_policy("easy++:bound=0:starve=-5"), std::invalid_argument);
  EXPECT_NO_THROW(make_policy("easy++:bound=0:guard=always:starve=172800"));
  EXPECT_NO_THROW(make_policy("easy++:bound=0:starve=off"));
  // Old jobs first: whole numbers >= 1; front= and oldfirst= reorder shortest-first only.
  EXPECT_THROW(make_policy("easy++:lookahead=0"), std::invalid_argument);
  EXPECT_THROW(make_policy("easy++:front=x"), std::invalid_argument);
  EXPECT_THROW(make_policy("easy++:oldfirst=-1"), std::invalid_argument);
  EXPECT_THROW(make_policy("easy:front=2"), std::invalid_argument);
  EXPECT_THROW(make_policy("easy:oldfirst=90"), std::invalid_argument);
  EXPECT_NO_THROW(make_policy("easy:lookahead=10"));
  EXPECT_NO_THROW(make_policy("easy++:bound=3600:guard=always:front=3:oldfirst=90"));
  EXPECT_NO_THROW(make_policy("easy++:lookahead=off:front=off:oldfirst=off"));
  // Split backfilling: shortest-first only; splitby= and splitn= with split=; splitby=kill
  // with a bound; classes=F with F >= 2.
  EXPECT_THROW(make_policy("easy:split=short"), std::invalid_argument);
  EXPECT_THROW(make_policy("easy++:split=yes"), std::invalid_argument);
  EXPECT_THROW(make_policy("easy++:splitn=3"), std::invalid_argument);
  EXPECT_THROW(make_policy("easy++:splitby=pred"), std::invalid_argument);
  EXPECT_THROW(make_policy("easy++:split=short:splitby=kill"), std::invalid_argument);
  EXPECT_THROW(make_policy("easy++:classes=1"), std::invalid_argument);
  EXPECT_THROW(make_policy("easy:classes=10"), std::invalid_argument);
  EXPECT_NO_THROW(make_policy("easy++:bound=0:split=extra:splitby=kill:splitn=5:classes=10"));
  EXPECT_NO_THROW(make_policy("easy++:split=off:classes=off"));
  // fair= and protect= guard on kill times: they need the bound.
  EXPECT_THROW(make_policy("easy++:fair=0"), std::invalid_argument);
  EXPECT_THROW(make_policy("easy++:protect=1"), std::invalid_argument);
  EXPECT_THROW(make_policy("easy++:bound=0:protect=0"), std::invalid_argument);
  EXPECT_NO_THROW(make_policy("easy++:bound=0:fair=86400:protect=2"));
}

}  // namespace
}  // namespace easypp
