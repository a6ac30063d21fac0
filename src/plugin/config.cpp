#include "plugin/config.h"

#include "core/policy.h"
#include "easypp/predictor.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <map>
#include <set>

namespace easypp::plugin {

namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// Slurm's max_rpc_cnt, its alias max_rpc_count, and max_sched_rpc_cnt (no Slurm key, read
// as max_rpc_cnt since these docs once called it Slurm's).
bool is_rpc_key(const std::string& key) {
  return key == "max_rpc_cnt" || key == "max_rpc_count" || key == "max_sched_rpc_cnt";
}

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& i : items) {
    if (!out.empty()) out += '|';
    out += i;
  }
  return out;
}

// Parses a whole decimal integer in [lo, hi]; false on anything else.
template <typename Int>
bool parse_int(std::string_view text, Int lo, Int hi, Int& out) {
  Int v = 0;
  const char* end = text.data() + text.size();
  auto [p, ec] = std::from_chars(text.data(), end, v);
  if (ec != std::errc() || p != end || v < lo || v > hi) return false;
  out = v;
  return true;
}

// Keys stock backfill reads (_load_config, 22.05 and 24.11) without the bf_ prefix that
// sched/easypp does not honour: named with the ignored bf_* keys.
bool unhonoured_backfill_key(const std::string& key) {
  return key == "max_job_bf" || key == "time_min_as_soft_limit";
}

// A key of stock backfill, and what sched/easypp offers instead.
std::string ignored_backfill_key(std::string_view item) {
  const std::string key = lower(trim(item.substr(0, item.find('='))));
  static const std::vector<std::pair<std::string, std::string>> instead = {
      {"bf_interval", "use easypp_interval"},
      {"bf_max_job_test", "use easypp_max_job_test"},
      {"bf_max_job_part", "use easypp_max_job_test"},
      {"bf_max_job_start", "use easypp_max_starts"},
      {"bf_max_job_user", "use easypp_max_job_user"},
      {"bf_max_job_user_part", "use easypp_max_job_user"},
      {"bf_window", "none: plans to every job's end"},
      {"bf_resolution", "none: plans in seconds"},
      {"bf_yield_interval", "use easypp_yield_interval"},
      {"bf_yield_sleep", "use easypp_yield_sleep"},
      {"bf_continue", "none: a pass goes on after yielding its locks unless partitions, "
                      "reservations or the configuration changed"},
      // Stock backfill refuses to start with it (fatal: no longer supported).
      {"max_job_bf", "stock's old bf_max_job_test; use easypp_max_job_test"},
      {"time_min_as_soft_limit", "none: a job with --time-min is planned on it, and its "
                                 "limit is set at its start, up to --time as the plan allows"},
  };
  for (const auto& [k, v] : instead)
    if (k == key) return std::string(item) + " (" + v + ")";
  return std::string(item);
}

class Parser {
 public:
  Parser(const std::vector<std::string>& policies, const std::vector<std::string>& killing,
         ParsedConfig& out)
      : policies_(policies), killing_(killing), out_(out) {}

  // Which of Slurm's names for max_rpc_cnt is read (the others are reported): stock looks
  // max_rpc_cnt= up first, then max_rpc_count=, wherever they stand; max_sched_rpc_cnt,
  // not Slurm's, comes last.
  void rpc_key_given(const std::string& k) {
    static const std::vector<std::string> precedence = {"max_rpc_cnt", "max_rpc_count",
                                                        "max_sched_rpc_cnt"};
    const auto rank = [](const std::string& name) {
      return std::find(precedence.begin(), precedence.end(), name) - precedence.begin();
    };
    if (rpc_key_.empty() || rank(k) < rank(rpc_key_)) rpc_key_ = k;
  }

