// mq_reproduce: paper 001's experiment on one SWF trace. Runs the single-queue baseline
// (mq-1q, Fig. 3) and the multiple-queue policies on the same workload and writes
//   PREFIX.aggregate.tsv  policy, class (all, 1..4), jobs, slowdown, bounded slowdown, R
//   PREFIX.delay.tsv      policy, day, D (seconds) whenever a pass changed it (mq-vd*)
//   PREFIX.transient.tsv  policy, batch, first job's submit (days), jobs, s1, sm, R, and R
//                         per class (R1..R4; 0 where a class has no job in the batch)
// R = (s1 - sm) / min(s1, sm) against the baseline; every job counts (as in the paper).
// --estimates exact (default) gives every job its runtime as estimate, the paper's
// "accurate estimates" (section 3.2, 4); --estimates user keeps the trace's requests.
#include <algorithm>
#include <cstdio>
#include <exception>
#include <string>
#include <utility>
#include <vector>

#include "core/multi_queue.h"
#include "core/policy.h"
#include "measure/mq_metrics.h"
#include "sim/simulator.h"
#include "sim/swf.h"
#include "sim/workload.h"

namespace {

using namespace easypp;
using namespace easypp::sim;

int usage() {
  std::fprintf(stderr,
               "usage: mq_reproduce TRACE PREFIX [--estimates exact|user] [--batch N]\n"
               "                    [--policies mq,mq-vd,mq-vd0]\n");
  return 2;
}

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::size_t from = 0;
  for (;;) {
    const std::size_t comma = s.find(',', from);
    out.push_back(s.substr(from, comma == std::string::npos ? std::string::npos : comma - from));
    if (comma == std::string::npos) return out;
    from = comma + 1;
  }
}

}  // namespace

// Runs a policy and writes its variable delay D each time a pass changes it (the paper
// does not show D over time; this is how to read what the rule did).
class DelayRecorder : public Policy {
 public:
  DelayRecorder(Policy& inner, Time origin, std::string name, FILE* out)
      : inner_(inner), mq_(dynamic_cast<MultiQueuePolicy*>(&inner)), origin_(origin),
        name_(std::move(name)), out_(out) {}
  std::string_view name() const override { return inner_.name(); }
  const PolicyTraits& traits() const override { return inner_.traits(); }
  Decision plan(const ClusterState& state) override {
    Decision d = inner_.plan(state);
    if (mq_ && mq_->current_delay() != last_) {
      last_ = mq_->current_delay();
      std::fprintf(out_, "%s\t%.3f\t%.0f\n", name_.c_str(),
                   static_cast<double>(state.now - origin_) / 86400.0, last_);
    }
    return d;
  }

 private:
  Policy& inner_;
  MultiQueuePolicy* mq_;
  Time origin_;
  std::string name_;
  FILE* out_;
  double last_ = -1;
};

int main(int argc, char** argv) {
  if (argc < 3) return usage();
  const std::string trace_path = argv[1];
  const std::string prefix = argv[2];
  bool exact = true;
  std::size_t batch = 1000;
  std::vector<std::string> policies = {"mq", "mq-vd", "mq-vd0"};
  for (int i = 3; i < argc; i += 2) {
    if (i + 1 >= argc) return usage();
    const std::string opt = argv[i], value = argv[i + 1];
    if (opt == "--estimates" && (value == "exact" || value == "user")) {
      exact = value == "exact";
    } else if (opt == "--batch" && std::stoul(value) > 0) {
      batch = std::stoul(value);
    } else if (opt == "--policies") {
      policies = split(value);
    } else {
      std::fprintf(stderr, "mq_reproduce: %s=%s: not understood\n", opt.c_str(), value.c_str());
      return usage();
    }
  }
  try {
    Workload w = prepare(swf::read(trace_path), WorkloadOptions{});
    if (exact) {
      for (SimJob& j : w.jobs) j.job.estimate = std::max<Time>(j.runtime, 1);
    }
    auto baseline = make_policy("mq-1q");
    const measure::SimOutcome single = simulate(w, *baseline);
    const measure::ClassSlowdowns s1 = measure::class_slowdowns(single);
    FILE* agg = std::fopen((prefix + ".aggregate.tsv").c_str(), "w");
    FILE* tr = std::fopen((prefix + ".transient.tsv").c_str(), "w");
    FILE* dl = std::fopen((prefix + ".delay.tsv").c_str(), "w");
    if (!agg || !tr || !dl) {
      std::fprintf(stderr, "mq_reproduce: cannot write %s.*.tsv\n", prefix.c_str());
      return 1;
    }
    std::fprintf(agg, "policy\tclass\tjobs\tslowdown\tbounded_slowdown\tR\tR_bounded\tsim_s\n");
    auto row = [&](const std::string& name, const measure::ClassSlowdowns& s, double secs) {
      auto one = [&](const char* cls, const measure::SlowdownSummary& m,
                     const measure::SlowdownSummary& b) {
        std::fprintf(agg, "%s\t%s\t%lld\t%.4f\t%.4f\t%.4f\t%.4f\t%.2f\n", name.c_str(), cls,
                     static_cast<long long>(m.count), m.slowdown, m.bounded_slowdown,
                     measure::slowdown_ratio(b.slowdown, m.slowdown),
                     measure::slowdown_ratio(b.bounded_slowdown, m.bounded_slowdown), secs);
      };
      one("all", s.all, s1.all);
      const char* names[] = {"1", "2", "3", "4"};
      for (int c = 0; c < measure::kJobClasses; ++c) one(names[c], s.by_class[c], s1.by_class[c]);
    };
    row("mq-1q", s1, single.sim_seconds);
    std::fprintf(tr, "policy\tbatch\tday\tjobs\ts1\tsm\tR\tR1\tR2\tR3\tR4\n");
    std::fprintf(dl, "policy\tday\tdelay_s\n");
    for (const std::string& name : policies) {
      auto made = make_policy(name);
      DelayRecorder policy(*made, single.first_submit, name, dl);
      const measure::SimOutcome multi = simulate(w, policy);
      row(name, measure::class_slowdowns(multi), multi.sim_seconds);
      const auto batches = measure::transient_ratios(single, multi, batch);
      for (std::size_t b = 0; b < batches.size(); ++b) {
        const measure::TransientBatch& t = batches[b];
        std::fprintf(tr, "%s\t%zu\t%.3f\t%lld\t%.4f\t%.4f\t%.4f", name.c_str(), b,
                     static_cast<double>(t.first_submit - single.first_submit) / 86400.0,
                     static_cast<long long>(t.single.all.count), t.single.all.slowdown,
                     t.multi.all.slowdown, t.ratio);
        for (int c = 0; c < measure::kJobClasses; ++c) {
          std::fprintf(tr, "\t%.4f", measure::slowdown_ratio(t.single.by_class[c].slowdown,
                                                    t.multi.by_class[c].slowdown));
        }
        std::fprintf(tr, "\n");
      }
    }
    std::fclose(agg);
    std::fclose(tr);
    std::fclose(dl);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "mq_reproduce: %s: %s\n", trace_path.c_str(), e.what());
    return 1;
  }
  return 0;
}
