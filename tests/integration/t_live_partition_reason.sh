#!/bin/bash
# A waiting job's partition reason goes once the partition's limit no longer applies,
# under sched/backfill and sched/easypp with Slurm's main scheduler off (sched_interval=-1:
# its own queue build would clear the reason for both). One node x 2 CPUs. A (2 CPUs,
# 10-min limit) runs; the partition's MaxTime is lowered to 5 min and J (1 CPU, 10-min
# limit) is submitted: J waits with reason PartitionTimeLimit. MaxTime is raised to 20:
# J still waits (for A's CPUs), and the scheduler's queue build (_job_runnable_test2)
# clears its partition reason. (Before, the plugin's 22.05 build inverted the test: it
# kept partition reasons and cleared the others, so J showed PartitionTimeLimit until it
# started.)
# shellcheck source=tests/integration/lib.sh
. "$(dirname "$0")/lib.sh"
export LIVE_EXTRA_PARAMS=sched_interval=-1

case_partition_reason() {
  live_up --nodes 1 --cpus 2
  local a j deadline reason
  a=$(tb_submit 2 10 A 'sleep 300')
  wait_state "$a" RUNNING 20
  scontrol update partitionname=debug MaxTime=5 || fail "scontrol update partition MaxTime=5 failed"
  j=$(tb_submit 1 10 J 'sleep 300')
  deadline=$(( $(date +%s) + 10 ))
  until [ "$(job_field "$j" Reason)" = PartitionTimeLimit ]; do
    [ "$(date +%s)" -lt $deadline ] || fail "J's reason is '$(job_field "$j" Reason)', not PartitionTimeLimit, 10 s after MaxTime=5"
    sleep 0.2
  done
  note "ok: J waits with reason PartitionTimeLimit under MaxTime=5"
  scontrol update partitionname=debug MaxTime=20 || fail "scontrol update partition MaxTime=20 failed"
  deadline=$(( $(date +%s) + 10 ))
  while reason=$(job_field "$j" Reason); [ "$reason" = PartitionTimeLimit ]; do
    [ "$(date +%s)" -lt $deadline ] || fail "J's reason is still PartitionTimeLimit 10 s after MaxTime=20"
    sleep 0.2
  done
  assert_eq PENDING "$(job_field "$j" JobState)" "J while A runs"
  note "ok: J's reason after MaxTime=20: $reason"
  scancel "$a" "$j"
}

each_scheduler case_partition_reason
