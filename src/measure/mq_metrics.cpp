#include "measure/mq_metrics.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace easypp::measure {

int JobClasses::of(Time runtime) const {
  const auto it = std::lower_bound(limits.begin(), limits.end(), runtime);
  return static_cast<int>(it - limits.begin());
}

namespace {

void add(SlowdownSummary& s, double wait, double run) {
  ++s.count;
  s.slowdown += 1.0 + wait / std::max(run, 1.0);
  s.bounded_slowdown += std::max(1.0, (wait + run) / std::max(run, 10.0));
}

void finish(SlowdownSummary& s) {
  if (s.count == 0) return;
  s.slowdown /= static_cast<double>(s.count);
  s.bounded_slowdown /= static_cast<double>(s.count);
}

}  // namespace

ClassSlowdowns class_slowdowns(const SimOutcome& outcome, std::size_t first, std::size_t last,
                               const JobClasses& classes) {
  if (first > last || last > outcome.jobs.size()) {
    throw std::invalid_argument("class_slowdowns: jobs [" + std::to_string(first) + ", " +
                                std::to_string(last) + ") outside the " +
                                std::to_string(outcome.jobs.size()) + " jobs of the run");
  }
  ClassSlowdowns out;
  for (std::size_t i = first; i < last; ++i) {
    const JobOutcome& j = outcome.jobs[i];
    if (j.start == kUnset) {
      throw std::invalid_argument("class_slowdowns: job index=" + std::to_string(i) +
                                  " never started");
    }
    const double wait = static_cast<double>(j.start - j.submit);
    const double run = static_cast<double>(j.runtime);
    add(out.all, wait, run);
    add(out.by_class[static_cast<std::size_t>(classes.of(j.runtime))], wait, run);
  }
  finish(out.all);
  for (SlowdownSummary& s : out.by_class) finish(s);
  return out;
}

ClassSlowdowns class_slowdowns(const SimOutcome& outcome, const JobClasses& classes) {
  return class_slowdowns(outcome, 0, outcome.jobs.size(), classes);
}

double slowdown_ratio(double single, double multi) {
  const double low = std::min(single, multi);
  return low > 0 ? (single - multi) / low : 0.0;
}

std::vector<TransientBatch> transient_ratios(const SimOutcome& single, const SimOutcome& multi,
                                             std::size_t batch, const JobClasses& classes) {
  if (batch == 0) throw std::invalid_argument("transient_ratios: batch=0");
  if (single.jobs.size() != multi.jobs.size()) {
    throw std::invalid_argument("transient_ratios: runs of " +
                                std::to_string(single.jobs.size()) + " and " +
                                std::to_string(multi.jobs.size()) + " jobs");
  }
  std::vector<TransientBatch> out;
  for (std::size_t first = 0; first < single.jobs.size(); first += batch) {
    const std::size_t last = std::min(first + batch, single.jobs.size());
    if (single.jobs[first].submit != multi.jobs[first].submit) {
      throw std::invalid_argument("transient_ratios: job index=" + std::to_string(first) +
                                  " submitted at different times in the two runs");
    }
    TransientBatch b;
    b.first_job = first;
    b.first_submit = single.jobs[first].submit;
    b.single = class_slowdowns(single, first, last, classes);
    b.multi = class_slowdowns(multi, first, last, classes);
    b.ratio = slowdown_ratio(b.single.all.slowdown, b.multi.all.slowdown);
    out.push_back(b);
  }
  return out;
}

}  // namespace easypp::measure
