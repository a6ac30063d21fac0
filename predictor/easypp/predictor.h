/*
 * libeasypp-predictor — per-user runtime history turned into runtime predictions.
 *
 * C ABI, usable from C, C++ and the Slurm plugin. All functions are thread-safe on the
 * same handle (an internal lock), so slurmctld's threads may share one predictor, with
 * one exception: epp_predictor_set_seed replaces the spec text, so it must not run
 * concurrently with epp_predictor_spec or with a use of a pointer that returned (set
 * the seed before sharing the handle).
 *
 * Vocabulary (paper 000, footnote 3): the *estimate* is the user's time limit and stays
 * the kill time; a *prediction* is what the scheduler plans with. A prediction never
 * exceeds the estimate, except through post-estimate correction (epp_correct). X2-style
 * predictors ("double", scale=F) plan with a ceiling of F x estimate instead.
 * Spec keys, learning rules and the dedupe rule: predictor/README.md.
 * Times are seconds; a runtime or estimate is a duration, submit/start/end are epoch times.
 */
#ifndef EASYPP_PREDICTOR_H
#define EASYPP_PREDICTOR_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bumped on any incompatible change of this header (the soname follows it). */
#define EPP_ABI_VERSION 1

/* The library is built with hidden visibility; only these functions are exported. */
#if defined(__GNUC__)
#define EPP_API __attribute__((visibility("default")))
#else
#define EPP_API
#endif

typedef struct epp_predictor epp_predictor;

/* What a predictor may know of a job. Unknown fields: -1 (runtime) or 0. */
typedef struct epp_job {
  uint64_t job_id;   /* unique within one source of records (dedupes re-imports) */
  uint32_t user_id;  /* numeric uid (SWF: user number) */
  int64_t submit;    /* epoch seconds */
  int64_t estimate;  /* user estimate = time limit = kill time, seconds, > 0 */
  int32_t procs;     /* processors (CPUs) requested */
  int64_t runtime;   /* actual runtime, only for clairvoyant `perfect` (simulation); else -1 */
} epp_job;

/* How a finished job ended. Which ends teach is the spec key learn= (default "finished":
 * completed and timed-out jobs teach, failed ones only if they ran failed_min seconds,
 * cancelled ones never); see predictor/README.md "What teaches the predictor". */
enum epp_end_state {
  EPP_END_COMPLETED = 0,
  EPP_END_FAILED = 1,     /* non-zero exit, node failure */
  EPP_END_CANCELLED = 2,  /* scancel, preemption; teaches only with learn=all */
  EPP_END_TIMEOUT = 3     /* killed at its limit */
};

/*
 * Create a predictor from a spec string. NULL or "" selects the default, the paper's
 * recommendation: "history:window=2,type=all,fullness=partial,metric=avg,
 * fallback=estimate,propagation=off,correction=estimate".
 * Other kinds: "last" (Last Model, paper 002), "estimate", "double", "perfect", "learned"
 * (an online linear model, Gaussier et al. SC 2015), and the simulation-only evaluation
 * kinds "quant" and "qual" (paper 003, below). Items may be separated by ',' or ';'.
 * On a bad spec: returns NULL and writes one line naming the key and value into err.
 */
EPP_API epp_predictor *epp_predictor_new(const char *spec, char *err, size_t errlen);
EPP_API void epp_predictor_free(epp_predictor *p);

/* 1 if some kind's spec reads `key` after "kind:" (window, metric, eta, seed, ...; the
 * lists epp_predictor_new checks keys against), else 0 (NULL too). For a caller that gets
 * a spec cut into pieces, such as Slurm's comma-separated SchedulerParameters, to name a
 * piece (interface 4). */
EPP_API int epp_is_spec_key(const char *key);

/* The canonical spec with every key spelled out (for logs and reports). Owned by p; valid
 * until epp_predictor_free or epp_predictor_set_seed (read without the lock). */
EPP_API const char *epp_predictor_spec(const epp_predictor *p);

/* Non-zero if waiting jobs of a user should be re-predicted when a job of that user ends
 * (propagation=on). The driver calls epp_predict again for them. */
EPP_API int epp_predictor_propagates(const epp_predictor *p);

/* Prediction, in seconds (>= 1), for a job that has not started yet. The estimate must
 * be > 0: for a job without a time limit pass the limit the scheduler would plan with
 * (Slurm: the partition's MaxTime); with estimate <= 0 the answer is 1. A "learned"
 * predictor remembers the features it predicted a job with (by job_id, per user, at most
 * 32 jobs) and learns from them when the job ends. */
EPP_API int64_t epp_predict(epp_predictor *p, const epp_job *job);

/*
 * The job has run `elapsed` seconds, reaching its current prediction: return the next
 * prediction (> elapsed; INT64_MAX if elapsed is INT64_MAX) according to the configured
 * correction rule. Beyond the
 * estimate the paper's rule applies: +1 minute, then 15*2^(i-2) minutes for the i-th.
 * `corrections` is how many corrections this job has had so far.
 */
