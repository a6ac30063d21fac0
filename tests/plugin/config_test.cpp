// SchedulerParameters parsing: every easypp_ key, its range checks, the error lines
// (naming key=value and the default used), and that Slurm's own keys are left alone.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "plugin/config.h"

namespace easypp::plugin {
namespace {

// perfect++ is a name the plugin knows (the registry's), refused for its clairvoyance.
const std::vector<std::string> kPolicies = {"easy", "easy+", "easy-sjbf", "easy++", "perfect++"};

ParsedConfig parse(const std::string& text) { return parse_scheduler_parameters(text, kPolicies); }

TEST(PluginConfig, EmptyGivesDocumentedDefaults) {
  const ParsedConfig p = parse("");
  EXPECT_TRUE(p.errors.empty());
  EXPECT_EQ(p.config.policy, "easy++");
  EXPECT_EQ(p.config.window, 2);
  EXPECT_EQ(p.config.metric, "avg");
  EXPECT_EQ(p.config.correction, "estimate");
  EXPECT_EQ(p.config.interval, 5);
  EXPECT_EQ(p.config.max_job_test, 1000);
  EXPECT_EQ(p.config.max_starts, 0);
  EXPECT_EQ(p.config.max_job_user, 0);
  EXPECT_EQ(p.config.reservation_depth, 0);
  EXPECT_EQ(p.config.start_estimates, 100);
  EXPECT_EQ(p.config.save_interval, 60);
  EXPECT_EQ(p.config.bootstrap_days, 30);
  EXPECT_EQ(p.config.state_file, "");
  EXPECT_FALSE(p.config.debug);
  EXPECT_EQ(p.config.yield_interval_usec, 30000);
  EXPECT_EQ(p.config.yield_sleep_usec, 10000);
  EXPECT_EQ(p.config.max_rpc_cnt, 0);
  EXPECT_FALSE(p.config.assoc_limit_stop);
  EXPECT_EQ(p.config.predictor_spec(), "");
}

TEST(PluginConfig, SlurmKeysAreIgnored) {
  const ParsedConfig p = parse("bf_interval=30,sched_interval=-1,default_queue_depth=100,"
                               "bf_continue,easypp_interval=7");
  EXPECT_TRUE(p.errors.empty()) << p.errors.front();
  EXPECT_EQ(p.config.interval, 7);
  // Stock backfill's keys are named (one log line), with what to use instead.
  EXPECT_EQ(p.ignored,
            (std::vector<std::string>{"bf_interval=30 (use easypp_interval)",
                                      "bf_continue (none: a pass goes on after yielding its "
                                      "locks unless partitions, reservations or the "
                                      "configuration changed)"}));
}

// Lock yielding: the plugin's own keys (stock's 2 s / 0.5 s defaults would hold the locks
// far beyond 50 ms), and Slurm's max_rpc_cnt honoured as stock backfill does.
TEST(PluginConfig, YieldKeysAndSlurmsMaxRpcCnt) {
  const ParsedConfig p = parse("bf_yield_interval=2000000,easypp_yield_interval=20000,"
                               "easypp_yield_sleep=1,max_rpc_cnt=150");
  ASSERT_TRUE(p.errors.empty()) << p.errors.front();
  EXPECT_EQ(p.config.yield_interval_usec, 20000);
  EXPECT_EQ(p.config.yield_sleep_usec, 1);
  EXPECT_EQ(p.config.max_rpc_cnt, 150);
  EXPECT_EQ(p.ignored,
            (std::vector<std::string>{"bf_yield_interval=2000000 (use easypp_yield_interval)"}));
  const ParsedConfig bad = parse("easypp_yield_interval=10,max_rpc_cnt=5000");
  ASSERT_EQ(bad.errors.size(), 2u);
  EXPECT_EQ(bad.config.yield_interval_usec, 30000) << bad.errors[0];
  EXPECT_EQ(bad.config.max_rpc_cnt, 0) << bad.errors[1];
}

// Slurm's assoc_limit_stop, a flag both schedulers read (case-insensitive, as stock's
// xstrcasestr); no error, not among the ignored keys.
TEST(PluginConfig, SlurmsAssocLimitStop) {
  for (const char* params : {"assoc_limit_stop", "sched_interval=-1,ASSOC_LIMIT_STOP,bf_continue"}) {
    const ParsedConfig p = parse(params);
    EXPECT_TRUE(p.errors.empty()) << params;
    EXPECT_TRUE(p.config.assoc_limit_stop) << params;
  }
  EXPECT_FALSE(parse("sched_interval=-1,easypp_interval=3").config.assoc_limit_stop);
}

// Slurm's bf_licenses, a flag both schedulers read (the main scheduler too, which matches
// the word, so a value does not matter): honoured, not among the ignored keys; any other
// bf_ key stays ignored.
TEST(PluginConfig, SlurmsBfLicenses) {
  for (const char* params : {"bf_licenses", "sched_interval=-1,BF_LICENSES,bf_continue",
                             "bf_licenses=1"}) {
    const ParsedConfig p = parse(params);
    EXPECT_TRUE(p.errors.empty()) << params;
    EXPECT_TRUE(p.config.bf_licenses) << params;
    for (const std::string& i : p.ignored) EXPECT_NE(i, "bf_licenses") << params;
  }
  EXPECT_FALSE(parse("bf_continue,easypp_interval=3").config.bf_licenses);
}

// Stock backfill's bf_min_age_reserve and bf_min_prio_reserve are honoured (not among the
// ignored keys); out of stock's ranges (age 0..30 days, priority 1..4294967295) they stay
// off with one error naming the item.
TEST(PluginConfig, MinimumAgeAndPriorityToReserve) {
  const ParsedConfig p = parse("bf_min_age_reserve=600,bf_min_prio_reserve=4294967295,bf_continue");
  ASSERT_TRUE(p.errors.empty()) << p.errors.front();
  EXPECT_EQ(p.config.min_age_reserve, 600);
  EXPECT_EQ(p.config.min_prio_reserve, 4294967295LL);
  EXPECT_EQ(p.ignored, (std::vector<std::string>{"bf_continue (none: a pass goes on after "
                                                 "yielding its locks unless partitions, "
                                                 "reservations or the configuration changed)"}));
  const ParsedConfig bad = parse("bf_min_age_reserve=2592001,bf_min_prio_reserve=0");
  ASSERT_EQ(bad.errors.size(), 2u);
  EXPECT_EQ(bad.config.min_age_reserve, 0);
  EXPECT_EQ(bad.config.min_prio_reserve, 0);
  EXPECT_NE(bad.errors[0].find("bf_min_age_reserve=2592001"), std::string::npos) << bad.errors[0];
  EXPECT_NE(bad.errors[0].find("using default 0 (off)"), std::string::npos) << bad.errors[0];
  EXPECT_NE(bad.errors[1].find("bf_min_prio_reserve=0"), std::string::npos) << bad.errors[1];
  EXPECT_NE(bad.errors[1].find("using default 0 (off)"), std::string::npos) << bad.errors[1];
  EXPECT_EQ(parse("BF_MIN_PRIO_RESERVE=7").config.min_prio_reserve, 7);
}

TEST(PluginConfig, AdminLimitsAndReservationDepth) {
  const ParsedConfig p = parse("easypp_max_starts=5,easypp_max_job_user=3,"
                               "easypp_reservation_depth=4,easypp_partition_policy=a:easy;"
                               "b:easy:depth=2");
  ASSERT_TRUE(p.errors.empty()) << p.errors.front();
  EXPECT_EQ(p.config.max_starts, 5);
  EXPECT_EQ(p.config.max_job_user, 3);
  EXPECT_EQ(p.config.reservation_depth, 4);
  EXPECT_EQ(p.config.policy, "easy++:depth=4") << "the depth key of the EASY family";
  EXPECT_EQ(p.config.policy_for("a"), "easy:depth=4");
  EXPECT_EQ(p.config.policy_for("b"), "easy:depth=2") << "a policy's own depth stays";
  const ParsedConfig d = parse("easypp_max_starts=-1");
  ASSERT_EQ(d.errors.size(), 1u);
  EXPECT_EQ(d.config.max_starts, 0);
}

TEST(PluginConfig, EveryKeyAccepted) {
  const ParsedConfig p = parse(
      "easypp_policy=easy-sjbf,easypp_partition_policy=debug:easy;batch:easy+,"
      "easypp_window=30,easypp_metric=median,easypp_correction=gradual,easypp_interval=1,"
      "easypp_max_job_test=100000,easypp_start_estimates=0,easypp_state_file=/var/lib/x/h.json,"
      "easypp_save_interval=86400,easypp_debug=yes,easypp_bootstrap_days=0");
  ASSERT_TRUE(p.errors.empty()) << p.errors.front();
  EXPECT_EQ(p.config.policy, "easy-sjbf");
  EXPECT_EQ(p.config.policy_for("debug"), "easy");
  EXPECT_EQ(p.config.policy_for("batch"), "easy+");
  EXPECT_EQ(p.config.policy_for("other"), "easy-sjbf");
  EXPECT_EQ(p.config.window, 30);
  EXPECT_EQ(p.config.metric, "median");
  EXPECT_EQ(p.config.correction, "gradual");
  EXPECT_EQ(p.config.interval, 1);
  EXPECT_EQ(p.config.max_job_test, 100000);
  EXPECT_EQ(p.config.start_estimates, 0);
  EXPECT_EQ(p.config.state_file, "/var/lib/x/h.json");
  EXPECT_EQ(p.config.save_interval, 86400);
  EXPECT_EQ(p.config.bootstrap_days, 0);
  EXPECT_TRUE(p.config.debug);
  EXPECT_EQ(p.config.predictor_spec(), "history:window=30,metric=median,correction=gradual");
}

TEST(PluginConfig, KeysAreCaseInsensitiveValuesTrimmed) {
  const ParsedConfig p = parse(" EASYPP_Window = 5 , Easypp_Policy=easy+");
  ASSERT_TRUE(p.errors.empty()) << p.errors.front();
  EXPECT_EQ(p.config.window, 5);
  EXPECT_EQ(p.config.policy, "easy+");
}

struct BadValue {
  std::string text;
  std::string expected_in_error;
};

class PluginConfigBad : public ::testing::TestWithParam<BadValue> {};

TEST_P(PluginConfigBad, OneErrorNamingKeyAndValueDefaultKept) {
  const ParsedConfig p = parse(GetParam().text);
  ASSERT_EQ(p.errors.size(), 1u);
  EXPECT_NE(p.errors[0].find(GetParam().expected_in_error), std::string::npos) << p.errors[0];
  const Config defaults;
  EXPECT_EQ(p.config.policy, defaults.policy);
  EXPECT_EQ(p.config.window, defaults.window);
  EXPECT_EQ(p.config.metric, defaults.metric);
  EXPECT_EQ(p.config.correction, defaults.correction);
  EXPECT_EQ(p.config.interval, defaults.interval);
  EXPECT_EQ(p.config.max_job_test, defaults.max_job_test);
  EXPECT_EQ(p.config.start_estimates, defaults.start_estimates);
  EXPECT_EQ(p.config.save_interval, defaults.save_interval);
  EXPECT_EQ(p.config.bootstrap_days, defaults.bootstrap_days);
  EXPECT_EQ(p.config.state_file, defaults.state_file);
  EXPECT_EQ(p.config.debug, defaults.debug);
}

INSTANTIATE_TEST_SUITE_P(
    Values, PluginConfigBad,
    ::testing::Values(
        BadValue{"easypp_policy=fifo", "easypp_policy=fifo: unknown policy (valid: easy[:depth=N,"},
        BadValue{"easypp_window=0", "easypp_window=0: expected an integer in 1..30; using default 2"},
        BadValue{"easypp_window=31", "easypp_window=31"},
        BadValue{"easypp_window=2x", "easypp_window=2x"},
        BadValue{"easypp_window=", "easypp_window=: expected an integer"},
        BadValue{"easypp_metric=mean", "easypp_metric=mean: expected one of avg|median|min|max; using default avg"},
        BadValue{"easypp_correction=none", "easypp_correction=none: expected one of estimate|gradual|exponential"},
        BadValue{"easypp_interval=0", "easypp_interval=0: expected an integer in 1..3600; using default 5"},
        BadValue{"easypp_interval=-3", "easypp_interval=-3"},
        BadValue{"easypp_interval=99999999999999", "easypp_interval=99999999999999"},
        BadValue{"easypp_max_job_test=0", "easypp_max_job_test=0: expected an integer in 1..100000; using default 1000"},
        BadValue{"easypp_start_estimates=-1", "easypp_start_estimates=-1: expected an integer in 0..100000; using default 100"},
        BadValue{"easypp_save_interval=0", "easypp_save_interval=0"},
        BadValue{"easypp_bootstrap_days=-1", "easypp_bootstrap_days=-1: expected an integer in 0..3650; using default 30"},
        BadValue{"easypp_bootstrap_days=3651", "easypp_bootstrap_days=3651"},
        BadValue{"easypp_state_file=relative/p.json", "easypp_state_file=relative/p.json: must be an absolute file path"},
        BadValue{"easypp_state_file=/dir/", "easypp_state_file=/dir/"},
        BadValue{"easypp_debug=maybe", "easypp_debug=maybe: expected 0|1|yes|no|true|false"},
        // Stock refuses bf_yield_sleep <= 0 too: with max_rpc_cnt, no sleep busy-spins.
        BadValue{"easypp_yield_sleep=0",
                 "easypp_yield_sleep=0: expected an integer in 1..10000000; using default 10000"},
        BadValue{"easypp_windw=3", "easypp_windw=3: unknown key"},
        BadValue{"easypp_window", "easypp_window: expected key=value"},
        BadValue{"easypp_partition_policy=debug", "entry 'debug' is not PARTITION:POLICY"},
        BadValue{"easypp_partition_policy=debug:fifo",
                 "entry 'debug:fifo': unknown policy (valid: easy[:depth=N,"},
        // Clairvoyant policies are simulation only (they would plan on time limits live).
        BadValue{"easypp_policy=perfect++",
                 "easypp_policy=perfect++: plans on each job's real runtime (simulation only); using default easy++"},
        BadValue{"easypp_partition_policy=debug:perfect++",
                 "entry 'debug:perfect++': plans on each job's real runtime (simulation only); partition debug"},
        // A bad key of a known policy names the key, as in easypp_policy.
        BadValue{"easypp_partition_policy=debug:easy:age=60",
                 "entry 'debug:easy:age=60': policy easy:age=60: age= and lxfw= reorder"}));

TEST(PluginConfig, BadEntriesDoNotSpoilGoodOnes) {
  const ParsedConfig p = parse("easypp_window=0,easypp_metric=max,easypp_partition_policy="
                               "a:easy;b:nope;c:easy+");
  ASSERT_EQ(p.errors.size(), 2u);
  EXPECT_EQ(p.config.window, 2);
  EXPECT_EQ(p.config.metric, "max");
  EXPECT_EQ(p.config.policy_for("a"), "easy");
  EXPECT_EQ(p.config.policy_for("b"), "easy++");
  EXPECT_EQ(p.config.policy_for("c"), "easy+");
  // A predictor key was given (even a bad one), so the spec is spelled out in full.
  EXPECT_EQ(p.config.predictor_spec(), "history:window=2,metric=max,correction=estimate");
}

TEST(PluginConfig, DuplicateKeyKeepsFirstLikeSlurm) {
  const ParsedConfig p = parse("easypp_window=3,easypp_window=4");
  ASSERT_EQ(p.errors.size(), 1u);
  EXPECT_NE(p.errors[0].find("easypp_window=4: given twice"), std::string::npos);
  EXPECT_EQ(p.config.window, 3);
}

TEST(PluginConfig, DuplicatePartitionKeepsFirst) {
  const ParsedConfig p = parse("easypp_partition_policy=a:easy;a:easy+");
  ASSERT_EQ(p.errors.size(), 1u);
  EXPECT_EQ(p.config.policy_for("a"), "easy");
}

// Policies that kill and requeue running jobs run only with the administrator's opt-in
// (easypp_requeue_partitions): without it, naming one keeps the default and says why.
TEST(PluginConfig, KillingPoliciesNeedTheRequeueOptIn) {
  const std::vector<std::string> policies = {"easy", "easy++", "perfect++", "pv-easy", "timed-run"};
  const std::vector<std::string> killing = {"pv-easy", "timed-run"};
  const ParsedConfig p = parse_scheduler_parameters(
      "easypp_policy=pv-easy,easypp_partition_policy=a:timed-run;b:easy", policies, killing);
  ASSERT_EQ(p.errors.size(), 2u);
  EXPECT_EQ(p.errors[0],
            "SchedulerParameters easypp_policy=pv-easy: this policy kills and requeues running "
            "jobs (papers 002/004), which needs easypp_requeue_partitions=PART[;PART] naming the "
            "partitions whose jobs it may requeue; using default easy++");
  EXPECT_NE(p.errors[1].find("easypp_partition_policy=a:timed-run: this policy kills"),
            std::string::npos) << p.errors[1];
  EXPECT_NE(p.errors[1].find("partition a uses easypp_policy"), std::string::npos) << p.errors[1];
  EXPECT_EQ(p.config.policy, "easy++");
  EXPECT_EQ(p.config.policy_for("a"), "easy++");
  EXPECT_EQ(p.config.policy_for("b"), "easy");
  // An unknown name lists every policy, the killing ones included, not the clairvoyant.
  const ParsedConfig q = parse_scheduler_parameters("easypp_policy=nope", policies, killing);
  ASSERT_EQ(q.errors.size(), 1u);
  // Each with the keys its family reads, as easypp-sim --list-policies prints them.
  EXPECT_NE(q.errors[0].find("easypp_policy=nope: unknown policy (valid: easy[:depth=N,"),
            std::string::npos) << q.errors[0];
  EXPECT_NE(q.errors[0].find("], easy++[:depth=N,"), std::string::npos) << q.errors[0];
  EXPECT_EQ(q.errors[0].find("perfect++"), std::string::npos) << q.errors[0];
  EXPECT_NE(q.errors[0].find("], pv-easy, timed-run[:base=fcfs|easy,trial=SECONDS]); using "
                             "default easy++"),
            std::string::npos) << q.errors[0];
}

TEST(PluginConfig, KillingPoliciesRunWithTheOptIn) {
  const std::vector<std::string> policies = {"easy", "easy++", "pv-easy", "timed-run"};
  const std::vector<std::string> killing = {"pv-easy", "timed-run"};
  const ParsedConfig p = parse_scheduler_parameters(
      "easypp_policy=pv-easy,easypp_partition_policy=a:timed-run:base=fcfs:trial=9,"
      "easypp_requeue_partitions= a ;b;",
      policies, killing);
  ASSERT_EQ(p.errors.size(), 1u);  // the empty name after the last ';'
  EXPECT_NE(p.errors[0].find("easypp_requeue_partitions=a ;b;: an empty partition name"),
            std::string::npos) << p.errors[0];
  EXPECT_EQ(p.config.policy, "pv-easy");
  EXPECT_EQ(p.config.policy_for("a"), "timed-run:base=fcfs:trial=9");
  EXPECT_EQ(p.config.requeue_partitions, (std::set<std::string>{"a", "b"}));
}


// easypp_policy takes a policy spec with keys (easy++:depth=4); a bad key falls back to
// the default policy with one error naming it.
TEST(PluginConfig, PolicyKeysAreChecked) {
  EXPECT_EQ(parse("easypp_policy=easy++:depth=4").config.policy, "easy++:depth=4");
  const ParsedConfig bad = parse("easypp_policy=easy++:depht=4");
  EXPECT_EQ(bad.config.policy, "easy++");
  ASSERT_EQ(bad.errors.size(), 1u);
  EXPECT_NE(bad.errors[0].find("depht=4: not a key of this policy"), std::string::npos)
      << bad.errors[0];
}

// Paper 001's multiple-queue family is configurable live (issue 18): other queue limits
// and mq-vd's initial delay (delay=D_1) in easypp_policy and easypp_partition_policy; mq
// has no delay, so the key is refused and the default kept.
TEST(PluginConfig, MultiQueuePolicies) {
  const std::vector<std::string> names = {"easy++", "mq", "mq-vd", "mq-vd0", "mq-1q"};
  auto with_mq = [&](const std::string& text) { return parse_scheduler_parameters(text, names); };
  for (const char* spec : {"mq", "mq-vd", "mq:60:600", "mq-vd:delay=20", "mq-vd0:60:600:delay=5"}) {
    const ParsedConfig p = with_mq(std::string("easypp_policy=") + spec);
    EXPECT_TRUE(p.errors.empty()) << spec << ": " << p.errors.front();
    EXPECT_EQ(p.config.policy, spec);
  }
  const ParsedConfig parts = with_mq("easypp_partition_policy=short:mq;long:mq-vd:30:60:delay=5");
  EXPECT_TRUE(parts.errors.empty()) << parts.errors.front();
  EXPECT_EQ(parts.config.policy_for("long"), "mq-vd:30:60:delay=5");
  const ParsedConfig bad = with_mq("easypp_policy=mq:delay=5");
  EXPECT_EQ(bad.config.policy, "easy++");
  ASSERT_EQ(bad.errors.size(), 1u);
  EXPECT_NE(bad.errors[0].find("delay=5"), std::string::npos) << bad.errors[0];
}
}  // namespace
}  // namespace easypp::plugin