  // `cut`: the items after this one that Slurm's commas cut off its value (metric=median
  // after easypp_predictor=history:window=3), joined by commas; empty when none were.
  void key_value(std::string_view key, std::string_view value, const std::string& cut = {}) {
    const std::string k = lower(key);
    // Slurm reads the first of a key given twice (xstrcasestr), so the second is ignored;
    // its error says what the first came to, which is the default if the first was refused.
    if (auto first = first_.find(k); first != first_.end()) {
      fail(key, value,
           "given twice; ignored" + (cut.empty() ? "" : " with " + cut + ", cut off it at a comma") +
               ": " + first->second);
      return;
    }
    outcome_ = "the first, " + std::string(key) + "=" + std::string(value) + ", is used";
    cut_ = cut;
    const bool known = known_key(k, key, value);
    cut_.clear();
    if (!known) return;  // unknown each time it is given
    first_.emplace(k, outcome_);
  }

 private:
  // False for an unknown key.
  bool known_key(const std::string& k, std::string_view key, std::string_view value) {
    Config& c = out_.config;
    if (k == "easypp_policy") {
      std::string why;
      if (!cut_.empty())
        fail(key, value, cut_off(kPolicyKeys), c.policy);
      else if (!valid_policy(value, why))
        fail(key, value, why.empty() ? "unknown policy (valid: " + live_policies() + ")" : why,
             c.policy);
      else
        c.policy = std::string(value);
    } else if (k == "easypp_partition_policy") {
      partition_policy(key, value);
    } else if (k == "easypp_requeue_partitions") {
      requeue_partitions(key, value);
    } else if (k == "easypp_window") {
      int_key(key, value, 1, 30, c.window);
      c.predictor_keys_given = true;
    } else if (k == "easypp_metric") {
      one_of(key, value, {"avg", "median", "min", "max"}, c.metric);
      c.predictor_keys_given = true;
    } else if (k == "easypp_correction") {
      one_of(key, value, {"estimate", "gradual", "exponential"}, c.correction);
      c.predictor_keys_given = true;
    } else if (k == "easypp_propagation") {
      std::string v = c.propagation ? "on" : "off";
      one_of(key, value, {"off", "on"}, v);
      c.propagation = v == "on";
      c.predictor_keys_given = true;
    } else if (k == "easypp_predictor") {
      predictor(key, value);
    } else if (k == "easypp_interval") {
      int_key(key, value, 1, 3600, c.interval);
    } else if (k == "easypp_max_job_test") {
      int_key(key, value, 1, 100000, c.max_job_test);
    } else if (k == "easypp_max_starts") {
      int_key(key, value, 0, 100000, c.max_starts);
    } else if (k == "easypp_array_tasks") {
      int_key(key, value, 1, 10000, c.array_tasks);
    } else if (k == "easypp_max_job_user") {
      int_key(key, value, 0, 100000, c.max_job_user);
    } else if (k == "easypp_reservation_depth") {
      int_key(key, value, 0, 1000, c.reservation_depth);
    } else if (k == "easypp_start_estimates") {
      int_key(key, value, 0, 100000, c.start_estimates);
    } else if (k == "easypp_save_interval") {
      int_key(key, value, 1, 86400, c.save_interval);
    } else if (k == "easypp_yield_interval") {
      int_key(key, value, 1000, 10000000, c.yield_interval_usec);
    } else if (k == "easypp_yield_sleep") {
      // At least 1 as in stock (bf_yield_sleep): a pass yielding for max_rpc_cnt would spin.
      int_key(key, value, 1, 10000000, c.yield_sleep_usec);
    } else if (k == "max_rpc_cnt" || k == "max_rpc_count" || k == "max_sched_rpc_cnt") {
      rpc_key(k, key, value);
    } else if (k == "easypp_bootstrap_days") {
      int_key(key, value, 0, 3650, c.bootstrap_days);
    } else if (k == "easypp_state_file") {
      if (!value.empty() && value.front() == '/' && value.back() != '/')
        c.state_file = std::string(value);
      else
        fail(key, value, "must be an absolute file path",
             "StateSaveLocation/easypp/predictor.json");
    } else if (k == "bf_min_age_reserve") {
      int_key(key, value, 0, 30 * 24 * 3600, c.min_age_reserve, c.min_age_reserve == 0 ? "off" : "");
    } else if (k == "bf_min_prio_reserve") {
      int_key<std::int64_t>(key, value, 1, 4294967295LL, c.min_prio_reserve,
                            c.min_prio_reserve == 0 ? "off" : "");
    } else if (k == "easypp_debug") {
      const std::string v = lower(value);
      if (v == "1" || v == "yes" || v == "true") c.debug = true;
      else if (v == "0" || v == "no" || v == "false") c.debug = false;
      else fail(key, value, "expected 0|1|yes|no|true|false", "0");
    } else {
      fail(key, value,
           "unknown key (known: easypp_policy, easypp_partition_policy, easypp_window, "
           "easypp_metric, easypp_correction, easypp_propagation, easypp_predictor, "
           "easypp_interval, easypp_max_job_test, "
           "easypp_max_starts, easypp_max_job_user, easypp_reservation_depth, easypp_array_tasks, "
           "easypp_start_estimates, "
           "easypp_yield_interval, easypp_yield_sleep, easypp_requeue_partitions, "
           "easypp_state_file, easypp_save_interval, easypp_bootstrap_days, easypp_debug); "
           "ignored");
      return false;
    }
    return true;
  }

