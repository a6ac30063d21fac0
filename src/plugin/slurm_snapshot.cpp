#include "plugin/slurm_snapshot.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <memory>
#include <tuple>
#include <unordered_set>
#include <vector>

#include "easypp/predictor.h"
#include "plugin/slurm_handles.h"
#include "plugin/slurm_job_queue.h"
#include "plugin/slurm_requeue.h"
#include "plugin/slurm_time_limit.h"

namespace easypp::plugin {

namespace {

// A limit in minutes (Slurm's unit) as seconds; INFINITE plans as a year.
Time minutes_to_seconds(std::uint32_t minutes) {
  if (minutes == INFINITE || minutes == NO_VAL) return YEAR_SECONDS;
  return static_cast<Time>(minutes) * 60;
}

// The limit a pending job is planned with, as stock backfill plans it: the one
// select_nodes will give it (its own, else the partition's DefaultTime, else MaxTime;
// never above MaxTime), or its --time-min (slurm_time_limit.h).
Time pending_limit(const job_record_t* job, const part_record_t* part) {
  return std::max<Time>(1, minutes_to_seconds(planned_limit_minutes(job, part)));
}

// CPUs a node offers to jobs (specialized cores excluded).
int node_cpus(const node_record_t* node) {
  return node->cpus_efctv > 0 ? node->cpus_efctv : node->cpus;
}

bool holds_resources(const job_record_t* job) {
  return IS_JOB_RUNNING(job) || IS_JOB_SUSPENDED(job) || IS_JOB_COMPLETING(job);
}

// Limits Slurm checks only once nodes are chosen (acct_policy_job_runnable_post_select:
// GrpTRES, MaxTRESPerUser, ... across every job of the QOS or association). Stock backfill
// asks before reserving a job that cannot start now and reserves nothing for one over such
// a limit, its reason the limit's. Asked here with the job's own request (its fewest CPUs,
// nodes and memory): a job over a limit even so is not planned; one over it only on the
// nodes the plan gives it is refused by select_nodes and planned again without.
// MaxTRESPerNode divides the request by its node count, the job's fewest nodes: spread
// over the nodes it gets it may be within the limit, so that one is left to select_nodes.
bool per_node_reason(std::uint32_t reason) {
  switch (reason) {
    case WAIT_ASSOC_MAX_UNK_PER_NODE:
    case WAIT_ASSOC_MAX_CPU_PER_NODE:
    case WAIT_ASSOC_MAX_MEM_PER_NODE:
    case WAIT_ASSOC_MAX_ENERGY_PER_NODE:
    case WAIT_ASSOC_MAX_GRES_PER_NODE:
    case WAIT_ASSOC_MAX_BB_PER_NODE:
    case WAIT_ASSOC_MAX_BILLING_PER_NODE:
    case WAIT_QOS_MAX_UNK_PER_NODE:
    case WAIT_QOS_MAX_CPU_PER_NODE:
    case WAIT_QOS_MAX_MEM_PER_NODE:
    case WAIT_QOS_MAX_ENERGY_PER_NODE:
    case WAIT_QOS_MAX_GRES_PER_NODE:
    case WAIT_QOS_MAX_BB_PER_NODE:
    case WAIT_QOS_MAX_BILLING_PER_NODE:
      return true;
    default:
      return false;
  }
}

// `request`: a buffer for the copy Slurm's check may change, reused across jobs.
bool within_post_select_limits(job_record_t* job, std::vector<std::uint64_t>& request) {
  // Slurm's check answers at once then; asked only when it may refuse.
  if (!(accounting_enforce & ACCOUNTING_ENFORCE_LIMITS)) return true;
  if (!job->tres_req_cnt || !job->part_ptr) return true;
  request.assign(job->tres_req_cnt, job->tres_req_cnt + slurmctld_tres_cnt);
  // Billed by the record's partition (its TRESBillingWeights), as stock backfill bills it
  // before this check: the job's own billing is its first partition's, from submission.
  if (TRES_ARRAY_BILLING < slurmctld_tres_cnt)
    request[TRES_ARRAY_BILLING] = static_cast<std::uint64_t>(assoc_mgr_tres_weighted(
        request.data(), job->part_ptr->billing_weights, slurm_conf.priority_flags, false));
  // Asked on the limit the job is planned on: stock sets a --time-min job's limit to its
  // minimum before this check (22.05 backfill.c:2230, 24.11 :2640), so limits on TRES
  // minutes (GrpTRESRunMins, MaxTRESMinsPerJob) see the minimum.
  const std::uint32_t own_limit = job->time_limit;
  if (tested_on_time_min(job, full_limit_minutes(job, job->part_ptr))) job->time_limit = job->time_min;
  const bool within = acct_policy_job_runnable_post_select(job, request.data(), false);
  job->time_limit = own_limit;
  if (within) return true;
  if (!per_node_reason(job->state_reason)) return false;
  job->state_reason = WAIT_NO_REASON;
  xfree(job->state_desc);
  return true;
}

// What stock backfill checks before planning a job, beyond build_job_queue: QOS and
// association limits (the checks set the job's reason; not asked under assoc_limit_stop,
// where stock reserves for such a job) and licences available now (not asked under
// bf_licenses, where stock plans a job for its licences). A job failing them is not
// planned at all, so it neither starts nor idles resources.
// Asked once per job, QOS and partition: the job carries the record's QOS
// (compat::use_record_qos) and partition, as in stock backfill, so the partition QOS and
// the partition's time limits are the record's. (The TRES request is the job's as
// recorded at submission, billed by the record's partition; stock also recomputes its
// memory with the partition's defaults.)
// Verdicts by job id, not pointer: a pointer may be reused by another job after a yield.
class RunnableNow {
 public:
  RunnableNow(LimitBlocked limit_blocked, LicenceBlocked licence_blocked)
      : check_limits_(limit_blocked == LimitBlocked::left_out),
        plan_licence_waits_(licence_blocked == LicenceBlocked::planned) {}
  bool operator()(job_record_t* job, std::uint32_t qos_id);