namespace easypp::plugin {
namespace {

// easypp_propagation adds propagation=on to the history spec (issue 15's key); off is the
// default, chosen from doc/results/bound's measurements.
TEST(PluginConfig, PropagationKey) {
  EXPECT_EQ("", parse_scheduler_parameters("", {"easy++"}).config.predictor_spec());
  const ParsedConfig on = parse_scheduler_parameters("easypp_propagation=on", {"easy++"});
  EXPECT_TRUE(on.errors.empty());
  EXPECT_EQ("history:window=2,metric=avg,correction=estimate,propagation=on",
            on.config.predictor_spec());
  const ParsedConfig bad = parse_scheduler_parameters("easypp_propagation=maybe", {"easy++"});
  ASSERT_EQ(1u, bad.errors.size());
  EXPECT_NE(std::string::npos, bad.errors[0].find("easypp_propagation=maybe"));
  EXPECT_FALSE(bad.config.propagation);
}

// easypp_predictor takes a whole spec (';' between its items, since Slurm splits at ','),
// checked by the library; clairvoyant kinds are refused, naming the key.
TEST(PluginConfig, PredictorKey) {
  const ParsedConfig learned =
      parse_scheduler_parameters("easypp_predictor=learned:under=4;eta=0.3", {"easy++"});
  EXPECT_TRUE(learned.errors.empty());
  EXPECT_EQ("learned:under=4;eta=0.3", learned.config.predictor_spec());
  for (const char* bad : {"easypp_predictor=perfect", "easypp_predictor=nosuchkind",
                          "easypp_predictor=history:window=0"}) {
    const ParsedConfig p = parse_scheduler_parameters(bad, {"easy++"});
    ASSERT_EQ(1u, p.errors.size()) << bad;
    EXPECT_NE(std::string::npos, p.errors[0].find(bad + 16)) << p.errors[0];
    EXPECT_EQ("", p.config.predictor_spec()) << bad;
  }
}

}  // namespace
}  // namespace easypp::plugin

