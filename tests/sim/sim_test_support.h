// Helpers for the simulator tests: load a hand-made trace from tests/sim/data, run a
// policy on it, and look jobs up by their SWF job number.
#ifndef EASYPP_TESTS_SIM_SUPPORT_H
#define EASYPP_TESTS_SIM_SUPPORT_H

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/policy.h"
#include "measure/outcome.h"
#include "sim/simulator.h"
#include "sim/swf.h"
#include "sim/workload.h"

namespace easypp::sim::testing {

inline std::string data_path(const std::string& name) {
  return std::string(EASYPP_SRCDIR) + "/tests/sim/data/" + name;
}

inline Workload load(const std::string& name, const WorkloadOptions& options = {}) {
  return prepare(swf::read(data_path(name)), options);
}

inline measure::SimOutcome run(const Workload& w, Policy& policy, const SimOptions& options = {}) {
  return simulate(w, policy, options);
}

inline measure::SimOutcome run(const Workload& w, const std::string& policy_name,
                      const SimOptions& options = {}) {
  auto policy = make_policy(policy_name);
  return simulate(w, *policy, options);
}

// The outcome of the job with this SWF job number.
inline const measure::JobOutcome& job(const Workload& w, const measure::SimOutcome& o,
                                       std::int64_t swf_job) {
  for (std::size_t i = 0; i < w.jobs.size(); ++i) {
    if (w.jobs[i].swf_job == swf_job) return o.jobs[i];
  }
  throw std::out_of_range("no SWF job " + std::to_string(swf_job));
}

// A policy that plans exactly like `inner` but asks the driver for other traits (for
// example the same predictions without correction, paper 000 Fig. 5), and can watch
// every snapshot it is given.
class TraitsOverride : public Policy {
 public:
  TraitsOverride(std::unique_ptr<Policy> inner, PolicyTraits traits)
      : inner_(std::move(inner)), traits_(std::move(traits)) {}
  std::string_view name() const override { return inner_->name(); }
  const PolicyTraits& traits() const override { return traits_; }
  Decision plan(const ClusterState& state) override {
    if (watch) watch(state);
    return inner_->plan(state);
  }
  std::function<void(const ClusterState&)> watch;

 private:
  std::unique_ptr<Policy> inner_;
  PolicyTraits traits_;
};

}  // namespace easypp::sim::testing

#endif
