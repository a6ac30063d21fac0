// What differs between the Slurm releases the plugin builds against (22.05 to 24.11), as
// version checks in one place, so the glue is written once. Included by slurm_api.h only.
#ifndef EASYPP_PLUGIN_SLURM_COMPAT_H
#define EASYPP_PLUGIN_SLURM_COMPAT_H

#include <cstdint>

#if EASYPP_SLURM_AT_LEAST(24, 5, 0)
// 24.05 removed the pointer typedefs List and ListIterator (list_t and list_itr_t remain).
using List = list_t*;
using ListIterator = list_itr_t*;
#endif

#if !EASYPP_SLURM_AT_LEAST(23, 2, 0)
// 23.02 made struct job_details an anonymous typedef job_details_t; the glue uses that name.
using job_details_t = struct job_details;
#endif

namespace easypp::plugin::compat {

// A job's GRES request or allocation that consumes nothing (e.g. a licence-like GRES).
// 22.05 flags it on the job; later releases keep no_consume on the node only, so there
// every job GRES counts as consumed (the conservative reading for planning).
inline bool gres_no_consume(const gres_job_state_t* js) {
#ifdef GRES_NO_CONSUME
  return js->flags & GRES_NO_CONSUME;
#else
  (void)js;
  return false;
#endif
}

// select_nodes for a real start (not test_only, not at submission).
inline int select_nodes_now(job_record_t* job, char** err_msg, std::uint32_t scheduler_flags) {
#if EASYPP_SLURM_AT_LEAST(24, 11, 0)
  // 24.11 passes the job through a job_node_select_t.
  job_node_select_t select = {};
  select.job_ptr = job;
  select.err_msg = err_msg;
  return select_nodes(&select, false, false, scheduler_flags);
#else
  return select_nodes(job, false, nullptr, err_msg, false, scheduler_flags);
#endif
}

}  // namespace easypp::plugin::compat

#endif
