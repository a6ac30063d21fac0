#include "plugin/slurm_time_limit.h"

#include <algorithm>

namespace easypp::plugin {

namespace {
bool bounded(std::uint32_t minutes) { return minutes != INFINITE && minutes != NO_VAL; }
}  // namespace

std::uint32_t full_limit_minutes(const job_record_t* job, const part_record_t* part) {
  std::uint32_t minutes = job->time_limit;
  if (minutes == NO_VAL && part)
    minutes = part->default_time != NO_VAL ? part->default_time : part->max_time;
  if (part && bounded(part->max_time))
    minutes = bounded(minutes) ? std::min(minutes, part->max_time) : part->max_time;
  return minutes;
}

bool tested_on_time_min(const job_record_t* job, std::uint32_t full_minutes) {
  return job->time_min != 0 && job->time_min != NO_VAL && job->time_min < full_minutes &&
         job->deadline == 0;
}

std::uint32_t planned_limit_minutes(const job_record_t* job, const part_record_t* part) {
  const std::uint32_t full = full_limit_minutes(job, part);
  return tested_on_time_min(job, full) ? job->time_min : full;
}

std::uint32_t start_limit_minutes(const job_record_t* job, std::uint32_t full_minutes,
                                  std::uint32_t free_minutes) {
  std::uint32_t minutes = full_minutes;
  if (free_minutes != NO_VAL && (!bounded(minutes) || free_minutes < minutes))
    minutes = free_minutes;
  return std::max(minutes, job->time_min);
}

std::uint32_t limit_to_deadline(std::uint32_t full_minutes, time_t deadline, time_t now) {
  const auto left = static_cast<std::uint32_t>(
      std::min<time_t>(std::max<time_t>(0, (deadline - now) / 60), NO_VAL - 1));
  return bounded(full_minutes) ? std::min(full_minutes, left) : left;
}

bool shorter_may_start(int rc) {
  switch (rc) {
    case ESLURM_ACCOUNTING_POLICY:
    case ESLURM_RESERVATION_BUSY:
    case ESLURM_NODES_BUSY:
    case ESLURM_NODE_NOT_AVAIL:
    case ESLURM_REQUESTED_NODE_CONFIG_UNAVAILABLE:
      return true;
    default:
      return false;
  }
}

}  // namespace easypp::plugin
