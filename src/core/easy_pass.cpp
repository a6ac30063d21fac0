#include "core/easy_pass.h"

#include <algorithm>
#include <memory>
#include <numeric>
#include <stdexcept>

namespace easypp {

void EasyPass::run(const ClusterState& state, const EasyRules& rules, Decision& decision) {
  if (rules.reservation_order == nullptr) {
    throw std::invalid_argument("EasyPass: rules.reservation_order is required");
  }
  decision.clear();
  continuable_ = false;
  head_.reset();
  started_.clear();
  placements_.clear();
  reserved_.clear();
  if (state.waiting.empty()) return;

  positions_.resize(state.waiting.size());
  std::iota(positions_.begin(), positions_.end(), std::uint32_t{0});
  rules.reservation_order->arrange(state, positions_);
  // Several reservations (depth, or the starvation guard's) need the node plan; one node
  // of `procs` CPUs plans the same.
  const bool starving = rules.bound != nullptr && rules.bound->starving(state);
  if (state.machine != nullptr || (rules.depth <= 1 && !starving)) {
    plan(state, rules, decision);
    continuable_ = state.machine == nullptr && rules.depth <= 1 && rules.bound == nullptr &&
                   rules.fit == BackfillFit::prediction && rules.lookahead == 0 &&
                   rules.front == 0 && rules.relative_age == 0 &&
                   rules.split == BackfillSplit::off && rules.classes == 0 && head_ &&
                   dynamic_cast<const QueueOrder*>(rules.reservation_order) != nullptr;
    if (continuable_) head_id_ = state.waiting[head_->position].id;
    return;
  }
  pool_ = Machine::single_node(state.procs);
  pool_state_.now = state.now;
  pool_state_.procs = state.procs;
  pool_state_.machine = &pool_;
  pool_state_.running = state.running;
  for (RunningJob& r : pool_state_.running) {
    auto a = std::make_shared<Allocation>();
    Resources amount;
    amount[kCpu] = r.job.procs;
    a->shares.push_back({0, r.job.procs, amount});
    r.allocation = std::move(a);
  }
  pool_state_.waiting = state.waiting;
  plan(pool_state_, rules, decision);
  decision.start_allocations.clear();
  for (Reservation& r : decision.reservations) r.allocation.reset();
}

bool EasyPass::run_continued(const ClusterState& state, const EasyRules& rules,
                             Decision& decision) {
  const std::vector<Job>& waiting = state.waiting;
  const ClusterState::Changes& changes = state.since_last_pass;
  const std::size_t arrived = changes.arrived;
  if (!continuable_ || !changes.known || arrived > waiting.size() ||
      state.machine != nullptr || changes.corrected_until > head_->shadow) {
    return false;
  }
  // The head is still waiting, before the new jobs (queue order; jobs ahead of it that
  // never fit stay ahead).
  const std::size_t first = waiting.size() - arrived;
  std::size_t h = 0;
  while (h < first && waiting[h].id != head_id_) ++h;
  if (h == first) return false;
  decision.clear();
  started_.clear();
  placements_.clear();
  reserved_.assign(1, static_cast<std::uint32_t>(h));
  head_->position = static_cast<std::uint32_t>(h);
  decision.reservations.push_back({head_id_, head_->shadow, nullptr});
  positions_.resize(arrived);
  std::iota(positions_.begin(), positions_.end(), static_cast<std::uint32_t>(first));
  for (std::uint32_t p : positions_) require_plannable(waiting[p]);
  decision.examined = static_cast<int>(arrived);
  if (rules.backfill_order == nullptr || plan_.full()) return true;
  std::span<std::uint32_t> candidates(positions_);
  const Time now = state.now;
  if (rules.backfill_order != rules.reservation_order) {
    std::size_t fitting = 0;
    for (std::uint32_t p : candidates)
      if (plan_.may_ever_fit_now(waiting[p], now + waiting[p].prediction)) candidates[fitting++] = p;
    candidates = candidates.first(fitting);
    rules.backfill_order->arrange(state, candidates);
  }
  for (std::uint32_t p : candidates) {
    if (plan_.full()) break;
    const Job& job = waiting[p];
    if (!plan_.may_fit_now(job)) continue;
    auto placement = plan_.fits_now(job, now + job.prediction);
    if (!placement) continue;
    plan_.start(job, *placement, now + job.prediction);
    started_.push_back(p);
    placements_.push_back(*placement);
    EasyPlan::record(decision, job, *placement, true);
  }
  return true;
}

void EasyPass::plan(const ClusterState& state, const EasyRules& rules, Decision& decision) {
  const std::vector<Job>& waiting = state.waiting;
  const Time now = state.now;
  plan_.begin(state, RunningEnd::predicted);
  const std::size_t depth = static_cast<std::size_t>(std::max(1, rules.depth));

  auto start = [&](std::uint32_t p, const EasyPlan::Placement& placement, Time runtime,
                   bool backfilled) {
    const Job& job = waiting[p];
    plan_.start(job, placement, now + runtime);
    started_.push_back(p);
    placements_.push_back(placement);
    EasyPlan::record(decision, job, placement, backfilled);
  };

  // Start in reservation order until the first job that does not fit now (the head): it
  // gets a reservation at the earliest start on predicted ends of running jobs and of the
  // jobs just started (an end already past counts as now). With depth > 1 the first
  // `depth` blocked jobs get one, and jobs among them that fit without delaying an
  // earlier reservation start (they are backfilled).
  // The bound (head_bound.h): when the head is guarded, it is reserved at its deadline in
  // a kill-time plan, and a backfill must fit there too (on the pool: end by the deadline
  // on its kill time or fit the processors free beyond the head's need there; on nodes,
  // where the predicted plan placed it). Skipped while nothing is idle: the head's
  // kill-time reservation cannot move later without a start, so a promise taken at a
  // later pass is no later. Set up as soon as the head is reserved, so that with depth > 1
  // the jobs backfilled between reservations are held to it too.
  bool guarded = false;
  Time kill_reference = kNever;  // the head's kill-time reservation (deadline if guarded)
  auto guard_head = [&] {
    kill_plan_.begin(state, RunningEnd::kill_time);
    for (std::size_t i = 0; i < started_.size(); ++i) {
      const Job& job = waiting[started_[i]];
      kill_plan_.start(job, placements_[i], now + job.estimate);
    }
    Job head = waiting[head_->position];
    head.prediction = head.estimate;  // planned for its estimate
    const EasyPlan::Slot slot = kill_plan_.head_start(head);
    kill_reference = slot.start;
    if (auto deadline = rules.bound->deadline(head.id, head_->shadow, slot.start)) {
      // Before any reservation the kill-time plan only gains resources over time, so
      // what is free at the kill-time start stays free at a later deadline.
      kill_plan_.reserve(head, {*deadline, slot.allocation});
      guarded = true;
      kill_reference = *deadline;
    }
  };

  // A job not reserved for was passed over: the starts after it are backfills (in name
  // only: they plan as the jobs before the head do).
  bool passed_over = false;
  std::size_t k = 0;
  for (; k < positions_.size() && reserved_.size() < depth; ++k) {
    const std::uint32_t p = positions_[k];
    const Job& job = waiting[p];
    require_plannable(job);
    ++decision.examined;
    // Never satisfiable in this domain: it must not block the queue.
    if (!plan_.ever_fits(job)) continue;
    // After the first reservation (depth > 1) a job that fits now is a backfill: it plans
    // on what backfills plan on (rules.fit: the estimate for the safe variants) and, while
    // the head is guarded, must fit the kill-time plan too, as in the backfill loop below.
    const bool backfill = !reserved_.empty();
    const Time runtime = backfill && rules.fit != BackfillFit::prediction ? job.estimate : job.prediction;
    auto placement = plan_.fits_now(job, now + runtime);
    if (placement && backfill && guarded) {
      if (kill_plan_.fits_at(job, *placement, now + job.estimate)) {
        kill_plan_.start(job, *placement, now + job.estimate);
      } else {
        placement.reset();  // it would delay the guarded head: reserved instead
      }
    }
    if (placement) {
      start(p, *placement, runtime, backfill || passed_over);
      continue;
    }
    // Never reserved (with backfilling): it starts only where it fits now (later in this
    // pass it fits no better), and the jobs behind it are planned as if it were not there.
    if (!job.reservable && rules.backfill_order != nullptr) {
      passed_over = true;
      continue;
    }
    const EasyPlan::Slot slot = plan_.head_start(job);
    if (slot.start == kNever) continue;  // windows keep it off every node for good
    if (reserved_.empty()) head_ = Head{p, slot.start};
    plan_.reserve(job, slot);
    reserved_.push_back(p);
    decision.reservations.push_back({job.id, slot.start, slot.allocation});
    if (reserved_.size() == 1 && rules.bound != nullptr && rules.backfill_order != nullptr && !plan_.full())
      guard_head();
  }
  // With no job left to backfill the bound still runs: a head's promise is taken at its
  // first pass as the head.
  if (reserved_.empty() || rules.backfill_order == nullptr || plan_.full()) return;

  // Here the head's kill-time plan is set up: it was when the head was reserved (idle
  // resources only shrink in a pass, so the plan was not full then either).
  if (rules.bound != nullptr && head_) {
    const std::span<const std::uint32_t> behind(positions_.data() + k, positions_.size() - k);
    if (rules.bound->guard_starved(state, behind, kill_plan_) > 0) guarded = true;
    if (rules.bound->guard_fair(state, behind, kill_plan_) > 0) guarded = true;
  }

  std::span<std::uint32_t> candidates(positions_.data() + k, positions_.size() - k);
  if (rules.lookahead > 0 && candidates.size() > rules.lookahead) {
    candidates = candidates.first(rules.lookahead);
  }
  const bool counted = rules.backfill_order != rules.reservation_order;
  if (counted) {
    // Only jobs that fit now can start in this pass (idle and extra processors only
    // shrink), so order just those: on a full machine that is a handful, not the queue.
    const bool by_prediction = rules.fit == BackfillFit::prediction;
    std::size_t fitting = 0;
    for (std::uint32_t p : candidates) {
      const Job& job = waiting[p];
      require_plannable(job);
      const Time end = now + (by_prediction ? job.prediction : job.estimate);
      if (plan_.may_ever_fit_now(job, end)) candidates[fitting++] = p;
    }
    decision.examined += static_cast<int>(candidates.size());
    candidates = candidates.first(fitting);
    // arrange() expects queue order; positions_ is in queue order already unless the
    // reservation order moved it.
    if (!std::is_sorted(candidates.begin(), candidates.end())) {
      std::sort(candidates.begin(), candidates.end());
    }
    rules.backfill_order->arrange(state, candidates);
    // Whether waiting position p is among the first n behind the head in reservation
    // order (front=, splitn=): a scan of n entries, n a small key value, for the few
    // candidates that fit now.
    auto among_first = [&](std::uint32_t p, std::size_t n) {
      const auto first = positions_.begin() + static_cast<std::ptrdiff_t>(k);
      const auto last = first + static_cast<std::ptrdiff_t>(std::min(n, positions_.size() - k));
      return std::find(first, last, p) != last;
    };
    if (rules.classes > 1) {
      // Coarse shortest-first: the class of a prediction on a log scale of base F, then
      // queue order. Each candidate's class is computed once and packed above its
      // position (classes < 64), so one sort of the keys gives the order.
      class_keys_.clear();
      for (std::uint32_t p : candidates) {
        Time t = waiting[p].prediction;
        std::uint64_t c = 0;
        while (t >= rules.classes) {
          t /= rules.classes;
          ++c;
        }
        class_keys_.push_back(c << 32 | p);
      }
      std::sort(class_keys_.begin(), class_keys_.end());
      for (std::size_t i = 0; i < class_keys_.size(); ++i) {
        candidates[i] = static_cast<std::uint32_t>(class_keys_[i]);
      }
    }
    if (rules.front > 0 || rules.relative_age > 0) {
      const Time head_wait = now - waiting[head_->position].submit;
      auto old = [&](std::uint32_t p) {
        if (rules.relative_age > 0 && head_wait > 0 &&
            (now - waiting[p].submit) * 100 >= head_wait * rules.relative_age) {
          return true;
        }
        return rules.front > 0 && among_first(p, rules.front);
      };
      auto mid = std::stable_partition(candidates.begin(), candidates.end(), old);
      std::sort(candidates.begin(), mid);  // queue order (the simulator's reservation order)
    }
    if (rules.split != BackfillSplit::off) {
      // Split backfilling (BackfillSplit): the candidates ending before the head's
      // reservation keep the backfill order; the others, in queue order, can only use
      // the processors the reservation leaves (the extra processors).
      const Time shadow = head_->shadow;
      auto ends_before = [&](std::uint32_t p) {
        const Job& job = waiting[p];
        const Time runtime = rules.fit == BackfillFit::prediction ? job.prediction : job.estimate;
        if (now + runtime > shadow) return false;
        if ((guarded || rules.split_kill) && now + job.estimate > kill_reference) return false;
        if (rules.split_safe && now + job.estimate > shadow) return false;
        return true;
      };
      const bool short_first = rules.split != BackfillSplit::extra_first;
      auto mid = std::stable_partition(candidates.begin(), candidates.end(), [&](std::uint32_t p) {
        return ends_before(p) == short_first;
      });
      const std::span<std::uint32_t> extra =
          short_first ? std::span<std::uint32_t>(mid, candidates.end())
                      : std::span<std::uint32_t>(candidates.begin(), mid);
      std::sort(extra.begin(), extra.end());  // queue order
      if (rules.split == BackfillSplit::short_kill) {
        std::stable_sort(extra.begin(), extra.end(), [&](std::uint32_t a, std::uint32_t b) {
          return waiting[a].estimate < waiting[b].estimate;
        });
      }
      if (rules.split_window > 0) {
        // Only the first split_window jobs after the head may take the extra processors.
        auto in_window = [&](std::uint32_t p) { return among_first(p, rules.split_window); };
        auto kept = std::stable_partition(extra.begin(), extra.end(), in_window);
        const std::size_t dropped = static_cast<std::size_t>(extra.end() - kept);
        // Move the dropped ones to the end of candidates and cut them off.
        std::rotate(kept, extra.end(), candidates.end());
        candidates = candidates.first(candidates.size() - dropped);
      }
    }
  }
  for (std::uint32_t p : candidates) {
    if (plan_.full()) break;  // nothing else can start; the rest is not examined
    const Job& job = waiting[p];
    if (!counted) {
      require_plannable(job);
      ++decision.examined;
    }
    if (!plan_.may_fit_now(job)) continue;
    const Time runtime = rules.fit == BackfillFit::prediction ? job.prediction : job.estimate;
    auto placement = plan_.fits_now(job, now + runtime);
    if (!placement) continue;
    if (guarded) {
      if (!kill_plan_.fits_at(job, *placement, now + job.estimate)) continue;
      kill_plan_.start(job, *placement, now + job.estimate);
    }
    start(p, *placement, runtime, true);
  }
}

}  // namespace easypp
