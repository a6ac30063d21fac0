#!/bin/bash
# A QOS-limited top user does not idle the partition (issue 14, must-show 9), under
# sched/backfill and sched/easypp. One node x 8 CPUs, accounting with
# AccountingStorageEnforce=limits,qos; QOS cap has MaxJobsPerUser=1. User nobody submits
# first (highest priority) three 4-CPU jobs in QOS cap: one runs, two wait for the limit,
# not for resources. Then user daemon submits a 4-CPU job. Worked out by hand: daemon's
# job starts at once on the 4 idle CPUs (the limited jobs can start only when nobody's
# running job ends, so nothing may be kept for them); nobody's waiting jobs keep their
# QOS reason.
# shellcheck source=tests/integration/lib.sh
. "$(dirname "$0")/lib.sh"

case_qos_limit() {
  live_up --nodes 1 --cpus 8 --accounting --enforce limits,qos
  tb_qos_add cap MaxJobsPerUser=1
  tb_user_add nobody top qos=normal,cap
  tb_user_add daemon other
  local t1 t2 t3 o
  t1=$(tb_submit_as nobody 4 10 T1 'sleep 300' -q cap)
  t2=$(tb_submit_as nobody 4 10 T2 'sleep 300' -q cap)
  t3=$(tb_submit_as nobody 4 10 T3 'sleep 300' -q cap)
  wait_state "$t1" RUNNING 20
  o=$(tb_submit_as daemon 4 10 O 'sleep 300')
  wait_state "$o" RUNNING 15
  assert_eq PENDING "$(job_field "$t2" JobState)" "T2 (QOS cap, MaxJobsPerUser=1)"
  assert_eq PENDING "$(job_field "$t3" JobState)" "T3 (QOS cap, MaxJobsPerUser=1)"
  assert_eq QOSMaxJobsPerUserLimit "$(job_field "$t2" Reason)" "T2's reason"
}

each_scheduler case_qos_limit