namespace easypp::plugin {
namespace {

// Slurm's max_rpc_cnt has the alias max_rpc_count; stock looks max_rpc_cnt= up first, so
// it wins wherever it stands, even with a bad value (then 0). max_sched_rpc_cnt is no
// Slurm key: read as max_rpc_cnt, but never silently.
TEST(PluginConfig, MaxRpcCntAliases) {
  const ParsedConfig count = parse("MAX_RPC_COUNT=150");
  EXPECT_TRUE(count.errors.empty()) << count.errors.front();
  EXPECT_TRUE(count.ignored.empty());
  EXPECT_EQ(count.config.max_rpc_cnt, 150);
  for (const char* params : {"max_rpc_count=5,max_rpc_cnt=150", "max_rpc_cnt=150,max_rpc_count=5"}) {
    const ParsedConfig both = parse(params);
    EXPECT_EQ(both.config.max_rpc_cnt, 150) << params;
    ASSERT_EQ(both.errors.size(), 1u) << params;
    EXPECT_NE(both.errors[0].find("max_rpc_count=5: "), std::string::npos) << both.errors[0];
    EXPECT_NE(both.errors[0].find("max_rpc_cnt takes precedence"), std::string::npos)
        << both.errors[0];
  }
  const ParsedConfig bad = parse("max_rpc_count=5,max_rpc_cnt=5000");
  EXPECT_EQ(bad.config.max_rpc_cnt, 0);
  EXPECT_EQ(bad.errors.size(), 2u);
  // Without '=' stock does not find max_rpc_cnt, so max_rpc_count is read.
  const ParsedConfig bare = parse("max_rpc_cnt,max_rpc_count=5");
  EXPECT_EQ(bare.config.max_rpc_cnt, 5);
  ASSERT_EQ(bare.errors.size(), 1u);
  EXPECT_NE(bare.errors[0].find("max_rpc_cnt: expected key=value"), std::string::npos)
      << bare.errors[0];

  const ParsedConfig sched = parse("max_sched_rpc_cnt=40");
  EXPECT_EQ(sched.config.max_rpc_cnt, 40);
  ASSERT_EQ(sched.errors.size(), 1u);
  EXPECT_NE(sched.errors[0].find("max_sched_rpc_cnt=40: not a Slurm key"), std::string::npos)
      << sched.errors[0];
  const ParsedConfig sched_bad = parse("max_sched_rpc_cnt=-1");
  EXPECT_EQ(sched_bad.config.max_rpc_cnt, 0);
  ASSERT_EQ(sched_bad.errors.size(), 1u);
  EXPECT_NE(sched_bad.errors[0].find("not a Slurm key"), std::string::npos) << sched_bad.errors[0];
  EXPECT_NE(sched_bad.errors[0].find("expected an integer in 0..1000; using default 0"),
            std::string::npos) << sched_bad.errors[0];
  const ParsedConfig sched_too = parse("max_sched_rpc_cnt=40,max_rpc_count=7");
  EXPECT_EQ(sched_too.config.max_rpc_cnt, 7);
  ASSERT_EQ(sched_too.errors.size(), 1u);
  EXPECT_NE(sched_too.errors[0].find("max_sched_rpc_cnt=40: not a Slurm key"), std::string::npos)
      << sched_too.errors[0];
}

// Stock backfill's keys without the bf_ prefix that sched/easypp does not honour are named
// with the bf_ ones; Slurm's other keys are not.
TEST(PluginConfig, StockBackfillKeysWithoutPrefixAreNamed) {
  const ParsedConfig p = parse("Time_Min_As_Soft_Limit,sched_interval=-1,max_job_bf=100,"
                               "bf_window=60,default_queue_depth=100");
  EXPECT_TRUE(p.errors.empty()) << p.errors.front();
  ASSERT_EQ(p.ignored.size(), 3u);
  EXPECT_EQ(p.ignored[0].rfind("Time_Min_As_Soft_Limit (none: ", 0), 0u) << p.ignored[0];
  EXPECT_EQ(p.ignored[1].rfind("max_job_bf=100 (", 0), 0u) << p.ignored[1];
  EXPECT_NE(p.ignored[1].find("use easypp_max_job_test"), std::string::npos) << p.ignored[1];
  EXPECT_EQ(p.ignored[2], "bf_window=60 (none: plans to every job's end)");
}

// Words of a fixed vocabulary are case-insensitive, as easypp_debug's always were; policy
// and predictor specs and partition names are not (Slurm's partition names are not).
TEST(PluginConfig, VocabularyWordsAreCaseInsensitive) {
  const ParsedConfig p = parse("easypp_propagation=On,easypp_metric=AVG,"
                               "easypp_correction=Gradual,easypp_debug=Yes");
  ASSERT_TRUE(p.errors.empty()) << p.errors.front();
  EXPECT_TRUE(p.config.propagation);
  EXPECT_EQ(p.config.metric, "avg");
  EXPECT_EQ(p.config.correction, "gradual");
  EXPECT_TRUE(p.config.debug);
  EXPECT_EQ(p.config.predictor_spec(),
            "history:window=2,metric=avg,correction=gradual,propagation=on");
  EXPECT_FALSE(parse("easypp_propagation=OFF").config.propagation);
  // The error names the value as written.
  const ParsedConfig mean = parse("easypp_metric=Mean");
  ASSERT_EQ(mean.errors.size(), 1u);
  EXPECT_NE(mean.errors[0].find("easypp_metric=Mean: expected one of"), std::string::npos)
      << mean.errors[0];

  const ParsedConfig policy = parse("easypp_policy=EASY++");
  EXPECT_EQ(policy.config.policy, "easy++");
  ASSERT_EQ(policy.errors.size(), 1u);
  EXPECT_NE(policy.errors[0].find("easypp_policy=EASY++: unknown policy; policy names are "
                                  "lower case (easy++)"),
            std::string::npos) << policy.errors[0];
  const ParsedConfig part = parse("easypp_partition_policy=Debug:easy");
  EXPECT_TRUE(part.errors.empty()) << part.errors.front();
  EXPECT_EQ(part.config.policy_for("Debug"), "easy");
  EXPECT_EQ(part.config.policy_for("debug"), "easy++");
}

// A key given twice: the second is ignored, and its error says what is used, the first
// value or, when the first was refused, the default.
TEST(PluginConfig, DuplicateKeySaysWhatIsUsed) {
  const ParsedConfig refused = parse("easypp_interval=0,easypp_interval=10");
  EXPECT_EQ(refused.config.interval, 5);
  ASSERT_EQ(refused.errors.size(), 2u);
  EXPECT_EQ(refused.errors[1],
            "SchedulerParameters easypp_interval=10: given twice; ignored: the first, "
            "easypp_interval=0, was refused, so the default 5 is used");
  const ParsedConfig kept = parse("easypp_window=3,EASYPP_WINDOW=4");
  EXPECT_EQ(kept.config.window, 3);
  ASSERT_EQ(kept.errors.size(), 1u);
  EXPECT_EQ(kept.errors[0],
            "SchedulerParameters EASYPP_WINDOW=4: given twice; ignored: the first, "
            "easypp_window=3, is used");
  // An unknown key is unknown each time, not "given twice".
  const ParsedConfig unknown = parse("easypp_windw=3,easypp_windw=4");
  ASSERT_EQ(unknown.errors.size(), 2u);
  EXPECT_NE(unknown.errors[1].find("easypp_windw=4: unknown key"), std::string::npos)
      << unknown.errors[1];
}

}  // namespace
}  // namespace easypp::plugin

