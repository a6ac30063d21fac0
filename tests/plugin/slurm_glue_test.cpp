// The Slurm glue (src/plugin/slurm_snapshot.cpp, slurm_job_queue.cpp, slurm_accounting.cpp,
// slurm_carry_out.cpp, slurm_start.cpp, slurm_show_plan.cpp, slurm_time_limit.cpp) on
// fake slurmctld state: job_list, avail_node_bitmap, the node table and stand-ins of the
// calls build_job_queue's per-job work makes, of select_nodes and what follows a start,
// and of assoc_mgr's lock (recorded) are defined here; Slurm's list and bitmap code comes
// from libslurmfull.
// Checks the CPU accounting behind resource-accurate planning (usable nodes only, per-node
// CPUs of running jobs, jobs of other partitions on shared nodes), the limits and CPU
// counts of waiting jobs, the queue grouping, the finished-job scan, the slurmdbd query
// that bootstraps history (jobacct_storage_g_get_jobs_cond faked), how a plan's starts
// are carried out and what a refusal means, --time-min, the locks taken, and what
// squeue --start and squeue's reasons show.
#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <map>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "easypp/predictor.h"
#include "plugin/slurm_accounting.h"
#include "plugin/slurm_carry_out.h"
#include "plugin/slurm_handles.h"
#include "plugin/slurm_job_queue.h"
#include "plugin/slurm_planned_nodes.h"
#include "plugin/slurm_qos_block.h"
#include "plugin/slurm_show_plan.h"
#include "plugin/slurm_snapshot.h"
#include "plugin/slurm_time_limit.h"

// --- fake slurmctld state -------------------------------------------------------------
extern "C" {
List job_list = nullptr;
List part_list = nullptr;
List resv_list = nullptr;
bitstr_t* avail_node_bitmap = nullptr;
int slurmctld_tres_cnt = 0;
uint16_t accounting_enforce = 0;
}

namespace {
std::vector<job_queue_rec_t> g_queue;  // what the fake build_job_queue returns
std::vector<uint32_t> g_over_limits;   // jobs acct_policy_job_runnable_pre_select refuses
std::vector<uint32_t> g_qos_over_limits;  // ... and QOS ids it refuses (the job's qos_ptr)
std::vector<std::string> g_part_over_limits;  // ... and partitions it refuses (the job's part_ptr)
std::vector<uint32_t> g_no_licences;   // jobs license_job_test refuses (not free now)
std::vector<uint32_t> g_never_licences;  // ... and those asking more than the cluster has
std::map<std::string, uint32_t> g_licence_totals;  // get_total_license_cnt
std::vector<uint32_t> g_post_select_over;  // jobs acct_policy_job_runnable_post_select refuses
std::vector<uint32_t> g_post_select_per_node;  // ... for a per-node limit (MaxTRESPerNode)
std::vector<uint64_t> g_post_select_cpus;  // the CPU count of each request it was asked
uint32_t g_prio_thresh = 0;  // acct_policy_get_prio_thresh (a QOS's MinPrioThreshold)
std::vector<uint64_t> g_post_select_billing;  // the billing of each request it was asked
std::vector<uint32_t> g_post_select_limits;  // the job's time_limit each time it was asked
}

// assoc_mgr's locks as the glue takes them (one thread here: recorded, not taken), so a
// test can tell which the glue took and how wide; every lock must be given back.
namespace {
std::vector<assoc_mgr_lock_t> g_assoc_locks;
int g_assoc_held = 0;
}  // namespace
extern "C" void assoc_mgr_lock(assoc_mgr_lock_t* locks) {
  g_assoc_locks.push_back(*locks);
  ++g_assoc_held;
}
extern "C" void assoc_mgr_unlock(assoc_mgr_lock_t*) { --g_assoc_held; }

// As Slurm's: 0 without reading anything unless limits are enforced (may_reserve then
// takes no association lock).
extern "C" uint32_t acct_policy_get_prio_thresh(job_record_t*, bool) {
  return (accounting_enforce & ACCOUNTING_ENFORCE_LIMITS) ? g_prio_thresh : 0;
}

extern "C" bool acct_policy_job_runnable_pre_select(job_record_t* job, bool) {
  const bool qos_over = job->qos_ptr && std::find(g_qos_over_limits.begin(), g_qos_over_limits.end(),
                                                  job->qos_ptr->id) != g_qos_over_limits.end();
  const bool part_over =
      job->part_ptr && std::find(g_part_over_limits.begin(), g_part_over_limits.end(),
                                 job->part_ptr->name) != g_part_over_limits.end();
  if (!qos_over && !part_over &&
      std::find(g_over_limits.begin(), g_over_limits.end(), job->job_id) == g_over_limits.end())
    return true;
  job->state_reason = WAIT_QOS_MAX_JOB_PER_USER;
  return false;
}

extern "C" bool acct_policy_job_runnable_post_select(job_record_t* job, uint64_t* tres_req_cnt,
                                                     bool) {
  g_post_select_cpus.push_back(tres_req_cnt[TRES_ARRAY_CPU]);
  g_post_select_billing.push_back(tres_req_cnt[TRES_ARRAY_BILLING]);
  g_post_select_limits.push_back(job->time_limit);
  if (std::find(g_post_select_per_node.begin(), g_post_select_per_node.end(), job->job_id) !=
      g_post_select_per_node.end()) {
    job->state_reason = WAIT_QOS_MAX_CPU_PER_NODE;
    return false;
  }
  if (std::find(g_post_select_over.begin(), g_post_select_over.end(), job->job_id) ==
      g_post_select_over.end())
    return true;
  job->state_reason = WAIT_QOS_GRP_CPU;
  return false;
}

extern "C" int license_job_test(job_record_t* job, time_t, bool) {
  const auto listed = [job](const std::vector<uint32_t>& ids) {
    return std::find(ids.begin(), ids.end(), job->job_id) != ids.end();
  };
  return listed(g_never_licences) ? SLURM_ERROR : listed(g_no_licences) ? EAGAIN : SLURM_SUCCESS;
}

