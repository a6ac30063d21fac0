#!/bin/bash
# A 4-GPU head behind a stream of 1-GPU jobs keeps its reservation (issue 14, must-show 9),
# under sched/backfill and sched/easypp. One node, 16 CPUs, 4 GPUs (GRES). G (1 GPU, 2-min
# limit, really 20 s) runs; H (4 GPUs) waits; then a 1-GPU, 10-min job arrives every 2 s
# while G runs. Each would fit now (3 GPUs idle) but would still hold its GPU when G's
# limit ends, delaying H. Worked out by hand: none of the stream starts before H; H starts
# when G ends (within a few seconds); squeue --start shows H's planned start meanwhile.
# shellcheck source=tests/integration/lib.sh
. "$(dirname "$0")/lib.sh"

case_gpu_head() {
  live_up --nodes 1 --cpus 16 --gres gpu:4
  local g h
  g=$(tb_submit 1 2 G 'sleep 20' --gres=gpu:1)
  wait_state "$g" RUNNING 20
  h=$(tb_submit 4 10 H 'sleep 300' --gres=gpu:4)
  HEAD_TICK=submit_stream expect_head_kept "$g" 2 "$h" -
}

# One more 1-GPU, 10-min job every other second, up to 8 (expect_head_kept's later_jobs).
submit_stream() {
  [ $(( SECONDS % 2 )) -eq 0 ] && [ ${#later_jobs[@]} -lt 8 ] || return 0
  later_jobs+=("$(tb_submit 1 10 "S${#later_jobs[@]}" 'sleep 300' --gres=gpu:1)")
}

each_scheduler case_gpu_head