  // max_rpc_cnt, its Slurm alias max_rpc_count, or max_sched_rpc_cnt (which earlier
  // versions of these docs called Slurm's): the one rpc_key_given() chose is read.
  void rpc_key(const std::string& k, std::string_view key, std::string_view value) {
    int& field = out_.config.max_rpc_cnt;
    if (k != rpc_key_) {
      fail(key, value, k == "max_sched_rpc_cnt"
                           ? "not a Slurm key (use max_rpc_cnt); ignored: " + rpc_key_ +
                                 " is given too"
                           : "Slurm's alias of max_rpc_cnt; ignored: max_rpc_cnt takes "
                             "precedence, as in Slurm");
      outcome_ = "the first was ignored too: " + rpc_key_ + " is read";
    } else if (k != "max_sched_rpc_cnt") {
      int_key(key, value, 0, 1000, field);
    } else {  // read, but never silently: Slurm does not read it
      const std::string why =
          "not a Slurm key (Slurm ignores it; use max_rpc_cnt); read here as max_rpc_cnt";
      if (parse_int(value, 0, 1000, field))
        fail(key, value, why);
      else
        fail(key, value, why + "; expected an integer in 0..1000", std::to_string(field));
    }
  }

  // A known name, with keys the policy takes (easy++:depth=2); `why` says what is wrong
  // with the keys.
  // A live system cannot run a policy whose own predictions are clairvoyant (perfect++).
  bool valid_policy(std::string_view spec, std::string& why) const {
    const std::string_view name = spec.substr(0, spec.find(':'));
    if (std::find(policies_.begin(), policies_.end(), name) == policies_.end()) {
      // Specs stay case-sensitive (their keys are core's); the name's case is only hinted.
      if (std::find(policies_.begin(), policies_.end(), lower(name)) != policies_.end())
        why = "unknown policy; policy names are lower case (" + lower(name) + ")";
      return false;
    }
    try {
      if (clairvoyant(make_policy(spec)->traits().predictor)) {
        why = "plans on each job's real runtime (simulation only)";
        return false;
      }
    } catch (const std::exception& e) {
      why = e.what();
      return false;
    }
    return true;
  }
  // Needs each job's real runtime: perfect, and the evaluation kinds given the workload.
  static bool clairvoyant(const std::string& spec) {
    if (spec.rfind("perfect", 0) == 0) return true;
    epp_predictor* p = epp_predictor_new(spec.c_str(), nullptr, 0);
    const bool needs = p != nullptr && epp_predictor_needs_workload(p) != 0;
    epp_predictor_free(p);
    return needs;
  }
  // What an error offers: every policy the plugin runs (not the clairvoyant ones), with
  // the keys its family reads as easypp-sim --list-policies prints them
  // (easy[:depth=N,...], timed-run[:base=...]).
  std::string live_policies() const {
    const std::vector<PolicyFamily> families = policy_families();
    std::string out;
    for (const std::string& name : policies_) {
      if (std::string why; !valid_policy(name, why)) continue;  // perfect++
      auto f = std::find_if(families.begin(), families.end(),
                            [&](const PolicyFamily& fam) { return fam.name == name; });
      out += (out.empty() ? "" : ", ") + (f == families.end() ? name : f->usage());
    }
    return out;
  }
  bool kills(std::string_view spec) const {
    const std::string_view name = spec.substr(0, spec.find(':'));
    return std::find(killing_.begin(), killing_.end(), name) != killing_.end();
  }

