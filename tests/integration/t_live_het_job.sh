#!/bin/bash
# A heterogeneous job runs (issue 14, must-show 4 and 9), under sched/backfill and
# sched/easypp. Two nodes x 4 CPUs. A (1 CPU on n1, 1-min limit, really 10 s) runs; the
# het job (two components of 4 CPUs on one node each, so it needs both nodes whole)
# waits for A. Worked out by hand: both components start together on n1 and n2 within a
# few seconds of A's end, and the job completes. (22.05's main scheduler does not start
# het jobs; stock backfill does.)
# shellcheck source=tests/integration/lib.sh
. "$(dirname "$0")/lib.sh"

case_het_job() {
  live_up --nodes 2 --cpus 4
  local a het out a_end s0 s1
  a=$(tb_submit 1 1 A 'sleep 10' -w n1)
  wait_state "$a" RUNNING 20
  mkdir -p "$TB_DIR/out"
  # slurmctld (22.05 and 24.11) refuses het jobs unless SchedulerType is sched/backfill
  # (proc_req.c, _sched_backfill: "rejected as sched/backfill is not configured").
  out=$(sbatch --parsable -o "$TB_DIR/out/%j.out" -J HET -t 2 -N 1 -n 4 : -N 1 -n 4 --wrap 'sleep 5' 2>&1) \
    || fail "sbatch of the het job failed: $out"
  het=${out%%;*}
  note "het job $het: components $(squeue -h -j "$het" -o %i | tr '\n' ' ')"
  wait_state "$a" COMPLETED 30
  a_end=$(date +%s)
  wait_state "${het}+0" "RUNNING|COMPLETING|COMPLETED" 20
  wait_state "${het}+1" 'RUNNING|COMPLETING|COMPLETED' 5
  s0=$(job_start "${het}+0"); s1=$(job_start "${het}+1")
  assert_eq "$s0" "$s1" "start times of the two components"
  [ $(( s0 - a_end )) -le 10 ] || fail "the het job started $(( s0 - a_end ))s after A ended"
  assert_eq "n1 n2" "$(printf '%s\n' "$(job_field "${het}+0" NodeList)" "$(job_field "${het}+1" NodeList)" | sort | tr '\n' ' ' | sed 's/ $//')" "nodes of the components"
  wait_state "${het}+0" COMPLETED 30
  wait_state "${het}+1" COMPLETED 10
}

each_scheduler case_het_job