EPP_API int64_t epp_correct(const epp_predictor *p, const epp_job *job, int64_t current_prediction,
                    int64_t elapsed, int corrections);

/* A job ended; learn from it (runtime = end - start; start >= 0, so a simulated t=0 is
 * fine). Returns 1 if it entered history, 0 if ignored (a duplicate job_id, a state that
 * does not teach, start < 0 or end < start, a runtime over 2^40 s, a predictor without
 * history, or out of memory: then nothing was learnt, the handle is as before the call,
 * a user first seen in it included, and the call may be repeated). */
EPP_API int epp_learn(epp_predictor *p, const epp_job *job, int64_t start, int64_t end, int end_state);

/* Persistence (JSON, schema-versioned, atomic write, mode 0600, no symlinks followed).
 * Schema 2 adds the learned model; files without one are still written as schema 1.
 * Only EPP_LOAD_OK changes the handle's history; on every other result it keeps what it
 * had (empty for a new handle). A failed save (-1) keeps the previous file, except when
 * only the final fsync of the directory fails: the new file is then in place but may not
 * survive a crash, and err says so. */
enum epp_load_result {
  EPP_LOAD_OK = 0,
  EPP_LOAD_MISSING = 1,  /* no file: start empty */
  EPP_LOAD_CORRUPT = 2,  /* set aside as NAME.corrupt-TIMESTAMP (not with
                            EPP_LOAD_READ_ONLY, below); start empty, rebuild */
  EPP_LOAD_ERROR = 3     /* could not read (permissions, symlink, another user's file, a
                            newer schema, after which this handle's saves replace no file
                            of a newer schema, whatever its path): message in err */
};
EPP_API int epp_save(const epp_predictor *p, const char *path, char *err, size_t errlen);
EPP_API int epp_load(epp_predictor *p, const char *path, char *err, size_t errlen);
/* epp_load with flags (interface 5); flags 0 is epp_load. With EPP_LOAD_READ_ONLY, for
 * inspecting a file another process owns (easypp-predict show/stats on the plugin's file),
 * the load renames, writes, creates and removes no file: a corrupt file gives
 * EPP_LOAD_CORRUPT with err naming it and what is wrong, and stays where and as it was
 * (this handle's epp_save then refuses to replace it, as a file it could not read, until a
 * load reads it or finds none); a save killed midway leaves its PATH.tmp-XXXXXX. Other
 * results as epp_load. An unknown flag gives EPP_LOAD_ERROR and loads nothing. */
enum epp_load_flag {
  EPP_LOAD_READ_ONLY = 1
};
EPP_API int epp_load_with_flags(epp_predictor *p, const char *path, unsigned flags, char *err, size_t errlen);
/* `to` takes `from`'s history as an epp_save + epp_load round trip through one file would
 * give it (for `to`'s spec), in memory: a driver replacing its predictor (a reconfigure)
 * keeps what was learnt even when saving fails. `to` also takes `from`'s refusal to
 * overwrite a newer easypp's state file. 0 on success; -1 (message in err, `to` unchanged)
 * otherwise. `to` and `from` must differ. */
EPP_API int epp_copy_history(epp_predictor *to, const epp_predictor *from, char *err, size_t errlen);

/* Number of users and history records kept (for stats and tests). */
EPP_API size_t epp_predictor_users(const epp_predictor *p);
EPP_API size_t epp_predictor_records(const epp_predictor *p);

/* --- Inspection (easypp-predict show/stats) ------------------------------------------ */

/* One run kept in a user's history. */
typedef struct epp_run {
  uint64_t job_id;
  int64_t submit;
  int64_t end;
  int64_t estimate;
  int64_t runtime;
} epp_run;

/* Users with history, ascending; writes at most max ids, returns how many there are. */
EPP_API size_t epp_predictor_user_ids(const epp_predictor *p, uint32_t *out, size_t max);

/* The user's kept runs, oldest first (by end time); writes at most max, returns how many
 * are kept (at most 30). */
EPP_API size_t epp_user_runs(const epp_predictor *p, uint32_t user, epp_run *out, size_t max);

/* The user's lifetime mean accuracy (runtime/estimate) and the number of runs it covers;
 * returns 0 (and leaves the outputs alone) for a user without history. */
EPP_API int epp_user_accuracy(const epp_predictor *p, uint32_t user, double *mean, uint64_t *count);

/* --- Records from accounting (shared by the plugin and easypp-predict) --------------- */

/* One ended job as read from accounting. */
typedef struct epp_record {
  epp_job job;       /* runtime = end - start */
  int64_t start;     /* epoch seconds */
  int64_t end;       /* epoch seconds */
  int end_state;     /* enum epp_end_state */
} epp_record;

