// slurm.conf SchedulerParameters (src/plugin/config.cpp, Slurm-free): never throws, every
// error is one line naming the key, and what it accepts works: the policy (and each
// partition's) is one make_policy builds, and a predictor spec one the predictor takes.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/policy.h"
#include "easypp/predictor.h"
#include "plugin/config.h"
#include "plugin/planner.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::vector<std::string> policies = easypp::policy_names();
  // The policies that kill and requeue (pv-easy, timed-run): as the plugin passes them.
  static const std::vector<std::string> killing = easypp::plugin::killing_policy_names();
  std::string_view text(reinterpret_cast<const char*>(data), size);
  // Slurm hands over one slurm.conf value: a C string, never a line break.
  if (text.find_first_of(std::string_view("\0\n\r", 3)) != std::string_view::npos) return 0;
  easypp::plugin::ParsedConfig parsed =
      easypp::plugin::parse_scheduler_parameters(text, policies, killing);
  for (const auto& e : parsed.errors)
    if (e.empty() || e.find('\n') != std::string::npos) __builtin_trap();
  const auto& c = parsed.config;
  easypp::make_policy(c.policy);  // throws (a crash here) if the parser let a bad one through
  for (const auto& [part, policy] : c.partition_policy) {
    c.policy_for(part);
    easypp::make_policy(policy);
  }
  const std::string spec = c.predictor_spec();
  if (!spec.empty()) {
    char err[256];
    epp_predictor* p = epp_predictor_new(spec.c_str(), err, sizeof err);
    if (p == nullptr) __builtin_trap();
    epp_predictor_free(p);
  }
  if (c.window < 1 || c.window > 30 || c.interval < 1 || c.max_job_test < 1 || c.save_interval < 1 ||
      c.yield_sleep_usec < 1)
    __builtin_trap();
  return 0;
}
