// LXF&W(w)-backfilling (paper 003): the priority formula, the backfill order it gives
// against EASY and SJBF on one hand-made snapshot, and the registry entries.
#include <gtest/gtest.h>

#include <stdexcept>

#include "../core/snapshot.h"
#include "core/lxfw_order.h"
#include "core/policy.h"

namespace easypp {
namespace {

using test::backfills;
using test::running;
using test::starts;
using test::waiting;

Job submitted(Job j, Time submit) {
  j.submit = submit;
  return j;
}

TEST(LxfwOrder, PriorityIsExpansionFactorPlusWeightedWaitHours) {
  LargestExpansionWaitFirst order;  // w = 0.02 per hour
  Job j = submitted(waiting(1, 1, 3600), 0);
  // Waited 2 h with a 1 h prediction: (7200 + 3600) / 3600 + 0.02 x 2 = 3.04.
  EXPECT_DOUBLE_EQ(order.priority(j, 7200), 3.04);
  // Not waited yet: 1.
  EXPECT_DOUBLE_EQ(order.priority(j, 0), 1.0);
  LargestExpansionWaitFirst heavy(1.0);
  EXPECT_DOUBLE_EQ(heavy.priority(j, 7200), 5.0);
}

TEST(LxfwOrder, WaitTermBreaksEqualExpansionFactors) {
  // Both have expansion factor 2; the one that waited an hour outranks the one that waited
  // 36 s, though it is later in the queue. With w = 0 queue order decides.
  ClusterState s;
  s.now = 10000;
  s.procs = 4;
  s.waiting = {submitted(waiting(1, 1, 36), 10000 - 36), submitted(waiting(2, 1, 3600), 10000 - 3600)};
  std::uint32_t positions[2] = {0, 1};
  LargestExpansionWaitFirst().arrange(s, positions);
  EXPECT_EQ(positions[0], 1u);
  std::uint32_t unweighted[2] = {0, 1};
  LargestExpansionWaitFirst(0.0).arrange(s, unweighted);
  EXPECT_EQ(unweighted[0], 0u);
}

// A 10-processor machine, 8 busy until now + 20000. The head wants all 10; three 2-processor
// candidates all end before the head's reservation, but only one fits the 2 idle:
//   C  queue-first, waited 15000 s, predicted 9000 s: priority 2.67 + 0.08
//   A  waited 14900 s, predicted 500 s:               priority 30.8 + 0.08
//   B  waited 100 s, predicted 100 s:                 priority 2.0
// EASY backfills C (queue order), SJBF backfills B (shortest), LXF&W backfills A.
ClusterState three_candidates() {
  ClusterState s;
  s.now = 20000;
  s.procs = 10;
  s.running = {running(100, 8, 20000, 20000)};
  s.waiting = {submitted(waiting(1, 10, 1000), 4000), submitted(waiting(2, 2, 9000), 5000),
               submitted(waiting(3, 2, 500), 5100), submitted(waiting(4, 2, 100), 19900)};
  return s;
}

TEST(LxfwBackfill, PicksLargestExpansionWhereEasyAndSjbfDiffer) {
  const ClusterState s = three_candidates();
  const Decision lxfw = make_policy("lxf-w")->plan(s);
  ASSERT_EQ(lxfw.start.size(), 1u);
  EXPECT_TRUE(backfills(lxfw, 3));
  ASSERT_FALSE(lxfw.reservations.empty());
  EXPECT_EQ(lxfw.reservations[0].job, 1u);  // the head keeps its reservation (queue order)
  EXPECT_EQ(lxfw.reservations[0].start, 40000);
  EXPECT_TRUE(starts(make_policy("easy")->plan(s), 2));
  EXPECT_TRUE(starts(make_policy("easy-sjbf")->plan(s), 4));
}

TEST(LxfwBackfill, NeverDelaysTheHead) {
  // A candidate with the largest priority that would run past the reservation on the
  // processors the head needs is skipped.
  ClusterState s = three_candidates();
  s.waiting[2].prediction = 30000;  // A now ends after the shadow time (40000)
  s.waiting[2].estimate = 30000;
  const Decision d = make_policy("lxf-w")->plan(s);
  EXPECT_FALSE(starts(d, 3));
  ASSERT_EQ(d.start.size(), 1u);
  EXPECT_TRUE(starts(d, 2));  // C: priority 2.75 beats B's 2.0
}

TEST(LxfwBackfill, Registry) {
  EXPECT_EQ(make_policy("lxf-w")->name(), "lxf-w");
  EXPECT_EQ(make_policy("lxf-w")->traits().predictor, "estimate");
  EXPECT_FALSE(make_policy("lxf-w")->traits().correct_predictions);
  auto plus = make_policy("lxf-w+", {.predictor = "quant:category=short,error=100"});
  EXPECT_EQ(plus->traits().predictor, "quant:category=short,error=100");
  EXPECT_TRUE(plus->traits().correct_predictions);
  EXPECT_THROW(make_policy("lxf-w", {.predictor = "quant"}), std::invalid_argument);
}

}  // namespace
}  // namespace easypp
