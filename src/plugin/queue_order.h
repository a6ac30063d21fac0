// The order of Slurm's job queue (sort_job_queue's comparator, sort_job_queue2 in
// src/slurmctld/job_scheduler.c, 22.05 and 24.11) on plain values read from each record,
// so that sorting 20,000 records reads no job record: the values are copied in the hold
// that checked the records, and the sort itself touches only this data.
// Slurm-free: unit-tested in tests/plugin/queue_order_test.cpp.
#ifndef EASYPP_PLUGIN_QUEUE_ORDER_H
#define EASYPP_PLUGIN_QUEUE_ORDER_H

#include <cstddef>
#include <cstdint>
#include <ctime>
#include <string>
#include <vector>

namespace easypp::plugin {

// One queue record's sort values. "own" values are the record's; "het" ones what
// bf_hetjob_prio uses for a heterogeneous job component compared with a record of another
// job (its het_details' values, or the own ones when it has none).
struct QueueSortKey {
  std::uint32_t het_job_id = 0;
  bool resv_own = false;  // job has a reservation (resv_id) or the record one (resv_ptr)
  bool resv_het = false;
  std::uint32_t tier_own = 0;  // the record's partition's PriorityTier
  std::uint32_t tier_het = 0;
  std::uint32_t prio_own = 0;  // the record's priority (multi-partition) or the job's
  std::uint32_t prio_het = 0;
  bool has_submit = false;  // the job has details (submit_time)
  std::time_t submit = 0;
  std::uint32_t job_id = 0;         // array_job_id for an array task, else job_id
  std::uint32_t array_task_id = 0;  // NO_VAL (0xfffffffe) when not a task
  bool has_resv_start = false;      // the record's reservation (magnetic, multi-reservation)
  std::time_t resv_start = 0;
  bool use_prefer = false;  // a --prefer record (24.11 sorts it before its plain twin)
};

// Slurm's comparator as a strict weak order: highest priority first. Ties Slurm leaves to
// qsort (it answers -1 both ways) are equal here; a stable sort keeps them in build order.
// `hetjob_prio`: SchedulerParameters bf_hetjob_prio= (or bf_hetjob_immediate) is set.
// `prefer_first`: the release compares use_prefer (24.11; 22.05 does not).
bool queue_before(const QueueSortKey& a, const QueueSortKey& b, bool hetjob_prio,
                  bool prefer_first);

// Indexes of `keys` in queue order (stable).
std::vector<std::size_t> queue_order(const std::vector<QueueSortKey>& keys, bool hetjob_prio,
                                     bool prefer_first);

// Whether SchedulerParameters set bf_hetjob_prio (min, max or avg) or bf_hetjob_immediate
// (which implies min), read as slurmctld reads them (case-insensitive substrings).
bool hetjob_prio_set(const std::string& sched_params);

}  // namespace easypp::plugin

#endif
