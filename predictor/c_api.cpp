// The C ABI: one mutex per handle, and no exception ever leaves the library (it runs
// inside slurmctld).
#include <cstdio>
#include <cstring>
#include <mutex>
#include <new>
#include <optional>
#include <string>
#include <utility>

#include "correction.h"
#include "easypp/predictor.h"
#include "error_buffer.h"
#include "runtime_model.h"
#include "state_file.h"

using easypp::predictor::RuntimeModel;

struct epp_predictor {
  explicit epp_predictor(const easypp::predictor::Spec& spec) : model(spec) {}
  mutable std::mutex mu;
  RuntimeModel model;
  // A state file of a newer schema a load refused: from then on no save replaces a file of
  // a newer schema, whatever its path is called. The file at the target is read again
  // before each save (only while this holds), so one of our schema put in its place, or
  // given its inode, is saved over. Lifted by a load through the file's path (any name of
  // it) that reads a file there or finds none.
  easypp::predictor::KeptFile refused_newer;
  // A state file a load found but could not read (LoadOutcome::kept), and why: never
  // overwritten by this handle, under any name of it, until a load reads it or finds none.
  easypp::predictor::KeptFile unread;
  std::string unread_why;
};

namespace {

// The handle's lock for the functions that answer outside a try block; not owning if
// locking failed (std::system_error), which they answer as for no predictor: no exception
// leaves the library.
std::unique_lock<std::mutex> locked(const epp_predictor* p) noexcept {
  try {
    return std::unique_lock(p->mu);
  } catch (...) {
    return {};
  }
}

}  // namespace