 private:
  const bool check_limits_;
  const bool plan_licence_waits_;
  std::map<std::tuple<std::uint32_t, std::uint32_t, const part_record_t*>, bool> verdicts_;
  std::vector<std::uint64_t> request_;
};

bool RunnableNow::operator()(job_record_t* job, std::uint32_t qos_id) {
  auto [it, added] = verdicts_.emplace(std::make_tuple(job->job_id, qos_id, job->part_ptr), true);
  if (!added) return it->second;
  if (check_limits_ && (!acct_policy_job_runnable_pre_select(job, false) ||
                        !within_post_select_limits(job, request_))) {
    it->second = false;
  } else if (const int rc = job->license_list ? license_job_test(job, time(nullptr), true)
                                              : SLURM_SUCCESS;
             rc != SLURM_SUCCESS) {
    if (job->state_reason == WAIT_NO_REASON || job->state_reason == WAIT_RESOURCES ||
        job->state_reason == WAIT_PRIORITY)
      job->state_reason = WAIT_LICENSES;
    // Not free now (EAGAIN): planned under bf_licenses, as stock's backfill plans it.
    // More than the cluster has (SLURM_ERROR): never.
    it->second = rc == EAGAIN && plan_licence_waits_;
  }
  return it->second;
}

// Whether stock backfill would reserve for a record of the job (its QOS and partition set
// on the job, `priority` the record's): not when the QOS has the NoReserve flag, nor when
// the priority is under the QOS's MinPrioThreshold (else bf_min_prio_reserve), nor when
// the job has been eligible (begin_time) for less than bf_min_age_reserve. Such a job
// starts only where it fits now.
bool may_reserve(job_record_t* job, std::uint32_t priority, const ReserveRules& rules) {
  std::int64_t threshold = 0;
  {
    // The association lock only where acct_policy_get_prio_thresh reads associations.
    const bool limits = accounting_enforce & ACCOUNTING_ENFORCE_LIMITS;
    const AssocMgrReadLock lock(limits ? AssocMgrReadLock::kAssociationsAndQos
                                       : AssocMgrReadLock::kQos);
    if (job->qos_ptr && (job->qos_ptr->flags & QOS_FLAG_NO_RESERVE)) return false;
    threshold = acct_policy_get_prio_thresh(job, true);
  }
  if (threshold == 0) threshold = rules.min_prio;
  if (threshold > 0 && priority < threshold) return false;
  return !(rules.min_age > 0 && job->details && job->details->begin_time &&
           difftime(time(nullptr), job->details->begin_time) < rules.min_age);
}

// Whether `part` is still one of the job's partitions (an update during a yield may
// have moved the job; stock backfill's _job_part_valid).
bool in_partition(const job_record_t* job, const part_record_t* part) {
  if (!job->part_ptr_list) return job->part_ptr == part;
  OwnedIterator it(job->part_ptr_list);
  while (const part_record_t* p = it.next<part_record_t>())
    if (p == part) return true;
  return false;
}

// The reservations in resv_list, to tell whether a pointer read before a yield is still
// one (the reservation may have been deleted and freed meanwhile). Read once per yield.
class LiveReservations {
 public:
  void forget() { read_ = false; }
  const slurmctld_resv_t* find(const slurmctld_resv_t* resv) {
    if (!read_) {
      live_.clear();
      if (resv_list) {
        OwnedIterator it(resv_list);
        while (const slurmctld_resv_t* r = it.next<slurmctld_resv_t>()) live_.insert(r);
      }
      read_ = true;
    }
    return live_.count(resv) != 0 ? resv : nullptr;
  }

