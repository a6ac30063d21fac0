#include "plugin/slurm_qos_block.h"

#include <algorithm>

#include "plugin/slurm_handles.h"

namespace easypp::plugin {

void QosBlock::block_for(const job_record_t* job) {
  if (!job->qos_blocking_ptr) return;
  const AssocMgrReadLock lock;
  qos_.insert(static_cast<const slurmdb_qos_rec_t*>(job->qos_blocking_ptr)->id);
}

bool QosBlock::blocks(const job_record_t* job, JobId id, std::uint32_t qos_id,
                      const part_record_t* part) const {
  if (qos_.empty() || held_.count(id)) return false;
  if (qos_id == 0 && job->qos_ptr) qos_id = job->qos_ptr->id;
  if (qos_id != 0 && qos_.count(qos_id)) return true;
  return part && part->qos_ptr && qos_.count(part->qos_ptr->id);
}

bool QosBlock::blocks_any(const job_record_t* job, JobId id,
                          const std::vector<StartChoice>& choices) const {
  if (qos_.empty()) return false;
  const AssocMgrReadLock lock;
  return std::any_of(choices.begin(), choices.end(), [&](const StartChoice& c) {
    return blocks(job, id, c.qos_id, find_part_record(const_cast<char*>(c.partition.c_str())));
  });
}

}  // namespace easypp::plugin
