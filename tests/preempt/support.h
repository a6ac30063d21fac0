// Hand-made workloads for the preempt tests: jobs given as (submit, procs, runtime,
// estimate), ids 1..n in submit order, as the simulator's workload preparation makes them.
#ifndef EASYPP_TESTS_PREEMPT_SUPPORT_H
#define EASYPP_TESTS_PREEMPT_SUPPORT_H

#include <initializer_list>
#include <string>

#include "sim/workload.h"

namespace easypp::preempt_test {

struct Spec {
  Time submit;
  int procs;
  Time runtime;
  Time estimate;
  int end_state = 0;  // epp_end_state
};

inline sim::Workload workload(int procs, std::initializer_list<Spec> jobs) {
  sim::Workload w;
  w.trace = "hand-made";
  w.procs = procs;
  JobId id = 0;
  for (const Spec& s : jobs) {
    sim::SimJob j;
    j.job.id = ++id;
    j.job.user = static_cast<UserId>(id);
    j.job.submit = s.submit;
    j.job.procs = s.procs;
    j.job.estimate = s.estimate;
    j.runtime = s.runtime;
    j.end_state = s.end_state;
    j.swf_job = static_cast<std::int64_t>(id);
    w.jobs.push_back(j);
  }
  return w;
}

}  // namespace easypp::preempt_test

#endif