// As Slurm's: a job that can no longer end by its deadline (on its minimum, else its
// limit) is failed with JOB_DEADLINE.
#if EASYPP_SLURM_AT_LEAST(24, 11, 0)
extern "C" bool deadline_ok(job_record_t* job, const char*) {
#else
extern "C" bool deadline_ok(job_record_t* job, char*) {
#endif
  const time_t now = time(nullptr);
  const uint32_t minutes = job->time_min && job->time_min != NO_VAL ? job->time_min
                           : job->time_limit != NO_VAL && job->time_limit != INFINITE
                               ? job->time_limit
                               : 0;
  if (job->deadline >= now + static_cast<time_t>(minutes) * 60) return true;
  job->job_state = JOB_DEADLINE;
  job->state_reason = FAIL_DEADLINE;
  return false;
}

// Federation: jobs whose lock a sibling cluster holds, and what was locked, unlocked and
// reported started (in order, by job id).
std::vector<uint32_t> g_requeued;  // job_requeue's calls, by job id
int g_job_saves = 0;               // schedule_job_save's calls
std::vector<uint32_t> g_fed_locked_elsewhere;
std::vector<std::string> g_fed_calls;
extern "C" int fed_mgr_job_lock(job_record_t* job) {
  if (std::find(g_fed_locked_elsewhere.begin(), g_fed_locked_elsewhere.end(), job->job_id) !=
      g_fed_locked_elsewhere.end())
    return SLURM_ERROR;
  g_fed_calls.push_back("lock " + std::to_string(job->job_id));
  return SLURM_SUCCESS;
}
extern "C" int fed_mgr_job_unlock(job_record_t* job) {
  g_fed_calls.push_back("unlock " + std::to_string(job->job_id));
  return SLURM_SUCCESS;
}
extern "C" int fed_mgr_job_start(job_record_t* job, time_t) {
  g_fed_calls.push_back("start " + std::to_string(job->job_id));
  return SLURM_SUCCESS;
}

extern "C" uint32_t get_total_license_cnt(char* name) {
  const auto it = g_licence_totals.find(name);
  return it == g_licence_totals.end() ? 0 : it->second;
}

// --- what build_job_queue's per-job work calls (src/plugin/slurm_job_queue.cpp) --------
namespace {
std::vector<uint32_t> g_dependent;  // jobs job_independent says wait for a dependency
// job_limits_check's answer for (job id, partition name); absent: WAIT_NO_REASON.
std::vector<std::tuple<uint32_t, std::string, int>> g_limit_reasons;
bool g_preemption = false;  // slurm_preemption_enabled
int g_slurm_sorts = 0;      // sort_job_queue calls (only with preemption)

job_queue_rec_t* new_record(const job_queue_req_t* req, bool prefer) {
  auto* rec = static_cast<job_queue_rec_t*>(xmalloc(sizeof(job_queue_rec_t)));
  rec->array_task_id = req->job_ptr->array_task_id;
  rec->job_id = req->job_ptr->job_id;
  rec->job_ptr = req->job_ptr;
  rec->part_ptr = req->part_ptr;
  rec->priority = req->prio;
  rec->resv_ptr = req->resv_ptr;
#if EASYPP_SLURM_AT_LEAST(24, 11, 0)
  rec->qos_ptr = req->job_ptr->qos_ptr;
#endif
  rec->use_prefer = prefer;
  return rec;
}
}  // namespace

extern "C" {
time_t last_job_update = 0;

bool job_independent(job_record_t* job) {
  return std::find(g_dependent.begin(), g_dependent.end(), job->job_id) == g_dependent.end();
}

int job_limits_check(job_record_t** job, bool) {
  for (const auto& [id, part, reason] : g_limit_reasons)
    if (id == (*job)->job_id && (*job)->part_ptr && part == (*job)->part_ptr->name) return reason;
  return WAIT_NO_REASON;
}

#if !EASYPP_SLURM_AT_LEAST(24, 11, 0)
// As partition_mgr.c's: false for the partition reasons (which a queue build may clear).
bool part_policy_job_runnable_state(job_record_t* job) {
  switch (job->state_reason) {
    case WAIT_PART_DOWN:
    case WAIT_PART_INACTIVE:
    case WAIT_PART_NODE_LIMIT:
    case WAIT_PART_TIME_LIMIT:
    case WAIT_QOS_THRES:
      return false;
    default:
      return true;
  }
}
int select_g_select_jobinfo_get(dynamic_plugin_data_t*, enum select_jobdata_type, void* data) {
  *static_cast<uint16_t*>(data) = 0;  // never cleaning (no select plugin loaded here)
  return SLURM_SUCCESS;
}
#endif

void set_job_failed_assoc_qos_ptr(job_record_t*) {}
int acct_policy_handle_accrue_time(job_record_t*, bool) { return SLURM_SUCCESS; }
void job_resv_append_magnetic(job_queue_req_t*) {}
part_record_t* find_part_record(char* name) {
  if (!part_list) return nullptr;
  ListIterator it = list_iterator_create(part_list);
  part_record_t* found = nullptr;
  while (auto* p = static_cast<part_record_t*>(list_next(it)))
    if (name && p->name && std::string(p->name) == name) {
      found = p;
      break;
    }
  list_iterator_destroy(it);
  return found;
}
bool slurm_preemption_enabled(void) { return g_preemption; }
void sort_job_queue(List) { ++g_slurm_sorts; }

// Slurm's (a --prefer record first, then the plain one), unless the test gave this job's
// records itself (g_queue, by partition and, in 24.11, QOS): then those.
void job_queue_append_internal(job_queue_req_t* req) {
  bool given = false;
  for (const job_queue_rec_t& r : g_queue) {
    if (r.job_ptr != req->job_ptr) continue;
    given = true;
    if (r.part_ptr != req->part_ptr) continue;
    if (req->resv_ptr && r.resv_ptr != req->resv_ptr) continue;  // a record per reservation
#if EASYPP_SLURM_AT_LEAST(24, 11, 0)
    if (r.qos_ptr && r.qos_ptr != req->job_ptr->qos_ptr) continue;
#endif
    auto* rec = static_cast<job_queue_rec_t*>(xmalloc(sizeof(job_queue_rec_t)));
    *rec = r;
    list_append(req->job_queue, rec);
  }
  if (given) return;
  if (req->job_ptr->details && req->job_ptr->details->prefer)
    list_append(req->job_queue, new_record(req, true));
  list_append(req->job_queue, new_record(req, false));
}
}

extern "C" job_record_t* find_job_record(uint32_t job_id) {
  ListIterator it = list_iterator_create(job_list);
  job_record_t* found = nullptr;
  while (auto* job = static_cast<job_record_t*>(list_next(it)))
    if (job->job_id == job_id) found = job;
  list_iterator_destroy(it);
  return found;
}

// slurmdbd's answer for read_accounting_history, and what it was asked.
extern "C" {
void* acct_db_conn = nullptr;
}
namespace {
std::vector<slurmdb_job_rec_t> g_accounting;
slurmdb_job_cond_t g_asked{};
std::string g_asked_cluster;
std::vector<std::string> g_asked_states;
bool g_accounting_fails = false;
}  // namespace

extern "C" List jobacct_storage_g_get_jobs_cond(void*, uint32_t, slurmdb_job_cond_t* cond) {
  g_asked = *cond;
  g_asked_cluster = static_cast<const char*>(list_peek(cond->cluster_list));
  g_asked.cluster_list = nullptr;
  g_asked_states.clear();
  if (cond->state_list) {
    ListIterator it = list_iterator_create(cond->state_list);
    while (auto* state = static_cast<const char*>(list_next(it))) g_asked_states.push_back(state);
    list_iterator_destroy(it);
  }
  g_asked.state_list = nullptr;
  if (g_accounting_fails) return nullptr;
  List jobs = list_create(xfree_ptr);
  for (const slurmdb_job_rec_t& r : g_accounting) {
    auto* rec = static_cast<slurmdb_job_rec_t*>(xmalloc(sizeof(slurmdb_job_rec_t)));
    *rec = r;
    list_append(jobs, rec);
  }
  return jobs;
}

// --- what carry_out's starts call: select_nodes and what follows a start ------------
namespace {
struct SelectCall {
  uint32_t job = 0;
  std::vector<int> allowed;  // nodes not excluded when select_nodes was called
  uint32_t time_limit = 0;   // the job's limit then
};
// Called when the fake select_nodes tests an array's meta record, with the code it returns
// (a test splits it: Slurm's job_array_post_sched splits before the job starts, and
// select_g_job_begin or bb_g_job_begin may still refuse after that).
std::function<void(job_record_t*, int rc)> g_on_array_select;
std::vector<SelectCall> g_select_calls;
std::map<uint32_t, std::deque<int>> g_select_rc;  // per job, one rc per call (default: success)
std::vector<uint32_t> g_launched;

int fake_select_nodes(job_record_t* job) {
  SelectCall call{job->job_id, {}, job->time_limit};
  for (int i = 0; i < node_record_count; ++i)
    if (!job->details || !job->details->exc_node_bitmap ||
        !bit_test(job->details->exc_node_bitmap, i))
      call.allowed.push_back(i);
  g_select_calls.push_back(call);
  int rc = SLURM_SUCCESS;
  if (auto it = g_select_rc.find(job->job_id); it != g_select_rc.end() && !it->second.empty()) {
    rc = it->second.front();
    it->second.pop_front();
  }
  // An array's meta record stays pending under its id with the other tasks (Slurm's
  // job_array_split gives the started task a new record): as the test splits it.
  if (job->array_recs && g_on_array_select) g_on_array_select(job, rc);
  if (rc == SLURM_SUCCESS && !job->array_recs) {
    job->job_state = JOB_RUNNING;
    job->start_time = time(nullptr);
    job->end_time = job->start_time + static_cast<time_t>(job->time_limit) * 60;
    job->node_bitmap = bit_alloc(node_record_count);  // the first allowed node
    if (!call.allowed.empty()) bit_set(job->node_bitmap, call.allowed.front());
  }
  return rc;
}
}  // namespace

extern "C" {
diag_stats_t slurmctld_diag_stats;
#if EASYPP_SLURM_AT_LEAST(24, 11, 0)
int select_nodes(job_node_select_t* select, bool, bool, uint32_t) {
  return fake_select_nodes(select->job_ptr);
}
#else
int select_nodes(job_record_t* job, bool, bitstr_t**, char**, bool, uint32_t) {
  return fake_select_nodes(job);
}
#endif
void launch_job(job_record_t* job) { g_launched.push_back(job->job_id); }
void srun_allocate(job_record_t* job) { g_launched.push_back(job->job_id); }
void rebuild_job_part_list(job_record_t*) {}
void job_resv_clear_magnetic_flag(job_record_t*) {}
std::map<std::string, slurmctld_resv_t> g_resvs;  // find_resv_name's (none unless a test adds)
slurmctld_resv_t* find_resv_name(char* name) {
  auto it = g_resvs.find(name ? name : "");
  return it == g_resvs.end() ? nullptr : &it->second;
}
int job_requeue(uid_t, uint32_t job_id, slurm_msg_t*, bool, uint32_t) {
  g_requeued.push_back(job_id);
  return SLURM_SUCCESS;
}
void schedule_job_save() { ++g_job_saves; }
}

namespace easypp::plugin {
namespace {

constexpr time_t kNow = 1'700'000'000;

// Owns the fake records of one test.
class FakeSlurm : public ::testing::Test {
 protected:
  void SetUp() override {
    job_list = list_create(nullptr);
    g_queue.clear();
    g_over_limits.clear();
    g_qos_over_limits.clear();
    g_part_over_limits.clear();
    g_no_licences.clear();
    g_never_licences.clear();
    g_licence_totals.clear();
    g_post_select_over.clear();
    g_post_select_limits.clear();
    g_post_select_cpus.clear();
    g_post_select_per_node.clear();
    g_prio_thresh = 0;
    g_post_select_billing.clear();
    g_assoc_locks.clear();
    g_assoc_held = 0;
    slurmctld_tres_cnt = 0;
    accounting_enforce = ACCOUNTING_ENFORCE_ASSOCS | ACCOUNTING_ENFORCE_LIMITS;
    g_dependent.clear();
    g_fed_locked_elsewhere.clear();
    g_requeued.clear();
    g_fed_calls.clear();
    g_limit_reasons.clear();
    g_preemption = false;
    g_slurm_sorts = 0;
  }

  void TearDown() override {
    EXPECT_EQ(g_assoc_held, 0) << "an assoc_mgr lock was not given back";
    FREE_NULL_LIST(job_list);
    FREE_NULL_BITMAP(avail_node_bitmap);
    for (auto& j : jobs_) {
      xfree(j->sched_nodes);  // show_plan's
      xfree(j->state_desc);
      FREE_NULL_BITMAP(j->node_bitmap);  // the fake select_nodes'
    }
    for (auto& j : jobs_)
      if (j->job_resrcs) {
        FREE_NULL_BITMAP(j->job_resrcs->node_bitmap);
      }
    for (auto& p : parts_) FREE_NULL_BITMAP(p->node_bitmap);
    FREE_NULL_LIST(part_list);
    FREE_NULL_LIST(resv_list);
    for (bitstr_t* b : bitmaps_) FREE_NULL_BITMAP(b);
    for (List l : lists_) FREE_NULL_LIST(l);
    slurm_conf.select_type_param = 0;
    node_record_table_ptr = nullptr;
    node_record_count = 0;
    g_queue.clear();
  }

  // Nodes with these CPU counts; `available` marks the usable ones.
  void nodes(const std::vector<int>& cpus, const std::vector<bool>& available) {
    node_objs_.clear();
    node_ptrs_.clear();
    for (std::size_t i = 0; i < cpus.size(); ++i) {
      auto n = std::make_unique<node_record_t>();
      *n = node_record_t{};
      n->index = static_cast<int>(i);
      n->cpus = static_cast<uint16_t>(cpus[i]);
      n->cpus_efctv = static_cast<uint16_t>(cpus[i]);
      node_ptrs_.push_back(n.get());
      node_objs_.push_back(std::move(n));
    }
    node_record_table_ptr = node_ptrs_.data();
    node_record_count = static_cast<int>(cpus.size());
    avail_node_bitmap = bit_alloc(node_record_count);
    for (std::size_t i = 0; i < available.size(); ++i)
      if (available[i]) bit_set(avail_node_bitmap, static_cast<bitoff_t>(i));
  }

  part_record_t* partition(const char* name, const std::vector<int>& node_idx,
                           uint32_t max_time = INFINITE, uint32_t default_time = NO_VAL) {
    auto p = std::make_unique<part_record_t>();
    *p = part_record_t{};
    p->name = const_cast<char*>(name);
    p->node_bitmap = bit_alloc(node_record_count);
    for (int i : node_idx) bit_set(p->node_bitmap, i);
    p->max_time = max_time;
    p->default_time = default_time;
    p->state_up = PARTITION_UP;
    parts_.push_back(std::move(p));
    return parts_.back().get();
  }

  job_record_t* running(uint32_t id, std::vector<std::pair<int, int>> node_cpus,
                        time_t start, uint32_t limit_min, uint32_t state = JOB_RUNNING) {
    job_record_t* j = new_job(id, state);
    j->start_time = start;
    j->end_time = start + static_cast<time_t>(limit_min) * 60;
    j->time_limit = limit_min;
    static char allocated[] = "n0";  // an allocated job's node list: set, whatever it says
    j->nodes = allocated;
    auto& res = resources_.emplace_back(std::make_unique<job_resources_t>());
    *res = job_resources_t{};
    res->node_bitmap = bit_alloc(node_record_count);
    auto& cpus = cpu_arrays_.emplace_back();
    std::sort(node_cpus.begin(), node_cpus.end());
    for (auto [node, n] : node_cpus) {
      bit_set(res->node_bitmap, node);
      cpus.push_back(static_cast<uint16_t>(n));
      j->total_cpus += n;
    }
    res->cpus = cpus.data();
    res->nhosts = static_cast<uint32_t>(node_cpus.size());
    j->job_resrcs = res.get();
    return j;
  }

  job_record_t* pending(uint32_t id, uint32_t min_cpus, uint32_t limit_min) {
    job_record_t* j = new_job(id, JOB_PENDING);
    j->details->min_cpus = min_cpus;
    j->details->min_nodes = 1;
    j->time_limit = limit_min;
    return j;
  }

  // Gives `job` a TRES request (what slurmctld records at submission) of `cpus` CPUs.
  void tres_request(job_record_t* job, uint64_t cpus) {
    slurmctld_tres_cnt = TRES_ARRAY_TOTAL_CNT;
    auto& request = tres_requests_.emplace_back(
        std::make_unique<std::vector<uint64_t>>(TRES_ARRAY_TOTAL_CNT, 0));
    (*request)[TRES_ARRAY_CPU] = cpus;
    job->tres_req_cnt = request->data();
  }

  job_record_t* new_job(uint32_t id, uint32_t state) {
    auto j = std::make_unique<job_record_t>();
    *j = job_record_t{};
    auto d = std::make_unique<job_details_t>();
    *d = job_details_t{};
    d->submit_time = kNow - 1000;
    j->job_id = id;
    j->user_id = 1000 + id;
    j->job_state = state;
    j->priority = 1;
    j->details = d.get();
    details_.push_back(std::move(d));
    jobs_.push_back(std::move(j));
    list_append(job_list, jobs_.back().get());
    return jobs_.back().get();
  }

  // A queue record the test gives for `job` (the fake job_queue_append_internal makes
  // it): the job is made to be queued in `part` with `priority` there, as Slurm keeps it
  // (its first partition and priority; several: part_ptr_list and a priority per
  // partition).
  void queue(job_record_t* job, part_record_t* part, uint32_t priority) {
    job_queue_rec_t r{};
    r.job_ptr = job;
    r.part_ptr = part;
    r.job_id = job->job_id;
    r.priority = priority;
    r.array_task_id = NO_VAL;
    g_queue.push_back(r);
    auto& in = partitions_of_[job];
    if (std::find_if(in.begin(), in.end(), [&](auto& e) { return e.first == part; }) != in.end())
      return;
    in.emplace_back(part, priority);
    if (in.size() == 1) {
      job->part_ptr = part;
      job->priority = priority;
      return;
    }
    std::vector<void*> parts;
    auto& prios = priority_arrays_.emplace_back();
    for (auto& [p, prio] : in) {
      parts.push_back(p);
      prios.push_back(prio);
    }
    job->part_ptr_list = list_of(parts);
#if EASYPP_SLURM_AT_LEAST(24, 11, 0)
    auto& mult = part_prios_.emplace_back(std::make_unique<priority_mult_t>());
    *mult = priority_mult_t{};
    mult->priority_array = prios.data();
    job->part_prio = mult.get();
#else
    job->priority_array = prios.data();
#endif
  }
  std::map<job_record_t*, std::vector<std::pair<part_record_t*, uint32_t>>> partitions_of_;
  std::deque<std::vector<uint32_t>> priority_arrays_;
#if EASYPP_SLURM_AT_LEAST(24, 11, 0)
  std::vector<std::unique_ptr<priority_mult_t>> part_prios_;
#endif

  std::vector<std::unique_ptr<node_record_t>> node_objs_;
  std::vector<node_record_t*> node_ptrs_;
  std::vector<std::unique_ptr<part_record_t>> parts_;
  std::vector<std::unique_ptr<job_record_t>> jobs_;
  std::vector<std::unique_ptr<std::vector<uint64_t>>> tres_requests_;
  std::vector<std::unique_ptr<job_details_t>> details_;
  std::vector<std::unique_ptr<job_resources_t>> resources_;
  std::vector<std::vector<uint16_t>> cpu_arrays_;
  std::vector<std::unique_ptr<gres_job_state_t>> gres_counts_;
  std::vector<std::unique_ptr<gres_state_t>> gres_states_;

  // A gres_list_req entry: a request of GRES `name` with the counts of `counts`.
  gres_state_t* gres_request(const char* name, const gres_job_state_t& counts) {
    auto& js = gres_counts_.emplace_back(std::make_unique<gres_job_state_t>(counts));
    auto& gs = gres_states_.emplace_back(std::make_unique<gres_state_t>());
    *gs = gres_state_t{};
    gs->gres_name = const_cast<char*>(name);
    gs->gres_data = js.get();
    return gs.get();
  }
  std::vector<bitstr_t*> bitmaps_;  // freed at tear-down
  std::vector<List> lists_;         // freed at tear-down (entries owned elsewhere)

  bitstr_t* bitmap(const std::vector<int>& bits) {
    bitstr_t* b = bit_alloc(node_record_count);
    for (int i : bits) bit_set(b, i);
    bitmaps_.push_back(b);
    return b;
  }
  List list_of(const std::vector<void*>& items) {
    List l = list_create(nullptr);
    for (void* i : items) list_append(l, i);
    lists_.push_back(l);
    return l;
  }
};

TEST_F(FakeSlurm, RunningJobsHoldTheirSharesOnEveryNode) {
  // n0 16, n1 16, n2 8 (drained: not available), n3 32.
  nodes({16, 16, 8, 32}, {true, true, false, true});
  // Spans n0 (4 CPUs) and the drained n2 (6): both shares are held.
  running(1, {{0, 4}, {2, 6}}, kNow - 60, 10);
  running(2, {{1, 8}}, kNow - 30, 5);
  running(3, {{3, 32}}, kNow - 10, 5);
  // Suspended jobs keep their CPUs.
  running(4, {{1, 2}}, kNow - 100, 60, JOB_SUSPENDED);
  // A finished job whose epilog still runs (COMPLETING) holds its CPUs.
  running(5, {{0, 1}}, kNow - 100, 60, JOB_COMPLETE | JOB_COMPLETING);
  // A finished and released job does not.
  running(6, {{0, 3}}, kNow - 100, 60, JOB_COMPLETE);

  const ClusterSnapshot s = read_cluster({}, kNow);
  EXPECT_EQ(s.now, kNow);
  ASSERT_EQ(s.nodes.size(), 4u);
  EXPECT_FALSE(s.nodes[2].usable) << "drained";
  EXPECT_TRUE(s.nodes[3].usable);
  ASSERT_EQ(s.running.size(), 5u);
  EXPECT_EQ(s.running[0].id, 1u);
  EXPECT_EQ(s.running[0].procs, 10);
  ASSERT_EQ(s.running[0].shares.size(), 2u);
  EXPECT_EQ(s.running[0].shares[1].node, 2u);
  EXPECT_EQ(s.running[0].shares[1].cpus, 6);
  EXPECT_EQ(s.running[0].start, kNow - 60);
  EXPECT_EQ(s.running[0].limit, 600) << "the kill time end_time - start_time";
  EXPECT_EQ(s.running[0].user, 1001u);
  EXPECT_EQ(s.running[1].id, 2u);
  EXPECT_EQ(s.running[2].id, 3u);
  EXPECT_EQ(s.running[3].id, 4u);
  EXPECT_EQ(s.running[3].procs, 2);
  EXPECT_EQ(s.running[4].id, 5u);
  EXPECT_EQ(s.running[4].procs, 1);
}

// Each job queued once in `part`, priority 1.
std::vector<ClusterJob> queued_in(part_record_t* part, const std::vector<job_record_t*>& jobs) {
  std::vector<ClusterJob> out;
  for (job_record_t* j : jobs) out.push_back(ClusterJob{j, {QueuedJob{j, 1, part}}, j->job_id});
  return out;
}

TEST_F(FakeSlurm, WaitingJobsLimitsAndCpus) {
  nodes({16, 8}, {true, true});
  part_record_t* p = partition("p", {0, 1}, /*max_time=*/60, /*default_time=*/20);
  job_record_t* plain = pending(10, 3, 30);
  job_record_t* no_limit = pending(11, 1, NO_VAL);      // -> DefaultTime 20 min
  job_record_t* infinite = pending(12, 1, INFINITE);    // -> MaxTime 60 min
  job_record_t* too_long = pending(13, 1, 120);         // capped at MaxTime
  job_record_t* exclusive = pending(14, 1, 10);
  exclusive->details->whole_node = WHOLE_NODE_REQUIRED;
  exclusive->details->min_nodes = 2;                    // 2 whole nodes
  job_record_t* per_node = pending(15, 1, 10);
  per_node->details->min_nodes = 2;
  per_node->details->pn_min_cpus = 4;                   // 2 x 4

  const ClusterSnapshot s =
      read_cluster(queued_in(p, {plain, no_limit, infinite, too_long, exclusive, per_node}), kNow);
  ASSERT_EQ(s.waiting.size(), 6u);
  EXPECT_EQ(s.waiting[0].id, 10u);
  EXPECT_EQ(s.waiting[0].procs, 3);
  EXPECT_EQ(s.waiting[0].limit, 30 * 60);
  EXPECT_EQ(s.waiting[0].submit, kNow - 1000);
  EXPECT_EQ(s.waiting[1].limit, 20 * 60);
  EXPECT_EQ(s.waiting[2].limit, 60 * 60);
  EXPECT_EQ(s.waiting[3].limit, 60 * 60);
  EXPECT_TRUE(s.waiting[4].request.exclusive);
  EXPECT_EQ(s.waiting[4].request.min_nodes, 2);
  EXPECT_EQ(s.waiting[5].request.min_nodes, 2);
  EXPECT_EQ(s.waiting[5].request.cpus_per_node, 4);
  EXPECT_TRUE(s.running.empty());
}

// Threads per core: a node's tpc (under CR_Core also its CPUs' unit), and a pending job's
// mc_ptr as job_mgr.c's _set_multi_core_data keeps --threads-per-core (--hint=nomultithread
// sets 1 in sbatch: proc_args.c verify_hint) and --ntasks-per-core (NO_VAL16 or
// INFINITE16: not given; no mc_ptr: neither).
TEST_F(FakeSlurm, ThreadsPerCoreOfNodesAndRequests) {
  nodes({6}, {true});
  node_ptrs_[0]->tpc = 2;
  slurm_conf.select_type_param = CR_CORE;
  part_record_t* p = partition("p", {0});
  multi_core_data_t thread{};
  thread.threads_per_core = 1;
  thread.ntasks_per_core = INFINITE16;
  multi_core_data_t task{};
  task.threads_per_core = NO_VAL16;
  task.ntasks_per_core = 1;
  job_record_t* one_thread = pending(70, 2, 10);
  one_thread->details->mc_ptr = &thread;
  job_record_t* one_task = pending(71, 2, 10);
  one_task->details->mc_ptr = &task;
  job_record_t* neither = pending(72, 2, 10);
  const ClusterSnapshot s = read_cluster(queued_in(p, {one_thread, one_task, neither}), kNow);
  one_thread->details->mc_ptr = one_task->details->mc_ptr = nullptr;
  ASSERT_EQ(s.nodes.size(), 1u);
  EXPECT_EQ(s.nodes[0].threads_per_core, 2);
  EXPECT_EQ(s.nodes[0].cpu_unit, 2);
  ASSERT_EQ(s.waiting.size(), 3u);
  EXPECT_EQ(s.waiting[0].request.threads_per_core, 1);
  EXPECT_EQ(s.waiting[0].request.tasks_per_core, 0);
  EXPECT_EQ(s.waiting[1].request.threads_per_core, 0);
  EXPECT_EQ(s.waiting[1].request.tasks_per_core, 1);
  EXPECT_EQ(s.waiting[2].request.threads_per_core, 0);
  EXPECT_EQ(s.waiting[2].request.tasks_per_core, 0);
}

// A job queued in two partitions without a limit of its own gets the default of the one
// it starts in (select_nodes), so it is planned on the longer: short (MaxTime 60, no
// DefaultTime) first, long (MaxTime 7 days) second, it may start in long and run 7 days;
// before, the first record's 60 minutes were planned. The partitions' MaxNodes are read.
TEST_F(FakeSlurm, JobInSeveralPartitionsIsPlannedOnItsLongestLimit) {
  nodes({4, 4}, {true, true});
  part_record_t* short_part = partition("short", {0}, /*max_time=*/60);
  part_record_t* long_part = partition("long", {0, 1}, /*max_time=*/7 * 24 * 60);
  long_part->max_nodes = 1;
  short_part->max_nodes = INFINITE;
  part_list = list_create(nullptr);
  list_append(part_list, short_part);
  list_append(part_list, long_part);
  job_record_t* j = pending(20, 1, NO_VAL);
  const ClusterSnapshot s = read_cluster(
      {ClusterJob{j, {QueuedJob{j, 2, short_part}, QueuedJob{j, 1, long_part}}, j->job_id}}, kNow);
  ASSERT_EQ(s.waiting.size(), 1u);
  EXPECT_EQ(s.waiting[0].limit, 7 * 24 * 3600);
  EXPECT_EQ(s.waiting[0].priority, 2) << "its first record's";
  ASSERT_EQ(s.partitions.size(), 2u);
  EXPECT_EQ(s.partitions[0].max_nodes, 0) << "INFINITE: no cap";
  EXPECT_EQ(s.partitions[1].max_nodes, 1);
}

TEST_F(FakeSlurm, UnlimitedPartitionPlansAYear) {
  nodes({4}, {true});
  part_record_t* p = partition("p", {0});
  const ClusterSnapshot s =
      read_cluster(queued_in(p, {pending(20, 1, INFINITE), pending(21, 1, NO_VAL)}), kNow);
  ASSERT_EQ(s.waiting.size(), 2u);
  EXPECT_EQ(s.waiting[0].limit, YEAR_SECONDS);
  EXPECT_EQ(s.waiting[1].limit, YEAR_SECONDS);
}

// Slurm's QOS flag NoReserve: a job of such a QOS is read as not reservable (stock
// backfill reserves nothing for it); one of another QOS, or of none, as reservable.
TEST_F(FakeSlurm, NoReserveQosJobsAreNotReservable) {
  nodes({4}, {true});
  part_record_t* p = partition("p", {0});
  slurmdb_qos_rec_t standby{}, normal{};
  standby.id = 3;
  standby.flags = QOS_FLAG_NO_RESERVE;
  normal.id = 4;
  job_record_t* s = pending(30, 1, 1);
  job_record_t* n = pending(31, 1, 1);
  job_record_t* none = pending(32, 1, 1);
  s->qos_ptr = &standby;
  n->qos_ptr = &normal;
  queue(s, p, 3);
  queue(n, p, 2);
  queue(none, p, 1);
  const JobQueue q = read_job_queue(10);
  ASSERT_EQ(q.all.size(), 3u);
  EXPECT_TRUE(q.all[0].no_reserve);
  EXPECT_FALSE(q.all[1].no_reserve);
  const ClusterSnapshot snap = read_cluster(cluster_jobs(q, [](part_record_t*) { return true; }), kNow);
  ASSERT_EQ(snap.waiting.size(), 3u);
  EXPECT_FALSE(snap.waiting[0].reservable);
  EXPECT_TRUE(snap.waiting[1].reservable);
  EXPECT_TRUE(snap.waiting[2].reservable);
  s->qos_ptr = nullptr;
  n->qos_ptr = nullptr;
}

// bf_min_prio_reserve and bf_min_age_reserve: a record of lower priority, or of a job
// eligible for less time, is not reserved for; a QOS's MinPrioThreshold takes the place
// of bf_min_prio_reserve, as in stock backfill.
TEST_F(FakeSlurm, LowPriorityOrYoungJobsAreNotReservable) {
  nodes({4}, {true});
  part_record_t* p = partition("p", {0});
  job_record_t* high = pending(40, 1, 1);
  job_record_t* low = pending(41, 1, 1);
  job_record_t* young = pending(42, 1, 1);
  high->details->begin_time = time(nullptr) - 1000;
  low->details->begin_time = time(nullptr) - 1000;
  young->details->begin_time = time(nullptr) - 10;
  queue(high, p, 500);
  queue(low, p, 99);
  queue(young, p, 400);
  const auto unreservable = [&](const ReserveRules& rules) {
    const JobQueue q = read_job_queue(10, {}, {}, LimitBlocked::left_out, rules);
    std::vector<uint32_t> out;
    for (const QueuedJob& r : q.all)
      if (r.no_reserve) out.push_back(r.job->job_id);
    return out;
  };
  EXPECT_EQ(unreservable({}), std::vector<uint32_t>{});
  EXPECT_EQ(unreservable({0, 100}), std::vector<uint32_t>{41});
  EXPECT_EQ(unreservable({600, 0}), std::vector<uint32_t>{42});
  EXPECT_EQ(unreservable({600, 100}), (std::vector<uint32_t>{42, 41}));
  g_prio_thresh = 450;  // the QOS's threshold, in bf_min_prio_reserve's place
  EXPECT_EQ(unreservable({0, 100}), (std::vector<uint32_t>{42, 41}));
  EXPECT_EQ(unreservable({0, 0}), (std::vector<uint32_t>{42, 41})) << "without the key too";
  g_prio_thresh = 50;  // in its place even when lower
  EXPECT_EQ(unreservable({0, 100}), std::vector<uint32_t>{});
  g_prio_thresh = 450;
  ASSERT_FALSE(g_assoc_locks.empty());
  for (const assoc_mgr_lock_t& l : g_assoc_locks) {
    EXPECT_EQ(l.assoc, READ_LOCK) << "limits enforced: the threshold reads associations";
    EXPECT_EQ(l.qos, READ_LOCK);
  }
  g_assoc_locks.clear();
  accounting_enforce = ACCOUNTING_ENFORCE_ASSOCS;  // limits not enforced: no threshold
  EXPECT_EQ(unreservable({0, 100}), std::vector<uint32_t>{41}) << "bf_min_prio_reserve alone";
  ASSERT_FALSE(g_assoc_locks.empty());
  for (const assoc_mgr_lock_t& l : g_assoc_locks) {
    EXPECT_EQ(l.assoc, NO_LOCK) << "limits not enforced: only the QOS lock (NoReserve)";
    EXPECT_EQ(l.qos, READ_LOCK);
  }
}

// A job that does not choose among several QOS starts without assoc_mgr's lock: on 22.05
// never, on 24.11 only with a QOS list and a record's QOS id.
TEST_F(FakeSlurm, OnlyAJobWithSeveralQosChoosesOne) {
  job_record_t* job = pending(60, 1, 1);
  EXPECT_FALSE(compat::chooses_qos(job, 0));
  EXPECT_FALSE(compat::chooses_qos(job, 5)) << "no QOS list";
  const AssocMgrReadLock lock;
  EXPECT_TRUE(compat::set_job_qos(job, 5, lock)) << "nothing to set";
}

// The post-select check bills each record by its partition (TRESBillingWeights; none here,
// so CPUs, as Slurm bills without weights), not with the billing recorded at submission.
TEST_F(FakeSlurm, PostSelectBillingIsTheRecordsPartitions) {
  nodes({8}, {true});
  part_record_t* p = partition("p", {0});
  job_record_t* job = pending(50, 3, 10);
  tres_request(job, 3);
  job->tres_req_cnt[TRES_ARRAY_BILLING] = 99;
  queue(job, p, 1);
  const JobQueue q = read_job_queue(10);
  ASSERT_EQ(q.all.size(), 1u);
  EXPECT_EQ(g_post_select_billing, std::vector<uint64_t>{3});
}

TEST_F(FakeSlurm, QueueGroupedByPartitionInPriorityOrderWithCap) {
  nodes({4, 4}, {true, true});
  part_record_t* a = partition("a", {0});
  part_record_t* b = partition("b", {1});
  job_record_t* j1 = pending(1, 1, 1);
  job_record_t* j2 = pending(2, 1, 1);
  job_record_t* j3 = pending(3, 1, 1);
  job_record_t* het = pending(4, 1, 1);
  het->het_job_id = 4;
  queue(j1, b, 50);
  queue(j2, a, 40);
  queue(j3, b, 30);
  queue(j1, a, 20);  // the same job queued in its second partition
  queue(het, a, 10);
  queue(j3, a, 0);
  g_queue.back().use_prefer = true;  // a --prefer record, in its second partition

  const JobQueue q = read_job_queue(/*max_per_partition=*/2);
  EXPECT_EQ(q.length, 6);
  ASSERT_EQ(q.partitions.size(), 2u);
  EXPECT_EQ(q.partitions[0].partition, b);
  ASSERT_EQ(q.partitions[0].jobs.size(), 2u);
  EXPECT_EQ(q.partitions[0].jobs[0].job, j1);
  EXPECT_EQ(q.partitions[0].jobs[0].priority, 50u);
  EXPECT_EQ(q.partitions[0].jobs[1].job, j3);
  EXPECT_EQ(q.partitions[1].partition, a);
  ASSERT_EQ(q.partitions[1].jobs.size(), 2u) << "het job and --prefer record left out";
  EXPECT_EQ(q.partitions[1].jobs[0].job, j2);
  EXPECT_EQ(q.partitions[1].jobs[1].job, j1);
  EXPECT_EQ(q.partitions[1].jobs[1].priority, 20u);

  const JobQueue capped = read_job_queue(1);
  ASSERT_EQ(capped.partitions.size(), 2u);
  EXPECT_EQ(capped.partitions[0].jobs.size(), 1u);
  EXPECT_EQ(capped.partitions[1].jobs.size(), 1u);
}

// A yield point that, at its `at`-th call, runs `meanwhile` (what slurmctld did while
// the locks were given back) and answers `answer`; otherwise keeps the locks.
YieldPoint yield_at(int at, std::function<void()> meanwhile, Yield answer = Yield::yielded) {
  auto calls = std::make_shared<int>(0);
  return [=] {
    if (++*calls != at) return Yield::none;
    if (meanwhile) meanwhile();
    return answer;
  };
}

// Jobs read before a yield are found again by id after it; one that started meanwhile is
// no longer waiting, so it leaves the queue (the plan must not start it twice).
TEST_F(FakeSlurm, QueueReadInSlicesDropsJobsStartedDuringAYield) {
  nodes({4}, {true});
  part_record_t* a = partition("a", {0});
  job_record_t* j1 = pending(1, 1, 1);
  job_record_t* j2 = pending(2, 1, 1);
  job_record_t* j3 = pending(3, 1, 1);
  queue(j1, a, 30);
  queue(j2, a, 20);
  queue(j3, a, 10);
  // Call 1 is before job 1 is queued, call 2 before job 2: j1 is queued, then starts.
  const JobQueue q = read_job_queue(10, yield_at(2, [&] { j1->job_state = JOB_RUNNING; }));
  EXPECT_FALSE(q.abandoned);
  ASSERT_EQ(q.all.size(), 2u);
  EXPECT_EQ(q.all[0].job, j2);
  EXPECT_EQ(q.all[1].job, j3);
  ASSERT_EQ(q.partitions.size(), 1u);
  ASSERT_EQ(q.partitions[0].jobs.size(), 2u);
  EXPECT_EQ(q.partitions[0].jobs[0].job, j2);

  // Held during a yield (priority 0): left out, as stock's _job_runnable_now.
  j1->job_state = JOB_PENDING;
  const JobQueue held = read_job_queue(10, yield_at(4, [&] { j2->priority = 0; }));
  ASSERT_EQ(held.all.size(), 2u) << "j2 was held after the build";
  EXPECT_EQ(held.all[0].job, j1);
  EXPECT_EQ(held.all[1].job, j3);
  j1->job_state = JOB_RUNNING;
  j2->priority = 20;

  // A job started during a yield before its own record: left out too.
  const JobQueue q3 = read_job_queue(10, yield_at(2, [&] { j3->job_state = JOB_RUNNING; }));
  ASSERT_EQ(q3.all.size(), 1u) << "j1 runs, j3 started meanwhile";
  EXPECT_EQ(q3.all[0].job, j2);

  const JobQueue gone = read_job_queue(10, yield_at(2, nullptr, Yield::abandon));
  EXPECT_TRUE(gone.abandoned);
}

// Memory per GPU (--mem-per-gpu, else the partition's DefMemPerGPU) of a job that set no
// memory of its own: cons_tres allocates it per GPU instead of the node default
// (job_test.c), so the request carries it, not the whole node's memory (pn_min_memory 0
// is otherwise --mem=0). A job that set its memory (JOB_MEM_SET) keeps its own.
TEST_F(FakeSlurm, MemoryPerGpuReplacesTheDefaultOfAJobWithoutItsOwn) {
  slurm_conf.select_type_param = CR_CPU | CR_MEMORY;
  nodes({8}, {true});
  part_record_t* p = partition("p", {0});
  gres_job_state_t req{};
  req.gres_per_node = 2;
  req.def_mem_per_gres = 10000;
  req.def_cpus_per_gres = 3;
  gres_state_t* gpus = gres_request("gpu", req);
  job_record_t* dflt = pending(1, 1, 10);
  dflt->details->pn_min_memory = 0;
  dflt->gres_list_req = list_of({gpus});
  job_record_t* own = pending(2, 1, 10);
  own->details->pn_min_memory = 4000;
  own->bit_flags |= JOB_MEM_SET;
  own->gres_list_req = list_of({gpus});
  const ClusterSnapshot s = read_cluster(queued_in(p, {dflt, own}), kNow);
  ASSERT_EQ(s.waiting.size(), 2u);
  EXPECT_FALSE(s.waiting[0].request.all_memory);
  EXPECT_EQ(s.waiting[0].request.mem_per_gres_mb, 10000);
  EXPECT_EQ(s.waiting[1].request.mem_per_gres_mb, 0);
  EXPECT_EQ(s.waiting[1].request.mem_per_node_mb, 4000);
  const JobRequest r = request_of(s.waiting[0].request, build_cluster_model(s).machine);
  EXPECT_EQ(r.per_node[kMemory], 20000) << "2 GPUs x 10000 MB";
  EXPECT_EQ(s.waiting[0].request.cpus_per_gres, 3) << "DefCpuPerGPU";
  EXPECT_EQ(r.min_cpus_per_node, 6) << "2 GPUs x 3 CPUs on each node";
  EXPECT_FALSE(r.exclusive);
}

// Every pending job's start and nodes shown by the last pass are cleared when the queue
// is built, as stock's _clear_job_estimates does, also for a job that is not queued now
// (held here): squeue --start and SchedNodeList would show the old plan for it.
TEST_F(FakeSlurm, QueueBuildClearsEveryPendingJobsShownPlan) {
  nodes({4}, {true});
  part_record_t* a = partition("a", {0});
  job_record_t* held = pending(1, 1, 1);
  job_record_t* queued = pending(2, 1, 1);
  queue(queued, a, 10);
  held->part_ptr = a;
  held->priority = 0;
  for (job_record_t* j : {held, queued}) {
    j->start_time = kNow + 600;
    j->sched_nodes = xstrdup("n0");
  }
  const JobQueue q = read_job_queue(10);
  ASSERT_EQ(q.all.size(), 1u);
  for (job_record_t* j : {held, queued}) {
    EXPECT_EQ(j->start_time, 0) << "job " << j->job_id;
    EXPECT_EQ(j->sched_nodes, nullptr) << "job " << j->job_id;
  }
}

// build_job_queue's per-job work, replicated (slurm_job_queue.cpp). Worked out by hand:
// job 1 is held (priority 0): reason Held, not queued. Job 2 waits for a dependency with
// reason HeldUser: becomes Dependency, not queued. Job 3 is queued in a (priority 7) and
// b (PriorityTier 2, priority 1); a is over its time limit, so only (b, 1) is queued and,
// b passing, the partition reason is cleared again. Job 4 (a, 8) has a --prefer: two
// records, the --prefer one not planned. Job 5 (a, 9). Order: (3, b) first for b's tier;
// then 5 (9) before 4 (8). start_time is cleared (the backfill's clear_start).
TEST_F(FakeSlurm, QueueBuiltAsBuildJobQueueBuildsIt) {
  nodes({4, 4}, {true, true});
  part_record_t* a = partition("a", {0});
  part_record_t* b = partition("b", {1});
  b->priority_tier = 2;
  job_record_t* held = pending(1, 1, 1);
  held->part_ptr = a;
  held->priority = 0;
  job_record_t* dependent = pending(2, 1, 1);
  dependent->part_ptr = a;
  dependent->state_reason = WAIT_HELD_USER;
  g_dependent = {2};
  job_record_t* two_parts = pending(3, 1, 1);
  std::vector<uint32_t> prios = {7, 1};
  two_parts->part_ptr_list = list_of({a, b});
#if EASYPP_SLURM_AT_LEAST(24, 11, 0)
  priority_mult_t mult{};
  mult.priority_array = prios.data();
  two_parts->part_prio = &mult;
#else
  two_parts->priority_array = prios.data();
#endif
  g_limit_reasons = {{3, "a", WAIT_PART_TIME_LIMIT}};
  job_record_t* prefers = pending(4, 1, 1);
  prefers->part_ptr = a;
  prefers->priority = 8;
  prefers->start_time = kNow + 60;
  char prefer_text[] = "fast";
  prefers->details->prefer = prefer_text;
  job_record_t* plain = pending(5, 1, 1);
  plain->part_ptr = a;
  plain->priority = 9;

  const JobQueue q = read_job_queue(10);
  EXPECT_EQ(q.length, 4) << "(3, b), 5, 4 twice";
  ASSERT_EQ(q.all.size(), 3u);
  EXPECT_EQ(q.all[0].job, two_parts);
  EXPECT_EQ(q.all[0].partition, b);
  EXPECT_EQ(q.all[0].priority, 1u);
  EXPECT_EQ(q.all[1].job, plain);
  EXPECT_EQ(q.all[2].job, prefers);
  EXPECT_EQ(held->state_reason, WAIT_HELD);
  EXPECT_EQ(dependent->state_reason, WAIT_DEPENDENCY);
  EXPECT_EQ(two_parts->state_reason, WAIT_NO_REASON) << "b passes: the partition reason goes";
  EXPECT_EQ(prefers->start_time, 0);
  prefers->details->prefer = nullptr;
  two_parts->part_ptr_list = nullptr;
}

// The queue is built one job at a time with a yield point between jobs. Worked out: call
// 2 comes before job 2 is queued; meanwhile job 1 (queued) ended and job 3 was purged.
// Job 3 is never looked at; job 1's record is left to the reader, who finds jobs by id
// after a yield (read_job_queue drops it): records 1 and 2, `yielded` set.
TEST_F(FakeSlurm, QueueBuildYieldsBetweenJobsAndFindsThemAgainById) {
  nodes({4}, {true});
  part_record_t* a = partition("a", {0});
  job_record_t* j1 = pending(1, 1, 1);
  job_record_t* j2 = pending(2, 1, 1);
  job_record_t* j3 = pending(3, 1, 1);
  queue(j1, a, 3);
  queue(j2, a, 2);
  queue(j3, a, 1);
  const auto meanwhile = [&] {
    j1->job_state = JOB_COMPLETE;
    list_delete_ptr(job_list, j3);
  };
  QueueBuild built = build_queue_in_slices(yield_at(2, meanwhile));
  EXPECT_TRUE(built.yielded);
  EXPECT_EQ(built.jobs_tested, 2);
  ASSERT_EQ(built.records.size(), 2u);
  EXPECT_EQ(built.records[0].job_id, 1u);
  EXPECT_EQ(built.records[1].job_id, 2u);
  j1->job_state = JOB_PENDING;
  list_append(job_list, j3);
  const JobQueue q = read_job_queue(10, yield_at(2, meanwhile));
  ASSERT_EQ(q.all.size(), 1u);
  EXPECT_EQ(q.all[0].job, j2);
  EXPECT_TRUE(build_queue_in_slices(yield_at(1, nullptr, Yield::abandon)).abandoned);
}

// With preemption enabled Slurm's own sort_job_queue orders the queue (its preemption
// test reads job records): after a yield the records' jobs are found again by id first,
// and records of a reservation deleted meanwhile are dropped (their pointer may dangle).
TEST_F(FakeSlurm, WithPreemptionSlurmSortsRecordsFoundAgain) {
  nodes({4}, {true});
  part_record_t* a = partition("a", {0});
  slurmctld_resv_t kept{}, deleted{};
  resv_list = list_create(nullptr);
  list_append(resv_list, &kept);
  list_append(resv_list, &deleted);
  job_record_t* j1 = pending(1, 1, 1);
  job_record_t* j2 = pending(2, 1, 1);
  job_record_t* j3 = pending(3, 1, 1);
  queue(j1, a, 3);
  g_queue.back().resv_ptr = &kept;
  queue(j2, a, 2);
  g_queue.back().resv_ptr = &deleted;
  queue(j3, a, 1);
  g_preemption = true;
  int before_sort = 0;
  const QueueBuild built = build_queue_in_slices(
      yield_at(3, [&] { list_delete_ptr(resv_list, &deleted); }), [&] {
        ++before_sort;
        return Yield::none;
      });
  EXPECT_TRUE(built.slurm_sort);
  EXPECT_EQ(g_slurm_sorts, 1);
  EXPECT_EQ(before_sort, 1);
  EXPECT_FALSE(built.yielded) << "every job found again in the sort's hold";
  ASSERT_EQ(built.records.size(), 2u);
  EXPECT_EQ(built.records[0].job_ptr, j1);
  EXPECT_EQ(built.records[1].job_ptr, j3);
}

TEST_F(FakeSlurm, RequestsReadInSlicesLeaveOutJobsStartedDuringAYield) {
  nodes({4}, {true});
  part_record_t* p = partition("p", {0});
  job_record_t* j1 = pending(1, 1, 10);
  job_record_t* j2 = pending(2, 1, 10);
  const std::vector<ClusterJob> jobs = queued_in(p, {j1, j2});
  // Call 1 before j1: j1 starts meanwhile, so only j2 waits.
  const ClusterSnapshot s = read_cluster(jobs, kNow, 1, yield_at(1, [&] { j1->job_state = JOB_RUNNING; }));
  ASSERT_EQ(s.waiting.size(), 1u);
  EXPECT_EQ(s.waiting[0].id, 2u);
  bool abandoned = false;
  read_cluster(jobs, kNow, 1, yield_at(2, nullptr, Yield::abandon), &abandoned);
  EXPECT_TRUE(abandoned);
}

TEST_F(FakeSlurm, FinishedJobsWithHowTheyEnded) {
  nodes({4}, {true});
  running(1, {{0, 2}}, kNow - 100, 5, JOB_COMPLETE);
  running(2, {{0, 1}}, kNow - 400, 5, JOB_TIMEOUT);
  running(3, {{0, 1}}, kNow - 50, 5, JOB_CANCELLED);
  running(4, {{0, 1}}, kNow - 50, 5, JOB_FAILED);
  running(5, {{0, 1}}, kNow - 50, 5, JOB_RUNNING);
  // Cancelled while pending: slurmctld sets start = end = now (job_signal), no nodes.
  job_record_t* never_ran = pending(6, 1, 5);
  never_ran->job_state = JOB_CANCELLED;
  never_ran->start_time = never_ran->end_time = kNow;
  pending(7, 1, 5);
  for (auto& j : jobs_)
    if (j->job_id <= 4) j->end_time = j->start_time + 42;

  std::unordered_set<JobId> finished, active;
  const std::vector<FinishedJob> out = read_finished_jobs(finished, active);
  ASSERT_EQ(out.size(), 4u);
  EXPECT_EQ(out[0].job.id, 1u);
  EXPECT_EQ(out[0].end_state, EPP_END_COMPLETED);
  EXPECT_EQ(out[0].end - out[0].job.start, 42);
  EXPECT_EQ(out[0].job.limit, 300);
  EXPECT_EQ(out[0].job.procs, 2);
  EXPECT_EQ(out[1].end_state, EPP_END_TIMEOUT);
  EXPECT_EQ(out[2].end_state, EPP_END_CANCELLED);
  EXPECT_EQ(out[3].end_state, EPP_END_FAILED);
  EXPECT_EQ(finished, (std::unordered_set<JobId>{1, 2, 3, 4, 6}));
  EXPECT_EQ(active, (std::unordered_set<JobId>{5, 7}));
}

TEST_F(FakeSlurm, JobsOverLimitsOrWithoutLicencesAreNotQueued) {
  nodes({4}, {true});
  part_record_t* p = partition("p", {0});
  job_record_t* ok = pending(1, 1, 1);
  job_record_t* over = pending(2, 1, 1);
  job_record_t* no_lic = pending(3, 1, 1);
  no_lic->license_list = list_of({});
  queue(ok, p, 3);
  queue(over, p, 2);
  queue(no_lic, p, 1);
  g_over_limits = {2};
  g_no_licences = {3};
  const JobQueue q = read_job_queue(10);
  EXPECT_EQ(q.length, 3);
  EXPECT_EQ(q.not_runnable, 2);
  ASSERT_EQ(q.all.size(), 1u);
  EXPECT_EQ(q.all[0].job, ok);
  EXPECT_EQ(over->state_reason, WAIT_QOS_MAX_JOB_PER_USER) << "Slurm's check sets the reason";
  EXPECT_EQ(no_lic->state_reason, WAIT_LICENSES);
}

// SchedulerParameters=bf_licenses: a job whose licences are not free now is planned (its
// reason says why it waits); one asking for more than the cluster has is not.
TEST_F(FakeSlurm, JobsWaitingForLicencesArePlannedUnderBfLicenses) {
  nodes({4}, {true});
  part_record_t* p = partition("p", {0});
  job_record_t* ok = pending(1, 1, 1);
  job_record_t* waits = pending(2, 1, 1);
  job_record_t* never = pending(3, 1, 1);
  waits->license_list = list_of({});
  never->license_list = list_of({});
  queue(ok, p, 3);
  queue(waits, p, 2);
  queue(never, p, 1);
  g_no_licences = {2};
  g_never_licences = {3};
  const JobQueue q =
      read_job_queue(10, {}, {}, LimitBlocked::left_out, {}, LicenceBlocked::planned);
  EXPECT_EQ(q.not_runnable, 1);
  ASSERT_EQ(q.all.size(), 2u);
  EXPECT_EQ(q.all[1].job, waits);
  EXPECT_EQ(waits->state_reason, WAIT_LICENSES);
  EXPECT_EQ(never->state_reason, WAIT_LICENSES);
}

// Licences as the plan counts them: what each running job holds and each waiting job asks
// for (its license_list: the count in `total`), and the cluster's total of each licence a
// waiting job asks for, once, in queue order.
TEST_F(FakeSlurm, LicencesOfRunningAndWaitingJobs) {
  nodes({8}, {true});
  part_record_t* p = partition("p", {0});
  licenses_t held{}, asked_a{}, asked_b{}, asked_a2{};
  held.name = const_cast<char*>("a");
  held.total = 1;
  asked_a.name = const_cast<char*>("a");
  asked_a.total = 2;
  asked_b.name = const_cast<char*>("b");
  asked_b.total = 3;
  asked_a2 = asked_a;
  running(1, {{0, 2}}, kNow - 60, 10)->license_list = list_of({&held});
  job_record_t* w1 = pending(2, 1, 10);
  w1->license_list = list_of({&asked_a, &asked_b});
  job_record_t* w2 = pending(3, 1, 10);
  w2->license_list = list_of({&asked_a2});
  g_licence_totals = {{"a", 4}, {"b", 5}};
  const ClusterSnapshot s = read_cluster(queued_in(p, {w1, w2}), kNow);
  ASSERT_EQ(s.running.size(), 1u);
  ASSERT_EQ(s.running[0].licences.size(), 1u);
  EXPECT_EQ(s.running[0].licences[0].name, "a");
  EXPECT_EQ(s.running[0].licences[0].count, 1);
  ASSERT_EQ(s.waiting.size(), 2u);
  ASSERT_EQ(s.waiting[0].request.licences.size(), 2u);
  EXPECT_EQ(s.waiting[0].request.licences[1].name, "b");
  EXPECT_EQ(s.waiting[0].request.licences[1].count, 3);
  ASSERT_EQ(s.licences.size(), 2u);
  EXPECT_EQ(s.licences[0].name, "a");
  EXPECT_EQ(s.licences[0].count, 4);
  EXPECT_EQ(s.licences[1].name, "b");
  EXPECT_EQ(s.licences[1].count, 5);
}

// Advance reservations as the plan reads them: nodes, licences (Licenses=, the count in
// `total`) and ANY_NODES. One of licences only has no node_bitmap (Slurm requires
// ANY_NODES then) and is kept; one with neither nodes nor licences nor ANY_NODES is not.
TEST_F(FakeSlurm, ReservationLicencesAndAnyNodes) {
  nodes({8, 8}, {true, true});
  part_record_t* p = partition("p", {0, 1});
  licenses_t held{};
  held.name = const_cast<char*>("lic");
  held.total = 2;
  slurmctld_resv_t lic_only{}, on_nodes{}, empty{};
  char lic_name[] = "class", nodes_name[] = "maint", empty_name[] = "empty";
  lic_only.name = lic_name;
  lic_only.start_time = kNow + 300;
  lic_only.end_time = kNow + 900;
  lic_only.flags = RESERVE_FLAG_ANY_NODES;
  lic_only.license_list = list_of({&held});
  on_nodes.name = nodes_name;
  on_nodes.start_time = kNow + 100;
  on_nodes.end_time = kNow + 200;
  on_nodes.node_bitmap = bitmap({1});
  empty.name = empty_name;
  empty.start_time = kNow + 100;
  empty.end_time = kNow + 200;
  resv_list = list_create(nullptr);
  list_append(resv_list, &lic_only);
  list_append(resv_list, &on_nodes);
  list_append(resv_list, &empty);
  const ClusterSnapshot s = read_cluster(queued_in(p, {pending(2, 1, 10)}), kNow);
  ASSERT_EQ(s.reservations.size(), 2u);
  EXPECT_EQ(s.reservations[0].name, "class");
  EXPECT_TRUE(s.reservations[0].nodes.empty());
  EXPECT_TRUE(s.reservations[0].any_nodes);
  ASSERT_EQ(s.reservations[0].licences.size(), 1u);
  EXPECT_EQ(s.reservations[0].licences[0].name, "lic");
  EXPECT_EQ(s.reservations[0].licences[0].count, 2);
  EXPECT_EQ(s.reservations[1].name, "maint");
  EXPECT_FALSE(s.reservations[1].any_nodes);
  EXPECT_TRUE(s.reservations[1].licences.empty());
}

// Limits Slurm checks once nodes are chosen (a QOS's GrpTRES): asked with the job's own
// request; a job over one is not planned and keeps the limit's reason. A per-node limit
// (MaxTRESPerNode, on the job's fewest nodes) is left to select_nodes: that job is queued,
// its reason cleared. A job without a TRES request (none recorded) is not asked.
TEST_F(FakeSlurm, JobsOverPostSelectLimitsAreNotQueued) {
  nodes({8}, {true});
  part_record_t* p = partition("p", {0});
  job_record_t* ok = pending(1, 2, 10);
  job_record_t* over = pending(2, 6, 10);
  job_record_t* per_node = pending(4, 4, 10);
  job_record_t* unrecorded = pending(3, 1, 10);
  tres_request(ok, 2);
  tres_request(over, 6);
  tres_request(per_node, 4);
  queue(ok, p, 4);
  queue(over, p, 3);
  queue(per_node, p, 2);
  queue(unrecorded, p, 1);
  g_post_select_over = {2};
  g_post_select_per_node = {4};
  const JobQueue q = read_job_queue(10);
  EXPECT_EQ(q.not_runnable, 1);
  ASSERT_EQ(q.all.size(), 3u);
  EXPECT_EQ(q.all[0].job, ok);
  EXPECT_EQ(q.all[1].job, per_node);
  EXPECT_EQ(q.all[2].job, unrecorded);
  EXPECT_EQ(over->state_reason, WAIT_QOS_GRP_CPU) << "Slurm's check sets the reason";
  EXPECT_EQ(per_node->state_reason, WAIT_NO_REASON) << "a per-node limit is select_nodes'";
  EXPECT_EQ(g_post_select_cpus, (std::vector<uint64_t>{2, 6, 4})) << "each asked with its own request";
}

// A --time-min job is asked about post-select limits on its minimum, as stock sets its
// limit to the minimum first: a limit on TRES minutes (GrpTRESRunMins) that its full day
// would pass over may let its hour through. Its own limit is back afterwards.
TEST_F(FakeSlurm, PostSelectLimitsAskedOnTheMinimumOfATimeMinJob) {
  nodes({8}, {true});
  part_record_t* p = partition("p", {0});
  job_record_t* flexible = pending(1, 2, 1440);
  flexible->time_min = 60;
  job_record_t* fixed = pending(2, 2, 1440);
  tres_request(flexible, 2);
  tres_request(fixed, 2);
  queue(flexible, p, 2);
  queue(fixed, p, 1);
  const JobQueue q = read_job_queue(10);
  ASSERT_EQ(q.all.size(), 2u);
  EXPECT_EQ(g_post_select_limits, (std::vector<uint32_t>{60, 1440}));
  EXPECT_EQ(flexible->time_limit, 1440u);
}

// A job queued in two partitions is checked with each record's partition (a partition
// QOS, its memory default), as stock backfill sets the job's part_ptr per record: over a
// limit in one, it stays queued in the other.
TEST_F(FakeSlurm, LimitsAreCheckedWithEachRecordsPartition) {
  nodes({4, 4}, {true, true});
  part_record_t* a = partition("a", {0});
  part_record_t* b = partition("b", {1});
  job_record_t* job = pending(1, 1, 10);
  queue(job, a, 10);
  queue(job, b, 8);
  g_part_over_limits = {"b"};
  const JobQueue q = read_job_queue(10);
  EXPECT_EQ(q.length, 2);
  EXPECT_EQ(q.not_runnable, 1);
  ASSERT_EQ(q.all.size(), 1u);
  EXPECT_EQ(q.all[0].partition, a);
  g_part_over_limits = {"a"};
  const JobQueue q2 = read_job_queue(10);
  ASSERT_EQ(q2.all.size(), 1u);
  EXPECT_EQ(q2.all[0].partition, b);
}

// Feature expressions beyond a plain AND or OR list (a mix of both, brackets, counts)
// are left to select_nodes: the request names none and says so.
TEST_F(FakeSlurm, MixedFeatureExpressionsAreLeftToSelectNodes) {
  nodes({4}, {true});
  part_record_t* p = partition("p", {0});
  char a[] = "a", b[] = "b", c[] = "c";
  job_feature_t mixed[3]{};
  mixed[0].name = a;
  mixed[0].op_code = FEATURE_OP_AND;
  mixed[1].name = b;
  mixed[1].op_code = FEATURE_OP_OR;
  mixed[2].name = c;
  mixed[2].op_code = FEATURE_OP_END;
  job_feature_t counted{};
  counted.name = a;
  counted.count = 2;
  counted.op_code = FEATURE_OP_END;
  job_record_t* j1 = pending(1, 1, 10);
  job_record_t* j2 = pending(2, 1, 10);
  j1->details->feature_list = list_of({&mixed[0], &mixed[1], &mixed[2]});
  j2->details->feature_list = list_of({&counted});
  queue(j1, p, 2);
  queue(j2, p, 1);
  const ClusterSnapshot s =
      read_cluster(cluster_jobs(read_job_queue(10), [](part_record_t*) { return true; }), kNow);
  ASSERT_EQ(s.waiting.size(), 2u);
  for (const JobRecord& w : s.waiting) {
    EXPECT_TRUE(w.request.features_left) << w.id;
    EXPECT_TRUE(w.request.features.empty()) << w.id;
    EXPECT_FALSE(w.request.any_feature) << w.id;
  }
}

// The plan reads the job's own features, not feature_list_use, which Slurm may leave at
// the --prefer list (a wish the job may run without).
TEST_F(FakeSlurm, PreferIsNotAConstraint) {
  nodes({4}, {true});
  part_record_t* p = partition("p", {0});
  char a[] = "a", fast[] = "fast";
  job_feature_t own{};
  own.name = a;
  own.op_code = FEATURE_OP_END;
  job_feature_t preferred{};
  preferred.name = fast;
  preferred.op_code = FEATURE_OP_END;
  job_record_t* j = pending(1, 1, 10);
  j->details->feature_list = list_of({&own});
  j->details->feature_list_use = list_of({&preferred});
  queue(j, p, 1);
  const ClusterSnapshot s =
      read_cluster(cluster_jobs(read_job_queue(10), [](part_record_t*) { return true; }), kNow);
  ASSERT_EQ(s.waiting.size(), 1u);
  EXPECT_EQ(s.waiting[0].request.features, std::vector<std::string>{"a"});
  EXPECT_FALSE(s.waiting[0].request.features_left);
}

// Slurm's post-select check answers true at once unless accounting enforces limits
// (AccountingStorageEnforce without `limits`): then it is not asked at all.
TEST_F(FakeSlurm, PostSelectLimitsAskedOnlyWhenEnforced) {
  nodes({8}, {true});
  part_record_t* p = partition("p", {0});
  job_record_t* j = pending(1, 6, 10);
  tres_request(j, 6);
  queue(j, p, 1);
  g_post_select_over = {1};
  accounting_enforce = ACCOUNTING_ENFORCE_ASSOCS;
  const JobQueue q = read_job_queue(10);
  EXPECT_EQ(q.not_runnable, 0);
  ASSERT_EQ(q.all.size(), 1u);
  EXPECT_TRUE(g_post_select_cpus.empty());
}

// SchedulerParameters=assoc_limit_stop: stock backfill asks neither limit check and
// reserves for a job a limit holds back; the queue keeps such jobs (licences still count).
TEST_F(FakeSlurm, UnderAssocLimitStopJobsHeldByLimitsAreQueued) {
  nodes({8}, {true});
  part_record_t* p = partition("p", {0});
  job_record_t* pre = pending(1, 1, 10);
  job_record_t* post = pending(2, 6, 10);
  job_record_t* no_lic = pending(3, 1, 10);
  no_lic->license_list = list_of({});
  tres_request(post, 6);
  queue(pre, p, 3);
  queue(post, p, 2);
  queue(no_lic, p, 1);
  g_over_limits = {1};
  g_post_select_over = {2};
  g_no_licences = {3};
  const JobQueue q = read_job_queue(10, {}, {}, LimitBlocked::planned);
  EXPECT_EQ(q.not_runnable, 1);
  ASSERT_EQ(q.all.size(), 2u);
  EXPECT_EQ(q.all[0].job, pre);
  EXPECT_EQ(q.all[1].job, post);
  EXPECT_EQ(no_lic->state_reason, WAIT_LICENSES);
  EXPECT_TRUE(g_post_select_cpus.empty()) << "no limit check asked";
  EXPECT_EQ(pre->state_reason, WAIT_NO_REASON);
}

// assoc_limit_stop: once a held job is found at a group limit of QOS a, no later record of
// QOS a starts in the pass: a record whose own QOS is a, or whose partition's QOS is a.
// A record of another QOS of the same job is not blocked (the record's QOS counts, not
// whatever QOS the queue build left on the job), nor is the held job itself.
TEST_F(FakeSlurm, BlockedQosStopsLaterRecordsOfItOrOfItsPartition) {
  nodes({8}, {true});
  slurmdb_qos_rec_t a{}, b{};
  a.id = 5;
  b.id = 6;
  part_record_t* plain = partition("plain", {0});
  part_record_t* under_a = partition("under_a", {0});
  under_a->qos_ptr = &a;
  part_list = list_create(nullptr);
  list_append(part_list, plain);
  list_append(part_list, under_a);
  job_record_t* held = pending(1, 4, 10);
  held->qos_ptr = &a;
  held->qos_blocking_ptr = &a;
  job_record_t* later = pending(2, 1, 10);
  later->qos_ptr = &a;
  job_record_t* other = pending(3, 1, 10);
  other->qos_ptr = &b;
  QosBlock blocked;
  EXPECT_FALSE(blocked.blocks_any(later, 2, {StartChoice{"plain"}})) << "nothing blocked yet";
  blocked.block_for(held);
  blocked.hold(1);
  EXPECT_FALSE(blocked.empty());
  EXPECT_FALSE(blocked.blocks(held, 1, 0, plain)) << "the held job stays planned";
  EXPECT_TRUE(blocked.blocks(later, 2, 0, plain)) << "the job's one QOS (22.05)";
  EXPECT_TRUE(blocked.blocks(later, 2, 5, plain)) << "the record's QOS";
  EXPECT_FALSE(blocked.blocks(later, 2, 6, plain)) << "the record's QOS, not the job's";
  EXPECT_FALSE(blocked.blocks(other, 3, 0, plain));
  EXPECT_TRUE(blocked.blocks(other, 3, 0, under_a)) << "its partition's QOS";
  StartChoice in_plain{"plain"}, in_under_a{"under_a"};
  EXPECT_FALSE(blocked.blocks_any(other, 3, {in_plain}));
  EXPECT_TRUE(blocked.blocks_any(other, 3, {in_plain, in_under_a}));
  EXPECT_FALSE(blocked.blocks_any(held, 1, {in_plain, in_under_a}));
  StartChoice gone{"deleted"};
  EXPECT_FALSE(blocked.blocks_any(other, 3, {gone})) << "a partition deleted meanwhile";
}

// Records past a partition's cap are not checked (stock tests no more: bf_max_job_part),
// so the post-select check (a QOS write lock in 24.11) is asked only for those planned.
TEST_F(FakeSlurm, RecordsPastThePartitionCapAreNotChecked) {
  nodes({8}, {true});
  part_record_t* p = partition("p", {0});
  for (uint32_t id = 1; id <= 4; ++id) {
    job_record_t* j = pending(id, id, 10);
    tres_request(j, id);
    queue(j, p, 10 - id);
  }
  g_post_select_over = {2};
  const JobQueue q = read_job_queue(/*max_per_partition=*/2);
  ASSERT_EQ(q.partitions.size(), 1u);
  ASSERT_EQ(q.partitions[0].jobs.size(), 2u);
  EXPECT_EQ(q.partitions[0].jobs[0].job->job_id, 1u);
  EXPECT_EQ(q.partitions[0].jobs[1].job->job_id, 3u);
  EXPECT_EQ(g_post_select_cpus, (std::vector<uint64_t>{1, 2, 3})) << "job 4 is past the cap";
  EXPECT_EQ(q.length, 4);
}

// Records of a magnetic reservation (for jobs that named none) do not count against the
// cap, as stock counts them against no backfill limit (backfill.c, JOB_MAGNETIC unless
// bf_allow_magnetic_slot). Three jobs, each a plain and a magnetic record, cap 2: the
// plain records of 1 and 2 fill the cap, so 3 is planned only by its magnetic record.
TEST_F(FakeSlurm, MagneticRecordsDoNotCountAgainstThePartitionCap) {
  nodes({8}, {true});
  part_record_t* p = partition("p", {0});
  slurmctld_resv_t m{};
  char m_name[] = "m";
  m.name = m_name;
  for (uint32_t id = 1; id <= 3; ++id) {
    job_record_t* j = pending(id, 1, 10);
    queue(j, p, 10 - id);
    queue(j, p, 10 - id);
    g_queue.back().resv_ptr = &m;
  }
  const JobQueue q = read_job_queue(/*max_per_partition=*/2);
  ASSERT_EQ(q.partitions.size(), 1u);
  std::vector<uint32_t> plain, magnetic;
  for (const QueuedJob& r : q.partitions[0].jobs)
    (r.magnetic ? magnetic : plain).push_back(r.job->job_id);
  EXPECT_EQ(plain, (std::vector<uint32_t>{1, 2}));
  EXPECT_EQ(magnetic, (std::vector<uint32_t>{1, 2, 3}));
}

// The whole cluster as the plan sees it (CR_CPU_Memory): node memory less MemSpecLimit,
// GRES by name and type, usable nodes, exclusive partitions, reservations, per-node
// allocations (CPUs, memory, GRES) and full requests of pending jobs, each job once with
// every partition it is queued in.
TEST_F(FakeSlurm, ClusterNodesPartitionsReservationsAllocationsAndRequests) {
  slurm_conf.select_type_param = CR_CPU | CR_MEMORY;
  nodes({16, 16, 8}, {true, true, false});
  node_objs_[0]->real_memory = 1000;
  node_objs_[0]->mem_spec_limit = 100;
  node_objs_[1]->real_memory = 2000;
  node_objs_[0]->features_act = const_cast<char*>("fast,ib");
  gres_node_state_t gpus{};
  gpus.gres_cnt_avail = 4;
  gpus.type_cnt = 1;
  uint64_t a100_avail[] = {4};
  char a100[] = "a100";
  char* type_names[] = {a100};
  gpus.type_cnt_avail = a100_avail;
  gpus.type_name = type_names;
  char gpu[] = "gpu";
  gres_state_t node_gres{};
  node_gres.gres_name = gpu;
  node_gres.gres_data = &gpus;
  node_objs_[0]->gres_list = list_of({&node_gres});

  part_record_t* a = partition("a", {0, 1});
  part_record_t* b = partition("b", {1, 2});
  b->max_share = 0;  // OverSubscribe=EXCLUSIVE
  a->max_share = 1;
  a->max_cpus_per_node = 12;
  b->max_cpus_per_node = INFINITE;
  part_list = list_create(nullptr);
  list_append(part_list, a);
  list_append(part_list, b);
  slurmctld_resv_t resv{};
  char resv_name[] = "maint";
  resv.name = resv_name;
  resv.start_time = kNow + 100;
  resv.end_time = kNow + 200;
  resv.node_bitmap = bitmap({1});
  slurmctld_resv_t over{};
  char old_name[] = "old";
  over.name = old_name;
  over.start_time = kNow - 200;
  over.end_time = kNow - 100;
  over.node_bitmap = bitmap({0});
  resv_list = list_create(nullptr);
  list_append(resv_list, &resv);
  list_append(resv_list, &over);

  job_record_t* run = running(1, {{0, 4}, {1, 2}}, kNow - 60, 10);
  uint64_t mem[] = {300, 200};
  run->job_resrcs->memory_allocated = mem;
  gres_job_state_t alloc{};
  alloc.type_name = a100;
  alloc.node_cnt = 2;
  uint64_t per_node[] = {1, 0};
  alloc.gres_cnt_node_alloc = per_node;
  gres_state_t alloc_state{};
  alloc_state.gres_name = gpu;
  alloc_state.gres_data = &alloc;
  run->gres_list_alloc = list_of({&alloc_state});

  job_record_t* p1 = pending(10, 8, 30);
  p1->details->num_tasks = 4;
  p1->details->cpus_per_task = 2;
  p1->details->min_nodes = 1;
  p1->details->max_nodes = 2;
  p1->details->pn_min_memory = MEM_PER_CPU | 50;
  gres_job_state_t req{};
  req.gres_per_node = 2;
  gres_state_t req_state{};
  req_state.gres_name = gpu;
  req_state.gres_data = &req;
  p1->gres_list_req = list_of({&req_state});
  char f_fast[] = "fast";
  char f_ib[] = "ib";
  job_feature_t f1{};
  f1.name = f_fast;
  f1.op_code = FEATURE_OP_AND;
  job_feature_t f2{};
  f2.name = f_ib;
  f2.op_code = FEATURE_OP_END;
  p1->details->feature_list = list_of({&f1, &f2});
  p1->details->exc_node_bitmap = bitmap({2});
  p1->details->ntasks_per_node = 2;
  p1->resv_name = resv_name;
  job_record_t* p2 = pending(11, 1, 30);
  p2->details->pn_min_memory = 0;  // --mem=0: whole nodes' memory
  p2->details->whole_node = WHOLE_NODE_REQUIRED;
  job_feature_t g1{};
  g1.name = f_fast;
  g1.op_code = FEATURE_OP_OR;
  job_feature_t g2{};
  g2.name = f_ib;
  g2.op_code = FEATURE_OP_END;
  p2->details->feature_list = list_of({&g1, &g2});
  p2->details->req_node_bitmap = bitmap({1});
  job_record_t* gone = pending(12, 1, 30);
  queue(p1, a, 9);
  queue(p2, b, 8);
  queue(p1, b, 7);  // p1 also queued in b
  queue(gone, a, 6);
  const JobQueue q = read_job_queue(10);
  gone->job_state = JOB_RUNNING;  // started by someone else since
  const std::vector<ClusterJob> jobs = cluster_jobs(q, [](part_record_t*) { return true; });
  ASSERT_EQ(jobs.size(), 3u);
  EXPECT_EQ(jobs[0].in.size(), 2u);

  const ClusterSnapshot s = read_cluster(jobs, kNow);
  ASSERT_EQ(s.nodes.size(), 3u);
  EXPECT_EQ(s.nodes[0].cpus, 16);
  EXPECT_EQ(s.nodes[0].memory_mb, 900) << "RealMemory less MemSpecLimit";
  EXPECT_EQ(s.nodes[0].features, (std::vector<std::string>{"fast", "ib"}));
  ASSERT_EQ(s.nodes[0].gres.size(), 2u);
  EXPECT_EQ(s.nodes[0].gres[0].kind, "gpu");
  EXPECT_EQ(s.nodes[0].gres[0].count, 4);
  EXPECT_EQ(s.nodes[0].gres[1].kind, "gpu:a100");
  EXPECT_TRUE(s.nodes[1].usable);
  EXPECT_FALSE(s.nodes[2].usable) << "not in avail_node_bitmap";
  ASSERT_EQ(s.partitions.size(), 2u);
  EXPECT_EQ(s.partitions[0].nodes, (std::vector<std::uint32_t>{0, 1}));
  EXPECT_FALSE(s.partitions[0].exclusive);
  EXPECT_TRUE(s.partitions[1].exclusive);
  EXPECT_EQ(s.partitions[0].max_cpus_per_node, 12) << "MaxCPUsPerNode";
  EXPECT_EQ(s.partitions[1].max_cpus_per_node, 0) << "INFINITE: no cap";
  ASSERT_EQ(s.reservations.size(), 1u) << "an ended reservation is left out";
  EXPECT_EQ(s.reservations[0].name, "maint");
  EXPECT_EQ(s.reservations[0].start, kNow + 100);
  EXPECT_EQ(s.reservations[0].nodes, (std::vector<std::uint32_t>{1}));

  ASSERT_EQ(s.running.size(), 1u);
  ASSERT_EQ(s.running[0].shares.size(), 2u);
  EXPECT_EQ(s.running[0].shares[0].cpus, 4);
  EXPECT_EQ(s.running[0].shares[0].memory_mb, 300);
  ASSERT_EQ(s.running[0].shares[0].gres.size(), 1u);
  EXPECT_EQ(s.running[0].shares[0].gres[0].kind, "gpu:a100");
  EXPECT_EQ(s.running[0].shares[1].node, 1u);
  EXPECT_EQ(s.running[0].shares[1].memory_mb, 200);
  EXPECT_TRUE(s.running[0].shares[1].gres.empty());

  ASSERT_EQ(s.waiting.size(), 2u) << "the job started meanwhile is not planned";
  const RequestRecord& r = s.waiting[0].request;
  EXPECT_EQ(s.waiting[0].priority, 9);
  EXPECT_EQ(r.partitions, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(r.tasks, 4);
  EXPECT_EQ(r.tasks_per_node, 2) << "--ntasks-per-node";
  EXPECT_EQ(s.waiting[1].request.tasks_per_node, 0) << "not given";
  EXPECT_EQ(r.cpus_per_task, 2);
  EXPECT_EQ(r.max_nodes, 2);
  EXPECT_EQ(r.mem_per_cpu_mb, 50);
  EXPECT_EQ(r.mem_per_node_mb, 0);
  ASSERT_EQ(r.gres_per_node.size(), 1u);
  EXPECT_EQ(r.gres_per_node[0].kind, "gpu");
  EXPECT_EQ(r.gres_per_node[0].count, 2);
  EXPECT_EQ(r.features, (std::vector<std::string>{"fast", "ib"}));
  EXPECT_FALSE(r.any_feature);
  EXPECT_FALSE(r.features_left);
  EXPECT_EQ(r.excluded, (std::vector<std::uint32_t>{2}));
  EXPECT_EQ(r.reservation, "maint");
  const RequestRecord& r2 = s.waiting[1].request;
  EXPECT_TRUE(r2.all_memory);
  EXPECT_TRUE(r2.exclusive);
  EXPECT_FALSE(r2.features_left) << "a plain OR list is planned";
  EXPECT_TRUE(r2.any_feature);
  EXPECT_EQ(r2.features, (std::vector<std::string>{"fast", "ib"}));
  EXPECT_EQ(r2.required, (std::vector<std::uint32_t>{1}));

  // Without CR_*_Memory, memory is not planned at all.
  slurm_conf.select_type_param = CR_CPU;
  const ClusterSnapshot cpu_only = read_cluster(jobs, kNow);
  EXPECT_EQ(cpu_only.nodes[0].memory_mb, 0);
  EXPECT_EQ(cpu_only.running[0].shares[0].memory_mb, 0);
  EXPECT_EQ(cpu_only.waiting[0].request.mem_per_cpu_mb, 0);
  EXPECT_FALSE(cpu_only.waiting[1].request.all_memory);
  for (job_record_t* j : {p1, p2}) {
    j->details->exc_node_bitmap = nullptr;
    j->details->req_node_bitmap = nullptr;
  }
}

// --gpus-per-task=2 -n2: Slurm fills in the per-job total (4 = tasks x per task) and may
// hold a per-node count of what the node's tasks use; the request is per task alone.
// Adding the total as well planned 2 x 2 + 4 GPUs on one node: on 4-GPU nodes the job
// never started (review finding, reproduced live).
TEST_F(FakeSlurm, GpusPerTaskAreTheWholeGpuRequest) {
  nodes({4}, {true});
  part_record_t* p = partition("p", {0});
  job_record_t* j = pending(12, 2, 30);
  j->part_ptr = p;
  j->details->num_tasks = 2;
  gres_job_state_t req{};
  req.gres_per_task = 2;
  req.gres_per_job = 4;
  req.gres_per_node = 4;
  j->gres_list_req = list_of({gres_request("gpu", req)});
  const std::vector<ClusterJob> jobs =
      cluster_jobs(read_job_queue(10), [](part_record_t*) { return true; });
  const ClusterSnapshot s = read_cluster(jobs, kNow);
  ASSERT_EQ(s.waiting.size(), 1u);
  const RequestRecord& r = s.waiting[0].request;
  ASSERT_EQ(r.gres_per_task.size(), 1u);
  EXPECT_EQ(r.gres_per_task[0].count, 2);
  EXPECT_TRUE(r.gres_per_job.empty());
  EXPECT_TRUE(r.gres_per_node.empty());
}

// A pending job array is planned as copies of its meta record: its remaining tasks, within
// its %throttle and easypp_array_tasks.
TEST_F(FakeSlurm, ArrayTasksAreCopiesOfTheMetaRecord) {
  nodes({4}, {true});
  part_record_t* p = partition("p", {0});
  job_record_t* meta = pending(20, 1, 1);
  job_array_struct_t array{};
  array.task_cnt = 5;
  array.max_run_tasks = 3;
  array.tot_run_tasks = 1;
  array.task_id_bitmap = bitmap({0});
  meta->array_recs = &array;
  job_record_t* plain = pending(21, 1, 1);
  queue(meta, p, 2);
  queue(plain, p, 1);
  const std::vector<ClusterJob> jobs =
      cluster_jobs(read_job_queue(10), [](part_record_t*) { return true; });
  const ClusterSnapshot s = read_cluster(jobs, kNow, 100);
  ASSERT_EQ(s.waiting.size(), 3u) << "3 may run, 1 runs: 2 copies, then job 21";
  EXPECT_EQ(s.waiting[0].id, 20u);
  EXPECT_EQ(s.waiting[1].id, array_copy_id(20, 1));
  EXPECT_EQ(slurm_job_id(s.waiting[1].id), 20u);
  EXPECT_EQ(s.waiting[2].id, 21u);
  array.max_run_tasks = 0;  // no throttle: easypp_array_tasks bounds the copies
  EXPECT_EQ(read_cluster(jobs, kNow, 4).waiting.size(), 5u);
  EXPECT_EQ(read_cluster(jobs, kNow, 100).waiting.size(), 6u);
  meta->array_recs = nullptr;
}

// A job with reservations gets one queue record per reservation (several requested, or
// magnetic ones), in the same partition: planned once, as one waiting job queued in each
// partition once. Worked out: job 30 named none, so (p, r1), (p, r2) are magnetic records
// and (q) its own; one ClusterJob with three records, its own first; one JobRecord with
// partitions {q, p}, no reservation of its own and r1, r2 to choose; job 31 after it.
TEST_F(FakeSlurm, JobWithDuplicatedReservationRecordsIsPlannedOnce) {
  nodes({4, 4}, {true, true});
  part_record_t* p = partition("p", {0});
  part_record_t* q = partition("q", {1});
  job_record_t* dup = pending(30, 1, 1);
  job_record_t* other = pending(31, 1, 1);
  char r1_name[] = "r1", r2_name[] = "r2";
  slurmctld_resv_t r1{}, r2{};
  r1.name = r1_name;
  r2.name = r2_name;
  queue(dup, p, 5);
  g_queue.back().resv_ptr = &r1;
  queue(dup, p, 5);
  g_queue.back().resv_ptr = &r2;
  queue(dup, q, 4);
  queue(other, p, 3);
  const JobQueue queued = read_job_queue(10);
  EXPECT_EQ(queued.all.size(), 4u);
  const std::vector<ClusterJob> jobs = cluster_jobs(queued, [](part_record_t*) { return true; });
  ASSERT_EQ(jobs.size(), 2u);
  EXPECT_EQ(jobs[0].id, 30u);
  EXPECT_EQ(jobs[0].in.size(), 3u);
  EXPECT_EQ(jobs[0].in[0].partition, q) << "the job's own record first";
  EXPECT_TRUE(jobs[0].in[1].magnetic);
  EXPECT_EQ(jobs[0].in[2].reservation, "r2");
  const ClusterSnapshot s = read_cluster(jobs, kNow);
  ASSERT_EQ(s.waiting.size(), 2u);
  EXPECT_EQ(s.waiting[0].id, 30u);
  EXPECT_EQ(s.waiting[0].priority, 4) << "its own record's";
  EXPECT_EQ(s.waiting[0].request.partitions, (std::vector<std::string>{"q", "p"}));
  EXPECT_EQ(s.waiting[0].request.reservation, "");
  EXPECT_EQ(s.waiting[0].request.other_reservations, (std::vector<std::string>{"r1", "r2"}));
  EXPECT_EQ(s.waiting[1].id, 31u);
}

// Slurm sorts every record with a reservation before those without, but a magnetic one
// does not place the job in the plan (stock backfill only tries to start it). Worked
// out: records (m, p, G magnetic), (plain, p, priority 3), (m, p, priority 2) -> plain
// first, then m with G to choose. A job of --reservation=a,b (resv_list, resv_name "a,b") has records (p, a),
// (p, b), placed by the first: reservation "a", "b" to choose, not "a,b".
TEST_F(FakeSlurm, MagneticRecordsDoNotPlaceAJobAndSeveralNamesAreChoices) {
  nodes({4}, {true});
  part_record_t* p = partition("p", {0});
  char g_name[] = "G", a_name[] = "a", b_name[] = "b", both[] = "a,b";
  slurmctld_resv_t g{}, a{}, b{};
  g.name = g_name;
  a.name = a_name;
  b.name = b_name;
  job_record_t* drawn = pending(40, 1, 1);
  job_record_t* plain = pending(41, 1, 1);
  job_record_t* named = pending(42, 1, 1);
  queue(drawn, p, 2);
  g_queue.back().resv_ptr = &g;
  queue(named, p, 4);
  g_queue.back().resv_ptr = &a;
  queue(named, p, 4);
  g_queue.back().resv_ptr = &b;
  queue(plain, p, 3);
  queue(drawn, p, 2);
  List names = list_create(nullptr);
  list_append(names, &a);
  list_append(names, &b);
  named->resv_list = names;
  named->resv_name = both;
  const JobQueue queued = read_job_queue(10);
  const std::vector<ClusterJob> jobs = cluster_jobs(queued, [](part_record_t*) { return true; });
  ASSERT_EQ(jobs.size(), 3u);
  EXPECT_EQ(jobs[0].id, 42u);
  EXPECT_EQ(jobs[1].id, 41u);
  EXPECT_EQ(jobs[2].id, 40u) << "placed by its own record (priority 2), not G's";
  EXPECT_FALSE(jobs[0].in[0].magnetic) << "a record of a job that named reservations";
  const ClusterSnapshot s = read_cluster(jobs, kNow);
  ASSERT_EQ(s.waiting.size(), 3u);
  EXPECT_EQ(s.waiting[0].request.reservation, "a");
  EXPECT_EQ(s.waiting[0].request.other_reservations, (std::vector<std::string>{"b"}));
  EXPECT_TRUE(s.waiting[1].request.other_reservations.empty());
  EXPECT_EQ(s.waiting[2].request.reservation, "");
  EXPECT_EQ(s.waiting[2].request.other_reservations, (std::vector<std::string>{"G"}));
  EXPECT_EQ(s.waiting[2].priority, 2);
  named->resv_list = nullptr;
  named->resv_name = nullptr;
  FREE_NULL_LIST(names);
}

#if EASYPP_SLURM_AT_LEAST(24, 11, 0)
// 24.11: a job requesting QOS a and b has a record per (partition, QOS); limits are checked
// with each record's QOS. Worked out: a (id 5, priority 10) is at its limit, so only the
// (p, b) record (id 6, priority 8) is kept, carrying b's id; the job is planned once; by
// id the job takes a or b back from its own list (compat::set_job_qos), nothing else.
TEST_F(FakeSlurm, MultiQosRecordsAreCheckedEachWithItsQos) {
  nodes({4}, {true});
  part_record_t* p = partition("p", {0});
  job_record_t* job = pending(40, 1, 1);
  slurmdb_qos_rec_t a{}, b{};
  a.id = 5;
  a.name = const_cast<char*>("a");
  b.id = 6;
  b.name = const_cast<char*>("b");
  job->qos_list = list_of({&a, &b});
  queue(job, p, 10);
  g_queue.back().qos_ptr = &a;
  queue(job, p, 8);
  g_queue.back().qos_ptr = &b;
  g_qos_over_limits = {5};
  const JobQueue queued = read_job_queue(10);
  EXPECT_EQ(queued.length, 2);
  EXPECT_EQ(queued.not_runnable, 1);
  ASSERT_EQ(queued.all.size(), 1u);
  EXPECT_EQ(queued.all[0].qos_id, 6u);
  EXPECT_EQ(queued.all[0].priority, 8u);
  EXPECT_EQ(job->qos_ptr, &b) << "the job carries the record's QOS, as in stock";
  EXPECT_EQ(cluster_jobs(queued, [](part_record_t*) { return true; }).size(), 1u);
  EXPECT_TRUE(compat::chooses_qos(job, 5)) << "several QOS: the start takes the lock";
  EXPECT_FALSE(compat::chooses_qos(job, 0)) << "0: no lock, nothing to set";
  {
    const AssocMgrReadLock lock;
    EXPECT_TRUE(compat::set_job_qos(job, 5, lock));
    EXPECT_EQ(job->qos_ptr, &a);
    EXPECT_STREQ(compat::chosen_qos_name(job), "a");
    EXPECT_FALSE(compat::set_job_qos(job, 7, lock)) << "a QOS the job does not request";
    EXPECT_EQ(job->qos_ptr, &a);
    EXPECT_TRUE(compat::set_job_qos(job, 0, lock)) << "0: nothing to set";
  }
  job->qos_list = nullptr;
  EXPECT_FALSE(compat::chooses_qos(job, 5)) << "no QOS list: no lock, nothing to set";
  job->qos_ptr = nullptr;
}

// A record read after a yield counts only while its QOS is still the job's: one whose
// QOS `scontrol update job qos=` changed (j1, a -> b) or `sacctmgr delete qos` took away
// (j2: job_fail_qos leaves qos_ptr NULL, the record's pointer may dangle) is left out,
// not set back on the job. A multi-QOS job's record of a QOS it still requests stays (j3).
TEST_F(FakeSlurm, RecordsWhoseQosChangedDuringAYieldAreLeftOut) {
  nodes({4}, {true});
  part_record_t* p = partition("p", {0});
  slurmdb_qos_rec_t a{}, b{};
  a.id = 5;
  b.id = 6;
  job_record_t* j1 = pending(1, 1, 1);
  job_record_t* j2 = pending(2, 1, 1);
  job_record_t* j3 = pending(3, 1, 1);
  j1->qos_ptr = &a;
  j2->qos_ptr = &a;
  j3->qos_list = list_of({&a, &b});
  queue(j1, p, 30);
  g_queue.back().qos_ptr = &a;
  queue(j2, p, 20);
  g_queue.back().qos_ptr = &a;
  queue(j3, p, 10);
  g_queue.back().qos_ptr = &b;
  const JobQueue q = read_job_queue(10, yield_at(4, [&] {  // after the build (calls 1-3)
    j1->qos_ptr = &b;
    j2->qos_ptr = nullptr;
  }));
  ASSERT_EQ(q.all.size(), 1u);
  EXPECT_EQ(q.all[0].job, j3);
  EXPECT_EQ(j1->qos_ptr, &b) << "not set back to the record's";
  EXPECT_EQ(j2->qos_ptr, nullptr);
  j1->qos_ptr = j2->qos_ptr = j3->qos_ptr = nullptr;
  j3->qos_list = nullptr;
}
#endif

slurmdb_job_rec_t accounted(uint32_t id, time_t start, time_t end, uint32_t state) {
  slurmdb_job_rec_t r{};
  r.jobid = id;
  r.uid = 500;
  r.submit = start - 5;
  r.start = start;
  r.end = end;
  r.timelimit = 10;
  r.req_cpus = 3;
  r.state = state;
  return r;
}

// One window (BootstrapWorker asks a day at a time): the jobs that ran and ended in it,
// [from, to] inclusive. slurmdbd is asked for the jobs that ended in it in a state a job
// ends in (a state list: `time_end between usage_start and usage_end`), not for every job
// pending or running then; the answer is filtered all the same.
TEST(SlurmAccounting, JobsThatRanAndEndedInTheWindow) {
  constexpr time_t kFrom = kNow - 24 * 3600;
  g_accounting_fails = false;
  g_accounting = {accounted(1, kNow - 100, kNow - 10, JOB_COMPLETE),
                  accounted(2, kNow - 300, kNow - 200, JOB_TIMEOUT),
                  accounted(3, 0, kNow - 50, JOB_CANCELLED),           // never ran
                  accounted(4, kNow - 20, 0, JOB_RUNNING),             // still runs
                  accounted(5, kFrom - 100, kFrom - 1, JOB_COMPLETE),  // ended before
                  accounted(6, kNow - 100, kNow + 1, JOB_COMPLETE),    // ended after
                  accounted(7, kFrom - 100, kFrom, JOB_COMPLETE),      // the first second
                  accounted(8, kNow - 100, kNow, JOB_COMPLETE)};       // the last second
  std::vector<FinishedJob> out;
  std::string err;
  ASSERT_TRUE(read_accounting_history("c1", 0, kFrom, kNow, out, err)) << err;
  EXPECT_EQ(g_asked_cluster, "c1");
  EXPECT_EQ(g_asked.usage_start, kFrom);
  EXPECT_EQ(g_asked.usage_end, kNow);
  auto state = [](uint32_t s) { return std::to_string(s); };
  EXPECT_EQ(g_asked_states,
            (std::vector<std::string>{state(JOB_COMPLETE), state(JOB_CANCELLED), state(JOB_FAILED),
                                      state(JOB_TIMEOUT), state(JOB_NODE_FAIL), state(JOB_PREEMPTED),
                                      state(JOB_BOOT_FAIL), state(JOB_DEADLINE), state(JOB_OOM)}))
      << "ended jobs only: not REQUEUE, RESIZING, REVOKED, nor pending or running ones";
  EXPECT_EQ(g_asked.db_flags, SLURMDB_JOB_FLAG_NOTSET) << "0 would select no job at all";
  EXPECT_TRUE(g_asked.flags & JOBCOND_FLAG_NO_TRUNC) << "real start/end, not cut to the window";
  ASSERT_EQ(out.size(), 4u);
  EXPECT_EQ(out[0].job.id, 1u);
  EXPECT_EQ(out[0].end_state, EPP_END_COMPLETED);
  EXPECT_EQ(out[0].job.user, 500u);
  EXPECT_EQ(out[0].job.limit, 600);
  EXPECT_EQ(out[0].job.procs, 3);
  EXPECT_EQ(out[0].end - out[0].job.start, 90);
  EXPECT_EQ(out[1].job.id, 2u);
  EXPECT_EQ(out[1].end_state, EPP_END_TIMEOUT);
  EXPECT_EQ(out[2].job.id, 7u);
  EXPECT_EQ(out[3].job.id, 8u);
}

// Rows that are no runtime the job had are not learnt: a run cut by a requeue (its state
// has JOB_REQUEUE; the job ran again), a piece of a resized job (JOB_RESIZING), a pending
// job cancelled (start = end, no nodes). A preempted job and one cut at its deadline end
// as cancelled (they teach only with learn=all, as predictor/README.md says).
TEST(SlurmAccounting, RowsThatAreNoRuntimeAreLeftOut) {
  g_accounting_fails = false;
  slurmdb_job_rec_t cancelled_pending = accounted(4, kNow - 30, kNow - 30, JOB_CANCELLED);
  cancelled_pending.alloc_nodes = 0;
  slurmdb_job_rec_t instant = accounted(7, kNow - 20, kNow - 20, JOB_FAILED);
  instant.alloc_nodes = 1;  // ran for no time on a node: a run
  g_accounting = {accounted(1, kNow - 100, kNow - 10, JOB_COMPLETE),
                  accounted(2, kNow - 300, kNow - 200, JOB_REQUEUE),
                  accounted(3, kNow - 300, kNow - 250, JOB_RESIZING | JOB_RUNNING),
                  cancelled_pending,
                  accounted(5, kNow - 400, kNow - 300, JOB_PREEMPTED),
                  accounted(6, kNow - 500, kNow - 450, JOB_DEADLINE),
                  instant};
  std::vector<FinishedJob> out;
  std::string err;
  ASSERT_TRUE(read_accounting_history("c1", 0, kNow - 7 * 24 * 3600, kNow, out, err)) << err;
  ASSERT_EQ(out.size(), 4u);  // in slurmdbd's order
  EXPECT_EQ(out[0].job.id, 1u);
  EXPECT_EQ(out[1].job.id, 5u);
  EXPECT_EQ(out[1].end_state, EPP_END_CANCELLED);
  EXPECT_EQ(out[2].job.id, 6u);
  EXPECT_EQ(out[2].end_state, EPP_END_CANCELLED);
  EXPECT_EQ(out[3].job.id, 7u);
  EXPECT_EQ(out[3].end_state, EPP_END_FAILED);
}

// --- carry_out: the plan's starts through select_nodes, and what a refusal means ------

class CarryOut : public FakeSlurm {
 protected:
  void SetUp() override {
    FakeSlurm::SetUp();
    g_select_calls.clear();
    g_select_rc.clear();
    g_launched.clear();
    g_on_array_select = nullptr;
    g_resvs.clear();
    slurmctld_diag_stats = diag_stats_t{};
    nodes({4, 4, 4}, {true, true, true});
    part_ = partition("p", {0, 1, 2});
    part_list = list_create(nullptr);
    list_append(part_list, part_);
  }

  job_record_t* waiting(uint32_t id) {
    job_record_t* j = pending(id, 4, 60);
    j->batch_flag = 1;
    j->part_ptr = part_;
    QueuedByName& w = where_[id];
    w.choices.push_back(StartChoice{"p", 10, 0, "", false});
    JobRecord r;
    r.id = id;
    snap_.waiting.push_back(r);
    return j;
  }

  // A reservation of the plan for job `id` on `node` from `start`.
  static Reservation placed(JobId id, NodeIndex node, Time start) {
    Reservation r;
    r.job = id;
    r.start = start;
    auto a = std::make_shared<Allocation>();
    a->shares.push_back(NodeShare{node, 1, {}});
    r.allocation = a;
    return r;
  }

  // A waiting job (60 min) with --time-min `minimum`.
  job_record_t* time_min_job(uint32_t id, uint32_t minimum = 10) {
    job_record_t* j = waiting(id);
    j->time_min = minimum;
    return j;
  }

  // Makes `meta` an array's meta record that select_nodes splits when it tests it, as
  // Slurm's job_array_post_sched does (job_array_split, in short): the tested record
  // becomes task 1 under id 10 x its id, and `array_rest_` the record that stays pending
  // under the array's id, with the tested record's fields (its limit among them).
  void split_when_tested(job_record_t* meta) {
    const uint32_t id = meta->job_id;
    meta->array_recs = &array_;
    meta->array_job_id = id;
    meta->array_task_id = NO_VAL;
    g_on_array_select = [this, id](job_record_t* task, int) {
      array_rest_ = pending(id, 4, 0);
      array_rest_->time_limit = task->time_limit;
      array_rest_->array_job_id = id;
      array_rest_->array_task_id = NO_VAL;
      task->job_id = id * 10;
      task->array_task_id = 1;
      task->array_recs = nullptr;
    };
  }

  // The plan: `starts` (id, node, backfilled) in order, `reserved` (id, node, start).
  void plan(std::vector<std::tuple<JobId, NodeIndex, bool>> starts,
            std::vector<std::tuple<JobId, NodeIndex, Time>> reserved = {},
            bool honours_reservable = false) {
    GroupPlan& g = plan_.groups.emplace_back();
    g.policy = "easy++";
    g.honours_reservable = honours_reservable;
    g.state.now = kNow;
    for (auto [id, node, backfilled] : starts) {
      g.decision.start.push_back(id);
      auto a = std::make_shared<Allocation>();
      a->shares.push_back(NodeShare{node, 1, {}});
      g.decision.start_allocations.push_back(a);
      if (backfilled) g.decision.backfilled.push_back(id);
    }
    for (auto [id, node, start] : reserved) g.decision.reservations.push_back(placed(id, node, start));
  }

  // Queues `job` (queued in p) in a second partition `name` on `nodes` too, and gives the
  // model both, p first (the plan's partition indices).
  part_record_t* also_queued_in(job_record_t* job, const char* name, const std::vector<int>& nodes) {
    part_record_t* second = partition(name, nodes);
    list_append(part_list, second);
    where_[job->job_id].choices.push_back(StartChoice{name, 10, 0, "", false});
    job->part_ptr_list = list_of({part_, second});
    for (const char* model_name : {"p", name}) {
      Partition mp;
      mp.name = model_name;
      model_.machine.add_partition(mp);
    }
    return second;
  }
  // The plan's start `index` was planned in the model's second partition.
  void planned_in_second(std::size_t index) {
    const_cast<Allocation&>(*plan_.groups[0].decision.start_allocations[index]).partition = 1;
  }

  bool run(CarryOutRules rules = {}) {
    bool stopped = false;
    const bool again = carry_out(plan_, model_, snap_, where_, rules, not_runnable_, blocked_,
                                 limit_waits_, false, counts_, [] { return Yield::none; },
                                 stopped);
    EXPECT_FALSE(stopped);
    return again;
  }

  part_record_t* part_ = nullptr;
  ClusterPlan plan_;
  ClusterModel model_;
  ClusterSnapshot snap_;
  std::unordered_map<JobId, QueuedByName> where_;
  std::unordered_set<JobId> not_runnable_;
  QosBlock blocked_;
  std::vector<LimitWait> limit_waits_;
  CarryOutCounts counts_;
  job_array_struct_t array_{};
  job_record_t* array_rest_ = nullptr;  // split_when_tested's pending record
};

// A planned job starts through select_nodes with every node but its planned one excluded
// (as stock backfill's _start_job), its own exclusions come back afterwards, and the batch
// job is launched; a backfilled one is counted as such for sdiag.
TEST_F(CarryOut, StartsOnThePlannedNodesOnly) {
  job_record_t* a = waiting(1);
  job_record_t* b = waiting(2);
  plan({{1, 1, false}, {2, 2, true}});
  EXPECT_FALSE(run());
  ASSERT_EQ(g_select_calls.size(), 2u);
  EXPECT_EQ(g_select_calls[0].allowed, std::vector<int>{1});
  EXPECT_EQ(g_select_calls[1].allowed, std::vector<int>{2});
  EXPECT_EQ(a->job_state, JOB_RUNNING);
  EXPECT_EQ(b->job_state, JOB_RUNNING);
  EXPECT_EQ(a->details->exc_node_bitmap, nullptr) << "the job's own exclusions (none) restored";
  EXPECT_EQ(g_launched, (std::vector<uint32_t>{1, 2}));
  EXPECT_EQ(counts_.started, 2);
  EXPECT_EQ(counts_.backfilled, 1);
  EXPECT_EQ(slurmctld_diag_stats.backfilled_jobs, 1u);
  EXPECT_EQ(counts_.refused, 0);
  EXPECT_TRUE(g_assoc_locks.empty()) << "a job with one QOS starts without assoc_mgr's lock";
}

// Refused twice (on its planned node 0, then on the unreserved nodes but job 2's, which
// is still to be tried), job 1 keeps node 0 for the pass: job 2, refused on its node 1,
// is retried on 1 and node 2, not on job 1's node (stock reserves a refused job's nodes).
TEST_F(CarryOut, RetryLeavesTheNodesOfARefusedJobKeptAsPlanned) {
  waiting(1);
  job_record_t* b = waiting(2);
  g_select_rc[1] = {ESLURM_NODES_BUSY, ESLURM_NODES_BUSY};
  g_select_rc[2] = {ESLURM_NODES_BUSY};
  plan({{1, 0, false}, {2, 1, true}});
  run();
  ASSERT_EQ(g_select_calls.size(), 4u);
  EXPECT_EQ(g_select_calls[1].allowed, (std::vector<int>{0, 2})) << "job 1's retry: its node and node 2";
  EXPECT_EQ(g_select_calls[3].job, 2u);
  EXPECT_EQ(g_select_calls[3].allowed, (std::vector<int>{1, 2}));
  EXPECT_EQ(b->job_state, JOB_RUNNING);
}

// Nor on the node of a start the plan has not tried yet: job 2 (planned on node 1, tried
// first) is retried on 1 and 2, not on node 0, where job 3 is to start after it.
TEST_F(CarryOut, RetryLeavesTheNodesOfStartsNotTriedYet) {
  waiting(2);
  job_record_t* c = waiting(3);
  g_select_rc[2] = {ESLURM_NODES_BUSY};
  plan({{2, 1, false}, {3, 0, true}});
  run();
  ASSERT_EQ(g_select_calls.size(), 3u);
  EXPECT_EQ(g_select_calls[1].allowed, (std::vector<int>{1, 2}));
  EXPECT_EQ(g_select_calls[2].job, 3u);
  EXPECT_EQ(g_select_calls[2].allowed, std::vector<int>{0});
  EXPECT_EQ(c->job_state, JOB_RUNNING);
}

// A reservation set on the job while the plan was made (scontrol update) wins over the
// record it was planned by: a magnetic record is for a job that asks none (also with a
// JOB_MAGNETIC flag left from before), a reservation record for one whose reservations
// still include it. Neither is tried, and the job's reservation stays.
TEST_F(CarryOut, ReservationChangedWhilePlanningIsNotOverwritten) {
  for (const char* name : {"m", "old", "new", "other"}) g_resvs[name].name = const_cast<char*>(name);
  job_record_t* a = waiting(1);
  where_[1].choices = {StartChoice{"p", 10, 0, "m", true}};
  job_record_t* b = waiting(2);
  where_[2].choices = {StartChoice{"p", 10, 0, "old", false}};
  a->resv_name = xstrdup("user");
  a->bit_flags |= JOB_MAGNETIC;  // stale: requeue and an emptied reservation leave it
  // 22.05's update to "new,other": resv_name is the first name, resv_list has both.
  b->resv_name = xstrdup("new");
  b->resv_list = list_of({&g_resvs["new"], &g_resvs["other"]});
  plan({{1, 0, false}, {2, 1, false}});
  run();
  EXPECT_TRUE(g_select_calls.empty());
  EXPECT_STREQ(a->resv_name, "user");
  EXPECT_EQ(a->resv_ptr, nullptr);
  EXPECT_EQ(b->resv_ptr, nullptr);
  EXPECT_EQ(a->job_state, JOB_PENDING);
  // Still asked, second of its list (22.05 keeps "other" as resv_name): tried.
  xfree(b->resv_name);
  b->resv_name = xstrdup("other");
  b->resv_list = list_of({&g_resvs["other"], &g_resvs["old"]});
  plan_ = ClusterPlan{};
  not_runnable_.clear();  // the first run found it not runnable
  plan({{2, 1, false}});
  run();
  ASSERT_EQ(g_select_calls.size(), 1u);
  EXPECT_EQ(b->resv_ptr, &g_resvs["old"]);
  xfree(a->resv_name);
  xfree(b->resv_name);
}

// A job queued in two partitions over the same nodes starts in the one the plan chose
// (the allocation names it), not the first that holds the nodes: the other may refuse the
// same nodes (OverSubscribe=EXCLUSIVE, MaxNodes, a CPU cap). p comes first in the job's
// records; the plan chose q.
TEST_F(CarryOut, StartsInThePartitionThePlanChose) {
  job_record_t* a = waiting(1);
  part_record_t* q = also_queued_in(a, "q", {0, 1, 2});
  plan({{1, 1, false}});
  planned_in_second(0);
  EXPECT_FALSE(run());
  ASSERT_EQ(g_select_calls.size(), 1u);
  EXPECT_EQ(a->job_state, JOB_RUNNING);
  EXPECT_EQ(a->part_ptr, q);
}

// A job started earlier in the pass holds only what select_nodes gave it: job 2, refused
// on its node 1, may be retried beside job 1 on node 0 (a shared node with room left), as
// stock backfill, which reserves a started job's nodes only when it has them whole.
TEST_F(CarryOut, RetryMayUseTheNodesOfJobsStartedThisPass) {
  waiting(1);
  job_record_t* b = waiting(2);
  g_select_rc[2] = {ESLURM_NODES_BUSY};
  plan({{1, 0, false}, {2, 1, true}});
  run();
  ASSERT_EQ(g_select_calls.size(), 3u);
  EXPECT_EQ(g_select_calls[2].job, 2u);
  EXPECT_EQ(g_select_calls[2].allowed, (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(b->job_state, JOB_RUNNING);
}

// Refused on its planned node 0 in s (nodes 0-1), a job queued in p (0-2) and s is tried
// again in s, on s's unreserved nodes, not moved to p, whose nodes hold the whole set
// (another partition's priority, QOS and limits).
TEST_F(CarryOut, RetryStaysInThePartitionTriedFirst) {
  job_record_t* a = waiting(1);
  part_record_t* s = also_queued_in(a, "s", {0, 1});
  g_select_rc[1] = {ESLURM_NODES_BUSY};
  plan({{1, 0, false}});
  planned_in_second(0);
  EXPECT_FALSE(run());
  ASSERT_EQ(g_select_calls.size(), 2u);
  EXPECT_EQ(g_select_calls[1].allowed, (std::vector<int>{0, 1}));
  EXPECT_EQ(a->job_state, JOB_RUNNING);
  EXPECT_EQ(a->part_ptr, s);
}

// Refused on its planned node for resources (what the model does not see), a job may take
// any node no reservation of the pass holds (node 2 is the head's): tried once more there.
// Refused again, it keeps what the plan gave it for this pass: no new round, and it stays
// runnable.
TEST_F(CarryOut, RefusedForResourcesRetriesOnUnreservedNodesThenKeepsThePlan) {
  waiting(5);
  job_record_t* j = waiting(1);
  g_select_rc[1] = {ESLURM_NODES_BUSY, ESLURM_NODES_BUSY};
  plan({{1, 0, true}}, {{5, 2, kNow + 600}});
  EXPECT_FALSE(run());
  ASSERT_EQ(g_select_calls.size(), 2u);
  EXPECT_EQ(g_select_calls[0].allowed, std::vector<int>{0});
  EXPECT_EQ(g_select_calls[1].allowed, (std::vector<int>{0, 1})) << "not the head's node 2";
  EXPECT_EQ(j->job_state, JOB_PENDING);
  EXPECT_EQ(counts_.refused, 1);
  EXPECT_TRUE(not_runnable_.empty());
  EXPECT_TRUE(limit_waits_.empty());
}

// Started by the retry: counted as a start, not a refusal.
TEST_F(CarryOut, StartedByTheRetryOnUnreservedNodes) {
  job_record_t* j = waiting(1);
  g_select_rc[1] = {ESLURM_NODES_BUSY};
  plan({{1, 0, false}});
  EXPECT_FALSE(run());
  ASSERT_EQ(g_select_calls.size(), 2u);
  EXPECT_EQ(g_select_calls[1].allowed, (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(j->job_state, JOB_RUNNING);
  EXPECT_EQ(counts_.started, 1);
  EXPECT_EQ(counts_.refused, 0);
}

// Refused for a limit without assoc_limit_stop: not runnable now, and the cluster is
// planned again without it (so what it was given idles nothing); no start is shown.
TEST_F(CarryOut, RefusedForALimitIsPlannedAgainWithoutIt) {
  waiting(1);
  g_select_rc[1] = {ESLURM_ACCOUNTING_POLICY};
  plan({{1, 0, false}});
  EXPECT_TRUE(run());
  EXPECT_EQ(g_select_calls.size(), 1u) << "a limit is not retried on other nodes";
  EXPECT_EQ(not_runnable_, (std::unordered_set<JobId>{1}));
  EXPECT_TRUE(limit_waits_.empty());
  EXPECT_EQ(counts_.refused, 1);
}

// A job whose licences are not free when its start comes (another start of the pass, or
// an advance reservation, took them) is refused before select_nodes, as Slurm's main
// scheduler tests licences first (22.05's select_nodes does not): not runnable now, the
// cluster planned again without it.
TEST_F(CarryOut, LicencesNotFreeAtTheStartAreNotTaken) {
  job_record_t* j = waiting(1);
  j->license_list = list_of({});
  g_no_licences = {1};
  plan({{1, 0, false}});
  EXPECT_TRUE(run());
  EXPECT_TRUE(g_select_calls.empty()) << "select_nodes is not asked";
  EXPECT_EQ(j->job_state, JOB_PENDING);
  EXPECT_EQ(not_runnable_, (std::unordered_set<JobId>{1}));
  g_no_licences.clear();
  not_runnable_.clear();
  EXPECT_FALSE(run());
  EXPECT_EQ(j->job_state, JOB_RUNNING) << "free: started";
}

// Under assoc_limit_stop a job a limit refuses, queued in one partition, keeps what the
// plan gave it (stock reserves for it) and shows a start: with no running job to end,
// 500 s ahead (limit_wait_shown).
TEST_F(CarryOut, UnderAssocLimitStopALimitKeepsThePlanAndShowsAStart) {
  waiting(1);
  g_select_rc[1] = {ESLURM_ACCOUNTING_POLICY};
  plan({{1, 0, false}});
  CarryOutRules rules;
  rules.assoc_limit_stop = true;
  EXPECT_FALSE(run(rules));
  EXPECT_TRUE(not_runnable_.empty());
  ASSERT_EQ(limit_waits_.size(), 1u);
  EXPECT_EQ(limit_waits_[0].job, 1u);
  EXPECT_EQ(limit_waits_[0].shown, kNow + 500);
}

// A job nothing may be reserved for (QOS NoReserve...) keeps nothing when refused for
// resources, under a policy that honours that: planned again without it.
TEST_F(CarryOut, UnreservableJobRefusedKeepsNothing) {
  waiting(1);
  snap_.waiting.back().reservable = false;
  g_select_rc[1] = {ESLURM_NODES_BUSY, ESLURM_NODES_BUSY};
  plan({{1, 0, false}}, {}, true);
  EXPECT_TRUE(run());
  EXPECT_EQ(not_runnable_, (std::unordered_set<JobId>{1}));
}

// An array's meta record planned twice (its own entry and a copy, easypp_array_tasks):
// its first task starts, then the copy is refused for a limit under assoc_limit_stop.
// The meta record, pending with the other tasks under the same id, shows the start
// limit_wait_shown gives (the first planned end of a running job: now + 300).
TEST_F(CarryOut, ArrayCopyRefusedForALimitShowsOnTheMetaRecord) {
  job_record_t* meta = waiting(7);
  job_array_struct_t array{};
  meta->array_recs = &array;
  meta->array_job_id = 7;
  meta->array_task_id = NO_VAL;
  const JobId copy = (JobId{1} << 32) | 7;
  g_select_rc[7] = {SLURM_SUCCESS, ESLURM_ACCOUNTING_POLICY};
  plan({{7, 0, false}, {copy, 1, false}});
  RunningJob r;
  r.job.id = 99;
  r.job.prediction = 400;
  r.start = kNow - 100;
  plan_.groups.front().state.running.push_back(r);
  CarryOutRules rules;
  rules.assoc_limit_stop = true;
  EXPECT_FALSE(run(rules));
  meta->array_recs = nullptr;
  ASSERT_EQ(g_select_calls.size(), 2u);
  EXPECT_EQ(counts_.started, 1);
  ASSERT_EQ(limit_waits_.size(), 1u);
  EXPECT_EQ(limit_waits_[0].job, 7u);
  EXPECT_EQ(limit_waits_[0].shown, kNow + 300);
  meta->start_time = 0;  // as build_job_queue leaves it
  ToldStarts told;
  show_plan(plan_, {{}}, limit_waits_, model_, where_, told, kNow, false);
  EXPECT_EQ(meta->start_time, kNow + 300) << "squeue --start shows it on the meta record";
}

// A record refused for a limit again (a further copy, or a later round) is kept once, with
// the earliest start.
TEST_F(CarryOut, LimitWaitKeptOncePerRecord) {
  waiting(1);
  g_select_rc[1] = {ESLURM_ACCOUNTING_POLICY, ESLURM_ACCOUNTING_POLICY};
  limit_waits_.push_back({1, kNow + 900});  // an earlier round's
  plan({{1, 0, false}});
  CarryOutRules rules;
  rules.assoc_limit_stop = true;
  run(rules);
  ASSERT_EQ(limit_waits_.size(), 1u);
  EXPECT_EQ(limit_waits_[0].shown, kNow + 500);
}

#if EASYPP_SLURM_AT_LEAST(24, 11, 0)
// A job requesting several QOS starts under the one its queue record chose, set under
// assoc_mgr's QOS lock: the only lock a start takes, and only for such a job.
TEST_F(CarryOut, MultiQosStartTakesOnlyTheQosLock) {
  job_record_t* job = waiting(1);
  slurmdb_qos_rec_t a{}, b{};
  a.id = 5;
  a.name = const_cast<char*>("a");
  b.id = 6;
  b.name = const_cast<char*>("b");
  job->qos_list = list_of({&b, &a});
  job->qos_ptr = &b;
  where_[1].choices.front().qos_id = 5;
  plan({{1, 0, false}});
  EXPECT_FALSE(run());
  EXPECT_EQ(job->job_state, JOB_RUNNING);
  EXPECT_EQ(job->qos_ptr, &a);
  ASSERT_EQ(g_assoc_locks.size(), 1u);
  EXPECT_EQ(g_assoc_locks[0].qos, READ_LOCK);
  EXPECT_EQ(g_assoc_locks[0].assoc, NO_LOCK);
  job->qos_list = nullptr;
  job->qos_ptr = nullptr;
}
#endif

// --time-min: first tried with as much of its limit as the plan's later reservations on
// its planned nodes leave, so select_nodes checks limits with the limit it runs with.
// Job 1 (60 min, --time-min 10) planned on node 0; node 0 is reserved for job 5 in 25 min
// 30 s, node 2 for job 6 in 15 min (not the job's node): 25 min (24 in a slow second).
TEST_F(CarryOut, TimeMinJobIsTriedWithWhatThePlanLeaves) {
  job_record_t* j = time_min_job(1);
  const time_t now = time(nullptr);
  plan({{1, 0, true}}, {{5, 0, now + 25 * 60 + 30}, {6, 2, now + 15 * 60}});
  plan_.groups.front().state.now = now;
  EXPECT_FALSE(run());
  ASSERT_EQ(g_select_calls.size(), 1u);
  EXPECT_GE(g_select_calls[0].time_limit, 24u);
  EXPECT_LE(g_select_calls[0].time_limit, 25u);
  ASSERT_EQ(j->job_state, JOB_RUNNING);
  EXPECT_EQ(j->time_limit, g_select_calls[0].time_limit) << "runs with what select_nodes tested";
  EXPECT_EQ(j->limit_set.time, 0) << "its own limit was set";
}

// --deadline, as Slurm's schedulers: a job started runs to its deadline at most (30 of
// its 60 min here; Slurm gives a deadline job without --time a minimum of 1), refused it
// keeps its own limit, and one that can no longer end by its deadline (a 40-min minimum)
// is failed by deadline_ok and not tried.
TEST_F(CarryOut, DeadlineJobRunsToItsDeadlineAtMost) {
  job_record_t* j = time_min_job(1, 1);
  j->deadline = time(nullptr) + 30 * 60 + 30;
  job_record_t* refused = time_min_job(2, 1);
  refused->deadline = j->deadline;
  g_select_rc[2] = {ESLURM_ACCOUNTING_POLICY};
  job_record_t* late = time_min_job(3, 40);
  late->deadline = j->deadline;
  plan({{1, 0, false}, {2, 1, false}, {3, 2, false}});
  run();
  ASSERT_EQ(g_select_calls.size(), 2u) << "job 3 is not tried";
  EXPECT_EQ(g_select_calls[0].time_limit, 30u);
  EXPECT_EQ(j->job_state, JOB_RUNNING);
  EXPECT_EQ(j->time_limit, 30u);
  EXPECT_EQ(g_select_calls[1].job, 2u);
  EXPECT_EQ(refused->job_state, JOB_PENDING);
  EXPECT_EQ(refused->time_limit, 60u) << "its own limit back";
  EXPECT_EQ(late->job_state, JOB_DEADLINE);
}

// A reservation that began since the plan leaves no time: one try, on the minimum. A job
// without a limit of its own is marked as having one set by the system, as stock does.
TEST_F(CarryOut, TimeMinJobAtAReservationBegunSinceThePlanTriesItsMinimumOnly) {
  job_record_t* j = time_min_job(1);
  j->time_limit = NO_VAL;
  const time_t now = time(nullptr);
  plan({{1, 0, false}}, {{5, 0, now - 1}});
  plan_.groups.front().state.now = now - 2;
  EXPECT_FALSE(run());
  ASSERT_EQ(g_select_calls.size(), 1u);
  EXPECT_EQ(g_select_calls[0].time_limit, 10u);
  EXPECT_EQ(j->job_state, JOB_RUNNING);
  EXPECT_EQ(j->limit_set.time, 1);
}

// Refused with that limit (a limit on run time, an advance reservation), it is tried on its
// minimum, as stock backfill tests it.
TEST_F(CarryOut, TimeMinJobRefusedWithTheLongerLimitTriesItsMinimum) {
  job_record_t* j = time_min_job(1);
  g_select_rc[1] = {ESLURM_ACCOUNTING_POLICY};
  plan({{1, 0, false}});
  EXPECT_FALSE(run());
  ASSERT_EQ(g_select_calls.size(), 2u);
  EXPECT_EQ(g_select_calls[0].time_limit, 60u) << "no reservation ahead: its whole limit";
  EXPECT_EQ(g_select_calls[1].time_limit, 10u);
  EXPECT_EQ(g_select_calls[1].allowed, g_select_calls[0].allowed);
  EXPECT_EQ(j->job_state, JOB_RUNNING);
  EXPECT_EQ(j->time_limit, 10u);
}

// Refused for what a shorter limit cannot change (a hold, a dependency...): no second try.
TEST_F(CarryOut, TimeMinJobRefusedForAnotherReasonIsNotTriedAgain) {
  job_record_t* j = time_min_job(1);
  g_select_rc[1] = {ESLURM_DEPENDENCY};
  plan({{1, 0, false}});
  EXPECT_TRUE(run());
  ASSERT_EQ(g_select_calls.size(), 1u);
  EXPECT_EQ(j->time_limit, 60u);
}

// Not started: its own limit comes back, also when it had none (the partition's), after
// both tries on the planned node and both on the unreserved ones.
TEST_F(CarryOut, TimeMinJobNotStartedKeepsItsOwnLimit) {
  job_record_t* j = time_min_job(1);
  j->time_limit = NO_VAL;
  part_->max_time = 120;
  g_select_rc[1] = {ESLURM_NODES_BUSY, ESLURM_NODES_BUSY, ESLURM_NODES_BUSY, ESLURM_NODES_BUSY};
  plan({{1, 0, false}});
  EXPECT_FALSE(run());
  ASSERT_EQ(g_select_calls.size(), 4u);
  EXPECT_EQ(g_select_calls[0].time_limit, 120u) << "the partition's MaxTime";
  EXPECT_EQ(g_select_calls[1].time_limit, 10u);
  EXPECT_EQ(g_select_calls[2].time_limit, 120u) << "on the unreserved nodes";
  EXPECT_EQ(g_select_calls[3].time_limit, 10u);
  EXPECT_EQ(j->limit_set.time, 0);
  EXPECT_EQ(j->time_limit, NO_VAL);
  EXPECT_EQ(j->job_state, JOB_PENDING);
}

// An array's meta record with --time-min: the started task runs with the limit tested,
// the meta record (split off it with its fields, under its id) waits with its own.
TEST_F(CarryOut, TimeMinArrayMetaRecordKeepsItsOwnLimit) {
  job_record_t* meta = time_min_job(7);
  split_when_tested(meta);
  const time_t now = time(nullptr);
  plan({{7, 0, false}}, {{5, 0, now + 25 * 60 + 30}});
  plan_.groups.front().state.now = now;
  EXPECT_FALSE(run());
  ASSERT_NE(array_rest_, nullptr);
  ASSERT_EQ(g_select_calls.size(), 1u);
  EXPECT_EQ(meta->job_state, JOB_RUNNING) << "the started task";
  EXPECT_GE(meta->time_limit, 24u) << "what the plan leaves before job 5";
  EXPECT_LE(meta->time_limit, 25u);
  EXPECT_EQ(array_rest_->time_limit, 60u) << "the meta record's own limit";
}

// Split and then refused (select_g_job_begin failing gives ESLURM_NODES_BUSY after
// job_array_post_sched): the meta record left pending gets its own limit back, not the
// one it was copied with; the task split off is tried on its minimum, and refused again
// keeps the array's own limit too.
TEST_F(CarryOut, TimeMinArrayMetaRecordSplitThenRefusedKeepsItsOwnLimit) {
  job_record_t* meta = time_min_job(7);
  split_when_tested(meta);
  g_select_rc[7] = {ESLURM_NODES_BUSY};
  g_select_rc[70] = {ESLURM_NODES_BUSY, ESLURM_NODES_BUSY, ESLURM_NODES_BUSY};
  const time_t now = time(nullptr);
  plan({{7, 0, false}}, {{5, 0, now + 25 * 60 + 30}});
  plan_.groups.front().state.now = now;
  EXPECT_FALSE(run()) << "refused for resources: kept as planned";
  ASSERT_NE(array_rest_, nullptr);
  ASSERT_EQ(g_select_calls.size(), 4u);
  EXPECT_GE(g_select_calls[0].time_limit, 24u);
  EXPECT_EQ(g_select_calls[1].job, 70u) << "the task split off";
  EXPECT_EQ(g_select_calls[1].time_limit, 10u);
  EXPECT_EQ(array_rest_->time_limit, 60u) << "not the limit it was split with";
  EXPECT_EQ(meta->time_limit, 60u);
  EXPECT_EQ(meta->job_state, JOB_PENDING);
}

// What a job with --time-min may run on some nodes: whole minutes to the first
// reservation on one of them later than the plan's now (one at the plan's now is a
// current conflict, as stock's node_space skips it), 0 if it began since the plan,
// NO_VAL without one; under double booking the reservations planned with count too.
TEST_F(CarryOut, MinutesToTheFirstReservationOnTheNodes) {
  plan({});
  GroupPlan& g = plan_.groups.front();
  g.state.now = 1000;
  g.decision.reservations = {placed(5, 0, 1000), placed(6, 0, 4000), placed(8, 1, 2000)};
  g.decision.planned_reservations = {placed(5, 0, 3000)};
  bitstr_t* node0 = bitmap({0});
  EXPECT_EQ(minutes_to_first_reservation(plan_, node0, 1060), 32u) << "(3000 - 1060) / 60";
  EXPECT_EQ(minutes_to_first_reservation(plan_, node0, 3500), 0u);
  EXPECT_EQ(minutes_to_first_reservation(plan_, bitmap({0, 1}), 1060), 15u) << "node 1's";
  EXPECT_EQ(minutes_to_first_reservation(plan_, bitmap({2}), 1060), NO_VAL);
  g.decision.planned_reservations.clear();
  EXPECT_EQ(minutes_to_first_reservation(plan_, node0, 1060), 49u);
}

// Advance reservations beginning later on one of the nodes count as the plan's own do
// (select_nodes refuses a job not in one a limit that runs into it): the machine's windows
// from after the plan's now. One begun by then (the job was planned beside it, or it is a
// down node's) and those on other nodes do not.
TEST_F(CarryOut, MinutesToTheFirstReservationCountAdvanceReservations) {
  plan({});
  GroupPlan& g = plan_.groups.front();
  g.state.now = 1000;
  Machine machine;
  for (const char* name : {"n1", "n2", "n3"}) {
    Node n;
    n.name = name;
    n.capacity[kCpu] = 4;
    machine.add_node(n);
  }
  machine.nodes()[0].windows = {NodeWindow{1000, 5000, "begun"}, NodeWindow{2800, 9000, "maint"}};
  machine.nodes()[1].windows = {NodeWindow{1600, 9000, "other"}};
  machine.nodes()[2].windows = {NodeWindow{0, kNever, ""}};
  g.state.machine = &machine;
  EXPECT_EQ(minutes_to_first_reservation(plan_, bitmap({0}), 1060), 29u) << "(2800 - 1060) / 60";
  EXPECT_EQ(minutes_to_first_reservation(plan_, bitmap({0, 1}), 1060), 9u) << "n2's, at 1600";
  EXPECT_EQ(minutes_to_first_reservation(plan_, bitmap({2}), 1060), NO_VAL) << "down for good";
  g.decision.reservations = {placed(5, 0, 2000)};
  EXPECT_EQ(minutes_to_first_reservation(plan_, bitmap({0}), 1060), 15u) << "the plan's first";
  g.state.machine = nullptr;
}

// The limit the plan sees: the job's own, else the partition's DefaultTime, else MaxTime,
// never above MaxTime; with --time-min below that, the minimum (not with --deadline,
// which stock plans on instead).
TEST_F(FakeSlurm, PlannedLimitIsTheMinimumWithTimeMin) {
  nodes({4}, {true});
  part_record_t* p = partition("p", {0}, 120, 30);
  job_record_t* j = pending(1, 1, 60);
  EXPECT_EQ(full_limit_minutes(j, p), 60u);
  EXPECT_EQ(planned_limit_minutes(j, p), 60u);
  j->time_min = 10;
  EXPECT_EQ(planned_limit_minutes(j, p), 10u);
  j->time_limit = NO_VAL;
  EXPECT_EQ(full_limit_minutes(j, p), 30u) << "the partition's DefaultTime";
  EXPECT_EQ(planned_limit_minutes(j, p), 10u);
  j->time_limit = 500;
  EXPECT_EQ(full_limit_minutes(j, p), 120u) << "capped at MaxTime";
  j->time_min = 200;
  EXPECT_EQ(planned_limit_minutes(j, p), 120u) << "a minimum above the limit changes nothing";
  j->time_min = 10;
  j->deadline = kNow + 3600;
  EXPECT_FALSE(tested_on_time_min(j, 120));
  EXPECT_EQ(planned_limit_minutes(j, p), 120u);
  part_record_t* open = partition("open", {0});
  j->deadline = 0;
  j->time_limit = INFINITE;
  EXPECT_EQ(full_limit_minutes(j, open), INFINITE);
  EXPECT_EQ(planned_limit_minutes(j, open), 10u);
}

// A yield between starts that says abandon (slurmctld is shutting down or reconfiguring)
// stops the pass before the next start.
TEST_F(CarryOut, AbandonedYieldStopsBeforeTheNextStart) {
  waiting(1);
  waiting(2);
  plan({{1, 0, false}, {2, 1, false}});
  int yields = 0;
  bool stopped = false;
  EXPECT_FALSE(carry_out(plan_, model_, snap_, where_, {}, not_runnable_, blocked_, limit_waits_,
                         false, counts_,
                         [&] { return ++yields == 2 ? Yield::abandon : Yield::yielded; },
                         stopped));
  EXPECT_TRUE(stopped);
  ASSERT_EQ(g_select_calls.size(), 1u);
  EXPECT_EQ(g_select_calls[0].job, 1u);
}

// Changed while the pass planned without the locks, a planned job is not started, as
// stock backfill tests it again after a yield (_job_runnable_now, _job_part_valid,
// job_independent): held (1), dependent or its begin time or array throttle not reached
// (job_independent says no: 2), moved to another partition (3), completing after a
// requeue (4). Job 5, unchanged, starts. None counts as refused.
TEST_F(CarryOut, JobsChangedWhilePlanningAreNotStarted) {
  job_record_t* held = waiting(1);
  waiting(2);
  job_record_t* moved = waiting(3);
  job_record_t* completing = waiting(4);
  waiting(5);
  part_record_t* q = partition("q", {0, 1, 2});
  list_append(part_list, q);
  plan({{1, 0, false}, {2, 0, false}, {3, 1, false}, {4, 1, false}, {5, 2, false}});
  held->priority = 0;
  g_dependent = {2};
  moved->part_ptr = q;
  completing->job_state = JOB_PENDING | JOB_COMPLETING;
  EXPECT_FALSE(run());
  ASSERT_EQ(g_select_calls.size(), 1u);
  EXPECT_EQ(g_select_calls[0].job, 5u);
  EXPECT_EQ(moved->part_ptr, q) << "left in the partition it was moved to";
  EXPECT_EQ(counts_.refused, 0);
}

// A partition drained or set down while the pass planned starts nothing (stock skips a
// partition without PARTITION_SCHED); once it schedules again the job starts there.
TEST_F(CarryOut, PartitionStoppedWhilePlanningStartsNothing) {
  job_record_t* j = waiting(1);
  plan({{1, 0, false}});
  part_->state_up = PARTITION_SUBMIT;  // drained: takes jobs, schedules none
  EXPECT_FALSE(run());
  EXPECT_TRUE(g_select_calls.empty());
  EXPECT_EQ(j->job_state, JOB_PENDING);
  part_->state_up = PARTITION_UP;
  EXPECT_FALSE(run());
  ASSERT_EQ(g_select_calls.size(), 1u);
  EXPECT_EQ(j->job_state, JOB_RUNNING);
}

// In a federation a start takes the origin cluster's lock on the job first, as every
// Slurm scheduler does: a job whose lock a sibling holds is not tried (2); a start is
// reported (1), a refused one unlocked (3).
TEST_F(CarryOut, FederatedStartsTakeTheJobLock) {
  waiting(1);
  job_record_t* sibling = waiting(2);
  waiting(3);
  g_fed_locked_elsewhere = {2};
  g_select_rc[3] = {ESLURM_ACCOUNTING_POLICY};
  plan({{1, 0, false}, {2, 1, false}, {3, 2, false}});
  run();
  ASSERT_EQ(g_select_calls.size(), 2u);
  EXPECT_EQ(g_select_calls[0].job, 1u);
  EXPECT_EQ(g_select_calls[1].job, 3u);
  EXPECT_EQ(sibling->job_state, JOB_PENDING);
  EXPECT_EQ(g_fed_calls, (std::vector<std::string>{"lock 1", "start 1", "lock 3", "unlock 3"}));
}

// A kill (pv-easy, timed-run) is carried out only for a plan whose starts are still
// wanted: the plan was made without the locks, and the job it makes room for may have
// been started by Slurm's main scheduler since. Victim 7 runs in p (opted in); planned:
// start 1, kill 7: job 1 still waiting, 7 is requeued. Planned: start 2, kill 8, and 2
// started meanwhile: nothing is killed; either way the pass plans again.
TEST_F(CarryOut, KillsOnlyForStartsStillWanted) {
  for (bool head_started : {false, true}) {
    g_requeued.clear();
    plan_ = {};
    where_.clear();
    snap_ = {};
    job_record_t* head = waiting(head_started ? 2 : 1);
    job_record_t* victim = running(head_started ? 8 : 7, {{2, 4}}, kNow - 60, 60);
    victim->batch_flag = 1;
    victim->details->requeue = 1;
    victim->part_ptr = part_;
    plan({{head->job_id, 0, false}});
    plan_.groups.back().decision.kill_requeue = {victim->job_id};
    if (head_started) head->job_state = JOB_RUNNING;
    CarryOutRules rules;
    rules.requeue_partitions = {"p"};
    EXPECT_TRUE(run(rules));
    EXPECT_EQ(g_requeued, head_started ? std::vector<uint32_t>{} : std::vector<uint32_t>{7})
        << (head_started ? "head started meanwhile" : "head still waiting");
  }
}

// Slurm's rules for a victim, checked again when the kill is carried out (the job may
// have changed since the plan): only a running batch job that may be requeued, not a
// heterogeneous component or an array's meta record, in an opted-in partition.
TEST_F(CarryOut, VictimsAreCheckedAgainAtTheKill) {
  auto victim = [&](uint32_t id) {
    job_record_t* j = running(id, {{2, 1}}, kNow - 60, 60);
    j->batch_flag = 1;
    j->details->requeue = 1;
    j->part_ptr = part_;
    return j;
  };
  victim(10);                                    // fine: requeued
  victim(11)->job_state = JOB_COMPLETE;          // ended since the plan
  victim(12)->details->requeue = 0;              // --no-requeue
  victim(13)->batch_flag = 0;                    // salloc/srun
  victim(14)->het_job_id = 14;                   // heterogeneous job
  victim(15)->array_recs = &array_;              // an array's meta record
  victim(16)->job_state = JOB_RUNNING | JOB_COMPLETING;  // killed already, cleaning up
  part_record_t* other = partition("q", {0, 1, 2});
  victim(17)->part_ptr = other;                  // not opted in
  waiting(1);
  plan({{1, 0, false}});
  plan_.groups.back().decision.kill_requeue = {10, 11, 12, 13, 14, 15, 16, 17};
  CarryOutRules rules;
  rules.requeue_partitions = {"p"};
  g_job_saves = 0;
  EXPECT_TRUE(run(rules));
  EXPECT_EQ(g_requeued, std::vector<uint32_t>{10});
  // Once for the kills of the pass, as the requeue RPC saves after job_requeue.
  EXPECT_EQ(g_job_saves, 1);
}

// easypp_max_starts ends the starts of the pass; a planned job that is out of this
// round's queue, no longer pending or found not runnable earlier in the pass is not tried.
TEST_F(CarryOut, MaxStartsAndJobsNoLongerStartable) {
  waiting(1);
  job_record_t* gone = waiting(2);
  job_record_t* earlier = waiting(3);
  waiting(4);
  job_record_t* last = waiting(5);
  gone->job_state = JOB_CANCELLED;
  not_runnable_.insert(3);
  where_.erase(4);
  plan({{1, 0, false}, {2, 0, false}, {3, 1, false}, {4, 1, false}, {5, 2, false}});
  CarryOutRules rules;
  rules.max_starts = 1;
  EXPECT_FALSE(run(rules));
  ASSERT_EQ(g_select_calls.size(), 1u);
  EXPECT_EQ(g_select_calls[0].job, 1u);
  EXPECT_EQ(earlier->job_state, JOB_PENDING);
  EXPECT_EQ(last->job_state, JOB_PENDING) << "past easypp_max_starts=1";
  g_select_calls.clear();
  counts_ = {};
  rules.max_starts = 0;
  plan_.groups.front().decision.start.erase(plan_.groups.front().decision.start.begin());
  plan_.groups.front().decision.start_allocations.erase(
      plan_.groups.front().decision.start_allocations.begin());
  EXPECT_FALSE(run(rules));
  ASSERT_EQ(g_select_calls.size(), 1u) << "2 is not pending, 3 not runnable, 4 not queued";
  EXPECT_EQ(g_select_calls[0].job, 5u);
}

// --- planned nodes: the plan's node indices still name the nodes it was made on -------

// Dynamic nodes (scontrol create/delete node) while the pass plans without the locks:
// delete_node_record empties a node's slot, add_node_record takes the first empty one.
class PlannedNodes : public CarryOut {
 protected:
  void SetUp() override {
    CarryOut::SetUp();
    static char n0[] = "n0", n1[] = "n1", n2[] = "n2";
    char* names[] = {n0, n1, n2};
    for (int i = 0; i < 3; ++i) node_record_table_ptr[i]->name = names[i];
    snap_ = read_cluster({}, kNow);
  }

  // scontrol delete node: its slot empty.
  void delete_node(int index) { node_ptrs_[static_cast<std::size_t>(index)] = nullptr; }
  // scontrol delete node, then create node `name`: the new node takes the empty slot.
  void replace_node(int index, const char* name) {
    auto n = std::make_unique<node_record_t>();
    *n = node_record_t{};
    n->index = index;
    n->name = const_cast<char*>(name);
    n->cpus = n->cpus_efctv = 4;
    node_ptrs_[static_cast<std::size_t>(index)] = n.get();
    node_objs_.push_back(std::move(n));
  }

  // Carries the plan out as run_pass does: every yield checks the planned nodes, and
  // `meanwhile` runs during the yield before start number `at` (from 1).
  bool run_checked(int at, const std::function<void()>& meanwhile, bool& stopped,
                   std::optional<std::string>& moved) {
    read_ = nodes_as_read(snap_, plan_node_indices(plan_, {}));
    int yields = 0;
    const YieldPoint yield = [&] {
      if (++yields == at) meanwhile();
      return Yield::yielded;
    };
    return carry_out(plan_, model_, snap_, where_, {}, not_runnable_, blocked_, limit_waits_,
                     false, counts_, abandon_if_moved(yield, read_, &moved), stopped);
  }
  NodesAsRead read_;
};

// Every node the plan uses, once: starts, reservations shown and planned with (double
// booking), and the start forecasts.
TEST_F(PlannedNodes, IndicesOfStartsReservationsAndForecasts) {
  plan({{1, 2, false}}, {{2, 0, kNow + 60}, {3, 2, kNow + 120}});
  plan_.groups[0].decision.planned_reservations.push_back(placed(2, 4, kNow + 30));
  Reservation unplaced;
  unplaced.job = 5;
  plan_.groups[0].decision.reservations.push_back(unplaced);
  const std::vector<std::vector<Reservation>> forecasts{{placed(4, 7, kNow + 600)}, {}};
  EXPECT_EQ(plan_node_indices(plan_, forecasts), (std::vector<std::uint32_t>{0, 2, 4, 7}));
  const NodesAsRead read = nodes_as_read(snap_, {0, 2, 7});
  ASSERT_EQ(read.size(), 3u);
  EXPECT_EQ(read[0], (std::pair<std::uint32_t, std::string>{0, "n0"}));
  EXPECT_EQ(read[1].second, "n2");
  EXPECT_EQ(read[2].second, "") << "past the table read: no node";
}

// A planned node deleted since the read (its slot empty) stops the pass: moved_node names
// it before carrying out; a node the plan does not use may go.
TEST_F(PlannedNodes, DeletedNodeStopsThePass) {
  plan({{1, 0, false}}, {{2, 1, kNow + 60}});
  const NodesAsRead read = nodes_as_read(snap_, plan_node_indices(plan_, {}));
  delete_node(2);
  EXPECT_EQ(moved_node(read), std::optional<std::string>()) << "n2 is in no plan";
  delete_node(1);
  EXPECT_EQ(moved_node(read), std::optional<std::string>("n1")) << "n1 holds job 2's reservation";
}

// A planned node replaced since the read (deleted, and another node created in its slot)
// stops the pass too; so does a table now shorter than the index.
TEST_F(PlannedNodes, ReplacedNodeStopsThePass) {
  plan({{1, 0, false}, {2, 2, false}});
  const NodesAsRead read = nodes_as_read(snap_, plan_node_indices(plan_, {}));
  replace_node(2, "new");
  EXPECT_EQ(moved_node(read), std::optional<std::string>("n2"));
  replace_node(2, "n2");
  EXPECT_EQ(moved_node(read), std::optional<std::string>()) << "created again under its name: the same node";
  node_record_count = 2;
  EXPECT_EQ(moved_node(read), std::optional<std::string>("n2"));
}

// An unchanged node table (or changes to nodes the plan does not use) lets the pass
// carry its plan out: every yield between starts checks, none abandons.
TEST_F(PlannedNodes, UnchangedTableStartsEverything) {
  job_record_t* a = waiting(1);
  job_record_t* b = waiting(2);
  plan({{1, 0, false}, {2, 1, false}});
  bool stopped = false;
  std::optional<std::string> moved;
  EXPECT_FALSE(run_checked(2, [&] { delete_node(2); }, stopped, moved));
  EXPECT_FALSE(stopped);
  EXPECT_EQ(moved, std::optional<std::string>());
  EXPECT_EQ(a->job_state, JOB_RUNNING);
  EXPECT_EQ(b->job_state, JOB_RUNNING);
  EXPECT_EQ(moved_node(read_), std::optional<std::string>()) << "before showing";
}

// A planned node deleted during a yield between starts: the next start is not tried, the
// pass stops (as run_pass carries out) and names the node.
TEST_F(PlannedNodes, NodeDeletedDuringACarryOutYieldStopsIt) {
  job_record_t* a = waiting(1);
  job_record_t* b = waiting(2);
  plan({{1, 0, false}, {2, 1, false}});
  bool stopped = false;
  std::optional<std::string> moved;
  EXPECT_FALSE(run_checked(2, [&] { delete_node(1); }, stopped, moved));
  EXPECT_TRUE(stopped);
  EXPECT_EQ(moved, std::optional<std::string>("n1"));
  EXPECT_EQ(a->job_state, JOB_RUNNING);
  EXPECT_EQ(b->job_state, JOB_PENDING);
  ASSERT_EQ(g_select_calls.size(), 1u);
}

// Replaced during a yield: the same, even before the first start.
TEST_F(PlannedNodes, NodeReplacedDuringACarryOutYieldStopsIt) {
  job_record_t* a = waiting(1);
  plan({{1, 0, false}});
  bool stopped = false;
  std::optional<std::string> moved;
  EXPECT_FALSE(run_checked(1, [&] { replace_node(0, "other"); }, stopped, moved));
  EXPECT_TRUE(stopped);
  EXPECT_EQ(moved, std::optional<std::string>("n0"));
  EXPECT_EQ(a->job_state, JOB_PENDING);
  EXPECT_TRUE(g_select_calls.empty());
}

// --- show_plan: what squeue --start and squeue's reason read ------------------------

class ShowPlan : public FakeSlurm {
 protected:
  void SetUp() override {
    FakeSlurm::SetUp();
    last_job_update = 0;
    nodes({4, 4, 4}, {true, true, true});
    static char n0[] = "n0", n1[] = "n1", n2[] = "n2";
    char* names[] = {n0, n1, n2};
    for (int i = 0; i < 3; ++i) node_record_table_ptr[i]->name = names[i];
  }

  // One group planned with `waiting` (priority order; ids, the reservable flag) and
  // `decision`; every job listed in `queued_ids` is in this round's queue.
  static ClusterPlan one_group(const std::vector<std::pair<JobId, bool>>& waiting,
                               Decision decision) {
    ClusterPlan plan;
    GroupPlan& group = plan.groups.emplace_back();
    group.policy = "easy++";
    group.state.now = kNow;
    for (auto [id, reservable] : waiting) {
      Job j;
      j.id = id;
      j.reservable = reservable;
      group.state.waiting.push_back(j);
    }
    group.decision = std::move(decision);
    return plan;
  }

  static Reservation at(JobId id, Time start, std::vector<NodeIndex> on = {}) {
    Reservation r;
    r.job = id;
    r.start = start;
    if (!on.empty()) {
      auto a = std::make_shared<Allocation>();
      for (NodeIndex n : on) a->shares.push_back(NodeShare{n, 1, {}});
      r.allocation = a;
    }
    return r;
  }

  static std::unordered_map<JobId, QueuedByName> queued(const std::vector<JobId>& ids) {
    std::unordered_map<JobId, QueuedByName> q;
    for (JobId id : ids) q[id];
    return q;
  }

  ClusterModel model_;
  ToldStarts told_;  // what squeue was told before this test's pass
};

// The head reserved at now + 600 on n1 and n2: squeue --start shows that start and those
// nodes, and Resources; the job behind it Priority; the started job and a job a limit
// holds keep their reasons; a reason changed, so last_job_update moves.
TEST_F(ShowPlan, ReservedJobShowsItsStartNodesAndReason) {
  job_record_t* head = pending(1, 8, 60);
  job_record_t* behind = pending(2, 4, 60);
  job_record_t* started = pending(3, 4, 10);
  job_record_t* limited = pending(4, 4, 10);
  limited->state_reason = WAIT_QOS_MAX_JOB_PER_USER;
  Decision d;
  d.start = {3};
  d.reservations = {at(1, kNow + 600, {1, 2})};
  const ClusterPlan plan = one_group({{1, true}, {2, true}, {3, true}, {4, true}}, d);
  show_plan(plan, {{}}, {}, model_, queued({1, 2, 3, 4}), told_, kNow, false);
  EXPECT_EQ(head->start_time, kNow + 600);
  ASSERT_NE(head->sched_nodes, nullptr);
  EXPECT_STREQ(head->sched_nodes, "n[1-2]");
  EXPECT_EQ(head->state_reason, WAIT_RESOURCES);
  EXPECT_EQ(behind->state_reason, WAIT_PRIORITY);
  EXPECT_EQ(behind->start_time, 0) << "no reservation, no forecast: no start shown";
  EXPECT_EQ(started->state_reason, WAIT_NO_REASON);
  EXPECT_EQ(limited->state_reason, WAIT_QOS_MAX_JOB_PER_USER) << "limits are not the plugin's";
  EXPECT_EQ(last_job_update, kNow);
}

// The job stamp never goes back: moved past the time of showing by others (an RPC while
// the pass planned without the locks), it stays; squeue -i and the plugin's own change
// test would otherwise miss that change.
TEST_F(ShowPlan, JobStampNeverMovesBack) {
  pending(1, 8, 60);
  Decision d;
  d.reservations = {at(1, kNow + 600, {1})};
  last_job_update = kNow + 5;
  show_plan(one_group({{1, true}}, d), {{}}, {}, model_, queued({1}), told_, kNow, false);
  EXPECT_EQ(last_job_update, kNow + 5);
}

// A start is never shown in the past (now + 1 at the earliest), and within a pass the
// earliest start shown stays: a later forecast of a job does not move it back.
TEST_F(ShowPlan, ShownStartsAreFutureAndTheEarliestOfThePassStays) {
  job_record_t* late_head = pending(1, 8, 60);
  job_record_t* earlier = pending(2, 4, 60);
  job_record_t* later = pending(3, 4, 60);
  earlier->start_time = kNow + 100;  // shown earlier in this pass
  later->start_time = kNow + 900;
  Decision d;
  d.reservations = {at(1, kNow - 50, {0})};
  ClusterPlan plan = one_group({{1, true}, {2, true}, {3, true}}, d);
  const std::vector<std::vector<Reservation>> forecasts = {
      {at(2, kNow + 300, {2}), at(3, kNow + 400, {2})}};
  show_plan(plan, forecasts, {}, model_, queued({1, 2, 3}), told_, kNow, false);
  EXPECT_EQ(late_head->start_time, kNow + 1);
  EXPECT_EQ(earlier->start_time, kNow + 100);
  EXPECT_EQ(earlier->sched_nodes, nullptr) << "the later forecast changes nothing";
  EXPECT_EQ(later->start_time, kNow + 400);
  ASSERT_NE(later->sched_nodes, nullptr);
  EXPECT_STREQ(later->sched_nodes, "n2");
}

// A copy of an array's meta record (planned id past 32 bits) shows nothing (the meta
// record shows the earliest), nor does a job out of this round's queue.
TEST_F(ShowPlan, ArrayCopiesAndJobsOutOfTheQueueShowNothing) {
  job_record_t* meta = pending(5, 4, 60);
  job_record_t* gone = pending(6, 4, 60);
  const JobId copy = (JobId{1} << 32) | 5;
  Decision d;
  d.reservations = {at(copy, kNow + 300, {0}), at(6, kNow + 400, {1})};
  const ClusterPlan plan = one_group({{copy, true}, {6, true}, {5, true}}, d);
  show_plan(plan, {{}}, {}, model_, queued({5}), told_, kNow, false);
  EXPECT_EQ(meta->start_time, 0);
  EXPECT_EQ(meta->sched_nodes, nullptr);
  EXPECT_EQ(meta->state_reason, WAIT_PRIORITY) << "behind the copy's reservation";
  EXPECT_EQ(gone->start_time, 0);
  EXPECT_EQ(gone->state_reason, WAIT_NO_REASON);
}

// A job nothing may be reserved for (QOS NoReserve) ahead of every reserved job waits
// behind no one: Resources, as Slurm's main scheduler says; one behind a reserved job
// waits for Priority like any other, and so does a reservable job the plan neither
// started nor reserved, wherever it is.
TEST_F(ShowPlan, UnreservableJobAheadOfTheReservedWaitsForResources) {
  job_record_t* ahead = pending(7, 12, 60);
  job_record_t* reservable_ahead = pending(11, 12, 60);
  job_record_t* head = pending(1, 8, 60);
  job_record_t* after = pending(8, 12, 60);
  ahead->state_reason = WAIT_PRIORITY;
  Decision d;
  d.reservations = {at(1, kNow + 600, {0, 1})};
  const ClusterPlan plan = one_group({{7, false}, {11, true}, {1, true}, {8, false}}, d);
  show_plan(plan, {{}}, {}, model_, queued({7, 11, 1, 8}), told_, kNow, false);
  EXPECT_EQ(ahead->state_reason, WAIT_RESOURCES);
  EXPECT_EQ(reservable_ahead->state_reason, WAIT_PRIORITY);
  EXPECT_EQ(head->state_reason, WAIT_RESOURCES);
  EXPECT_EQ(after->state_reason, WAIT_PRIORITY);
}

// A job a limit refused (assoc_limit_stop) shows the start it was given, without nodes
// (a limit holds it, not nodes), even when it is out of this round's queue; a held job's
// reason stays. No reason changed and squeue was told these starts: last_job_update stays.
TEST_F(ShowPlan, LimitWaitsShowAStartWithoutNodes) {
  job_record_t* refused = pending(9, 4, 60);
  job_record_t* held = pending(10, 4, 60);
  held->state_reason = WAIT_HELD;
  held->priority = 0;
  Decision d;
  d.reservations = {at(10, kNow + 200, {0})};
  const ClusterPlan plan = one_group({{10, true}}, d);
  told_.start = {{9, kNow + 500}, {10, kNow + 200}};
  show_plan(plan, {{}}, {LimitWait{9, kNow + 500}}, model_, queued({10}), told_, kNow, false);
  EXPECT_EQ(refused->start_time, kNow + 500);
  EXPECT_EQ(refused->sched_nodes, nullptr);
  EXPECT_EQ(held->state_reason, WAIT_HELD);
  EXPECT_EQ(last_job_update, 0);
}

// squeue -i asks only for what changed since its last answer (last_job_update): a start
// shown for the first time, one moved by a minute or more (later or earlier) and one no
// longer shown on a pending job each move the stamp, as stock backfill moves it for a
// start it moves later; a start as told, or one that crept by less than a minute (behind
// a job select_nodes refuses each pass), does not, so passes do not follow each other
// every second. The told starts follow what squeue was told.
TEST_F(ShowPlan, MovedStartsMoveTheJobStampOnce) {
  job_record_t* head = pending(1, 8, 60);
  job_record_t* next = pending(2, 4, 60);
  Decision d;
  d.reservations = {at(1, kNow + 600, {1})};
  const ClusterPlan plan = one_group({{1, true}, {2, true}}, d);
  const std::vector<std::vector<Reservation>> forecast = {{at(2, kNow + 900, {2})}};
  auto pass = [&](time_t now, const ClusterPlan& p,
                  const std::vector<std::vector<Reservation>>& f) {
    head->start_time = next->start_time = 0;  // as build_job_queue clears them
    const time_t before = last_job_update;
    show_plan(p, f, {}, model_, queued({1, 2}), told_, now, false);
    return last_job_update == before ? 0 : last_job_update;  // 0: not moved
  };
  last_job_update = kNow - 100;
  EXPECT_EQ(pass(kNow, plan, forecast), kNow) << "shown for the first time";
  EXPECT_EQ(told_.start.at(1), kNow + 600);
  EXPECT_EQ(told_.start.at(2), kNow + 900);
  EXPECT_EQ(pass(kNow + 5, plan, forecast), 0) << "the same starts";
  const std::vector<std::vector<Reservation>> crept = {{at(2, kNow + 959, {2})}};
  EXPECT_EQ(pass(kNow + 10, plan, crept), 0) << "59 s is within the slack";
  EXPECT_EQ(told_.start.at(2), kNow + 900) << "squeue still has the start it was told";
  const std::vector<std::vector<Reservation>> moved = {{at(2, kNow + 960, {2})}};
  EXPECT_EQ(pass(kNow + 20, plan, moved), kNow + 20) << "a minute from what squeue was told";
  EXPECT_EQ(told_.start.at(2), kNow + 960);
  Decision earlier;
  earlier.reservations = {at(1, kNow + 300, {1})};
  EXPECT_EQ(pass(kNow + 30, one_group({{1, true}, {2, true}}, earlier), moved), kNow + 30)
      << "earlier by five minutes";
  EXPECT_EQ(pass(kNow + 40, one_group({{1, true}, {2, true}}, earlier), {{}}), kNow + 40)
      << "job 2 pending, its start no longer shown";
  EXPECT_EQ(told_.start.count(2), 0u);
  EXPECT_EQ(pass(kNow + 50, one_group({{1, true}, {2, true}}, earlier), {{}}), 0);
  head->job_state = JOB_RUNNING;  // its start moved the stamp when it started
  EXPECT_EQ(pass(kNow + 60, one_group({{2, true}}, Decision{}), {{}}), 0)
      << "a job no longer pending is not a start squeue lost";
  EXPECT_TRUE(told_.start.empty());
}

// Once someone else moved the job stamp, squeue may have fetched any start: one that had
// crept by less than the slack (then up to twice the slack off by the next creep), or none
// at all (build_job_queue cleared it while the pass planned without the locks). The next
// pass moves the stamp for every start it shows, so squeue fetches them as they are; with
// no other change it does not.
TEST_F(ShowPlan, AfterAnotherChangeEveryShownStartIsToldAgain) {
  job_record_t* head = pending(1, 8, 60);
  auto pass = [&](time_t now, Time start) {
    head->start_time = 0;  // as build_job_queue clears it
    Decision d;
    d.reservations = {at(1, start, {1})};
    const time_t before = last_job_update;
    show_plan(one_group({{1, true}}, d), {}, {}, model_, queued({1}), told_, now, false);
    return last_job_update == before ? 0 : last_job_update;  // 0: not moved
  };
  last_job_update = kNow - 100;
  EXPECT_EQ(pass(kNow, kNow + 600), kNow);
  EXPECT_EQ(pass(kNow + 10, kNow + 659), 0) << "59 s later: within the slack";
  EXPECT_EQ(told_.start.at(1), kNow + 600);
  last_job_update = kNow + 15;  // another job changed: squeue fetched kNow + 659
  EXPECT_EQ(pass(kNow + 20, kNow + 541), kNow + 20)
      << "59 s before what it was told, but 118 s before what squeue fetched";
  EXPECT_EQ(told_.start.at(1), kNow + 541) << "what squeue fetches now";
  EXPECT_EQ(pass(kNow + 30, kNow + 560), 0) << "19 s from what it holds";
  last_job_update = kNow + 35;  // another change while the start was cleared: N/A fetched
  EXPECT_EQ(pass(kNow + 40, kNow + 541), kNow + 40) << "the same start is told again";
  EXPECT_EQ(told_.start.at(1), kNow + 541);
  EXPECT_EQ(told_.stamp, kNow + 40);
  EXPECT_EQ(pass(kNow + 50, kNow + 541), 0) << "no other change: nothing to tell";
}

// The nodes of an allocation as Slurm's bitmap; a node past the table is skipped.
TEST_F(ShowPlan, NodeBitmapOfAnAllocation) {
  Allocation a;
  a.shares = {NodeShare{0, 1, {}}, NodeShare{2, 1, {}}, NodeShare{7, 1, {}}};
  OwnedBitmap b(node_bitmap_of(a));
  EXPECT_EQ(bit_set_count(b.get()), 2);
  EXPECT_TRUE(bit_test(b.get(), 0));
  EXPECT_TRUE(bit_test(b.get(), 2));
}

TEST(SlurmAccounting, NoAnswerIsAnError) {
  g_accounting_fails = true;
  std::vector<FinishedJob> out;
  std::string err;
  EXPECT_FALSE(read_accounting_history("c1", 0, kNow - 24 * 3600, kNow, out, err));
  EXPECT_FALSE(err.empty());
  g_accounting_fails = false;
}

}  // namespace
}  // namespace easypp::plugin