namespace easypp::plugin {
namespace {

// Slurm splits SchedulerParameters at commas, so a spec given with commas leaves its later
// keys as items of their own, which are no key of Slurm's: each is named in one error line
// with the spec it was cut off, and that spec, not all there, falls back to its default
// (documented: separate a spec's keys with ';', a policy's with ':').
TEST(PluginConfig, ASpecCutAtACommaIsOneErrorAndItsDefault) {
  const ParsedConfig p = parse("easypp_predictor=history:window=3,metric=median,easypp_interval=7");
  ASSERT_EQ(1u, p.errors.size());
  EXPECT_EQ(p.errors[0],
            "SchedulerParameters easypp_predictor=history:window=3: metric=median looks like a "
            "part of this value cut off at a comma; separate a spec's keys with ';' (it is "
            "ignored, and so is this value); using default the policy's own predictor");
  EXPECT_EQ(p.config.predictor_spec(), "");
  EXPECT_EQ(p.config.interval, 7);  // the items after it are read as ever

  // Two parts, one line; the history keys still compose the spec.
  const ParsedConfig two =
      parse("easypp_window=4,easypp_predictor=learned:under=4,eta=0.3,weight=small");
  ASSERT_EQ(1u, two.errors.size());
  EXPECT_NE(two.errors[0].find("easypp_predictor=learned:under=4: eta=0.3,weight=small look like "
                               "parts of this value cut off at commas"),
            std::string::npos)
      << two.errors[0];
  EXPECT_EQ(two.config.predictor_spec(), "history:window=4,metric=avg,correction=estimate");

  // ';' keeps the spec whole: no error.
  const ParsedConfig whole = parse("easypp_predictor=history:window=3;metric=median");
  EXPECT_TRUE(whole.errors.empty()) << whole.errors.front();
  EXPECT_EQ(whole.config.predictor_spec(), "history:window=3;metric=median");
}

TEST(PluginConfig, APolicyCutAtACommaIsOneErrorAndTheDefaultPolicy) {
  const ParsedConfig p = parse("easypp_policy=easy:depth=4,bound=0");
  ASSERT_EQ(1u, p.errors.size());
  EXPECT_EQ(p.errors[0],
            "SchedulerParameters easypp_policy=easy:depth=4: bound=0 looks like a part of this "
            "value cut off at a comma; separate a policy's keys with ':' (it is ignored, and so "
            "is this value); using default easy++");
  EXPECT_EQ(p.config.policy, "easy++");
  const ParsedConfig whole = parse("easypp_policy=easy:depth=4:bound=0");
  EXPECT_TRUE(whole.errors.empty()) << whole.errors.front();
  EXPECT_EQ(whole.config.policy, "easy:depth=4:bound=0");

  // A partition's policy: its entry is the cut one; the entries before it stay.
  const ParsedConfig part =
      parse("easypp_partition_policy=a:easy-sjbf;b:easy++:depth=2,guard=always");
  ASSERT_EQ(1u, part.errors.size());
  EXPECT_EQ(part.errors[0],
            "SchedulerParameters easypp_partition_policy=a:easy-sjbf;b:easy++:depth=2: "
            "guard=always looks like a part of this value cut off at a comma; separate a "
            "policy's keys with ':' (it is ignored, and so is this value); entry "
            "'b:easy++:depth=2' skipped, partition b uses easypp_policy");
  EXPECT_EQ(part.config.partition_policy,
            (std::map<std::string, std::string>{{"a", "easy-sjbf"}}));
}

// A spec's key with no spec before it that takes it: named, not silently dropped.
TEST(PluginConfig, ASpecKeyOnItsOwnIsAnError) {
  const ParsedConfig p = parse("metric=median,easypp_predictor=learned,depth=4,sched_interval=30");
  ASSERT_EQ(2u, p.errors.size());
  EXPECT_EQ(p.errors[0],
            "SchedulerParameters metric=median: a key of a predictor spec, not of "
            "SchedulerParameters (give it in easypp_predictor's value; separate a spec's keys "
            "with ';'); ignored");
  EXPECT_EQ(p.errors[1],
            "SchedulerParameters depth=4: a key of a policy, not of SchedulerParameters (give "
            "it in easypp_policy's value; separate a policy's keys with ':'); ignored");
  EXPECT_EQ(p.config.predictor_spec(), "learned");  // not cut: depth is no predictor key
}

// A bare word (no '=') after a policy or spec that is none of Slurm's flags or keys is cut
// off it too: mq's queue limits given as a comma list (mq:60,3600 for mq:60:3600, or
// limits=60,3600 for limits=60/3600) leave a number alone. Same treatment: one error
// naming both, and the default.
TEST(PluginConfig, ABareWordCutOffAPolicyIsOneErrorAndTheDefault) {
  const std::vector<std::string> policies = {"easy", "easy++", "easy-sjbf", "mq"};
  const ParsedConfig p =
      parse_scheduler_parameters("easypp_policy=mq:60,3600,easypp_interval=7", policies);
  ASSERT_EQ(1u, p.errors.size());
  EXPECT_EQ(p.errors[0],
            "SchedulerParameters easypp_policy=mq:60: 3600 looks like a part of this value cut "
            "off at a comma; separate a policy's keys with ':' (it is ignored, and so is this "
            "value); using default easy++");
  EXPECT_EQ(p.config.policy, "easy++");
  EXPECT_EQ(p.config.interval, 7);  // the items after it are read as ever

  const ParsedConfig two =
      parse_scheduler_parameters("easypp_policy=mq:limits=60,3600,86400", policies);
  ASSERT_EQ(1u, two.errors.size());
  EXPECT_NE(two.errors[0].find("easypp_policy=mq:limits=60: 3600,86400 look like parts of this "
                               "value cut off at commas"),
            std::string::npos)
      << two.errors[0];
  EXPECT_EQ(two.config.policy, "easy++");

  const ParsedConfig whole = parse_scheduler_parameters("easypp_policy=mq:60:3600", policies);
  EXPECT_TRUE(whole.errors.empty()) << whole.errors.front();
  EXPECT_EQ(whole.config.policy, "mq:60:3600");

  // A predictor spec likewise.
  const ParsedConfig spec = parse("easypp_predictor=history:window=3,5");
  ASSERT_EQ(1u, spec.errors.size());
  EXPECT_EQ(spec.errors[0],
            "SchedulerParameters easypp_predictor=history:window=3: 5 looks like a part of this "
            "value cut off at a comma; separate a spec's keys with ';' (it is ignored, and so is "
            "this value); using default the policy's own predictor");
  EXPECT_EQ(spec.config.predictor_spec(), "");

  // A partition's entries separated by a comma: the entry before it is the cut one.
  const ParsedConfig part = parse("easypp_partition_policy=a:easy;b:easy++,c:easy-sjbf");
  ASSERT_EQ(1u, part.errors.size());
  EXPECT_EQ(part.errors[0],
            "SchedulerParameters easypp_partition_policy=a:easy;b:easy++: c:easy-sjbf looks like "
            "a part of this value cut off at a comma; separate a policy's keys with ':', "
            "entries with ';' (it is ignored, and so is this value); entry 'b:easy++' skipped, "
            "partition b uses easypp_policy");
  EXPECT_EQ(part.config.partition_policy, (std::map<std::string, std::string>{{"a", "easy"}}));
}

// Slurm's own flags are bare words too (bf_continue, salloc_wait_nodes, Ignore_NUMA, in any
// case): after a policy or spec they are Slurm's, not pieces of it; and a bare word that is
// not Slurm's but follows no policy or spec is left to Slurm, which tolerates unknown words.
TEST(PluginConfig, SlurmsFlagsAndBareWordsElsewhereAreNoPieces) {
  const ParsedConfig p = parse(
      "easypp_policy=easy++:depth=2,bf_continue,easypp_predictor=learned,salloc_wait_nodes,"
      "Ignore_NUMA,easypp_partition_policy=a:easy,assoc_limit_stop,defer");
  EXPECT_TRUE(p.errors.empty()) << p.errors.front();
  EXPECT_EQ(p.config.policy, "easy++:depth=2");
  EXPECT_EQ(p.config.predictor_spec(), "learned");
  EXPECT_EQ(p.config.partition_policy, (std::map<std::string, std::string>{{"a", "easy"}}));
  EXPECT_TRUE(p.config.assoc_limit_stop);
  // A Slurm key's name given bare (no value) is Slurm's too, not a policy's.
  const ParsedConfig key = parse("easypp_policy=easy,sched_interval");
  EXPECT_TRUE(key.errors.empty()) << key.errors.front();
  EXPECT_EQ(key.config.policy, "easy");

  const ParsedConfig elsewhere =
      parse("some_future_flag,3600,easypp_interval=7,another_flag,sched_interval=30,60");
  EXPECT_TRUE(elsewhere.errors.empty()) << elsewhere.errors.front();
  EXPECT_EQ(elsewhere.config.interval, 7);
}

// The second of a key given twice is ignored, its cut parts with it.
TEST(PluginConfig, ACutSpecGivenTwiceIsIgnoredWithItsParts) {
  const ParsedConfig p =
      parse("easypp_predictor=learned,easypp_predictor=history:window=3,metric=median");
  ASSERT_EQ(1u, p.errors.size());
  EXPECT_EQ(p.errors[0],
            "SchedulerParameters easypp_predictor=history:window=3: given twice; ignored with "
            "metric=median, cut off it at a comma: the first, easypp_predictor=learned, is used");
  EXPECT_EQ(p.config.predictor_spec(), "learned");
}

}  // namespace
}  // namespace easypp::plugin