/*
 * Parse one line of Slurm's jobcomp/filetxt log ("JobId=... UserId=name(uid) ...
 * JobState=... TimeLimit=minutes StartTime=... EndTime=... ProcCnt=... SubmitTime=...";
 * times are local ISO 8601, read with the process's time zone, as Slurm wrote them).
 * Returns 1 and fills *out for an ended job that ran; 0 for a line to skip (blank, a job
 * that never started, a state that is not an end such as RESIZING, an UNLIMITED time
 * limit); -1 for a malformed line, with one line "Key=value: reason" in err (the caller
 * prefixes file:line).
 */
EPP_API int epp_parse_jobcomp_line(const char *line, epp_record *out, char *err, size_t errlen);

/*
 * Parse one line of
 *   sacct --parsable2 --noheader
 *         --format=JobIDRaw,User,UID,Submit,Start,End,TimelimitRaw,NCPUS,State,Partition,JobName
 * TimelimitRaw is in minutes; State may read "CANCELLED by 0". Job steps (123.batch,
 * 123.0, 123.extern) and jobs still pending or running are skipped (0). Same returns as
 * epp_parse_jobcomp_line.
 */
EPP_API int epp_parse_sacct_line(const char *line, epp_record *out, char *err, size_t errlen);

/* Learn a parsed record: epp_learn(p, &r->job, r->start, r->end, r->end_state). */
EPP_API int epp_learn_record(epp_predictor *p, const epp_record *r);

/* --- The paper-000 section-7 configuration space ------------------------------------- */

/* Number of configurations: 3 corrections x 2 fallbacks x 2 propagation x 2 fullness x
 * 4 metrics x 3 window types x 30 window sizes = 8640. */
EPP_API size_t epp_sweep_size(void);

/* Canonical spec of configuration `index` (0 <= index < epp_sweep_size()) into buf.
 * Returns its length, or -1 if index is out of range or buf too small (256 suffices). */
EPP_API int epp_sweep_spec(size_t index, char *buf, size_t len);

/* --- Evaluation predictors (paper 003): kinds "quant" and "qual" ---------------------
 * They predict from the job's real runtime (epp_job.runtime) with errors of a chosen size
 * (quant) or nature (qual) on chosen job categories, so they exist for simulation only:
 * a driver of a live system must refuse a predictor with epp_predictor_needs_workload().
 * Before predicting they need the whole workload once (epp_set_workload), for the
 * per-trace category bounds and each job's application; until then they predict the
 * estimate. Their random draws depend only on (seed, job_id): the same job always gets
 * the same prediction, in any call order. Specs and rules: predictor/README.md. */

/* One job of the workload to be simulated. */
typedef struct epp_workload_job {
  uint64_t job_id;      /* the id epp_predict will see in epp_job.job_id */
  int64_t runtime;      /* actual runtime, seconds, >= 0 */
  int32_t procs;        /* >= 1 */
  int64_t application;  /* application (SWF executable number); -1 unknown */
} epp_workload_job;

/* Non-zero for the evaluation kinds (they need epp_set_workload and epp_job.runtime). */
EPP_API int epp_predictor_needs_workload(const epp_predictor *p);

/* Gives the predictor the whole workload. Returns 0, or -1 with one line in err naming the
 * bad job ("workload job_id=7: runtime=-3: must be >= 0"). Ignored (0) by other kinds.
 * The jobs are copied as needed; the array may be freed afterwards. */
EPP_API int epp_set_workload(epp_predictor *p, const epp_workload_job *jobs, size_t n, char *err, size_t errlen);

/* The category bounds computed by epp_set_workload (ub = 95th percentile / 2, lb = ub x
 * lb_factor, per variable; area = runtime x procs; app_jobs over the jobs per application).
 * Returns 1 and fills *out, or 0 if no workload was set. */
typedef struct epp_workload_bounds {
  double runtime_lb, runtime_ub;
  double procs_lb, procs_ub;
  double area_lb, area_ub;
  double app_jobs_ub;            /* applications with more jobs are "most executed" */
  size_t frequent_applications;  /* how many applications that is */
  size_t jobs;                   /* jobs in the workload */
  size_t short_jobs;             /* runtime < runtime_lb */
  size_t large_jobs;             /* runtime > runtime_ub */
} epp_workload_bounds;
EPP_API int epp_get_workload_bounds(const epp_predictor *p, epp_workload_bounds *out);

/* Reseeds a predictor that draws random numbers (the canonical spec shows the new seed=;
 * earlier epp_predictor_spec pointers become invalid). Returns 1 if it does, 0 if its
 * predictions are deterministic (nothing changes). Call it before predicting, and never
 * concurrently with epp_predictor_spec or a use of its pointer. */
EPP_API int epp_predictor_set_seed(epp_predictor *p, uint64_t seed);

#ifdef __cplusplus
}
#endif
#endif /* EASYPP_PREDICTOR_H */
