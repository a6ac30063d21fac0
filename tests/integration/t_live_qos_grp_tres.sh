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
# The same case on the resources admins configure: a QOS group limit on GPUs
# (GrpTRES=gres/gpu=4) with cores and memory consumable (CR_Core_Memory) and GPUs as
# GRES; the post-select check must see the job's GPU request among its TRES. One node x 8
# cores, 8000 MB, 4 GPUs. A (1 CPU, 1000 MB, 1 GPU, QOS gpus) runs; B (4 GPUs, QOS gpus)
# is over the group limit (1 + 4 > 4) and short of GPUs until A ends; D (3 GPUs, QOS
# normal, 60 min) fits the 3 idle GPUs now: D starts at once, B's reason is QOSGrpGRES.
# shellcheck source=tests/integration/lib.sh
. "$(dirname "$0")/lib.sh"
export LIVE_EXTRA_PARAMS=sched_interval=-1

case_qos_grp_tres() {
  live_up --nodes 1 --cpus 8 --accounting --enforce limits,qos
  tb_qos_add grp GrpTRES=cpu=8
  tb_user_add nobody first qos=normal,grp
  tb_user_add daemon second qos=normal,grp
  local a b d
  a=$(tb_submit_as nobody 4 10 A 'sleep 300' -q grp)
  wait_state "$a" RUNNING 20
  b=$(tb_submit_as daemon 6 10 B 'sleep 300' -q grp)
  d=$(tb_submit_as daemon 4 60 D 'sleep 300' -q normal)
  expect_limit_waits "$a" "$b" "$d" QOSGrpCpuLimit
}

case_qos_grp_gres() {
  live_up --nodes 1 --cpus 8 --mem 8000 --select CR_Core_Memory --gres gpu:4 \
    --accounting --enforce limits,qos
  tb_qos_add gpus GrpTRES=gres/gpu=4
  tb_user_add nobody first qos=normal,gpus
  tb_user_add daemon second qos=normal,gpus
  local a b d
  a=$(tb_submit_as nobody 1 10 A 'sleep 300' -q gpus --mem=1000 --gres=gpu:1)
  wait_state "$a" RUNNING 20
  b=$(tb_submit_as daemon 1 10 B 'sleep 300' -q gpus --mem=1000 --gres=gpu:4)
  d=$(tb_submit_as daemon 1 60 D 'sleep 300' -q normal --mem=1000 --gres=gpu:3)
  expect_limit_waits "$a" "$b" "$d" QOSGrpGRES
}

# D starts while B waits for its group limit with REASON; B starts once A and D are gone.
expect_limit_waits() {   # A B D REASON
  local a=$1 b=$2 d=$3 reason=$4 i
  wait_state "$d" RUNNING 15
  note "ok: D started on what is idle while B waits for the group limit"
  for i in 1 2 3; do
    assert_eq PENDING "$(job_field "$b" JobState)" "B (over its QOS group limit), check $i"
    assert_eq "$reason" "$(job_field "$b" Reason)" "B's reason, check $i"
    sleep 1
  done
  scancel "$a" "$d"
  wait_state "$b" RUNNING 20
  note "ok: B started once A and D were cancelled"
  scancel "$b"
}

each_scheduler case_qos_grp_tres
TEST_NAME=$TEST_NAME.gres each_scheduler case_qos_grp_gres
