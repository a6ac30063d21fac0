#!/bin/bash
# A QOS group limit shared by two users (GrpTRES=cpu=8) does not idle the partition, under
# sched/backfill and sched/easypp with Slurm's main scheduler off (sched_interval=-1: it
# would start D itself, and only the backfill scheduler's plan is in question here). One
# node x 8 CPUs, accounting with AccountingStorageEnforce=limits,qos; users nobody and
# daemon, in two accounts, may both use QOS grp. Slurm checks GrpTRES only once nodes are
# chosen (acct_policy_job_runnable_post_select); stock backfill asks it before reserving a
# job and reserves nothing for one over the limit. In queue order:
#   A  nobody, 4 CPUs, QOS grp, 10-min limit: runs (4 of the group's 8 CPUs).
#   B  daemon, 6 CPUs, QOS grp, 10-min limit: over the group limit (4 + 6 > 8) and short of
#      CPUs (4 idle) until A ends.
#   D  daemon, 4 CPUs, QOS normal, 60-min limit: fits the 4 idle CPUs now, but on its
#      limit it would hold them past A's end, when B would need 6.
# Worked out by hand: B cannot start before A ends whatever is idle, so nothing is kept
# for it: D starts at once, and B waits with the limit as its reason (not Resources).
# Once A and D are cancelled, B starts. (Before, the plugin planned B as the head,
# reserved at A's end, and D waited on 4 idle CPUs; its reason read Resources.)
# shellcheck source=tests/integration/lib.sh
. "$(dirname "$0")/lib.sh"
export LIVE_EXTRA_PARAMS=sched_interval=-1

case_qos_grp_tres() {
  live_up --nodes 1 --cpus 8 --accounting --enforce limits,qos
  tb_qos_add grp GrpTRES=cpu=8
  tb_user_add nobody first qos=normal,grp
  tb_user_add daemon second qos=normal,grp
  local a b d i
  a=$(tb_submit_as nobody 4 10 A 'sleep 300' -q grp)
  wait_state "$a" RUNNING 20
  b=$(tb_submit_as daemon 6 10 B 'sleep 300' -q grp)
  d=$(tb_submit_as daemon 4 60 D 'sleep 300' -q normal)
  wait_state "$d" RUNNING 15
  note "ok: D started on the 4 idle CPUs while B waits for the group limit"
  for i in 1 2 3; do
    assert_eq PENDING "$(job_field "$b" JobState)" "B (QOS grp, GrpTRES=cpu=8, 4 held by A), check $i"
    assert_eq QOSGrpCpuLimit "$(job_field "$b" Reason)" "B's reason, check $i"
    sleep 1
  done
  scancel "$a" "$d"
  wait_state "$b" RUNNING 20
  note "ok: B started once A and D were cancelled"
  scancel "$b"
}

each_scheduler case_qos_grp_tres
