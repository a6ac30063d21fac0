// One EASY scheduling pass over a snapshot (paper 000 section 1, Fig. 1), reusable by
// every policy of the EASY family: start jobs in reservation order while they fit; the
// first that does not (the head) gets a reservation at the shadow time; other jobs are
// then backfilled in backfill order if they end by the shadow time or fit in the extra
// processors (those free at the shadow time beyond the head's need).
//
// Cost per pass: O(R log R) for the running jobs plus O(Q log Q) for ordering the queue,
// O(1) per backfill candidate; scratch buffers are reused across passes.
#ifndef EASYPP_CORE_EASY_PASS_H
#define EASYPP_CORE_EASY_PASS_H

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "core/decision.h"
#include "core/job.h"
#include "core/job_order.h"
#include "core/profile.h"

namespace easypp {

// Which runtime of a backfill candidate must end by the shadow time.
enum class BackfillFit {
  prediction,  // EASY, EASY++: the scheduler's prediction
  estimate,    // easy++-safe (section 4): the user estimate, so the reservation holds
};

struct EasyRules {
  const JobOrder* reservation_order = nullptr;  // required
  const JobOrder* backfill_order = nullptr;     // nullptr: no backfilling (FCFS)
  BackfillFit fit = BackfillFit::prediction;
};

class EasyPass {
 public:
  struct Head {
    std::uint32_t position;  // index into state.waiting
    Time shadow;             // its reservation
    int extra;               // processors free at `shadow` beyond its need, before backfill
  };

  // Plans one pass; fills `decision` (start, backfilled, reservations[0] = the head's,
  // examined). Previous contents of `decision` are replaced.
  void run(const ClusterState& state, const EasyRules& rules, Decision& decision);

  // Results of the last run(): the blocked head (none if all started or the queue was
  // empty) and the positions started (in order before the head, then backfilled).
  const std::optional<Head>& head() const { return head_; }
  std::span<const std::uint32_t> started() const { return started_; }

 private:
  std::vector<std::uint32_t> positions_;
  std::vector<std::uint32_t> started_;
  std::vector<AvailabilityProfile::Busy> busy_;
  AvailabilityProfile profile_;
  std::optional<Head> head_;
};

}  // namespace easypp

#endif
