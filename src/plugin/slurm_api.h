// slurmctld's internal headers (C), from the configured Slurm source tree matching the
// installed slurmctld. Only the Slurm glue files include this; the logic stays Slurm-free.
#ifndef EASYPP_PLUGIN_SLURM_API_H
#define EASYPP_PLUGIN_SLURM_API_H

extern "C" {
#include "src/common/bitstring.h"
#include "src/common/gres.h"
#include "src/common/job_resources.h"
#include "src/common/list.h"
#include "src/common/log.h"
#include "src/common/node_conf.h"
#include "src/common/slurm_accounting_storage.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"
#include "src/slurmctld/acct_policy.h"
#include "src/slurmctld/job_scheduler.h"
#include "src/slurmctld/licenses.h"
#include "src/slurmctld/locks.h"
#include "src/slurmctld/node_scheduler.h"
#include "src/slurmctld/slurmctld.h"
#include "src/slurmctld/srun_comm.h"
}

#endif
