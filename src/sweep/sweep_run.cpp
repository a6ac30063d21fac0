#include "sweep/sweep_run.h"

#include <sched.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>
#include <utility>

#include "core/policy.h"
#include "measure/metrics.h"
#include "measure/wait_recorder.h"
#include "sim/simulator.h"
#include "sim/swf.h"
#include "sim/workload.h"
#include "sweep/results_file.h"

namespace easypp::sweep {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

double thread_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string stem(const std::string& path) {
  std::string name = fs::path(path).filename().string();
  if (ends_with(name, ".gz")) name.resize(name.size() - 3);
  if (ends_with(name, ".swf")) name.resize(name.size() - 4);
  return name;
}

std::string duration_text(double s) {
  if (s < 0 || s > 1e8) return "?";
  const long t = static_cast<long>(s + 0.5);
  char buf[32];
  if (t >= 3600) {
    std::snprintf(buf, sizeof buf, "%ldh%02ldm", t / 3600, t / 60 % 60);
  } else {
    std::snprintf(buf, sizeof buf, "%ldm%02lds", t / 60, t % 60);
  }
  return buf;
}

// The cores this process may run on (a Slurm job's allocation, taskset), not the
// machine's: hardware_concurrency() would oversubscribe a job given 2 of 64 cores.
unsigned usable_cores() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0) {
    return static_cast<unsigned>(CPU_COUNT(&set));
  }
  return std::max(1u, std::thread::hardware_concurrency());
}

struct LoadedTrace {
  TraceInput input;
  sim::Workload workload;
  // What the sweep's two averages need of the workload besides each run's starts and ends
  // (measure::WaitRecorder), built once per trace.
  std::vector<Time> submits;
};

LoadedTrace load_trace(const TraceInput& input, std::size_t max_jobs) {
  LoadedTrace t{input, {}, {}};
  sim::WorkloadOptions wo;
  wo.procs = input.procs;
  try {
    swf::Trace trace = swf::read(input.path);
    for (const std::string& note : trace.notes) std::fprintf(stderr, "easypp-sweep: note: %s\n", note.c_str());
    t.workload = sim::prepare(trace, wo);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(input.path + ": " + e.what());
  }
  if (max_jobs > 0 && t.workload.jobs.size() > max_jobs) t.workload.jobs.resize(max_jobs);
  t.submits.reserve(t.workload.jobs.size());
  for (const sim::SimJob& j : t.workload.jobs) t.submits.push_back(j.job.submit);
  return t;
}

// One simulation: the representative configuration on one trace, and the selected
// configurations of its class that still lack a line for that trace.
struct Task {
  std::size_t simulated = 0;
  std::size_t trace = 0;  // index into the loaded traces
  std::vector<std::size_t> members;
};

}  // namespace

