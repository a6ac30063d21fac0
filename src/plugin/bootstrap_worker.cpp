#include "plugin/bootstrap_worker.h"

#include <algorithm>
#include <exception>
#include <utility>

namespace easypp::plugin {

std::vector<std::pair<Time, Time>> bootstrap_days(Time now, int days) {
  std::vector<std::pair<Time, Time>> out;
  if (days <= 0) return out;
  const Time start = now - static_cast<Time>(days) * BootstrapWorker::kDay;
  for (int i = 0; i < days; ++i) {
    const Time from = start + static_cast<Time>(i) * BootstrapWorker::kDay;
    out.emplace_back(from, i + 1 == days ? now : from + BootstrapWorker::kDay - 1);
  }
  return out;
}

bool BootstrapWorker::start(Query query, Time now, int days) {
  if (busy_.exchange(true)) return false;
  if (thread_.joinable()) thread_.join();  // the last query's, over
  stop_ = false;
  {
    std::lock_guard lock(mutex_);
    result_.reset();
  }
  try {
    thread_ = std::thread([this, query = std::move(query), now, days] { run(query, now, days); });
  } catch (...) {
    busy_ = false;
    throw;
  }
  return true;
}

void BootstrapWorker::run(Query query, Time now, int days) {
  Result r;
  // Nothing may leave a thread function (std::terminate in slurmctld).
  try {
    r.ok = true;
    for (const auto& [from, to] : bootstrap_days(now, days)) {
      if (stop_) {
        r.ok = false;
        r.stopped = true;
        r.error = "stopped";
        break;
      }
      std::vector<FinishedJob> day;
      std::string error;
      if (!query(from, to, day, error)) {
        r.ok = false;
        r.error = error;
        break;
      }
      for (FinishedJob& f : day)
        if (f.end >= from && f.end <= to) r.jobs.push_back(std::move(f));
    }
    if (!r.ok) r.jobs.clear();
    std::stable_sort(r.jobs.begin(), r.jobs.end(),
                     [](const FinishedJob& a, const FinishedJob& b) { return a.end < b.end; });
  } catch (const std::exception& e) {
    r = Result{};
    r.error = e.what();
  } catch (...) {
    r = Result{};
    r.error = "unknown exception";
  }
  r.days = days;
  std::lock_guard lock(mutex_);
  result_ = std::move(r);
  answered_ = true;
}

std::optional<BootstrapWorker::Result> BootstrapWorker::take() {
  std::optional<Result> r;
  {
    std::lock_guard lock(mutex_);
    r = std::exchange(result_, std::nullopt);
    answered_ = false;
  }
  if (r) {
    if (thread_.joinable()) thread_.join();  // it has stored its result: ending now
    busy_ = false;
  }
  return r;
}

void BootstrapWorker::stop() {
  stop_ = true;
  if (thread_.joinable()) thread_.join();
  std::lock_guard lock(mutex_);
  result_.reset();
  answered_ = false;
  busy_ = false;
}

}  // namespace easypp::plugin
