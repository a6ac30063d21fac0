#include "plugin/queue_order.h"

#include <algorithm>
#include <cctype>
#include <numeric>

namespace easypp::plugin {

namespace {

// Slurm compares a component's het values only against a record of another het job (or
// of no het job): the same het job's components compare on their own values.
bool use_het(const QueueSortKey& self, const QueueSortKey& other, bool hetjob_prio) {
  return hetjob_prio && self.het_job_id != 0 && self.het_job_id != other.het_job_id;
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

}  // namespace

bool queue_before(const QueueSortKey& a, const QueueSortKey& b, bool hetjob_prio,
                  bool prefer_first) {
  const bool ha = use_het(a, b, hetjob_prio), hb = use_het(b, a, hetjob_prio);
  const bool resv_a = ha ? a.resv_het : a.resv_own, resv_b = hb ? b.resv_het : b.resv_own;
  if (resv_a != resv_b) return resv_a;  // records with a reservation first
  const std::uint32_t tier_a = ha ? a.tier_het : a.tier_own, tier_b = hb ? b.tier_het : b.tier_own;
  if (tier_a != tier_b) return tier_a > tier_b;
  const std::uint32_t prio_a = ha ? a.prio_het : a.prio_own, prio_b = hb ? b.prio_het : b.prio_own;
  if (prio_a != prio_b) return prio_a > prio_b;
  if (a.has_submit && b.has_submit && a.submit != b.submit) return a.submit < b.submit;
  if (a.job_id != b.job_id) return a.job_id < b.job_id;
  if (a.array_task_id != b.array_task_id) return a.array_task_id < b.array_task_id;
  if (a.has_resv_start && b.has_resv_start && a.resv_start != b.resv_start)
    return a.resv_start < b.resv_start;
  if (prefer_first && a.use_prefer != b.use_prefer) return a.use_prefer;
  return false;
}

std::vector<std::size_t> queue_order(const std::vector<QueueSortKey>& keys, bool hetjob_prio,
                                     bool prefer_first) {
  std::vector<std::size_t> order(keys.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) {
    return queue_before(keys[x], keys[y], hetjob_prio, prefer_first);
  });
  return order;
}

bool hetjob_prio_set(const std::string& sched_params) {
  const std::string p = lower(sched_params);
  const std::size_t at = p.find("bf_hetjob_prio=");
  if (at != std::string::npos) {
    const std::string v = p.substr(at + 15, 3);
    if (v == "min" || v == "max" || v == "avg") return true;
  }
  return p.find("bf_hetjob_immediate") != std::string::npos;
}

}  // namespace easypp::plugin
