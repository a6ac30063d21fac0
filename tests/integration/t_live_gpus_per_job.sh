#!/bin/bash
# A per-job GPU count larger than one node's GPUs (--gpus=3 on nodes of 2), and GPUs per
# task, start under sched/backfill and sched/easypp (sched_interval=-1: only the backfill
# scheduler starts jobs). Slurm adds nodes until the total is met (cons_tres gres_sched_test), so J runs on
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

# --gpus-per-task=2 with 2 tasks on nodes of 4 GPUs: Slurm fills in the per-job total (4)
# from it; the job runs at once on one node (2 tasks x 2 GPUs). Before, the plan added the
# total to the per-task count (8 GPUs on a node) and the job never started (a review
# finding, reproduced live).
case_gpus_per_task() {
  live_up --nodes 2 --cpus 4 --gres gpu:4
  local j
  j=$(tb_submit 2 10 J 'sleep 30' --gpus-per-task=2)
  wait_state "$j" RUNNING 20
  assert_eq 1 "$(job_field "$j" NumNodes)" "J's nodes (4 GPUs fit on one)"
  scancel "$j"
}

each_scheduler case_gpus_per_job
TEST_NAME=$TEST_NAME.per_task each_scheduler case_gpus_per_task