  static constexpr const char* kNoOptIn =
      "this policy kills and requeues running jobs (papers 002/004), which needs "
      "easypp_requeue_partitions=PART[;PART] naming the partitions whose jobs it may requeue";

  // NAME[;NAME]: the partitions whose running jobs a killing policy may requeue.
  void requeue_partitions(std::string_view key, std::string_view value) {
    std::string_view rest = value;
    while (true) {
      const auto semi = rest.find(';');
      const std::string_view name = trim(rest.substr(0, semi));
      if (name.empty())
        fail(key, value, "an empty partition name; skipped");
      else
        out_.config.requeue_partitions.emplace(name);
      if (semi == std::string_view::npos) break;
      rest.remove_prefix(semi + 1);
    }
  }

  static constexpr const char* kPredictorKeys = "separate a spec's keys with ';'";
  static constexpr const char* kPolicyKeys = "separate a policy's keys with ':'";
  // A bare word first cut off a partition's policy is likely its next entry (a:easy,b:fcfs).
  static constexpr const char* kPartitionEntries =
      "separate a policy's keys with ':', entries with ';'";
  // Why a value followed by cut_ is refused: it is not all there, so it is not used.
  std::string cut_off(const char* separate) const {
    const bool one = cut_.find(',') == std::string::npos;
    return cut_ + (one ? " looks like a part of this value cut off at a comma; "
                       : " look like parts of this value cut off at commas; ") +
           separate + " (" + (one ? "it is" : "they are") + " ignored, and so is this value)";
  }

  void fail(std::string_view key, std::string_view value, const std::string& why,
            const std::string& used = {}) {
    std::string line = "SchedulerParameters ";
    line.append(key).append("=").append(value).append(": ").append(why);
    if (!used.empty()) {
      line += "; using default " + used;
      outcome_ = "the first, " + std::string(key) + "=" + std::string(value) +
                 ", was refused, so the default " + used + " is used";
    }
    out_.errors.push_back(std::move(line));
  }

  // `kept`: what the value kept means, when its number alone does not say (0: off).
  template <typename Int = int>
  void int_key(std::string_view key, std::string_view value, Int lo, Int hi, Int& field,
               std::string_view kept = {}) {
    if (!parse_int(value, lo, hi, field))
      fail(key, value,
           "expected an integer in " + std::to_string(lo) + ".." + std::to_string(hi),
           std::to_string(field) + (kept.empty() ? "" : " (" + std::string(kept) + ")"));
  }

  // Case-insensitive, like easypp_debug's words; `field` gets the word as `allowed` has it.
  void one_of(std::string_view key, std::string_view value,
              const std::vector<std::string>& allowed, std::string& field) {
    if (auto word = std::find(allowed.begin(), allowed.end(), lower(value)); word != allowed.end())
      field = *word;
    else
      fail(key, value, "expected one of " + join(allowed), field);
  }

  // A whole predictor spec the library accepts, and that a live system can run: not the
  // clairvoyant kinds (perfect, and the evaluation kinds that read the real runtime).
  void predictor(std::string_view key, std::string_view value) {
    const std::string spec(value);
    const char* fallback = "the policy's own predictor";
    if (!cut_.empty()) {
      fail(key, value, cut_off(kPredictorKeys), fallback);
      return;
    }
    char err[256] = "";
    epp_predictor* p = epp_predictor_new(spec.c_str(), err, sizeof err);
    if (!p) {
      fail(key, value, err, fallback);
      return;
    }
    epp_predictor_free(p);
    if (clairvoyant(spec))
      fail(key, value, "needs each job's real runtime (simulation only)", fallback);
    else
      out_.config.predictor = spec;
  }