 private:
  std::unordered_set<const slurmctld_resv_t*> live_;
  bool read_ = false;
};

std::vector<std::string> split_list(const char* text) {
  std::vector<std::string> out;
  if (!text) return out;
  std::string s(text);
  std::size_t pos = 0;
  while (pos <= s.size()) {
    std::size_t comma = s.find(',', pos);
    if (comma == std::string::npos) comma = s.size();
    if (comma > pos) out.push_back(s.substr(pos, comma - pos));
    pos = comma + 1;
  }
  return out;
}

std::vector<std::uint32_t> bitmap_nodes(const bitstr_t* bitmap) {
  std::vector<std::uint32_t> out;
  if (!bitmap) return out;
  const int n = bit_size(const_cast<bitstr_t*>(bitmap));
  for (int i = 0; i < n; ++i)
    if (bit_test(const_cast<bitstr_t*>(bitmap), i)) out.push_back(static_cast<std::uint32_t>(i));
  return out;
}

std::string gres_kind(const char* name, const char* type) {
  std::string kind = name ? name : "gres";
  if (type && *type) kind += std::string(":") + type;
  return kind;
}

// Slurm's "unset" markers (0, NO_VAL, INFINITE) as 0.
std::int64_t given(std::uint64_t v) {
  return v == NO_VAL || v == NO_VAL64 || v == INFINITE || v == INFINITE64 || v >= (1ULL << 40)
             ? 0
             : static_cast<std::int64_t>(v);
}

NodeRecord node_record(const node_record_t* node, bool usable, bool memory, bool whole_cores) {
  NodeRecord r;
  r.name = node->name ? node->name : "";
  r.cpus = node_cpus(node);
  // CR_Core (cons_common.c: allocation in units of threads per core) gives a job whole
  // cores: on hyperthreads one task holds both threads.
  if (whole_cores && node->tpc > 1 && r.cpus % node->tpc == 0) r.cpu_unit = node->tpc;
  r.threads_per_core = std::max<int>(1, node->tpc);
  if (memory) {
    const std::uint64_t spec = std::min(node->mem_spec_limit, node->real_memory);
    r.memory_mb = static_cast<std::int64_t>(node->real_memory - spec);
  }
  r.features = split_list(node->features_act ? node->features_act : node->features);
  r.usable = usable;
  if (node->gres_list) {
    OwnedIterator it(node->gres_list);
    while (gres_state_t* gs = it.next<gres_state_t>()) {
      const auto* ns = static_cast<const gres_node_state_t*>(gs->gres_data);
      if (!ns || ns->no_consume) continue;
      r.gres.push_back({gres_kind(gs->gres_name, nullptr), given(ns->gres_cnt_avail)});
      for (int t = 0; t < ns->type_cnt; ++t) {
        if (ns->type_name && ns->type_name[t] && ns->type_cnt_avail)
          r.gres.push_back(
              {gres_kind(gs->gres_name, ns->type_name[t]), given(ns->type_cnt_avail[t])});
      }
    }
  }
  return r;
}

// Per-node allocations of a running job: CPUs and memory from job_resources, GRES from
// its allocation (both indexed by the job's k-th node).
std::vector<ShareRecord> shares_of(const job_record_t* job, bool memory) {
  std::vector<ShareRecord> out;
  const job_resources_t* res = job->job_resrcs;
  if (!res || !res->node_bitmap || !res->cpus) return out;
  const int n = bit_size(res->node_bitmap);
  for (int i = 0, k = 0; i < n; ++i) {
    if (!bit_test(res->node_bitmap, i)) continue;
    ShareRecord s;
    s.node = static_cast<std::uint32_t>(i);
    s.cpus = res->cpus[k];
    if (memory && res->memory_allocated) s.memory_mb = given(res->memory_allocated[k]);
    out.push_back(s);
    ++k;
  }
  if (job->gres_list_alloc) {
    OwnedIterator it(job->gres_list_alloc);
    while (gres_state_t* gs = it.next<gres_state_t>()) {
      const auto* js = static_cast<const gres_job_state_t*>(gs->gres_data);
      if (!js || !js->gres_cnt_node_alloc || compat::gres_no_consume(js)) continue;
      const std::string kind = gres_kind(gs->gres_name, js->type_name);
      for (std::size_t k = 0; k < out.size() && k < js->node_cnt; ++k)
        if (js->gres_cnt_node_alloc[k] > 0)
          out[k].gres.push_back({kind, given(js->gres_cnt_node_alloc[k])});
    }
  }
  return out;
}

// A feature request as a plain AND list (a&b: every one on each node) or a plain OR
// list (a|b: any one on each node, nodes may differ, as node_scheduler.c ORs the
// features' node bitmaps), or nothing when it is more (a mix, counts, brackets, parens):
// then the plan leaves features to select_nodes.
bool simple_features(List features, std::vector<std::string>& out, bool& any) {
  any = false;
  if (!features) return true;
  int ands = 0, ors = 0;
  OwnedIterator it(features);
  while (job_feature_t* f = it.next<job_feature_t>()) {
    if (f->count != 0 || f->paren != 0 || !f->name ||
        (f->op_code != FEATURE_OP_AND && f->op_code != FEATURE_OP_OR &&
         f->op_code != FEATURE_OP_END)) {
      out.clear();
      return false;
    }
    ands += f->op_code == FEATURE_OP_AND;
    ors += f->op_code == FEATURE_OP_OR;
    out.emplace_back(f->name);
  }
  if (ands > 0 && ors > 0) {
    out.clear();
    return false;
  }
  any = ors > 0;
  return true;
}

// A job's or a reservation's licences (a license_list of licenses_t, the count in `total`).
std::vector<LicenceCount> licences_of(List license_list) {
  std::vector<LicenceCount> out;
  if (!license_list) return out;
  OwnedIterator it(license_list);
  while (const licenses_t* l = it.next<licenses_t>())
    if (l->name) out.push_back(LicenceCount{l->name, l->total});
  return out;
}

RequestRecord request_record(const job_record_t* job, bool memory) {
  RequestRecord r;
  const job_details_t* d = job->details;
  if (!d) return r;
  r.min_nodes = static_cast<int>(std::clamp<std::int64_t>(given(d->min_nodes), 1, 1 << 20));
  r.max_nodes = static_cast<int>(std::min<std::int64_t>(given(d->max_nodes), 1 << 20));
  r.tasks = static_cast<int>(std::clamp<std::int64_t>(given(d->num_tasks), 1, 1 << 24));
  r.cpus_per_task = d->cpus_per_task == NO_VAL16 || d->cpus_per_task == 0 ? 1 : d->cpus_per_task;
  r.min_cpus = static_cast<int>(std::clamp<std::int64_t>(given(d->min_cpus), 1, 1 << 24));
  r.cpus_per_node = static_cast<int>(std::min<std::int64_t>(given(d->pn_min_cpus), 1 << 16));
  if (d->ntasks_per_node != NO_VAL16 && d->ntasks_per_node != INFINITE16)
    r.tasks_per_node = d->ntasks_per_node;
  // As job_mgr.c's _set_multi_core_data stores them (NO_VAL16 or INFINITE16: not given).
  if (const multi_core_data_t* mc = d->mc_ptr) {
    if (mc->threads_per_core != NO_VAL16 && mc->threads_per_core != INFINITE16)
      r.threads_per_core = mc->threads_per_core;
    if (mc->ntasks_per_core != NO_VAL16 && mc->ntasks_per_core != INFINITE16)
      r.tasks_per_core = mc->ntasks_per_core;
  }
  if (memory && d->pn_min_memory != NO_VAL64) {
    if (d->pn_min_memory & MEM_PER_CPU)
      r.mem_per_cpu_mb = given(d->pn_min_memory & ~MEM_PER_CPU);
    else if (d->pn_min_memory == 0)
      r.all_memory = true;
    else
      r.mem_per_node_mb = given(d->pn_min_memory);
  }
  if (job->gres_list_req) {
    OwnedIterator it(job->gres_list_req);
    std::int64_t mem_per_gres = 0;
    while (gres_state_t* gs = it.next<gres_state_t>()) {
      const auto* js = static_cast<const gres_job_state_t*>(gs->gres_data);
      if (js) {
        mem_per_gres = std::max(mem_per_gres, given(js->mem_per_gres ? js->mem_per_gres
                                                                     : js->def_mem_per_gres));
        const int cpg = js->cpus_per_gres ? js->cpus_per_gres : js->def_cpus_per_gres;
        if (cpg != NO_VAL16) r.cpus_per_gres = std::max(r.cpus_per_gres, cpg);
      }
      if (!js || compat::gres_no_consume(js)) continue;
      const std::string kind = gres_kind(gs->gres_name, js->type_name);
      // Per task: the whole request. Slurm derives the per-job total from it (tasks x per
      // task) and holds any per-node or per-socket count to a multiple of it that the
      // tasks on a node use (gres.c, gres_job_state_validate), so adding those would
      // count the same GPUs twice or three times.
      if (given(js->gres_per_task) > 0) {
        r.gres_per_task.push_back({kind, given(js->gres_per_task)});
        continue;
      }
      // Per socket: at least one socket's. Per job: a total (cluster_model spreads it).
      const std::int64_t per_node = given(js->gres_per_node) + given(js->gres_per_socket);
      if (per_node > 0) r.gres_per_node.push_back({kind, per_node});
      if (given(js->gres_per_job) > 0) r.gres_per_job.push_back({kind, given(js->gres_per_job)});
    }
    if (memory && mem_per_gres > 0 && !(job->bit_flags & JOB_MEM_SET)) {
      r.all_memory = false;
      r.mem_per_cpu_mb = r.mem_per_node_mb = 0;
      r.mem_per_gres_mb = mem_per_gres;
    }
  }
  // The job's own features, not feature_list_use: Slurm's temporary may still point at
  // the --prefer list, which is a wish, not a constraint.
  r.features_left = !simple_features(d->feature_list, r.features, r.any_feature);
  r.required = bitmap_nodes(d->req_node_bitmap);
  r.excluded = bitmap_nodes(d->exc_node_bitmap);
  r.exclusive = (d->whole_node & WHOLE_NODE_REQUIRED) != 0;
  r.contiguous = d->contiguous != 0;
  if (job->resv_name) r.reservation = job->resv_name;
  return r;
}

}  // namespace

Time limit_seconds(std::uint32_t minutes) { return std::max<Time>(1, minutes_to_seconds(minutes)); }

int end_state_of(std::uint32_t job_state) {
  switch (job_state & JOB_STATE_BASE) {
    case JOB_COMPLETE: return EPP_END_COMPLETED;
    case JOB_CANCELLED:
    case JOB_PREEMPTED:  // cut short by another job: teaches as a cancel (never, by default)
    case JOB_DEADLINE:   // cut at its --deadline, not by its own end
      return EPP_END_CANCELLED;
    case JOB_TIMEOUT: return EPP_END_TIMEOUT;
    default: return EPP_END_FAILED;
  }
}

JobQueue read_job_queue(int max_per_partition, const YieldPoint& yield,
                        const YieldPoint& before_sort, LimitBlocked limit_blocked,
                        const ReserveRules& reserve, LicenceBlocked licence_blocked) {
  JobQueue out;
  const auto t0 = std::chrono::steady_clock::now();
  QueueBuild built = build_queue_in_slices(yield, before_sort);
  out.build_usec = std::chrono::duration_cast<std::chrono::microseconds>(
                       std::chrono::steady_clock::now() - t0).count();
  if (built.abandoned) {
    out.abandoned = true;
    return out;
  }
  out.sort_usec = built.sort_usec;
  std::map<part_record_t*, std::size_t> index;
  // A job queued in several partitions (or under several QOS, or reservations) is
  // checked once per QOS and partition.
  RunnableNow runnable_now(limit_blocked, licence_blocked);
  // The ids of out.all's and each partition's records, to find them again after a yield.
  std::vector<std::uint32_t> all_ids;
  std::vector<std::vector<std::uint32_t>> part_ids;
  std::vector<int> capped;  // each partition's records counted against the cap
  // Records made before a yield of the build point at jobs found again by id below.
  bool yielded = built.yielded;
  LiveReservations live_reservations;
  for (job_queue_rec_t& record : built.records) {
    job_queue_rec_t* rec = &record;
    if (yield) {
      const Yield y = yield();
      if (y == Yield::abandon) {
        out.abandoned = true;
        return out;
      }
      if (y == Yield::yielded) {
        yielded = true;
        live_reservations.forget();
      }
    }
    ++out.length;
    // The queue's partitions are still valid (a yield abandons when partitions changed);
    // its job pointers are not once the locks were given back.
    if (yielded && rec->job_ptr) {
      rec->job_ptr = find_job_record(rec->job_id);
      // Started, held, revoked or completing since: stock's _job_runnable_now.
      if (const job_record_t* job = rec->job_ptr;
          job && (!IS_JOB_PENDING(job) || job->priority == 0 || IS_JOB_REVOKED(job) ||
                  IS_JOB_COMPLETING(job)))
        rec->job_ptr = nullptr;
    }
    // --prefer records are a second try of a queued job: not planned here.
    if (rec->job_ptr && rec->part_ptr && !rec->use_prefer) {
      // A partition's records past the cap are neither planned nor checked (stock
      // backfill tests no more: bf_max_job_part). Records of a magnetic reservation for a
      // job that named none do not count, as stock counts them against no limit.
      const bool magnetic = rec->resv_ptr && !rec->job_ptr->resv_list;
      if (auto full = index.find(rec->part_ptr);
          !magnetic && full != index.end() && capped[full->second] >= max_per_partition)
        continue;
      if (yielded && (!in_partition(rec->job_ptr, rec->part_ptr) || !compat::record_qos_current(rec)))
        continue;
      rec->job_ptr->part_ptr = rec->part_ptr;
      compat::use_record_qos(rec);
      const std::uint32_t qos_id = compat::record_qos_id(rec);
      if (!runnable_now(rec->job_ptr, qos_id)) {
        ++out.not_runnable;
        continue;
      }
      auto [it, added] = index.emplace(rec->part_ptr, out.partitions.size());
      if (added) {
        out.partitions.push_back(PartitionQueue{rec->part_ptr, {}});
        part_ids.emplace_back();
        capped.push_back(0);
      }
      auto& jobs = out.partitions[it->second].jobs;
      QueuedJob q{rec->job_ptr, rec->priority, rec->part_ptr, qos_id};
      q.no_reserve = !may_reserve(rec->job_ptr, rec->priority, reserve);
      if (rec->resv_ptr) {
        // A reservation deleted during a yield: its records are gone with it.
        const slurmctld_resv_t* resv = yielded ? live_reservations.find(rec->resv_ptr) : rec->resv_ptr;
        if (!resv) continue;
        if (resv->name) {
          q.reservation = resv->name;
          q.magnetic = rec->job_ptr->resv_list == nullptr;  // a job that named none
        }
      }
      // Heterogeneous job components do not count towards the cap: they are planned
      // from `all`, with their other components.
      if (rec->job_ptr->het_job_id == 0) {
        jobs.push_back(q);
        part_ids[it->second].push_back(rec->job_id);
        capped[it->second] += !magnetic;
      }
      out.all.push_back(q);
      all_ids.push_back(rec->job_id);
    }
  }
  if (!yielded) return out;
  // Records kept before the last yield: found again by id; gone or started: dropped.
  auto refresh = [](std::vector<QueuedJob>& records, const std::vector<std::uint32_t>& ids) {
    std::size_t kept = 0;
    for (std::size_t i = 0; i < records.size(); ++i) {
      job_record_t* job = find_job_record(ids[i]);
      if (!job || !IS_JOB_PENDING(job)) continue;
      records[kept] = records[i];
      records[kept++].job = job;
    }
    records.resize(kept);
  };
  refresh(out.all, all_ids);
  for (std::size_t p = 0; p < out.partitions.size(); ++p) refresh(out.partitions[p].jobs, part_ids[p]);
  return out;
}

ClusterSnapshot read_cluster(const std::vector<ClusterJob>& jobs, Time now, int array_tasks,
                             const YieldPoint& yield, bool* abandoned, const YieldPoint& fresh) {
  ClusterSnapshot snap;
  // The resources are read in one hold that cannot yield: on a fresh one unless this one
  // is young; after such a yield every queued job is found again by id.
  bool yielded = false;
  if (fresh) {
    const Yield y = fresh();
    if (y == Yield::abandon) {
      if (abandoned) *abandoned = true;
      return snap;
    }
    yielded = y == Yield::yielded;
  }
  snap.now = now;
  const bool memory = (slurm_conf.select_type_param & CR_MEMORY) != 0;
  const bool whole_cores = (slurm_conf.select_type_param & CR_CORE) != 0;
  snap.nodes.resize(static_cast<std::size_t>(std::max(0, node_record_count)));
  for (int i = 0; i < node_record_count; ++i) {
    const node_record_t* node = node_record_table_ptr[i];
    if (!node) {
      snap.nodes[i].usable = false;  // a hole in the node table (dynamic nodes)
      continue;
    }
    const bool usable = avail_node_bitmap && bit_test(avail_node_bitmap, i);
    snap.nodes[i] = node_record(node, usable, memory, whole_cores);
  }
  if (part_list) {
    OwnedIterator it(part_list);
    while (part_record_t* part = it.next<part_record_t>()) {
      PartitionRecord p;
      p.name = part->name ? part->name : "";
      p.nodes = bitmap_nodes(part->node_bitmap);
      p.exclusive = (part->max_share & ~SHARED_FORCE) == 0;  // OverSubscribe=EXCLUSIVE
      if (part->max_cpus_per_node != INFINITE && part->max_cpus_per_node != NO_VAL &&
          part->max_cpus_per_node > 0)
        p.max_cpus_per_node = static_cast<int>(std::min<std::uint32_t>(part->max_cpus_per_node, 1u << 30));
      if (part->max_nodes != INFINITE && part->max_nodes != NO_VAL && part->max_nodes > 0)
        p.max_nodes = static_cast<int>(std::min<std::uint32_t>(part->max_nodes, 1u << 30));
      snap.partitions.push_back(std::move(p));
    }
  }
  if (resv_list) {
    OwnedIterator it(resv_list);
    while (slurmctld_resv_t* resv = it.next<slurmctld_resv_t>()) {
      if (resv->end_time <= now || !resv->name) continue;
      ReservationRecord r{resv->name, resv->start_time, resv->end_time, {}, {}, false};
      // Core-based reservations are planned as whole nodes (conservative).
      if (resv->node_bitmap) r.nodes = bitmap_nodes(resv->node_bitmap);
      r.licences = licences_of(resv->license_list);
      r.any_nodes = (resv->flags & RESERVE_FLAG_ANY_NODES) != 0;
      // One of licences only has no nodes (Slurm requires ANY_NODES for that).
      if (r.nodes.empty() && r.licences.empty() && !r.any_nodes) continue;
      snap.reservations.push_back(std::move(r));
    }
  }
  OwnedIterator it(job_list);
  while (job_record_t* job = it.next<job_record_t>()) {
    if (!holds_resources(job)) continue;
    JobRecord r;
    r.id = job->job_id;
    r.user = job->user_id;
    r.submit = job->details ? job->details->submit_time : job->start_time;
    r.start = job->start_time;
    r.priority = job->priority;
    r.limit = std::max<Time>(1, static_cast<Time>(job->end_time) - job->start_time);
    r.restarts = job->restart_cnt;
    r.requeueable = slurm_may_requeue(job);
    r.completing = IS_JOB_COMPLETING(job);
    r.partition = running_partition(job);
    r.shares = shares_of(job, memory);
    r.licences = licences_of(job->license_list);
    r.procs = 0;
    for (const ShareRecord& s : r.shares) r.procs += s.cpus;
    if (r.shares.empty()) continue;
    snap.running.push_back(std::move(r));
  }
  // Requests after a yield: jobs started meanwhile are left out (they hold resources
  // the plan does not see, so a start on them is refused by select_nodes, never
  // double-booked; the next pass sees them).
  for (const ClusterJob& c : jobs) {
    if (yield) {
      const Yield y = yield();
      if (y == Yield::abandon) {
        if (abandoned) *abandoned = true;
        return snap;
      }
      yielded = yielded || y == Yield::yielded;
    }
    job_record_t* job = yielded ? find_job_record(static_cast<std::uint32_t>(c.id)) : c.job;
    if (!job || !IS_JOB_PENDING(job) || c.in.empty()) continue;  // started earlier in this pass
    JobRecord r;
    r.id = job->job_id;
    r.user = job->user_id;
    r.submit = job->details ? job->details->submit_time : now;
    r.priority = c.in.front().priority;
    // Its limit where it is longest: without a limit of its own a job gets its
    // partition's default (else MaxTime) when it starts, and it may start in any of them.
    r.limit = 0;
    for (const QueuedJob& q : c.in) r.limit = std::max(r.limit, pending_limit(job, q.partition));
    r.restarts = job->restart_cnt;
    r.requeueable = slurm_requeue_allowed(job);
    r.reservable = std::any_of(c.in.begin(), c.in.end(), [](const QueuedJob& q) { return !q.no_reserve; });
    r.request = request_record(job, memory);
    r.request.licences = licences_of(job->license_list);
    for (const LicenceCount& l : r.request.licences)
      if (std::none_of(snap.licences.begin(), snap.licences.end(),
                       [&](const LicenceCount& c) { return c.name == l.name; }))
        snap.licences.push_back(
            LicenceCount{l.name, get_total_license_cnt(const_cast<char*>(l.name.c_str()))});
    // A job of several reservations may run in each its records name (the first is the
    // request's own; job->resv_name lists them all); a job that named none, in the MAGNETIC
    // reservations it has records for, besides outside every reservation.
    if (job->resv_list) r.request.reservation.clear();
    auto add_once = [](std::vector<std::string>& list, const std::string& name) {
      if (std::find(list.begin(), list.end(), name) == list.end()) list.push_back(name);
    };
    for (const QueuedJob& q : c.in) {  // once each (records per QOS or reservation repeat it)
      add_once(r.request.partitions, q.partition->name ? q.partition->name : "");
      if (q.reservation.empty() || (!job->resv_list && !q.magnetic)) continue;
      if (job->resv_list && r.request.reservation.empty())
        r.request.reservation = q.reservation;
      else if (q.reservation != r.request.reservation)
        add_once(r.request.other_reservations, q.reservation);
    }
    r.procs = r.request.min_cpus;
    int copies = 1;
    if (const job_array_struct_t* a = job->array_recs; a && a->task_id_bitmap) {
      std::int64_t tasks = a->task_cnt;
      if (a->max_run_tasks > 0)
        tasks = std::min<std::int64_t>(
            tasks, std::int64_t{a->max_run_tasks} - a->tot_run_tasks - a->pend_run_tasks);
      copies = static_cast<int>(std::clamp<std::int64_t>(tasks, 1, std::max(1, array_tasks)));
    }
    for (int k = 1; k < copies; ++k) {
      JobRecord copy = r;
      copy.id = array_copy_id(r.id, static_cast<std::uint32_t>(k));
      snap.waiting.push_back(std::move(copy));
    }
    snap.waiting.insert(snap.waiting.end() - (copies - 1), std::move(r));
  }
  return snap;
}

std::vector<FinishedJob> read_finished_jobs(std::unordered_set<JobId>& finished,
                                            std::unordered_set<JobId>& active) {
  std::vector<FinishedJob> out;
  OwnedIterator it(job_list);
  while (job_record_t* job = it.next<job_record_t>()) {
    if (!IS_JOB_FINISHED(job)) {
      active.insert(job->job_id);
      continue;
    }
    finished.insert(job->job_id);
    // Never ran: slurmctld gives a pending job it cancels or fails start = end = now, but
    // no nodes (job_completion_logger's own test for "never allocated compute nodes").
    if (!job->nodes || job->start_time <= 0 || job->end_time < job->start_time) continue;
    FinishedJob f;
    f.job.id = job->job_id;
    f.job.user = job->user_id;
    f.job.submit = job->details ? job->details->submit_time : job->start_time;
    f.job.start = job->start_time;
    f.job.limit = limit_seconds(job->time_limit);
    f.job.procs = std::max<int>(1, static_cast<int>(job->total_cpus));
    f.end = job->end_time;
    f.end_state = end_state_of(job->job_state);
    out.push_back(f);
  }
  return out;
}

}  // namespace easypp::plugin