extern "C" {

epp_predictor* epp_predictor_new(const char* spec, char* err, size_t errlen) {
  try {
    std::string error;
    auto parsed = easypp::predictor::parse_spec(spec, error);
    if (!parsed) {
      easypp::predictor::set_error(err, errlen, error);
      return nullptr;
    }
    return new epp_predictor(*parsed);
  } catch (const std::exception& e) {
    easypp::predictor::set_error(err, errlen, "predictor", e.what());
  } catch (...) {
    easypp::predictor::set_error(err, errlen, "predictor: unexpected error");
  }
  return nullptr;
}

void epp_predictor_free(epp_predictor* p) { delete p; }

// Without the lock: the pointer outlives any lock anyway. Only epp_predictor_set_seed
// replaces the text, and the header forbids running it concurrently with this.
const char* epp_predictor_spec(const epp_predictor* p) { return p ? p->model.spec_text().c_str() : ""; }

int epp_predictor_propagates(const epp_predictor* p) {
  return p && p->model.spec().kind == easypp::predictor::Kind::History && p->model.spec().propagation ? 1 : 0;
}

int64_t epp_predict(epp_predictor* p, const epp_job* job) {
  if (job == nullptr) return 1;
  if (p == nullptr) return job->estimate > 0 ? job->estimate : 1;
  try {
    std::lock_guard lock(p->mu);
    return p->model.predict(*job);  // only `learned` allocates (its pending jobs)
  } catch (...) {
    return job->estimate > 0 ? job->estimate : 1;  // out of memory: plan with the limit
  }
}

int64_t epp_correct(const epp_predictor* p, const epp_job* job, int64_t current_prediction, int64_t elapsed,
                    int corrections) {
  if (p == nullptr || job == nullptr) return elapsed < INT64_MAX - 60 ? elapsed + 60 : INT64_MAX;
  // The spec never changes after creation: no lock needed.
  return easypp::predictor::next_prediction(p->model.spec(), job->estimate, current_prediction, elapsed, corrections);
}

int epp_learn(epp_predictor* p, const epp_job* job, int64_t start, int64_t end, int end_state) {
  if (p == nullptr || job == nullptr) return 0;
  try {
    std::lock_guard lock(p->mu);
    return p->model.learn(*job, start, end, end_state) ? 1 : 0;
  } catch (...) {
    return 0;  // out of memory: the run is not learned, the predictor stays usable
  }
}

int epp_save(const epp_predictor* p, const char* path, char* err, size_t errlen) {
  if (p == nullptr || path == nullptr) {
    easypp::predictor::set_error(err, errlen, "epp_save: no predictor or path");
    return -1;
  }
  try {
    std::lock_guard lock(p->mu);
    std::string error, kept_why;
    if (p->unread.named_by(path)) {
      kept_why = p->unread_why;
    } else if (p->refused_newer.held()) {
      easypp::predictor::newer_state_at(path, kept_why);
    }
    if (!kept_why.empty()) {
      easypp::predictor::set_error(err, errlen,
                                   std::string(path) + ": " + kept_why + "; not overwriting it "
                                                       "(move it away to save this history there)");
      return -1;
    }
    if (!easypp::predictor::save_state(p->model, path, error)) {
      easypp::predictor::set_error(err, errlen, error);
      return -1;
    }
    return 0;
  } catch (const std::exception& e) {
    easypp::predictor::set_error(err, errlen, path, e.what());
  } catch (...) {
    easypp::predictor::set_error(err, errlen, path, "unexpected error");
  }
  return -1;
}

int epp_load(epp_predictor* p, const char* path, char* err, size_t errlen) {
  return epp_load_with_flags(p, path, 0, err, errlen);
}

int epp_load_with_flags(epp_predictor* p, const char* path, unsigned flags, char* err, size_t errlen) {
  if (p == nullptr || path == nullptr) {
    easypp::predictor::set_error(err, errlen, "epp_load: no predictor or path");
    return EPP_LOAD_ERROR;
  }
  const unsigned unknown_flags = flags & ~static_cast<unsigned>(EPP_LOAD_READ_ONLY);
  const auto mode = (flags & EPP_LOAD_READ_ONLY) != 0 ? easypp::predictor::LoadMode::ReadOnly
                                                      : easypp::predictor::LoadMode::Recover;
  try {
    // A flag of a later interface is refused, not ignored: it may ask to leave files alone.
    if (unknown_flags != 0) {
      easypp::predictor::set_error(err, errlen,
                                   std::string(path) + ": epp_load_with_flags: unknown flags " +
                                       std::to_string(unknown_flags) + "; nothing loaded");
      return EPP_LOAD_ERROR;
    }
    std::lock_guard lock(p->mu);
    std::string error;
    auto outcome = easypp::predictor::load_state(p->model, path, error, mode);
    // What this load kept replaces what was kept before (of this file or another); a kept
    // file it read, or found gone, under any name, is no longer kept.
    if (outcome.newer) {
      p->refused_newer = {path, outcome.kept_file};
    } else if (p->refused_newer.named_by(path)) {
      p->refused_newer = {};
    }
    if (!outcome.kept.empty() && !outcome.newer) {
      p->unread = {path, outcome.kept_file};
      p->unread_why = outcome.kept;
    } else if (p->unread.named_by(path)) {
      p->unread = {};
    }
    if (outcome.result != EPP_LOAD_OK) easypp::predictor::set_error(err, errlen, error);
    return outcome.result;
  } catch (const std::exception& e) {  // the model is only replaced by a complete load
    easypp::predictor::set_error(err, errlen, path, e.what());
  } catch (...) {
    easypp::predictor::set_error(err, errlen, path, "unexpected error");
  }
  return EPP_LOAD_ERROR;
}

int epp_copy_history(epp_predictor* to, const epp_predictor* from, char* err, size_t errlen) {
  if (to == nullptr || from == nullptr || to == from) {
    easypp::predictor::set_error(err, errlen, "epp_copy_history: no predictor, or the same one twice");
    return -1;
  }
  try {
    std::scoped_lock lock(to->mu, from->mu);
    std::string error;
    if (!easypp::predictor::copy_state(from->model, to->model, error)) {
      easypp::predictor::set_error(err, errlen, error);
      return -1;
    }
    to->refused_newer = from->refused_newer;
    to->unread = from->unread;
    to->unread_why = from->unread_why;
    return 0;
  } catch (const std::exception& e) {
    easypp::predictor::set_error(err, errlen, "epp_copy_history", e.what());
  } catch (...) {
    easypp::predictor::set_error(err, errlen, "epp_copy_history: unexpected error");
  }
  return -1;
}

size_t epp_predictor_users(const epp_predictor* p) {
  if (p == nullptr) return 0;
  const auto lock = locked(p);
  return lock ? p->model.users() : 0;
}

size_t epp_predictor_records(const epp_predictor* p) {
  if (p == nullptr) return 0;
  const auto lock = locked(p);
  return lock ? p->model.records() : 0;
}

size_t epp_predictor_user_ids(const epp_predictor* p, uint32_t* out, size_t max) {
  if (p == nullptr) return 0;
  const auto lock = locked(p);
  if (!lock) return 0;
  if (out != nullptr && max > 0) {
    // Sorted output without allocating: a partial selection of the smallest ids.
    size_t n = 0;
    p->model.for_each_history([&](std::uint32_t uid, const easypp::predictor::UserHistory&) {
      if (n < max) {
        out[n++] = uid;
      } else if (uid < out[max - 1]) {
        out[max - 1] = uid;
      } else {
        return;
      }
      for (size_t i = n - 1; i > 0 && out[i] < out[i - 1]; --i) std::swap(out[i], out[i - 1]);
    });
  }
  return p->model.users();
}

size_t epp_user_runs(const epp_predictor* p, uint32_t user, epp_run* out, size_t max) {
  if (p == nullptr) return 0;
  const auto lock = locked(p);
  if (!lock) return 0;
  const auto* h = p->model.history(user);
  if (h == nullptr) return 0;
  const auto& ring = h->recent;
  for (size_t i = 0; out != nullptr && i < ring.size() && i < max; ++i) {
    const auto& r = ring.at(i);
    out[i] = epp_run{r.job_id, r.submit, r.end, r.estimate, r.runtime};
  }
  return ring.size();
}

int epp_user_accuracy(const epp_predictor* p, uint32_t user, double* mean, uint64_t* count) {
  if (p == nullptr) return 0;
  const auto lock = locked(p);
  if (!lock) return 0;
  const auto* h = p->model.history(user);
  if (h == nullptr || h->accuracy_count == 0) return 0;
  if (mean != nullptr) *mean = h->accuracy_sum / static_cast<double>(h->accuracy_count);
  if (count != nullptr) *count = h->accuracy_count;
  return 1;
}

int epp_is_spec_key(const char* key) {
  try {
    return key != nullptr && easypp::predictor::is_spec_key(key) ? 1 : 0;
  } catch (...) {
    return 0;  // out of memory building a kind's list
  }
}

size_t epp_sweep_size(void) { return easypp::predictor::kSweepSize; }

int epp_sweep_spec(size_t index, char* buf, size_t len) {
  if (index >= easypp::predictor::kSweepSize || buf == nullptr || len == 0) return -1;
  try {
    std::string s = easypp::predictor::canonical(easypp::predictor::sweep_config(index));
    if (s.size() + 1 > len) return -1;
    std::memcpy(buf, s.c_str(), s.size() + 1);
    return static_cast<int>(s.size());
  } catch (...) {
    return -1;
  }
}

int epp_predictor_needs_workload(const epp_predictor* p) {
  return p && easypp::predictor::is_error_model(p->model.spec().kind) ? 1 : 0;
}

int epp_set_workload(epp_predictor* p, const epp_workload_job* jobs, size_t n, char* err, size_t errlen) {
  if (p == nullptr) {
    easypp::predictor::set_error(err, errlen, "epp_set_workload: no predictor");
    return -1;
  }
  try {
    std::lock_guard lock(p->mu);
    std::string error;
    if (!p->model.set_workload(jobs, n, error)) {
      easypp::predictor::set_error(err, errlen, error);
      return -1;
    }
    return 0;
  } catch (const std::exception& e) {
    easypp::predictor::set_error(err, errlen, "epp_set_workload", e.what());
  } catch (...) {
    easypp::predictor::set_error(err, errlen, "epp_set_workload: unexpected error");
  }
  return -1;
}

int epp_get_workload_bounds(const epp_predictor* p, epp_workload_bounds* out) {
  if (p == nullptr || out == nullptr) return 0;
  const auto lock = locked(p);
  if (!lock) return 0;
  const easypp::predictor::WorkloadStats* w = p->model.workload();
  if (w == nullptr) return 0;
  *out = epp_workload_bounds{w->runtime.lb, w->runtime.ub, w->procs.lb,  w->procs.ub,
                             w->area.lb,    w->area.ub,    w->app_jobs.ub, w->frequent_apps.size(),
                             w->jobs,       w->short_jobs, w->large_jobs};
  return 1;
}

int epp_predictor_set_seed(epp_predictor* p, uint64_t seed) {
  if (p == nullptr) return 0;
  try {
    std::lock_guard lock(p->mu);
    return p->model.set_seed(seed) ? 1 : 0;
  } catch (...) {
    return 0;  // out of memory rebuilding the spec text
  }
}

}  // extern "C"