  // PART:POLICY[;PART:POLICY]. Each bad entry is reported and skipped; good ones stay.
  // The last entry is the one a comma cut (cut_).
  void partition_policy(std::string_view key, std::string_view value) {
    std::string_view rest = value;
    while (true) {
      const auto semi = rest.find(';');
      const std::string_view entry = trim(rest.substr(0, semi));
      if (!cut_.empty() && semi == std::string_view::npos) {
        const auto colon = entry.find(':');
        const bool bare = std::string_view(cut_).substr(0, cut_.find(',')).find('=') ==
                          std::string_view::npos;
        fail(key, value,
             cut_off(bare ? kPartitionEntries : kPolicyKeys) + "; entry '" +
                 std::string(entry) + "' skipped" +
                 (colon == std::string_view::npos
                      ? std::string()
                      : ", partition " + std::string(trim(entry.substr(0, colon))) +
                            " uses easypp_policy"));
      } else if (!entry.empty()) {
        const auto colon = entry.find(':');
        const std::string_view part = colon == std::string_view::npos
                                          ? std::string_view{}
                                          : trim(entry.substr(0, colon));
        const std::string_view pol = colon == std::string_view::npos
                                         ? std::string_view{}
                                         : trim(entry.substr(colon + 1));
        if (part.empty() || pol.empty())
          fail(key, value, "entry '" + std::string(entry) + "' is not PARTITION:POLICY; skipped");
        else if (std::string why; !valid_policy(pol, why))
          fail(key, value, "entry '" + std::string(entry) + "': " +
                               (why.empty() ? "unknown policy (valid: " + live_policies() + ")" : why) +
                               "; partition " + std::string(part) + " uses easypp_policy");
        else if (!out_.config.partition_policy.emplace(std::string(part), std::string(pol)).second)
          fail(key, value, "partition " + std::string(part) + " named twice; the first is kept");
      }
      if (semi == std::string_view::npos) break;
      rest.remove_prefix(semi + 1);
    }
  }

  // A policy that kills (pv-easy, timed-run) needs the opt-in: without it the default
  // (global) or easypp_policy (partition) is used, with one error each.
 public:
  void check_opt_in() {
    Config& c = out_.config;
    if (!c.requeue_partitions.empty()) return;
    if (kills(c.policy)) {
      fail("easypp_policy", c.policy, kNoOptIn, Config{}.policy);
      c.policy = Config{}.policy;
    }
    for (auto it = c.partition_policy.begin(); it != c.partition_policy.end();) {
      if (!kills(it->second)) {
        ++it;
        continue;
      }
      fail("easypp_partition_policy", it->first + ":" + it->second,
           std::string(kNoOptIn) + "; partition " + it->first + " uses easypp_policy");
      it = c.partition_policy.erase(it);
    }
  }

 private:
  // easypp_reservation_depth: the depth=N key on every configured policy that takes it
  // and does not set its own.
 public:
  void apply_depth() {
    Config& c = out_.config;
    if (c.reservation_depth == 0) return;
    auto deepen = [&](std::string& spec, const std::string& where) {
      if (spec.find("depth=") != std::string::npos) return;
      const std::string deeper = spec + ":depth=" + std::to_string(c.reservation_depth);
      try {
        make_policy(deeper);
        spec = deeper;
      } catch (const std::exception&) {
        out_.errors.push_back("SchedulerParameters easypp_reservation_depth=" +
                              std::to_string(c.reservation_depth) + ": policy " + spec + " (" +
                              where + ") takes no reservation depth; it plans as before");
      }
    };
    deepen(c.policy, "easypp_policy");
    for (auto& [part, spec] : c.partition_policy) deepen(spec, "partition " + part);
  }

 private:
  const std::vector<std::string>& policies_;
  const std::vector<std::string>& killing_;
  ParsedConfig& out_;
  // Lower-case key -> what its first occurrence came to (for a second one's error).
  std::map<std::string, std::string> first_;
  // What the key being parsed comes to, as first_ keeps it.
  std::string outcome_;
  // The items a comma cut off the value being parsed (key_value's `cut`).
  std::string cut_;
  // The max_rpc_cnt name that is read, of those given (see rpc_key_given).
  std::string rpc_key_;
};

}  // namespace

