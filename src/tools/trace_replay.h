// Replaying a trace through a predictor: each job predicted at its submit time, learnt at
// its end (submit + wait + runtime), as the trace's own schedule had it.
#ifndef EASYPP_TOOLS_TRACE_REPLAY_H
#define EASYPP_TOOLS_TRACE_REPLAY_H

#include <cstdint>
#include <vector>

#include "easypp/predictor.h"
#include "sim/swf.h"

namespace easypp::tools {

struct ReplayedJob {
  std::int64_t job_id = -1;
  std::int64_t user = -1;
  std::int64_t estimate = -1;
  std::int64_t runtime = -1;
  std::int64_t prediction = -1;  // -1: the job has no estimate, so nothing was predicted
};

// Paper 003's evaluation kinds (quant, qual, virtual) draw from each job's real runtime
// and the whole workload's categories: gives them the trace's jobs (no-op for the other
// kinds). Throws std::runtime_error with the library's message.
void give_workload(epp_predictor* p, const std::vector<swf::Record>& records);

// In trace order (by submit time). At equal times, ends are learnt before submits are
// predicted, as a simulator processes terminations before arrivals.
std::vector<ReplayedJob> replay(epp_predictor* p, const std::vector<swf::Record>& records);

}  // namespace easypp::tools

#endif
