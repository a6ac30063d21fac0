#!/bin/bash
# A job requesting two QOS starts under one whose limits let it run (issue 19, must-show 3),
# under sched/backfill and sched/easypp with Slurm's main scheduler off (sched_interval=-1,
# so the scheduler under test starts it). Slurm 24.11 queues such a job once per (partition,
# QOS) and leaves job_ptr->qos_ptr at whichever QOS it tried last; a scheduler must check
# limits with, and start under, the record's QOS. One node x 8 CPUs, limits and QOS
# enforced; QOS hi (Priority=100) and lo (Priority=10) both MaxJobsPerUser=1; user nobody.
# Worked out by hand: A (-q hi) runs and fills hi; B (-q hi,lo) must run under lo (hi, first
# in priority order, is at its limit); once A is cancelled, C (-q hi,lo) must run under hi
# (lo is full with B; the QOS the queue left on the job is lo, the last tried, so a scheduler
# that ignores the records' QOS finds C over its limit and leaves it waiting).
# shellcheck source=tests/integration/lib.sh
. "$(dirname "$0")/lib.sh"

# The release the testbed runs (slurmctld -V needs no configuration; scontrol does).
version=$("${EASYPP_SLURM_PREFIX:-/usr}/sbin/slurmctld" -V | awk '{print $2}')
case $version in
  22.*|23.*|24.0*) skip "Slurm $version takes one QOS per job (22.05 refuses sbatch --qos=a,b: Invalid qos specification)" ;;
esac
export LIVE_EXTRA_PARAMS=sched_interval=-1

qos_of() {   # JOB: the QOS squeue shows
  squeue -h -j "$1" -o %q
}

sacct_qos() {   # JOB: the QOS accounting recorded (waits up to 10 s for slurmdbd)
  local q
  for _ in $(seq 50); do
    q=$(sacct -n -X -P -j "$1" -o QOS 2>/dev/null | head -n 1)
    [ -z "$q" ] || { echo "$q"; return 0; }
    sleep 0.2
  done
}

case_two_qos() {
  live_up --nodes 1 --cpus 8 --accounting --enforce limits,qos
  tb_qos_add hi Priority=100 MaxJobsPerUser=1
  tb_qos_add lo Priority=10 MaxJobsPerUser=1
  tb_user_add nobody grp qos=normal,hi,lo
  local a b c
  a=$(tb_submit_as nobody 2 10 A 'sleep 300' -q hi)
  wait_state "$a" RUNNING 20
  b=$(tb_submit_as nobody 2 10 B 'sleep 300' --qos=hi,lo)
  wait_state "$b" RUNNING 20
  assert_eq lo "$(qos_of "$b")" "B's QOS in squeue (hi is at MaxJobsPerUser=1)"
  assert_eq lo "$(sacct_qos "$b")" "B's QOS in sacct"
  scancel "$a"
  wait_state "$a" CANCELLED 20
  c=$(tb_submit_as nobody 2 10 C 'sleep 300' --qos=hi,lo)
  wait_state "$c" RUNNING 20
  assert_eq hi "$(qos_of "$c")" "C's QOS in squeue (lo is at MaxJobsPerUser=1 with B)"
  assert_eq hi "$(sacct_qos "$c")" "C's QOS in sacct"
  if [ "$LIVE_SCHED" = sched/easypp ]; then
    grep -q "sched/easypp: started JobId=$c .* under QOS hi" "$TB_DIR/log/slurmctld.log" \
      || fail "the plugin did not log starting JobId=$c under QOS hi"
  fi
}

each_scheduler case_two_qos