const std::string& Config::policy_for(const std::string& partition) const {
  auto it = partition_policy.find(partition);
  return it == partition_policy.end() ? policy : it->second;
}

std::string Config::predictor_spec() const {
  if (!predictor.empty()) return predictor;
  if (!predictor_keys_given) return {};
  return "history:window=" + std::to_string(window) + ",metric=" + metric +
         ",correction=" + correction + (propagation ? ",propagation=on" : "");
}

namespace {

// A key some policy family reads from its spec (depth, bound, trial, ...).
bool policy_key(const std::string& key) {
  for (const PolicyFamily& f : policy_families())
    for (const PolicyKey& k : f.keys)
      if (k.key == key) return true;
  return false;
}

// The words Slurm reads in SchedulerParameters besides bf_* (slurmctld, sched/backfill,
// sched/builtin, job_submit/throttle and slurm.conf(5) of 22.05 and 24.11): its flags,
// bare words (salloc_wait_nodes), and its keys' names. A bare item that is one of them, in
// any case, is Slurm's, never a piece cut off an easypp value.
bool slurm_word(const std::string& word) {
  static const std::set<std::string> words = {
      // flags
      "allow_zero_lic", "assoc_limit_stop", "defer", "defer_batch", "disable_hetero_steps",
      "disable_hetjob_steps", "disable_job_shrink", "enable_hetjob_steps",
      "enable_job_state_cache", "enable_user_top", "extra_constraints",
      "ignore_constraint_validation", "ignore_numa", "ignore_prefer_validation",
      "no_backup_scheduling", "no_env_cache", "nohold_on_prolog_fail", "pack_serial_at_end",
      "permit_job_expansion", "preempt_strict_order", "preempt_youngest_first",
      "reduce_completing_frag", "requeue_setup_env_fail", "salloc_wait_nodes",
      "sbatch_wait_nodes", "spec_cores_first", "time_min_as_soft_limit", "whole_hetjob",
      "whole_pack",
      // keys (key=value): given bare they are still Slurm's
      "batch_sched_delay", "bb_array_stage_cnt", "build_queue_timeout",
      "correspond_after_task_cnt", "default_queue_depth", "delay_boot", "interval",
      "jobs_per_user_per_hour", "max_array_tasks", "max_job_bf", "max_rpc_cnt",
      "max_rpc_count", "max_sched_time", "max_script_size", "max_submit_line_size",
      "max_switch_wait", "partition_job_depth", "preempt_reorder_count", "sched_interval",
      "sched_max_job_start", "sched_min_interval", "step_retry_count", "step_retry_time",
  };
  return word.rfind("bf_", 0) == 0 || words.count(word) != 0;
}

// An item of SchedulerParameters with the items after it that are pieces of its value
// cut off at commas (Slurm splits at every comma): a key of a predictor spec or of a
// policy, which no Slurm key is named like (easypp_predictor=history:window=3,metric=median),
// or a bare word that is not Slurm's (easypp_policy=mq:60,3600: mq's limits given as a
// list). `stray`: such a key with no value before it that takes it.
struct Item {
  std::string_view text;
  std::string cut;  // the pieces, comma-joined; empty: none
  enum class Stray { no, predictor_key, policy_key } stray = Stray::no;
};

// What pieces an item's value takes: easypp_predictor a predictor spec's keys,
// easypp_policy and easypp_partition_policy a policy's; each any bare word not Slurm's.
enum class Takes { nothing, predictor_keys, policy_keys };

std::vector<Item> join_cut_pieces(const std::vector<std::string_view>& raw) {
  std::vector<Item> items;
  std::size_t owner = 0;         // the last item that is no piece
  Takes takes = Takes::nothing;  // and what it takes
  for (const std::string_view text : raw) {
    const auto eq = text.find('=');
    const std::string key = lower(trim(text.substr(0, eq)));
    const bool spec_key = eq != std::string_view::npos && key.rfind("easypp_", 0) != 0;
    const bool predictor = spec_key && epp_is_spec_key(key.c_str()) != 0;
    const bool policy = spec_key && policy_key(key);
    // Slurm's flags are bare too (bf_continue); an easypp_ word is reported on its own.
    const bool bare = eq == std::string_view::npos && !key.empty() &&
                      key.rfind("easypp_", 0) != 0 && !slurm_word(key);
    if (takes == Takes::predictor_keys ? predictor || bare
        : takes == Takes::policy_keys  ? policy || bare
                                       : false) {
      std::string& cut = items[owner].cut;
      cut += (cut.empty() ? "" : ",") + std::string(text);
      continue;
    }
    if (predictor || policy) {  // reported alone; the value before it may take more
      items.push_back({text, {}, predictor ? Item::Stray::predictor_key : Item::Stray::policy_key});
      continue;
    }
    items.push_back({text});
    owner = items.size() - 1;
    takes = eq == std::string_view::npos       ? Takes::nothing
            : key == "easypp_predictor"         ? Takes::predictor_keys
            : key == "easypp_policy" || key == "easypp_partition_policy" ? Takes::policy_keys
                                                : Takes::nothing;
  }
  return items;
}

}  // namespace

