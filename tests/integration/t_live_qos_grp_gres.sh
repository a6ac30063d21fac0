#!/bin/bash
# A QOS group limit on GPUs (GrpTRES=gres/gpu=4) shared by two users does not idle the
# node, with memory and cores as consumable resources (CR_Core_Memory) and GPUs as GRES,
# under sched/backfill and sched/easypp with Slurm's main scheduler off (sched_interval=-1).
# The same case as t_live_qos_grp_tres on the resources admins configure: the post-select
# limit check must see the job's GPU request among its TRES. One node x 8 cores, 8000 MB,
# 4 GPUs, accounting with AccountingStorageEnforce=limits,qos. In queue order:
#   A  nobody, 1 CPU, 1000 MB, 1 GPU, QOS gpus, 10-min limit: runs (1 of the group's 4).
#   B  daemon, 1 CPU, 1000 MB, 4 GPUs, QOS gpus, 10-min limit: over the group limit
#      (1 + 4 > 4) and short of GPUs (3 idle) until A ends.
#   D  daemon, 1 CPU, 1000 MB, 3 GPUs, QOS normal, 60-min limit: fits the 3 idle GPUs now,
#      but on its limit it would hold them past A's end, when B would need all 4.
# Worked out by hand: B cannot start before A ends whatever is idle, so nothing is kept
# for it: D starts at once, and B waits with the GPU limit as its reason (QOSGrpGRES).
# Once A and D are cancelled, B starts.
# shellcheck source=tests/integration/lib.sh
. "$(dirname "$0")/lib.sh"
export LIVE_EXTRA_PARAMS=sched_interval=-1

case_qos_grp_gres() {
  live_up --nodes 1 --cpus 8 --mem 8000 --select CR_Core_Memory --gres gpu:4 \
    --accounting --enforce limits,qos
  tb_qos_add gpus GrpTRES=gres/gpu=4
  tb_user_add nobody first qos=normal,gpus
  tb_user_add daemon second qos=normal,gpus
  local a b d i
  a=$(tb_submit_as nobody 1 10 A 'sleep 300' -q gpus --mem=1000 --gres=gpu:1)
  wait_state "$a" RUNNING 20
  b=$(tb_submit_as daemon 1 10 B 'sleep 300' -q gpus --mem=1000 --gres=gpu:4)
  d=$(tb_submit_as daemon 1 60 D 'sleep 300' -q normal --mem=1000 --gres=gpu:3)
  wait_state "$d" RUNNING 15
  note "ok: D started on the 3 idle GPUs while B waits for the group's GPU limit"
  for i in 1 2 3; do
    assert_eq PENDING "$(job_field "$b" JobState)" "B (QOS gpus, GrpTRES=gres/gpu=4, 1 held by A), check $i"
    assert_eq QOSGrpGRES "$(job_field "$b" Reason)" "B's reason, check $i"
    sleep 1
  done
  scancel "$a" "$d"
  wait_state "$b" RUNNING 20
  note "ok: B started once A and D were cancelled"
  scancel "$b"
}

each_scheduler case_qos_grp_gres
