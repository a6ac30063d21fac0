// easypp-replay: submit a slice of an SWF trace to a Slurm cluster on a compressed clock,
// wait, read the real schedule back from accounting and compute the simulator's metrics
// on it (or, with --simulate, run the simulator on the same effective jobs).
#include <pwd.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <map>
#include <memory>
#include <thread>

#include "cli/command_line.h"
#include "cli/output_file.h"
#include "core/policy.h"
#include "core/predictions.h"
#include "replay/cli.h"
#include "replay/command.h"
#include "replay/live_outcome.h"
#include "replay/out_prefix.h"
#include "replay/replay_plan.h"
#include "replay/replay_report.h"
#include "replay/slice.h"
#include "replay/slurm_client.h"
#include "measure/metrics.h"
#include "sim/simulator.h"
#include "sim/swf.h"

namespace {

using namespace easypp;
using namespace easypp::replay;

std::atomic<int> g_signal{0};

extern "C" void on_signal(int sig) { g_signal = sig; }

double now_epoch() {
  timespec t{};
  clock_gettime(CLOCK_REALTIME, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

void say(const char* fmt, const std::string& a = "") {
  std::fprintf(stderr, "easypp-replay: ");
  std::fprintf(stderr, fmt, a.c_str());
  std::fprintf(stderr, "\n");
}

std::string base_name(const std::string& path) {
  auto slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

void write_text(const std::string& path, const std::string& text) {
  cli::write_whole_file(path, !text.empty() && text.back() != '\n' ? text + '\n' : text);
}

// Local accounts for the mapped users: created with --create-users, else they must exist.
void ensure_users(const UserMap& users, bool create) {
  for (const auto& [trace_user, account] : users.accounts()) {
    if (getpwnam(account.c_str()) != nullptr) continue;
    if (!create) {
      throw std::runtime_error("user " + account + " (trace user " + std::to_string(trace_user) +
                               ") does not exist: pass --create-users (root) or --as-self");
    }
    // Another replay may create the same accounts at the same time (easypp-compare runs
    // two side by side): a failed useradd is retried, and an account that appeared is fine.
    CommandResult r;
    for (int attempt = 0; attempt < 10; ++attempt) {
      r = run_command({"useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", account});
      if (r.status == 0 || getpwnam(account.c_str()) != nullptr) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(300));
    }
    if (getpwnam(account.c_str()) == nullptr) throw std::runtime_error("useradd " + account + ": " + r.err);
  }
}

// Consecutive squeue failures the wait rides out (slurmctld restarting, an RPC timeout):
// the jobs are running on the cluster either way, and abandoning them queued is worse.
constexpr int kSqueueFailuresTolerated = 5;

class Progress {
 public:
  Progress(double start, double every, std::size_t total)
      : start_(start), every_(every), total_(total) {}
  // poll: refresh the counts (squeue) even if no line is due.
  void maybe(std::size_t submitted, const std::map<std::uint64_t, std::size_t>& ids, bool poll) {
    const double t = now_epoch();
    const bool due = t - last_ >= every_;
    if (!due && !poll) return;
    QueueCounts c;
    try {
      c = queue_counts(ids);
      failures_ = 0;
      stale_ = false;
    } catch (const SlurmError& e) {
      if (++failures_ > kSqueueFailuresTolerated) throw;
      stale_ = true;
      std::fprintf(stderr, "easypp-replay: %s; keeping the last counts (%d of %d consecutive failures tolerated)\n",
                   e.what(), failures_, kSqueueFailuresTolerated);
      return;
    }
    pending_ = c.pending;
    running_ = c.running;
    if (!due && pending_ + running_ > 0) return;
    last_ = t;
    const std::size_t done = submitted - static_cast<std::size_t>(c.pending + c.running);
    std::fprintf(stderr, "easypp-replay: [%6.1fs] submitted %zu/%zu  pending %d  running %d  done %zu\n",
                 t - start_, submitted, total_, c.pending, c.running, done);
  }
  // After a failed squeue nothing is known to be done: the wait goes on until one succeeds.
  bool all_done() const { return !stale_ && pending_ + running_ == 0; }

 private:
  double start_, every_, last_ = 0;
  std::size_t total_;
  int pending_ = 0, running_ = 0;
  int failures_ = 0;
  bool stale_ = false;
};

// Sleeps until `until` (epoch), in short steps so signals are seen; false on a signal.
bool sleep_until(double until) {
  while (g_signal == 0) {
    const double left = until - now_epoch();
    if (left <= 0) return true;
    std::this_thread::sleep_for(std::chrono::duration<double>(std::min(left, 0.2)));
  }
  return false;
}

int cancel_all(const std::vector<std::uint64_t>& ids) {
  say("signal %s: cancelling every job this replay submitted", std::to_string(g_signal.load()));
  std::string error;
  if (!cancel(ids, error)) say("scancel: %s", error);
  else std::fprintf(stderr, "easypp-replay: cancelled %zu jobs\n", ids.size());
  return 128 + g_signal;
}

int run(const ReplayOptions& o) {
  if (!o.dry_run) check_out_prefix(o.out);
  swf::Trace trace = swf::read(o.trace);
  for (const std::string& note : trace.notes) say("note: %s", note);
  swf::Trace sliced = select_slice(trace, o.slice);
  trace = swf::Trace();
  sim::WorkloadOptions wo;
  wo.size_from = o.size_from;
  wo.procs = 100000000;  // nothing dropped as too wide: make_plan caps at the cluster
  sim::Workload workload = sim::prepare(sliced, wo);
  if (workload.jobs.empty()) throw std::invalid_argument(o.trace + ": no usable job in the slice");

  const bool live = o.simulate.empty();
  std::map<std::string, std::string> config;
  if (live && !o.dry_run) config = slurm_config();
  const std::string scheduler = live ? (config.count("SchedulerType") ? config["SchedulerType"] : "?")
                                     : "easypp-sim";
  std::string policy_name = !o.simulate.empty() ? o.simulate : o.policy;
  if (policy_name.empty()) policy_name = scheduler == "sched/easypp" ? "easy++" : "easy";
  std::unique_ptr<Policy> policy = make_policy(policy_name);

  int cpus = o.cpus;
  if (cpus == 0) cpus = o.dry_run ? std::max(1, sliced.header.max_procs) : partition_cpus(o.partition);
  UserMap users(o.user_prefix);
  ReplayPlan plan = make_plan(workload, o.speedup, cpus, users);
  sim::Workload effective = effective_workload(plan, base_name(o.trace));
  if (!o.write_slice.empty()) write_swf(effective, sliced.header.acknowledge, o.write_slice);
  int rounded_up = 0;
  for (const PlannedJob& p : plan.jobs) {
    if (static_cast<double>(p.limit_min) * 60.0 * o.speedup > static_cast<double>(p.estimate) + 0.5) ++rounded_up;
  }
  const double span = plan.jobs.back().submit_offset;
  std::fprintf(stderr,
               "easypp-replay: %zu jobs (trace jobs %lld..%lld, %zu users) on %d CPUs, speedup %g:"
               " submits over %.0f s; %d procs capped, %d runtimes capped at the estimate,"
               " %d limits rounded up to whole minutes\n",
               plan.jobs.size(), static_cast<long long>(plan.jobs.front().swf_job),
               static_cast<long long>(plan.jobs.back().swf_job), users.accounts().size(), cpus,
               o.speedup, span, plan.procs_capped, plan.runtime_capped, rounded_up);

  ReplaySummary summary;
  summary.scheduler = scheduler;
  summary.policy = policy_name;
  summary.speedup = o.speedup;
  summary.jobs_planned = static_cast<int>(plan.jobs.size());
  summary.procs_capped = plan.procs_capped;
  summary.runtime_capped = plan.runtime_capped;
  summary.limits_rounded_up = rounded_up;
  const measure::MetricsOptions metrics_options;

  if (o.dry_run) {
    std::printf("trace_job,account,offset_s,procs,limit_min,payload_s\n");
    for (const PlannedJob& p : plan.jobs) {
      std::printf("%lld,%s,%.3f,%d,%lld,%.3f\n", static_cast<long long>(p.swf_job), p.account.c_str(),
                  p.submit_offset, p.procs, static_cast<long long>(p.limit_min), p.payload);
    }
    return 0;
  }

  if (!live) {
    measure::SimOutcome outcome = sim::simulate(effective, *policy);
    summary.mode = "sim";
    summary.predictor = outcome.predictor;
    summary.jobs_recorded = static_cast<int>(outcome.jobs.size());
    for (const measure::JobOutcome& j : outcome.jobs) summary.timeouts += j.killed_at_limit ? 1 : 0;
    summary.avg_wait_all_min = mean_wait_all_min(outcome);
    summary.wall_seconds = outcome.sim_seconds;
    summary.records_from = "simulator";
    outcome.policy = policy_name;
    measure::Metrics m = measure::compute_metrics(outcome, metrics_options);
    std::vector<std::size_t> index(outcome.jobs.size());
    for (std::size_t i = 0; i < index.size(); ++i) index[i] = i;
    write_jobs_csv(o.out + ".jobs.csv", plan, outcome, index, nullptr, metrics_options);
    const std::string json = summary_json(m, metrics_all_jobs(outcome, metrics_options), effective, summary);
    write_text(o.out + ".json", json);
    std::printf("%s\n", json.c_str());
    return 0;
  }

  // --- live replay ---
  if (!o.as_self) {
    if (geteuid() != 0) {
      throw std::runtime_error("submitting as the trace's users (sbatch --uid) needs root: run as root or pass --as-self");
    }
    ensure_users(users, o.create_users);
  }
  summary.mode = "live";
  summary.predictor = Predictions(policy->traits()).spec();

  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);

  const double real_start = std::ceil(now_epoch()) + 1.0;  // the slice's first submit
  const double wall_start = now_epoch();
  std::vector<std::uint64_t> ids(plan.jobs.size(), 0);
  std::map<std::uint64_t, std::size_t> index_of;
  std::vector<std::uint64_t> submitted_ids;
  Progress progress(wall_start, o.progress_every, plan.jobs.size());
  std::string timed_out;  // why the wait gave up: the outputs are still written
  // Whatever fails once jobs are on the cluster (sbatch, squeue past its tolerance), they
  // are cancelled before the error propagates: none is left queued behind a dead replay.
  try {
    for (std::size_t i = 0; i < plan.jobs.size(); ++i) {
      const PlannedJob& p = plan.jobs[i];
      const double due = real_start + p.submit_offset;
      while (now_epoch() < due) {
        if (!sleep_until(std::min(due, now_epoch() + 1.0))) return cancel_all(submitted_ids);
        progress.maybe(i, index_of, false);
      }
      if (g_signal != 0) return cancel_all(submitted_ids);
      SubmitRequest q;
      q.account = o.as_self ? "" : p.account;
      q.name = "epp" + std::to_string(p.swf_job);
      q.partition = o.partition;
      q.procs = p.procs;
      q.limit_min = p.limit_min;
      q.payload = p.payload;
      q.extra = o.sbatch_args;
      ids[i] = submit(q);
      summary.max_submit_lag = std::max(summary.max_submit_lag, now_epoch() - due);
      index_of[ids[i]] = i;
      submitted_ids.push_back(ids[i]);
    }
    // Wait for every job to leave the queue.
    double longest = 0;
    for (const PlannedJob& p : plan.jobs) longest = std::max(longest, static_cast<double>(p.limit_min) * 60);
    const double timeout = o.timeout > 0 ? o.timeout : 600 + 2 * longest + span;
    const double submit_done = now_epoch();
    progress.maybe(plan.jobs.size(), index_of, true);
    while (!progress.all_done()) {
      if (!sleep_until(now_epoch() + 1.0)) return cancel_all(submitted_ids);
      if (now_epoch() - submit_done > timeout) {
        timed_out = "jobs still queued " + std::to_string(static_cast<int>(timeout)) +
                    " s after the last submit (timeout=" + std::to_string(static_cast<int>(timeout)) +
                    "); cancelled them";
        std::string error;
        if (!cancel(submitted_ids, error)) say("scancel: %s", error);
        break;
      }
      progress.maybe(plan.jobs.size(), index_of, true);
    }
  } catch (const std::exception&) {
    std::string error;
    if (!submitted_ids.empty()) {
      if (cancel(submitted_ids, error)) say("cancelled %s submitted jobs", std::to_string(submitted_ids.size()));
      else say("scancel: %s", error);
    }
    throw;
  }
  summary.wall_seconds = now_epoch() - wall_start;

  // Records: sacct (slurmdbd may lag a few seconds behind), else the jobcomp file.
  std::vector<std::string> problems;
  std::map<std::uint64_t, LiveRecord> records;
  std::string source;
  std::string raw;
  try {
    for (int attempt = 0; attempt < 30 && g_signal == 0; ++attempt) {
      problems.clear();
      records = sacct_records(submitted_ids, problems, &raw);
      source = "sacct";
      if (records.size() == submitted_ids.size()) break;
      sleep_until(now_epoch() + 1.0);
    }
  } catch (const SlurmError& e) {
    say("sacct unavailable (%s); reading the jobcomp file", e.what());
  }
  if (records.size() < submitted_ids.size()) {
    std::string path = o.jobcomp.empty() ? jobcomp_file(config) : o.jobcomp;
    if (!path.empty()) {
      auto more = jobcomp_records(path, submitted_ids, problems);
      if (more.size() > records.size()) {
        records = std::move(more);
        source = "jobcomp:" + path;
      }
    }
  }
  for (const std::string& p : problems) say("%s", p);
  if (source == "sacct") write_text(o.out + ".sacct.txt", raw);
  summary.records_from = source.empty() ? "none" : source;

  std::vector<RealTimes> real(plan.jobs.size());
  for (std::size_t i = 0; i < plan.jobs.size(); ++i) {
    RealTimes& r = real[i];
    r.slurm_job = ids[i];
    auto it = records.find(ids[i]);
    if (it == records.end()) continue;
    const LiveRecord& rec = it->second;
    r.recorded = true;
    r.submit = rec.record.job.submit;
    r.start = rec.record.start;
    r.end = rec.record.end;
    r.end_state = rec.record.end_state;
    r.state = rec.state;
    r.backfilled = rec.backfilled;
    r.restarts = rec.restarts;
    r.lost_cpu_seconds = rec.lost_cpu_seconds;
  }
  LiveOutcome lo = live_outcome(plan, real, real_start, policy->traits(),
                                "live:" + scheduler, base_name(o.trace));
  summary.jobs_recorded = static_cast<int>(lo.outcome.jobs.size());
  summary.missing = lo.missing;
  summary.timeouts = lo.timeouts;
  summary.killed_before_limit = lo.killed_before_limit;
  summary.avg_wait_all_min = mean_wait_all_min(lo.outcome);
  measure::Metrics m = measure::compute_metrics(lo.outcome, metrics_options);
  write_jobs_csv(o.out + ".jobs.csv", plan, lo.outcome, lo.plan_index, &real, metrics_options);
  const std::string json = summary_json(m, metrics_all_jobs(lo.outcome, metrics_options), effective, summary);
  write_text(o.out + ".json", json);
  std::printf("%s\n", json.c_str());
  if (lo.missing > 0) say("%s jobs have no ended record in accounting", std::to_string(lo.missing));
  if (lo.timeouts > 0) say("%s jobs ended TIMEOUT although their payload fits their limit", std::to_string(lo.timeouts));
  if (lo.killed_before_limit > 0) say("%s jobs were killed before their limit", std::to_string(lo.killed_before_limit));
  if (!timed_out.empty()) {
    say("%s", timed_out);
    return 1;
  }
  return 0;
}

}  // namespace

namespace {
int tool_main(int argc, char** argv) {
  using namespace easypp::replay;
  ReplayOptions options;
  try {
    options = parse_cli(std::vector<std::string>(argv, argv + argc));
  } catch (const UsageError& e) {
    std::fprintf(stderr, "easypp-replay: %s\n%s", e.what(), usage());
    return 2;
  }
  if (options.help) {
    std::printf("%s", usage());
    return 0;
  }
  try {
    return run(options);
  } catch (const easypp::swf::ParseError& e) {
    std::fprintf(stderr, "easypp-replay: %s\n", e.what());
    return 1;
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "easypp-replay: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "easypp-replay: %s\n", e.what());
    return 1;
  }
}
}  // namespace

int main(int argc, char** argv) {
  return easypp::cli::exit_status_after_output("easypp-replay", tool_main(argc, argv));
}
