#include "trace_replay.h"

#include <algorithm>
#include <stdexcept>
#include <tuple>

#include "record_sources.h"

namespace easypp::tools {

void give_workload(epp_predictor* p, const std::vector<swf::Record>& records) {
  if (epp_predictor_needs_workload(p) == 0) return;
  std::vector<epp_workload_job> all;
  all.reserve(records.size());
  for (const auto& r : records) {
    if (r.job_number < 0 || r.runtime < 0) continue;  // never predicted from (see below)
    const std::int64_t procs = r.requested_procs > 0 ? r.requested_procs : r.allocated_procs;
    all.push_back(epp_workload_job{static_cast<std::uint64_t>(r.job_number), r.runtime,
                                   static_cast<std::int32_t>(std::max<std::int64_t>(procs, 1)),
                                   r.executable});
  }
  char err[512] = "";
  if (epp_set_workload(p, all.data(), all.size(), err, sizeof err) != 0) throw std::runtime_error(err);
}

std::vector<ReplayedJob> replay(epp_predictor* p, const std::vector<swf::Record>& records) {
  // At equal times ends come first, so a job submitted as another ends learns from it;
  // but a job that ends as it is submitted (no wait, no runtime) must be predicted before
  // it is learnt, so its own end comes after the submits at that time.
  enum Order { kEnd = 0, kSubmit = 1, kOwnEndAtSubmit = 2 };
  struct Event {
    std::int64_t time;
    int order;  // an Order
    std::size_t index;
  };
  std::vector<Event> events;
  std::vector<epp_record> ended(records.size());
  std::vector<ReplayedJob> out(records.size());
  events.reserve(records.size() * 2);
  for (std::size_t i = 0; i < records.size(); ++i) {
    const auto& r = records[i];
    out[i] = ReplayedJob{r.job_number, r.user, r.requested_time, r.runtime, -1};
    const bool learnt = swf_to_record(r, ended[i]);
    if (learnt) events.push_back({ended[i].end, ended[i].end == r.submit ? kOwnEndAtSubmit : kEnd, i});
    if (r.requested_time > 0 && r.submit >= 0) events.push_back({r.submit, kSubmit, i});
  }
  std::sort(events.begin(), events.end(), [](const Event& a, const Event& b) {
    return std::tie(a.time, a.order, a.index) < std::tie(b.time, b.order, b.index);
  });
  for (const auto& e : events) {
    const auto& r = records[e.index];
    if (e.order != kSubmit) {
      epp_learn_record(p, &ended[e.index]);
    } else {
      epp_job job{};
      job.job_id = r.job_number >= 0 ? static_cast<std::uint64_t>(r.job_number) : 0;
      job.user_id = r.user >= 0 ? static_cast<std::uint32_t>(r.user) : 0;
      job.submit = r.submit;
      job.estimate = r.requested_time;
      job.procs = r.requested_procs > 0 ? r.requested_procs : r.allocated_procs;
      job.runtime = r.runtime;  // only the clairvoyant `perfect` looks at it
      out[e.index].prediction = epp_predict(p, &job);
    }
  }
  return out;
}

}  // namespace easypp::tools
