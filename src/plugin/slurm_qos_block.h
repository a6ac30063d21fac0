// SchedulerParameters=assoc_limit_stop: the QOS a held job was found to wait for at a
// group limit, for the rest of a pass. As stock backfill sets such a QOS's blocked_until,
// no later queue record of that QOS (the record's own QOS, or its partition's QOS) starts
// in the pass: it would take what the limit keeps for the held job. The held jobs
// themselves stay planned. Slurm's QOS records are read under assoc_mgr's QOS lock, as
// stock backfill reads blocked_until.
#ifndef EASYPP_PLUGIN_SLURM_QOS_BLOCK_H
#define EASYPP_PLUGIN_SLURM_QOS_BLOCK_H

#include <cstdint>
#include <unordered_set>
#include <vector>

#include "core/job.h"
#include "plugin/slurm_api.h"
#include "plugin/slurm_start.h"

namespace easypp::plugin {

class QosBlock {
 public:
  bool empty() const { return qos_.empty(); }
  // `job` was refused at a group limit of the QOS select_nodes names (qos_blocking_ptr):
  // that QOS is blocked for the rest of the pass. Takes assoc_mgr's QOS lock.
  void block_for(const job_record_t* job);
  // The held job `id` itself is never blocked.
  void hold(JobId id) { held_.insert(id); }
  // Whether a record of `job` (id `id`) under QOS `qos_id` (0: the job's one QOS, as on
  // 22.05) in `part` is blocked. Under an AssocMgrReadLock.
  bool blocks(const job_record_t* job, JobId id, std::uint32_t qos_id,
              const part_record_t* part) const;
  // Whether any of the job's records (`choices`, by partition name) is blocked. Takes
  // assoc_mgr's QOS lock.
  bool blocks_any(const job_record_t* job, JobId id,
                  const std::vector<StartChoice>& choices) const;

 private:
  std::unordered_set<std::uint32_t> qos_;
  std::unordered_set<JobId> held_;
};

}  // namespace easypp::plugin

#endif
