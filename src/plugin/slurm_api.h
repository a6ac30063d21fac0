// slurmctld's internal headers (C), from the configured Slurm source tree matching the
// installed slurmctld. Only the Slurm glue files include this; the logic stays Slurm-free.
#ifndef EASYPP_PLUGIN_SLURM_API_H
#define EASYPP_PLUGIN_SLURM_API_H

// Differences between Slurm releases live in slurm_compat.h (version checks, one place).
#include "slurm/slurm_version.h"
#define EASYPP_SLURM_AT_LEAST(a, b, c) (SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(a, b, c))

// From 23.11 extra_constraints.h (reached from node_conf.h and slurmctld.h) has a struct
// member named `operator`, a C++ keyword: renamed for these C headers only (unused here).
#define operator easypp_slurm_operator
extern "C" {
#include "src/common/assoc_mgr.h"
#include "src/common/bitstring.h"
#include "src/common/job_resources.h"
#include "src/common/list.h"
#include "src/common/log.h"
#include "src/common/node_conf.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"
#if EASYPP_SLURM_AT_LEAST(23, 2, 0)
// 23.02 moved the plugin interfaces out of src/common.
#include "src/interfaces/accounting_storage.h"
#include "src/interfaces/burst_buffer.h"
#include "src/interfaces/gres.h"
#include "src/interfaces/preempt.h"
#else
#include "src/slurmctld/burst_buffer.h"
#include "src/common/gres.h"
#include "src/common/select.h"
#include "src/common/slurm_accounting_storage.h"
#include "src/slurmctld/preempt.h"
#endif
#if EASYPP_SLURM_AT_LEAST(24, 11, 0)
#include "src/common/job_state_reason.h"
#endif
#include "src/slurmctld/acct_policy.h"
#include "src/slurmctld/fed_mgr.h"
#include "src/slurmctld/job_scheduler.h"
#include "src/slurmctld/licenses.h"
#include "src/slurmctld/locks.h"
#include "src/slurmctld/node_scheduler.h"
#include "src/slurmctld/reservation.h"
#include "src/slurmctld/slurmctld.h"
#include "src/slurmctld/state_save.h"
#if EASYPP_SLURM_AT_LEAST(24, 5, 0)
#include "src/slurmctld/proc_req.h"  // srun_comm.h (srun_allocate) merged into it in 24.05
#else
#include "src/slurmctld/srun_comm.h"
#endif
#if __has_include("src/common/job_features.h")
#include "src/common/job_features.h"  // job_feature_t, once in slurmctld.h
#endif
}
#undef operator

#include "plugin/slurm_compat.h"

#endif
