// What the predictor remembers of one user: bounded, so memory per user is bounded.
#ifndef EASYPP_PREDICTOR_USER_HISTORY_H
#define EASYPP_PREDICTOR_USER_HISTORY_H

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "spec.h"

namespace easypp::predictor {

// The longest runtime a run may have, 2^40 s (about 35,000 years): anything longer is bad
// input, and sums of kept runtimes stay far inside int64.
inline constexpr std::int64_t kMaxRuntime = std::int64_t{1} << 40;

// One terminated job that taught the predictor.
struct Run {
  std::uint64_t job_id = 0;
  std::int64_t submit = 0;
  std::int64_t end = 0;
  std::int64_t estimate = 0;
  std::int64_t runtime = 0;
};

// The most recent runs, oldest first, ordered by end time (ties: arrival order), so an
// import of accounting records in any order builds the same history as a live feed.
// Storage grows with the runs kept, up to `capacity` (<= kMaxWindow): a user with one run
// costs one Run, not kMaxWindow (most users of a big site have few).
class RunRing {
 public:
  explicit RunRing(std::size_t capacity = kMaxWindow) : capacity_(capacity) {}
  std::size_t size() const { return size_; }
  std::size_t capacity() const { return capacity_; }
  // i = 0 is the oldest kept run, size()-1 the most recent. Until the ring is full head_
  // is 0, so the index stays inside the storage grown so far.
  const Run& at(std::size_t i) const { return runs_[index(i)]; }
  const Run& newest() const { return at(size_ - 1); }
  // Sum of min(cap, runtime) over the kept runs (0 if none): O(1) when the runtimes are
  // tracked and none is longer than cap, else a walk over the storage (the kept runs are
  // exactly its slots, wrapped or not; an integer sum is the same in any order): over the
  // runtimes' copies when tracked, over the runs otherwise.
  std::int64_t capped_runtime_sum(std::int64_t cap) const;
  // From now on add() keeps the kept runtimes' sum and maximum for capped_runtime_sum, and
  // the newest runs' runtimes and end for newest_runtime/newest_end; with `logs`, also
  // log1p of the newest runtimes (newest_runtime_log1p). Off by default: only the learned
  // model reads them, and the other kinds would pay for them on every run (the maximum is
  // re-found when it is dropped).
  void track_runtimes(bool logs = false);
  // at(size()-1-i).runtime for i < size(), i < kNewestKept; at(size()-1).end (size() > 0).
  // When tracked, from the ring itself, without reading the runs (with many users they
  // are not in cache: these are read for every prediction of the learned model).
  static constexpr std::size_t kNewestKept = 3;
  std::int64_t newest_runtime(std::size_t i) const { return tracked_ ? newest_runtimes_[i] : at(size_ - 1 - i).runtime; }
  std::int64_t newest_end() const { return tracked_ ? newest_end_ : newest().end; }
  // std::log1p of newest_runtime(i), same i, when the logs are tracked: taken once, when
  // the run is learnt (its log is the learned model's target there), not per prediction.
  bool tracks_logs() const { return logs_tracked_; }
  double newest_runtime_log1p(std::size_t i) const { return newest_logs_[i]; }
  // The tracked copies in place, newest first (size() of them, at most kNewestKept).
  const std::int64_t* newest_runtimes() const { return newest_runtimes_; }
  const double* newest_runtime_logs() const { return newest_logs_; }
  // Returns true if the ring grew (false: it was full and dropped its oldest run, or the
  // run is older than everything kept in a full ring and was not stored). If it runs out
  // of memory it throws with the ring unchanged.
  bool add(const Run& run);
  // The same, given runtime_log1p = std::log1p(run.runtime) (read only if the logs are
  // tracked), so a caller that has it does not take it again.
  bool add(const Run& run, double runtime_log1p);
  // Storage for one more run, so the next add() allocates nothing and cannot fail. If it
  // runs out of memory it throws with the ring unchanged.
  void make_room();

