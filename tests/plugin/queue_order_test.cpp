// Slurm's queue order (sort_job_queue2, 22.05 and 24.11) on plain sort values
// (src/plugin/queue_order.h). Each case is two or three records whose order was worked
// out by hand from the comparator's steps: reservation, PriorityTier, priority, submit
// time, job id (an array task by its array's id), task id, reservation start, --prefer.
#include <gtest/gtest.h>

#include <vector>

#include "plugin/queue_order.h"

namespace easypp::plugin {
namespace {

constexpr std::uint32_t kNoTask = 0xfffffffe;  // Slurm's NO_VAL: not an array task

QueueSortKey key(std::uint32_t job_id, std::uint32_t prio, std::uint32_t tier = 0) {
  QueueSortKey k;
  k.job_id = job_id;
  k.array_task_id = kNoTask;
  k.prio_own = k.prio_het = prio;
  k.tier_own = k.tier_het = tier;
  k.has_submit = true;
  k.submit = 1000;
  return k;
}

std::vector<std::size_t> order(const std::vector<QueueSortKey>& keys, bool het = false,
                               bool prefer = false) {
  return queue_order(keys, het, prefer);
}

TEST(QueueOrder, ReservationThenTierThenPriority) {
  QueueSortKey low = key(1, 10);
  QueueSortKey tiered = key(2, 1, /*tier=*/5);
  QueueSortKey in_resv = key(3, 1);
  in_resv.resv_own = in_resv.resv_het = true;
  EXPECT_EQ(order({low, tiered, in_resv}), (std::vector<std::size_t>{2, 1, 0}));
  EXPECT_EQ(order({key(1, 10), key(2, 20)}), (std::vector<std::size_t>{1, 0}));
}

TEST(QueueOrder, EqualPrioritiesBySubmitThenJobIdThenTask) {
  QueueSortKey late = key(1, 5);
  late.submit = 2000;
  QueueSortKey early = key(2, 5);
  EXPECT_EQ(order({late, early}), (std::vector<std::size_t>{1, 0}));
  // Task 3 of array 7 (job id 9) vs job 8: by the array's id 7, so the task first.
  QueueSortKey task3 = key(7, 5);
  task3.array_task_id = 3;
  QueueSortKey task1 = key(7, 5);
  task1.array_task_id = 1;
  EXPECT_EQ(order({key(8, 5), task3, task1}), (std::vector<std::size_t>{2, 1, 0}));
  // No submit time on one side: the submit step is skipped, job ids decide.
  QueueSortKey no_details = key(1, 5);
  no_details.has_submit = false;
  no_details.submit = 0;
  QueueSortKey newer = key(2, 5);
  newer.submit = 1;  // earlier, but not compared
  EXPECT_EQ(order({newer, no_details}), (std::vector<std::size_t>{1, 0}));
}

TEST(QueueOrder, SameJobByReservationStartThenPreferFrom2411) {
  QueueSortKey later = key(4, 5);
  later.has_resv_start = true;
  later.resv_start = 500;
  later.resv_own = later.resv_het = true;
  QueueSortKey sooner = later;
  sooner.resv_start = 100;
  EXPECT_EQ(order({later, sooner}), (std::vector<std::size_t>{1, 0}));
  QueueSortKey plain = key(4, 5);
  QueueSortKey prefer = key(4, 5);
  prefer.use_prefer = true;
  EXPECT_EQ(order({plain, prefer}, false, /*prefer_first=*/true),
            (std::vector<std::size_t>{1, 0}));
  EXPECT_EQ(order({plain, prefer}, false, /*prefer_first=*/false),
            (std::vector<std::size_t>{0, 1}))
      << "22.05 leaves them tied: build order kept";
}

// bf_hetjob_prio: a het component compared with another job uses its het job's values;
// with a component of its own het job, its own. Component 10 (own priority 1, het 100)
// against job 11 (priority 50): first only with bf_hetjob_prio. Components 10 and 12 of
// het job 10 (own priorities 1 and 2): 12 first either way.
TEST(QueueOrder, HetJobPriorityOnlyAgainstOtherJobs) {
  QueueSortKey comp = key(10, 1);
  comp.het_job_id = 10;
  comp.prio_het = 100;
  QueueSortKey other = key(11, 50);
  EXPECT_EQ(order({other, comp}, /*het=*/true), (std::vector<std::size_t>{1, 0}));
  EXPECT_EQ(order({other, comp}, /*het=*/false), (std::vector<std::size_t>{0, 1}));
  QueueSortKey comp2 = key(12, 2);
  comp2.het_job_id = 10;
  comp2.prio_het = 100;
  EXPECT_EQ(order({comp, comp2}, true), (std::vector<std::size_t>{1, 0}));
}

TEST(QueueOrder, HetJobPrioFromSchedulerParameters) {
  EXPECT_TRUE(hetjob_prio_set("bf_continue,bf_hetjob_prio=MIN"));
  EXPECT_TRUE(hetjob_prio_set("bf_hetjob_prio=avg"));
  EXPECT_TRUE(hetjob_prio_set("bf_hetjob_immediate"));
  EXPECT_FALSE(hetjob_prio_set("bf_hetjob_prio=bogus"));
  EXPECT_FALSE(hetjob_prio_set("bf_continue"));
  EXPECT_FALSE(hetjob_prio_set(""));
}

}  // namespace
}  // namespace easypp::plugin
