#!/bin/bash
# A per-job GPU count larger than one node's GPUs (--gpus=3 on nodes of 2) starts, under
# sched/backfill and sched/easypp (sched_interval=-1: only the backfill scheduler starts
# jobs). Slurm adds nodes until the total is met (cons_tres gres_sched_test), so J runs on
# both nodes (2 + 1 GPUs). Before, the plan asked 3 GPUs of one node and J never started
# (a review finding, reproduced live).
# shellcheck source=tests/integration/lib.sh
. "$(dirname "$0")/lib.sh"
LIVE_EXTRA_PARAMS=sched_interval=-1

case_gpus_per_job() {
  live_up --nodes 2 --cpus 4 --gres gpu:2
  local j
  j=$(tb_submit 2 10 J 'sleep 30' --gpus=3)
  wait_state "$j" RUNNING 20
  assert_eq "n[1-2]" "$(job_field "$j" NodeList)" "J's nodes (3 GPUs need both)"
  scancel "$j"
}

each_scheduler case_gpus_per_job
