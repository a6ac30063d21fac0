#!/bin/bash
# --time-min on nodes with memory and GPUs (CR_Core_Memory, GPUs as GRES), under
# sched/backfill and sched/easypp: the minimum lets a job backfill on the head's node
# where its limit would not, and the limit it starts with depends on that node only.
# Two nodes x 4 CPUs, 1000 MB, 2 GPUs. In queue order:
#   A  -w n1, 1 CPU, 900 MB, 1 GPU, 10-min limit: runs on n1.
#   X  -w n2, 1 CPU, 900 MB, 2 GPUs, 60-min limit: runs on n2.
#   H  1 CPU, 950 MB, 2 GPUs, 10 min: the head. n1 frees A's memory and GPU at A's end
#      (at most 10 min from A's start), n2 X's at 60 min: H is planned on n1 at A's end.
#   U  1 CPU, 50 MB, 1 GPU, 60 min: fits n1 now (3 CPUs, 100 MB, 1 GPU idle) but would
#      hold the GPU H needs past H's start; n2 has no GPU idle.
#   T  as U with --time-min=5: on its minimum it ends before H's start.
#   W  -w n2, 1 CPU, 50 MB, no GPU, 60 min, --time-min=5: nothing is planned on n2.
# Worked out by hand: T and W start, U and H wait. Stock starts both on their minimum
# (5 min; backfill.c:2228, comp_time_limit). sched/easypp starts T with the whole minutes
# left before H's planned start on n1 (9: A started a few seconds before), and W with its
# whole limit (60), as no reservation of the plan is on n2. Each limit is the one
# slurmdbd recorded, as select_nodes was asked with it.
# shellcheck source=tests/integration/lib.sh
. "$(dirname "$0")/lib.sh"

case_time_min_nodes() {
  live_up --nodes 2 --cpus 4 --mem 1000 --select CR_Core_Memory --gres gpu:2 --accounting
  local a x h u t w
  a=$(tb_submit 1 10 A 'sleep 300' -w n1 --mem=900 --gres=gpu:1)
  x=$(tb_submit 1 60 X 'sleep 300' -w n2 --mem=900 --gres=gpu:2)
  wait_state "$a" RUNNING 20
  wait_state "$x" RUNNING 20
  h=$(tb_submit 1 10 H 'sleep 300' --mem=950 --gres=gpu:2)
  u=$(tb_submit 1 60 U 'sleep 300' --mem=50 --gres=gpu:1)
  assert_stays "$u" PENDING 4 "U would hold the GPU H needs on n1 past H's planned start"
  t=$(tb_submit 1 60 T 'sleep 300' --mem=50 --gres=gpu:1 --time-min=5)
  w=$(tb_submit 1 60 W 'sleep 300' -w n2 --mem=50 --time-min=5)
  wait_state "$t" RUNNING 20
  wait_state "$w" RUNNING 20
  assert_eq n1 "$(job_field "$t" NodeList)" "T's node"
  note "ok: T, on its 5-min minimum, backfilled on the head's node ahead of U"
  expect_time_min_limit "$t" T 5 8 10 "the whole minutes before H's planned start on n1"
  expect_time_min_limit "$w" W 5 60 60 "its whole limit: nothing is planned on n2"
  assert_eq PENDING "$(job_field "$h" JobState)" "H (the head)"
  assert_eq PENDING "$(job_field "$u" JobState)" "U (60 min, no minimum)"
  scancel "$a" "$x" "$h" "$u" "$t" "$w"
}

each_scheduler case_time_min_nodes