std::vector<TraceInput> parse_trace_list(const std::string& text) {
  std::vector<TraceInput> out;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    const std::size_t comma = std::min(text.find(',', pos), text.size());
    const std::string item = text.substr(pos, comma - pos);
    pos = comma + 1;
    if (item.empty()) {
      throw std::invalid_argument("traces=" + text + ": empty item");
    }
    const std::string where = "traces: " + item;
    std::error_code ec;
    if (fs::is_directory(item, ec)) {
      std::vector<std::string> files;
      for (const auto& entry : fs::directory_iterator(item, ec)) {
        const std::string name = entry.path().filename().string();
        if (entry.is_regular_file() && (ends_with(name, ".swf") || ends_with(name, ".swf.gz"))) {
          files.push_back(entry.path().string());
        }
      }
      if (ec) throw std::invalid_argument(where + ": cannot list: " + ec.message());
      if (files.empty()) throw std::invalid_argument(where + ": no *.swf or *.swf.gz in it");
      std::sort(files.begin(), files.end());
      for (const auto& f : files) out.push_back({stem(f), f, 0});
      continue;
    }
    TraceInput t;
    std::string rest = item;
    const std::size_t slash = rest.find('/');
    const std::size_t eq = rest.find('=');
    if (eq != std::string::npos && (slash == std::string::npos || eq < slash)) {
      t.label = rest.substr(0, eq);
      rest = rest.substr(eq + 1);
      if (t.label.empty()) throw std::invalid_argument(where + ": empty label before '='");
    }
    const std::size_t opt = rest.rfind(":procs=");
    if (opt != std::string::npos) {
      const std::string n = rest.substr(opt + 7);
      // Digits only: strtol alone takes a leading blank or sign (procs= 5, procs=+5).
      const bool digits = !n.empty() && n.size() <= 9 && n.find_first_not_of("0123456789") == std::string::npos;
      const long v = digits ? std::strtol(n.c_str(), nullptr, 10) : 0;
      if (v < 1 || v > 100000000) {
        throw std::invalid_argument(where + ": procs=" + n + ": expected a positive integer");
      }
      t.procs = static_cast<int>(v);
      rest.resize(opt);
    }
    t.path = rest;
    if (!fs::is_regular_file(t.path, ec)) throw std::invalid_argument(where + ": no such file");
    if (t.label.empty()) {
      t.label = stem(t.path) + (t.procs > 0 ? "@" + std::to_string(t.procs) : "");
    }
    if (t.label.find_first_of("|\n") != std::string::npos) {
      throw std::invalid_argument(where + ": a label may not contain '|' or a newline");
    }
    // sweep.conf keeps LABEL|FILE|PROCS|JOBS per trace: a '|' in the file could not be read back.
    if (t.path.find_first_of("|\n") != std::string::npos) {
      throw std::invalid_argument(where + ": a trace file's name may not contain '|' or a newline");
    }
    out.push_back(t);
  }
  std::set<std::string> labels;
  for (const auto& t : out) {
    if (!labels.insert(t.label).second) {
      throw std::invalid_argument("traces: label " + t.label + " used twice (name them LABEL=FILE)");
    }
  }
  return out;
}

