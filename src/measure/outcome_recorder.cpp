#include "measure/outcome_recorder.h"

#include <algorithm>

#include "measure/metrics.h"

namespace easypp::measure {

OutcomeRecorder::OutcomeRecorder(SimOutcome skeleton, bool heel_and_toe)
    : out_(std::move(skeleton)), heel_and_toe_(heel_and_toe), jobs_(out_.jobs.size()) {}

void OutcomeRecorder::arrived(std::uint32_t i, const Job& job, Time /*now*/) {
  Tracked& t = jobs_[i];
  t.waiting = true;
  t.prediction = job.prediction;
  t.accuracy_since = job.submit;
  t.request = job.request;
}

void OutcomeRecorder::prediction_changed(std::uint32_t i, Time prediction, Time now) {
  Tracked& t = jobs_[i];
  t.accuracy_sum +=
      accuracy_of(t.prediction, out_.jobs[i].runtime) * static_cast<double>(now - t.accuracy_since);
  t.accuracy_since = now;
  t.prediction = prediction;
}

void OutcomeRecorder::started(std::uint32_t i, const Job& job, Time /*now*/, Time real_end) {
  Tracked& t = jobs_[i];
  t.waiting = false;
  t.real_end = real_end;
  JobOutcome& o = out_.jobs[i];
  o.backfilled = false;  // planned() marks backfills
  o.prediction_at_start = job.prediction;
  ++running_changes_;
}

void OutcomeRecorder::ended(std::uint32_t i, const Job& job, Time start, Time now,
                            bool killed_at_limit) {
  JobOutcome& o = out_.jobs[i];
  o.end = now;
  o.start = start;
  o.end_rank = ends_++;
  o.corrections = job.corrections;
  o.killed_at_limit = killed_at_limit;
  prediction_changed(i, jobs_[i].prediction, now);  // close the accuracy integral
  const Time lifetime = now - o.submit;
  o.accuracy = lifetime > 0 ? jobs_[i].accuracy_sum / static_cast<double>(lifetime)
                            : accuracy_of(jobs_[i].prediction, o.runtime);
  out_.busy_proc_seconds += static_cast<double>(job.procs) * static_cast<double>(now - start);
  out_.last_end = std::max(out_.last_end, now);
  ++running_changes_;
}

void OutcomeRecorder::killed(std::uint32_t i, const Job& job, Time start, Time now) {
  const Time ran = now - start;
  const double lost = static_cast<double>(job.procs) * static_cast<double>(ran);
  out_.busy_proc_seconds += lost;
  out_.lost_proc_seconds += lost;
  out_.killed_runs.push_back(KilledRun{i, start, now});
  JobOutcome& o = out_.jobs[i];
  ++o.restarts;
  o.run_before_final += ran;
  jobs_[i].waiting = true;
  ++running_changes_;
}

void OutcomeRecorder::planned(const ClusterState& state, const Decision& decision) {
  ++out_.passes;
  if (!decision.start.empty()) {
    for (JobId id : decision.backfilled) out_.jobs[id - 1].backfilled = true;
  }
  for (const Reservation& r : decision.reservations) {
    JobOutcome& o = out_.jobs[r.job - 1];
    if (o.first_reservation == kUnset && jobs_[r.job - 1].waiting) o.first_reservation = r.start;
  }
  if (heel_and_toe_ && !decision.reservations.empty())
    track_head(state, decision.reservations.front().job, decision.backfilled);
}

// Heel and toe (paper 000 section 6): the earliest start of the head job if every
// running job's real end were known. Only starts and kills change it, so it is
// recomputed only then or when the head changes. The state is the one after the pass's
// starts: a job first seen as the head takes its first earliest start without the jobs
// this same pass backfilled (they are its first thieves, not part of where it started).
void OutcomeRecorder::track_head(const ClusterState& state, JobId head,
                                 const std::vector<JobId>& backfilled_now) {
  const std::uint32_t i = static_cast<std::uint32_t>(head - 1);
  Tracked& t = jobs_[i];
  if (!t.waiting) return;
  if (head == head_ && running_changes_ == head_changes_seen_) return;
  head_ = head;
  head_changes_seen_ = running_changes_;
  Job job;
  job.id = head;
  job.procs = out_.jobs[i].procs;
  job.request = t.request;
  head_perfect_start_ =
      perfect_.of(state, job, [this](JobId id) { return jobs_[id - 1].real_end; });
  JobOutcome& o = out_.jobs[i];
  if (o.first_perfect_start == kUnset) {
    o.first_perfect_start = head_perfect_start_;
    if (!backfilled_now.empty()) {
      const Time now = state.now;
      o.first_perfect_start = perfect_.of(state, job, [&](JobId id) {
        const bool thief = std::find(backfilled_now.begin(), backfilled_now.end(), id) != backfilled_now.end();
        return thief ? now : jobs_[id - 1].real_end;
      });
    }
    t.last_perfect_start = o.first_perfect_start;
  }
  if (t.last_perfect_start != kUnset && head_perfect_start_ > t.last_perfect_start) ++o.pushbacks;
  t.last_perfect_start = head_perfect_start_;
}

}  // namespace easypp::measure
