// The policy registry: every name make_policy() accepts, with what it means in paper 000.
#include <functional>
#include <stdexcept>

#include "core/conservative.h"
#include "core/easy_family.h"
#include "core/lxfw_backfill.h"
#include "core/multi_queue.h"
#include "core/policy.h"
#include "core/policy_params.h"
#include "core/pv_easy.h"
#include "core/timed_run.h"

namespace easypp {
namespace {

// Default system-generated predictions: the predictor library's default history model
// (average of the user's last two runs, section 3.1).
constexpr const char* kHistory = "history";

PolicyTraits on_estimates(bool correct = false) {
  PolicyTraits t;
  t.predictor = "estimate";
  t.correct_predictions = correct;
  return t;
}

PolicyTraits on_predictions(const char* predictor = kHistory) {
  PolicyTraits t;
  t.predictor = predictor;
  t.correct_predictions = true;
  return t;
}

// X2 (section 5): the scheduler sees every user estimate doubled (estimate_factor; the
// driver still kills at the user's own limit). X2 plans on those doubled estimates.
PolicyTraits doubled_estimates() {
  PolicyTraits t = on_estimates();
  t.estimate_factor = 2.0;
  return t;
}

// X2+ / X2++: history predictions doubled too (prediction_factor), falling back on the
// doubled estimate, which also caps them; predictions are corrected.
PolicyTraits doubled_predictions() {
  PolicyTraits t = on_predictions();
  t.estimate_factor = 2.0;
  t.prediction_factor = 2.0;
  return t;
}

struct Entry {
  const char* name;
  // True when the predictor is the policy's free parameter (+ and ++ variants), so
  // PolicyOptions.predictor may replace it; false when the name fixes it.
  bool predictor_overridable;
  // Builds the policy with these traits (its defaults, or with the predictor replaced),
  // reading its own keys from the spec.
  std::function<std::unique_ptr<Policy>(PolicyTraits, PolicyParams&)> make;
  PolicyTraits traits;
  // The keys `make` reads (for policy_families()).
  std::vector<PolicyKey> keys{};
};

// The EASY family's keys; age= and lxfw= only where backfilling is shortest-first.
std::vector<PolicyKey> easy_family_keys(const EasyFamilyConfig& c) {
  std::vector<PolicyKey> keys = {{"depth", "N"},
                                 {"bound", "off|SECONDS"},
                                 {"guard", "slipped|always|tight"},
                                 {"starve", "off|SECONDS"},
                                 {"fair", "off|SECONDS"},
                                 {"protect", "off|N"},
                                 {"lookahead", "off|N"}};
  if (c.shortest_backfill) {
    keys.push_back({"front", "off|N"});
    keys.push_back({"oldfirst", "off|PERCENT"});
    keys.push_back({"split", "off|short|extra|kill"});
    keys.push_back({"splitby", "pred|kill|safe"});
    keys.push_back({"splitn", "off|N"});
    keys.push_back({"classes", "off|F"});
    keys.push_back({"age", "off|SECONDS"});
    keys.push_back({"lxfw", "off|N"});
  }
  return keys;
}

const std::vector<PolicyKey> kQueueLimitKeys = {{"limits", "SECONDS/SECONDS/..."}};
// mq-vd and mq-vd0 also take D_1, the initial variable delay.
const std::vector<PolicyKey> kDelayedQueueKeys = {{"limits", "SECONDS/SECONDS/..."},
                                                  {"delay", "SECONDS"}};

// An EasyFamilyPolicy entry: `c` without traits, completed at make time.
Entry easy_family(const char* name, bool overridable, PolicyTraits traits, EasyFamilyConfig c) {
  c.name = name;
  return {name, overridable,
          [c](PolicyTraits t, PolicyParams& params) {
            EasyFamilyConfig full = c;
            full.traits = std::move(t);
            // Reservations per pass (1 = EASY); the name then says it, for reports.
            full.depth = static_cast<int>(params.integer("depth", 1, 1, 1000));
            // The bound on the head (head_bound.h): bound=off|SECONDS of slack past the
            // head's kill-time reservation, guard=slipped|always.
            std::optional<std::int64_t> fallback;
            if (c.bound) fallback = c.bound->slack;
            const auto slack = params.integer_or_off("bound", fallback, 0, 100'000'000);
            const std::string guard = params.word("guard", "", {"slipped", "always", "tight"});
            if (!slack && !guard.empty()) {
              throw std::invalid_argument("policy " + params.spec() + ": guard=" + guard +
                                          " needs bound=SECONDS");
            }
            const bool tight = guard == "tight";
            const bool always =
                guard.empty() ? c.bound && c.bound->always : guard == "always" || tight;
            full.bound.reset();
            // Starvation threshold (head_bound.h): starve=off|SECONDS, with bound= only.
            const auto starve = params.integer_or_off("starve", std::nullopt, 0, 100'000'000);
            if (starve && !slack) {
              throw std::invalid_argument("policy " + params.spec() + ": starve=" +
                                          std::to_string(*starve) + " needs bound=SECONDS");
            }
            // Fair start (head_bound.h): fair=off|SECONDS of slack, with bound= only.
            const auto fair = params.integer_or_off("fair", std::nullopt, 0, 100'000'000);
            if (fair && !slack) {
              throw std::invalid_argument("policy " + params.spec() + ": fair=" +
                                          std::to_string(*fair) + " needs bound=SECONDS");
            }
            // The next heads guarded on kill times (head_bound.h): protect=off|N.
            const auto protect = params.integer_or_off("protect", std::nullopt, 1, 1000);
            if (protect && !slack) {
              throw std::invalid_argument("policy " + params.spec() + ": protect=" +
                                          std::to_string(*protect) + " needs bound=SECONDS");
            }
            if (slack) {
              full.bound = BoundRule{*slack, always, starve ? *starve : kNever,
                                     fair ? *fair : kNever,
                                     static_cast<int>(protect.value_or(0)), tight};
            }
            // Aging of shortest-first backfilling: age=off|SECONDS (job_order.h).
            full.age = params.integer_or_off("age", c.age, 0, 100'000'000);
            // LXF&W(w) backfill order, w in thousandths per hour: lxfw=off|N.
            if (auto w = params.integer_or_off("lxfw", c.lxfw, 0, 1'000'000)) {
              full.lxfw = static_cast<int>(*w);
            } else {
              full.lxfw.reset();
            }
            // Both replace shortest-first backfilling: one at a time, and only where it is.
            if ((full.age || full.lxfw) && !c.shortest_backfill) {
              throw std::invalid_argument("policy " + params.spec() +
                                          ": age= and lxfw= reorder shortest-first "
                                          "backfilling, which this policy does not do");
            }
            if (full.age && full.lxfw) {
              throw std::invalid_argument("policy " + params.spec() +
                                          ": age= and lxfw= are two backfill orders; give one");
            }
            // Lookahead window of backfill candidates (easy_pass.h): lookahead=off|N.
            full.lookahead = static_cast<int>(
                params.integer_or_off("lookahead", std::nullopt, 1, 1'000'000).value_or(0));
            full.front = static_cast<int>(
                params.integer_or_off("front", std::nullopt, 1, 1'000'000).value_or(0));
            full.relative_age = static_cast<int>(
                params.integer_or_off("oldfirst", std::nullopt, 1, 100'000).value_or(0));
            if ((full.front || full.relative_age) && !c.shortest_backfill) {
              throw std::invalid_argument("policy " + params.spec() +
                                          ": front= and oldfirst= reorder shortest-first "
                                          "backfilling, which this policy does not do");
            }
            // Split backfilling (easy_pass.h, BackfillSplit): split=off|short|extra|kill,
            // splitby=pred|kill|safe (kill needs bound=), splitn=off|N.
            const std::string split = params.word("split", "off", {"off", "short", "extra", "kill"});
            full.split = split == "short"   ? BackfillSplit::short_first
                         : split == "extra" ? BackfillSplit::extra_first
                         : split == "kill"  ? BackfillSplit::short_kill
                                            : BackfillSplit::off;
            const std::string splitby = params.word("splitby", "", {"pred", "kill", "safe"});
            full.split_kill = splitby == "kill";
            full.split_safe = splitby == "safe";
            full.split_window = static_cast<int>(
                params.integer_or_off("splitn", std::nullopt, 1, 1'000'000).value_or(0));
            if ((!splitby.empty() || full.split_window) && full.split == BackfillSplit::off) {
              throw std::invalid_argument("policy " + params.spec() +
                                          ": splitby= and splitn= need split=short|extra|kill");
            }
            if (full.split_kill && !slack) {
              throw std::invalid_argument("policy " + params.spec() +
                                          ": splitby=kill needs bound=SECONDS");
            }
            // Coarse shortest-first (easy_pass.h): classes=off|F, F >= 2.
            full.classes = static_cast<int>(
                params.integer_or_off("classes", std::nullopt, 2, 1'000'000).value_or(0));
            if ((full.split != BackfillSplit::off || full.classes) && !c.shortest_backfill) {
              throw std::invalid_argument("policy " + params.spec() +
                                          ": split= and classes= change shortest-first "
                                          "backfilling, which this policy does not do");
            }
            if (params.has_keys()) full.name = params.spec();
            return std::unique_ptr<Policy>(std::make_unique<EasyFamilyPolicy>(std::move(full)));
          },
          std::move(traits), easy_family_keys(c)};
}

const std::vector<Entry>& registry() {
  static const std::vector<Entry> entries = {
      easy_family("fcfs", false, on_estimates(), {.backfill = false}),
      easy_family("easy", false, on_estimates(), {}),
      easy_family("easy-pcor", false, on_estimates(true), {}),
      easy_family("easy+", true, on_predictions(), {}),
      easy_family("easy-sjbf", false, on_estimates(), {.shortest_backfill = true}),
      easy_family("easy++", true, on_predictions(), {.shortest_backfill = true}),
      // Clairvoyant; corrections only matter for runs longer than their estimate.
      easy_family("perfect++", false, on_predictions("perfect"), {.shortest_backfill = true}),
      {"conservative", false,
       [](PolicyTraits t, PolicyParams&) {
         return std::unique_ptr<Policy>(
             std::make_unique<ConservativePolicy>("conservative", std::move(t)));
       },
       on_estimates()},
      // Paper 002: preemptive venture EASY (pv_easy.h), Last Model predictions by default.
      {"pv-easy", true,
       [](PolicyTraits t, PolicyParams&) {
         return std::unique_ptr<Policy>(std::make_unique<PvEasyPolicy>("pv-easy", std::move(t)));
       },
       [] {
         PolicyTraits t = on_estimates();
         t.predictor = "last";
         t.kills = true;
         return t;
       }()},
      easy_family("x2", false, doubled_estimates(), {}),
      easy_family("x2+", true, doubled_predictions(), {}),
      easy_family("x2++", true, doubled_predictions(), {.shortest_backfill = true}),
      // SJF: shortest first for starting and for the reservation too (section 5).
      easy_family("sjf", false, on_estimates(),
                  {.shortest_reservation = true, .shortest_backfill = true}),
      easy_family("sjf+", true, on_predictions(),
                  {.shortest_reservation = true, .shortest_backfill = true}),
      easy_family("easy++-dbook", true, on_predictions(),
                  {.shortest_backfill = true, .double_booking = true}),
      easy_family("easy++-safe", true, on_predictions(),
                  {.shortest_backfill = true, .fit = BackfillFit::estimate}),
      // Paper 003: LXF&W(w)-backfilling, w = 0.02/hour (lxfw_backfill.h); on estimates, and
      // on predictions with correction (lxf-w+, takes --predictor like easy++).
      {"lxf-w", false,
       [](PolicyTraits t, PolicyParams&) { return std::unique_ptr<Policy>(std::make_unique<LxfwBackfillPolicy>("lxf-w", std::move(t))); },
       on_estimates()},
      {"lxf-w+", true,
       [](PolicyTraits t, PolicyParams&) { return std::unique_ptr<Policy>(std::make_unique<LxfwBackfillPolicy>("lxf-w+", std::move(t))); },
       on_predictions()},
      // Paper 001: multiple-queue backfilling (mq), with variable delay (mq-vd: delta_1 = s_1
      // as printed; mq-vd0: delta_1 = 0), and its single-queue baseline of Fig. 3 (mq-1q).
      // Queue limits as limits=L1/L2/... (or the older mq:L1:L2); multi_queue.h.
      {"mq", false,
       [](PolicyTraits t, PolicyParams& p) { return make_multi_queue(std::move(t), DelayRule::none, true, p); },
       on_estimates(), kQueueLimitKeys},
      {"mq-vd", false,
       [](PolicyTraits t, PolicyParams& p) { return make_multi_queue(std::move(t), DelayRule::paper, true, p); },
       on_estimates(), kDelayedQueueKeys},
      {"mq-vd0", false,
       [](PolicyTraits t, PolicyParams& p) { return make_multi_queue(std::move(t), DelayRule::first_zero, true, p); },
       on_estimates(), kDelayedQueueKeys},
      {"mq-1q", false,
       [](PolicyTraits t, PolicyParams& p) { return make_multi_queue(std::move(t), DelayRule::none, false, p); },
       on_estimates()},
      // Paper 004: trial runs before a base scheduler commits (timed_run.h); user
      // estimates unless a predictor replaces them.
      {"timed-run", true,
       [](PolicyTraits t, PolicyParams& p) { return make_timed_run(std::move(t), p); },
       on_estimates(), {{"base", "fcfs|easy"}, {"trial", "SECONDS"}}},
  };
  return entries;
}

}  // namespace

std::unique_ptr<Policy> make_policy(std::string_view spec, const PolicyOptions& options) {
  PolicyParams params = PolicyParams::parse(spec);
  const std::string& name = params.name();
  for (const Entry& e : registry()) {
    if (name != e.name) continue;
    if (!options.predictor.empty() && !e.predictor_overridable) {
      throw std::invalid_argument("policy=" + std::string(name) +
                                  ": its predictions are fixed by its name, so predictor=" +
                                  options.predictor +
                                  " does not apply (use a + or ++ policy, e.g. easy++)");
    }
    PolicyTraits traits = e.traits;
    if (!options.predictor.empty()) traits.predictor = options.predictor;
    auto policy = e.make(std::move(traits), params);
    params.finish();
    return policy;
  }
  std::string valid;
  for (const PolicyFamily& f : policy_families()) valid += (valid.empty() ? "" : ", ") + f.usage();
  throw std::invalid_argument("unknown policy=" + name + " (valid: " + valid + ")");
}

bool policy_takes_predictor(std::string_view spec) {
  const std::string_view name = spec.substr(0, spec.find(':'));
  for (const Entry& e : registry())
    if (name == e.name) return e.predictor_overridable;
  return true;  // unknown: make_policy says so
}

std::vector<std::string> policy_names() {
  std::vector<std::string> names;
  for (const Entry& e : registry()) names.emplace_back(e.name);
  return names;
}

std::vector<PolicyFamily> policy_families() {
  std::vector<PolicyFamily> families;
  for (const Entry& e : registry()) families.push_back({e.name, e.keys});
  return families;
}

std::string PolicyFamily::usage() const {
  std::string s = name;
  for (std::size_t i = 0; i < keys.size(); ++i)
    s += (i == 0 ? "[:" : ",") + keys[i].key + "=" + keys[i].values;
  if (!keys.empty()) s += "]";
  return s;
}

}  // namespace easypp