SweepReport run_sweep(const SweepOptions& options, const ConfigSpace& space, std::FILE* progress) {
  SweepReport report;
  if (options.traces.empty()) throw std::invalid_argument("no traces (--traces)");
  if (options.out.empty()) throw std::invalid_argument("no output directory (--out)");
  const std::vector<std::size_t> selected = space.select(options.configs);
  report.configs = selected.size();
  report.lines_wanted = selected.size() * options.traces.size();

  // A policy whose predictor cannot be replaced fails here, before any trace is read.
  {
    PolicyOptions po;
    po.predictor = space.spec(selected.front());
    make_policy(options.policy, po);
  }
  std::error_code ec;
  fs::create_directories(options.out, ec);
  if (ec) throw std::runtime_error(options.out + ": cannot create: " + ec.message());
  const std::string results_path = options.out + "/results.csv";
  const std::string settings_path = options.out + "/sweep.conf";

  SweepSettings before;
  const bool had_settings = read_settings(settings_path, before);
  if (had_settings && (before.policy != options.policy ||
                       before.max_jobs_per_trace != options.max_jobs_per_trace)) {
    SweepSettings now = before;
    now.policy = options.policy;
    now.max_jobs_per_trace = options.max_jobs_per_trace;
    throw std::invalid_argument(settings_path + ": results were made with other settings (" +
                                settings_conflict(before, now) + "); use another --out");
  }

  const unsigned threads = options.threads > 0 ? options.threads : usable_cores();

  // Read every trace once, in parallel.
  const auto read_start = Clock::now();
  std::vector<LoadedTrace> traces;
  {
    std::vector<std::future<LoadedTrace>> loading;
    for (const auto& t : options.traces) {
      loading.push_back(std::async(std::launch::async, load_trace, t, options.max_jobs_per_trace));
    }
    for (auto& f : loading) traces.push_back(f.get());
  }
  report.read_seconds = seconds_since(read_start);

  SweepSettings settings;
  settings.policy = options.policy;
  settings.max_jobs_per_trace = options.max_jobs_per_trace;
  for (const auto& t : traces) {
    settings.traces.push_back({t.input.label, fs::path(t.input.path).filename().string(),
                               t.workload.procs, t.workload.jobs.size()});
  }
  if (had_settings) {
    const std::string conflict = settings_conflict(before, settings);
    if (!conflict.empty()) {
      throw std::invalid_argument(settings_path + ": results were made with other settings (" +
                                  conflict + "); use another --out");
    }
    // Keep traces of earlier runs that this run does not name.
    for (const auto& b : before.traces) {
      const bool named = std::any_of(settings.traces.begin(), settings.traces.end(),
                                     [&](const auto& n) { return n.label == b.label; });
      if (!named) settings.traces.push_back(b);
    }
  }

  // What is done already. Row i of the file is line i + 2.
  ResultsContent content = read_results(results_path);
  report.dropped_truncated_line = content.truncated_tail;
  std::map<std::string, std::size_t> trace_index;
  for (std::size_t i = 0; i < traces.size(); ++i) trace_index[traces[i].input.label] = i;
  // (config, trace) -> row
  std::map<std::pair<std::size_t, std::size_t>, const ResultRow*> done;
  for (std::size_t i = 0; i < content.rows.size(); ++i) {
    const ResultRow& r = content.rows[i];
    const std::string where = results_path + ":" + std::to_string(i + 2) + ": ";
    if (r.config >= space.size() || r.spec != space.spec(r.config)) {
      throw std::invalid_argument(where + "config " + std::to_string(r.config) + " spec " + r.spec +
                                  " is not this predictor library's configuration " +
                                  std::to_string(r.config) + "; use another --out");
    }
    const auto t = trace_index.find(r.trace);
    if (t == trace_index.end()) continue;  // a trace this run does not sweep
    done.emplace(std::make_pair(r.config, t->second), &r);
  }

  ResultsWriter writer(results_path, content);
  write_settings(settings_path, settings);

  // Largest traces first within each class, so the pool's last tasks are short ones.
  std::vector<std::size_t> trace_order(traces.size());
  for (std::size_t i = 0; i < traces.size(); ++i) trace_order[i] = i;
  std::stable_sort(trace_order.begin(), trace_order.end(), [&](std::size_t a, std::size_t b) {
    return traces[a].workload.jobs.size() > traces[b].workload.jobs.size();
  });

  // Group the selected configurations by class.
  std::map<std::size_t, std::vector<std::size_t>> classes;
  for (std::size_t c : selected) classes[space.representative(c)].push_back(c);
  // Results of any configuration in the file, by (class, trace): a copy source.
  std::map<std::pair<std::size_t, std::size_t>, const ResultRow*> by_class;
  for (const auto& [key, row] : done) {
    by_class.emplace(std::make_pair(space.representative(key.first), key.second), row);
  }

  std::vector<Task> tasks;
  std::vector<ResultRow> copies;
  for (const auto& [rep, members] : classes) {
    for (std::size_t t : trace_order) {
      Task task{rep, t, {}};
      for (std::size_t m : members) {
        if (done.count({m, t})) {
          ++report.lines_present;
        } else {
          task.members.push_back(m);
        }
      }
      if (task.members.empty()) continue;
      const auto source = by_class.find({rep, t});
      if (source != by_class.end()) {
        for (std::size_t m : task.members) {
          ResultRow r = *source->second;
          r.config = m;
          r.spec = space.spec(m);
          r.sim_seconds = r.cpu_seconds = 0;
          copies.push_back(r);
        }
      } else {
        tasks.push_back(std::move(task));
      }
    }
  }
  writer.append(copies);
  report.lines_copied = copies.size();

  std::atomic<std::size_t> next{0};
  std::atomic<bool> failed{false};
  std::mutex mutex;
  std::condition_variable finished;
  std::size_t completed = 0, running_threads = 0;
  std::size_t lines_copied = 0;
  double cpu_total = 0;
  std::string error;

  const auto start = Clock::now();
  auto worker = [&]() {
    while (!failed.load()) {
      const std::size_t i = next.fetch_add(1);
      if (i >= tasks.size()) break;
      const Task& task = tasks[i];
      const LoadedTrace& trace = traces[task.trace];
      try {
        PolicyOptions po;
        po.predictor = space.spec(task.simulated);
        auto policy = make_policy(options.policy, po);
        const auto t0 = Clock::now();
        const double c0 = thread_cpu_seconds();
        sim::SimOptions so;
        so.heel_and_toe = false;  // the sweep reports waits and slowdowns only
        so.fast_passes = true;
        // Only the two averages: a lean observer instead of the papers' per-job outcomes.
        measure::WaitRecorder recorder(trace.submits);
        sim::drive(trace.workload, *policy, recorder, so);
        const measure::WaitAndSlowdown metrics = recorder.average();
        const double cpu = thread_cpu_seconds() - c0;
        const double wall = seconds_since(t0);
        std::vector<ResultRow> rows;
        for (std::size_t m : task.members) {
          ResultRow r;
          r.config = m;
          r.spec = space.spec(m);
          r.trace = trace.input.label;
          r.avg_wait_min = metrics.avg_wait_min;
          r.avg_bsld = metrics.avg_bsld;
          // The simulation's cost goes on one line only, so the column sums to the sweep's.
          r.sim_seconds = rows.empty() ? wall : 0;
          r.cpu_seconds = rows.empty() ? cpu : 0;
          r.simulated_as = task.simulated;
          rows.push_back(std::move(r));
        }
        writer.append(rows);
        std::lock_guard<std::mutex> lock(mutex);
        ++completed;
        lines_copied += rows.size() - 1;
        cpu_total += cpu;
      } catch (const std::exception& e) {
        std::lock_guard<std::mutex> lock(mutex);
        if (error.empty()) {
          error = "config " + std::to_string(task.simulated) + " (" + space.spec(task.simulated) +
                  ") on trace " + trace.input.label + ": " + e.what();
        }
        failed = true;
      }
      finished.notify_all();
    }
    std::lock_guard<std::mutex> lock(mutex);
    --running_threads;
    finished.notify_all();
  };

  if (progress != nullptr) {
    std::fprintf(progress,
                 "easypp-sweep: %zu configurations x %zu traces: %zu lines present, %zu copied "
                 "from equivalent configurations, %zu simulations to run on %u threads "
                 "(traces read in %.1f s)\n",
                 report.configs, traces.size(), report.lines_present, report.lines_copied,
                 tasks.size(), threads, report.read_seconds);
    if (report.dropped_truncated_line) {
      std::fprintf(progress, "easypp-sweep: %s: dropped a truncated last line\n",
                   results_path.c_str());
    }
  }
  std::vector<std::thread> pool;
  const unsigned n_threads = static_cast<unsigned>(std::min<std::size_t>(threads, tasks.size()));
  running_threads = n_threads;
  for (unsigned i = 0; i < n_threads; ++i) pool.emplace_back(worker);
  {
    std::unique_lock<std::mutex> lock(mutex);
    auto last_print = Clock::now();
    while (running_threads > 0) {
      finished.wait_for(lock, std::chrono::seconds(1));
      if (progress == nullptr || seconds_since(last_print) < 10 || running_threads == 0) continue;
      last_print = Clock::now();
      const double elapsed = seconds_since(start);
      const double rate = static_cast<double>(completed) / elapsed;
      const double eta =
          completed > 0 ? static_cast<double>(tasks.size() - completed) / rate : -1;
      std::fprintf(progress, "easypp-sweep: %zu/%zu simulations (%.1f%%), %.2f/s, ETA %s\n",
                   completed, tasks.size(), 100.0 * static_cast<double>(completed) /
                   static_cast<double>(std::max<std::size_t>(tasks.size(), 1)), rate,
                   duration_text(eta).c_str());
      std::fflush(progress);
    }
  }
  for (auto& t : pool) t.join();
  report.wall_seconds = seconds_since(start);
  report.simulations = completed;
  report.lines_copied += lines_copied;
  report.cpu_seconds = cpu_total;
  if (!error.empty()) throw std::runtime_error(error);
  return report;
}

}  // namespace easypp::sweep