 private:
  // head_ + i < 2 * capacity_: one subtraction, not a division by a run-time modulus.
  std::size_t index(std::size_t i) const {
    const std::size_t j = head_ + i;
    return j < capacity_ ? j : j - capacity_;
  }
  Run& slot(std::size_t i) { return runs_[index(i)]; }
  // Stores run at position pos (0..size_), the later ones moved up by one.
  void put(std::size_t pos, const Run& run);
  // After an add at position pos (tracked): the newest runs' copies.
  void track_newest(std::size_t pos, const Run& run, double runtime_log1p);
  std::vector<Run> runs_;
  // If tracked_: each slot's runtime, slot for slot with runs_. The capped sum walks these
  // (a few cache lines) when a kept run is longer than the cap, and add() reads the
  // dropped runtime here.
  std::vector<std::int64_t> runtimes_;
  std::size_t capacity_;
  std::size_t head_ = 0;
  std::size_t size_ = 0;
  bool tracked_ = false;
  bool logs_tracked_ = false;
  std::int64_t runtime_sum_ = 0;  // of the kept runs, if tracked_
  std::int64_t max_runtime_ = 0;  // of the kept runs, if tracked_ (meaningless when empty)
  std::int64_t newest_runtimes_[kNewestKept] = {};  // if tracked_: newest first
  std::int64_t newest_end_ = 0;                     // if tracked_
  double newest_logs_[kNewestKept] = {};            // if logs_tracked_: log1p of newest_runtimes_
};

// The most recent learned jobs as (end, id), for idempotent re-imports. A job is already
// known if its id is among the kSeenIds kept (whatever its end), or if the set is full
// and the job ended no later than the oldest kept one: such a run could not enter the
// 30-run history any more. Id 0 means "unknown" and is never deduplicated. Kept as a circular
// buffer ordered by end time, so the usual arrival (the newest end) is O(1). Each id sits
// beside its end: the usual contains() and insert() touch one cache line of it, not one
// of an id array and one of an end array (with many users it is not in cache). Like
// RunRing, storage grows with use.
class SeenJobs {
 public:
  static constexpr std::size_t kSeenIds = 128;
  bool contains(std::uint64_t id, std::int64_t end) const;
  // Whether the id itself is kept (a scan: for loading a state, not the learning path).
  bool has_id(std::uint64_t id) const;
  // If it runs out of memory it throws with the set unchanged.
  void insert(std::uint64_t id, std::int64_t end);
  // Storage for one more id, so the next insert() allocates nothing and cannot fail.
  void make_room();
  std::size_t size() const { return size_; }
  // i = 0 is the oldest end kept.
  std::uint64_t id_at(std::size_t i) const { return jobs_[(head_ + i) % kSeenIds].id; }
  std::int64_t end_at(std::size_t i) const { return jobs_[(head_ + i) % kSeenIds].end; }

 private:
  struct Job {
    std::uint64_t id = 0;  // 0 in unused slots
    std::int64_t end = 0;
  };
  std::vector<Job> jobs_;
  std::uint64_t high_water_ = 0;  // largest id ever inserted: above it, new for sure
  // The newest kept end (meaningless when empty): a job ending later, the usual arrival,
  // is checked and inserted without a read of the buffer (with many users not in cache).
  std::int64_t newest_end_ = 0;
  std::size_t head_ = 0;
  std::size_t size_ = 0;
};

struct UserHistory {
  // Bounded table for type=extended: recent runs per distinct estimate. At most
  // kMaxEstimates estimates per user; the one learned least recently is dropped.
  static constexpr std::size_t kMaxEstimates = 64;
  struct EstimateRuns {
    std::int64_t estimate = 0;
    std::uint64_t last_used = 0;  // learn sequence number, for eviction
    RunRing runs;
  };

  RunRing recent;
  std::vector<EstimateRuns> by_estimate;  // only filled for type=extended
  SeenJobs seen;
  // Lifetime sum and count of runtime/estimate over taught runs (fallback=relative).
  double accuracy_sum = 0.0;
  std::uint64_t accuracy_count = 0;
  std::uint64_t learn_seq = 0;

  const RunRing* runs_with_estimate(std::int64_t estimate) const;
  // If it runs out of memory it throws with by_estimate unchanged.
  void add_by_estimate(const Run& run, std::size_t window);
};

}  // namespace easypp::predictor

#endif