ParsedConfig parse_scheduler_parameters(std::string_view params,
                                        const std::vector<std::string>& policies,
                                        const std::vector<std::string>& killing) {
  ParsedConfig out;
  Parser parser(policies, killing, out);
  std::vector<std::string_view> raw;
  for (std::string_view rest = params; !rest.empty();) {
    const auto comma = rest.find(',');
    raw.push_back(trim(rest.substr(0, comma)));
    rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
  }
  for (std::string_view item : raw) {  // as stock, only key= counts
    const auto eq = item.find('=');
    const std::string key = lower(trim(item.substr(0, eq)));
    if (eq != std::string_view::npos && is_rpc_key(key)) parser.rpc_key_given(key);
  }
  for (const Item& whole : join_cut_pieces(raw)) {
    const std::string_view item = whole.text;
    const auto eq = item.find('=');
    const std::string slurm_key = lower(trim(item.substr(0, eq)));
    if (whole.stray != Item::Stray::no) {
      out.errors.push_back(
          "SchedulerParameters " + std::string(item) + ": a key of " +
          (whole.stray == Item::Stray::predictor_key
               ? "a predictor spec, not of SchedulerParameters (give it in easypp_predictor's "
                 "value; separate a spec's keys with ';')"
               : "a policy, not of SchedulerParameters (give it in easypp_policy's value; "
                 "separate a policy's keys with ':')") +
          "; ignored");
      continue;
    }
    // Stock backfill's keys: three are honoured as it honours them, the rest ignored.
    const bool reserve_key = slurm_key == "bf_min_age_reserve" || slurm_key == "bf_min_prio_reserve";
    if (slurm_key == "bf_licenses") {  // any value: Slurm matches the word
      out.config.bf_licenses = true;
      continue;
    }
    if ((item.size() >= 3 && lower(item.substr(0, 3)) == "bf_" && !reserve_key) ||
        unhonoured_backfill_key(slurm_key)) {
      out.ignored.push_back(ignored_backfill_key(item));
      continue;
    }
    if (slurm_key == "assoc_limit_stop") {
      out.config.assoc_limit_stop = true;
      continue;
    }
    // Slurm's keys, but for max_rpc_cnt, which the plugin honours as stock backfill does.
    if ((item.size() < 7 || lower(item.substr(0, 7)) != "easypp_") && !is_rpc_key(slurm_key) &&
        !reserve_key)
      continue;
    if (eq == std::string_view::npos) {
      out.errors.push_back("SchedulerParameters " + std::string(item) +
                           ": expected key=value; ignored");
      continue;
    }
    parser.key_value(trim(item.substr(0, eq)), trim(item.substr(eq + 1)), whole.cut);
  }
  parser.check_opt_in();
  parser.apply_depth();
  return out;
}

}  // namespace easypp::plugin
