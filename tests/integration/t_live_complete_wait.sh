#!/bin/bash
# CompleteWait, under sched/backfill and sched/easypp (Slurm's main scheduler off:
# sched_interval=-1): while a job is completing (its epilog still runs) and ended less
# than CompleteWait seconds ago, stock backfill skips its cycle (backfill.c,
# job_is_completing(NULL), 22.05 and 24.11), and a submission does not start the job it
# queues (job_mgr.c, job_allocate: too_fragmented), so no job starts on a cluster whose
# nodes are still cleaning up. Two nodes x 1 CPU, CompleteWait=60, an epilog of 15 s.
#   A  1 CPU on n1, runs 2 s, then completes for the epilog's 15 s.
#   C  1 CPU, submitted while A completes: fits n2 at once (n1 is busy until the epilog
#      is over, under either scheduler).
# Worked out by hand: C stays pending while A completes and starts after A's epilog.
# (Before, sched/easypp started C at its next pass.)
# shellcheck source=tests/integration/lib.sh
. "$(dirname "$0")/lib.sh"
export LIVE_EXTRA_PARAMS=sched_interval=-1

case_complete_wait() {
  local epilog
  epilog=$(mktemp /tmp/easypp-epilog.XXXXXX)
  printf '#!/bin/sh\nsleep 15\nexit 0\n' > "$epilog"
  chmod 755 "$epilog"
  live_up --nodes 2 --cpus 1 --extra 'CompleteWait=60' --extra "Epilog=$epilog"
  local a c
  a=$(tb_submit 1 5 A 'sleep 2' -w n1)
  wait_state "$a" RUNNING 20
  wait_state "$a" COMPLETING 20
  c=$(tb_submit 1 5 C 'sleep 300')
  assert_stays "$c" PENDING 8 "A is still completing (CompleteWait=60)"
  wait_state "$c" RUNNING 30
  note "ok: C started once A's epilog was over"
  scancel "$c"
  rm -f "$epilog"
}

each_scheduler case_complete_wait
