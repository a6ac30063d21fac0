/*
 * libeasypp-predictor — per-user runtime history turned into runtime predictions.
 *
 * C ABI, usable from C, C++ and the Slurm plugin. All functions are thread-safe on the
 * same handle (an internal lock), so slurmctld's threads may share one predictor.
 *
 * Vocabulary (paper 000, footnote 3): the *estimate* is the user's time limit and stays
 * the kill time; a *prediction* is what the scheduler plans with. A prediction never
 * exceeds the estimate, except through post-estimate correction (epp_correct).
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

/* How a finished job ended; only EPP_END_COMPLETED runs teach history predictors by
 * default (see doc/design.md "what teaches the predictor"). */
enum epp_end_state {
  EPP_END_COMPLETED = 0,
  EPP_END_FAILED = 1,     /* non-zero exit, node failure */
  EPP_END_CANCELLED = 2,  /* scancel; teaches only if it ran */
  EPP_END_TIMEOUT = 3     /* killed at its limit */
};

/*
 * Create a predictor from a spec string. NULL or "" selects the default, the paper's
 * recommendation: "history:window=2,type=all,fullness=partial,metric=avg,
 * fallback=estimate,propagation=off,correction=estimate".
 * Other kinds: "last" (Last Model, paper 002), "estimate", "double", "perfect".
 * On a bad spec: returns NULL and writes one line naming the key and value into err.
 */
epp_predictor *epp_predictor_new(const char *spec, char *err, size_t errlen);
void epp_predictor_free(epp_predictor *p);

/* The canonical spec with every key spelled out (for logs and reports). Owned by p. */
const char *epp_predictor_spec(const epp_predictor *p);

/* Non-zero if waiting jobs of a user should be re-predicted when a job of that user ends
 * (propagation=on). The driver calls epp_predict again for them. */
int epp_predictor_propagates(const epp_predictor *p);

/* Prediction, in seconds (>= 1), for a job that has not started yet. */
int64_t epp_predict(epp_predictor *p, const epp_job *job);

/*
 * The job has run `elapsed` seconds, reaching its current prediction: return the next
 * prediction (> elapsed) according to the configured correction rule. Beyond the
 * estimate the paper's rule applies: +1 minute, then 15*2^(i-2) minutes for the i-th.
 * `corrections` is how many corrections this job has had so far.
 */
int64_t epp_correct(const epp_predictor *p, const epp_job *job, int64_t current_prediction,
                    int64_t elapsed, int corrections);

/* A job ended; learn from it. Returns 1 if it entered history, 0 if ignored (a duplicate
 * job_id, a state that does not teach, or a predictor without history). */
int epp_learn(epp_predictor *p, const epp_job *job, int64_t start, int64_t end, int end_state);

/* Persistence (JSON, schema-versioned, atomic write, mode 0600, no symlinks followed). */
enum epp_load_result {
  EPP_LOAD_OK = 0,
  EPP_LOAD_MISSING = 1,  /* no file: start empty */
  EPP_LOAD_CORRUPT = 2,  /* set aside as NAME.corrupt-TIMESTAMP; start empty, rebuild */
  EPP_LOAD_ERROR = 3     /* could not read (permissions, symlink...): message in err */
};
int epp_save(const epp_predictor *p, const char *path, char *err, size_t errlen);
int epp_load(epp_predictor *p, const char *path, char *err, size_t errlen);

/* Number of users and history records kept (for stats and tests). */
size_t epp_predictor_users(const epp_predictor *p);
size_t epp_predictor_records(const epp_predictor *p);

#ifdef __cplusplus
}
#endif
#endif /* EASYPP_PREDICTOR_H */
