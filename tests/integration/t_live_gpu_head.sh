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
  local g h s stream=() planned g_end h_start
  g=$(tb_submit 1 2 G 'sleep 20' --gres=gpu:1)
  wait_state "$g" RUNNING 20
  h=$(tb_submit 4 10 H 'sleep 300' --gres=gpu:4)
  planned=
  while [ "$(job_field "$g" JobState)" = RUNNING ]; do
    if [ ${#stream[@]} -lt 8 ]; then stream+=("$(tb_submit 1 10 "S${#stream[@]}" 'sleep 300' --gres=gpu:1)"); fi
    for s in "${stream[@]}"; do
      [ "$(job_field "$s" JobState)" = PENDING ] || fail "1-GPU job $s started while H (4 GPUs) waits for G"
    done
    assert_eq PENDING "$(job_field "$h" JobState)" "H (4 GPUs) while G runs"
    [ -n "$planned" ] || planned=$(squeue_start "$h")
    sleep 2
  done
  g_end=$(date +%s)
  note "ok: ${#stream[@]} 1-GPU jobs stayed pending while G ran"
  [ -n "$planned" ] || fail "squeue --start never showed a planned start for H while G ran"
  [ "$planned" -le $(( $(job_start "$g") + 120 + 5 )) ] \
    || fail "H's planned start $(date -d "@$planned" +%T) is after G's limit ends"
  wait_state "$h" RUNNING 15
  h_start=$(job_start "$h")
  [ $(( h_start - g_end )) -le 10 ] || fail "H started $(( h_start - g_end ))s after G ended"
  for s in "${stream[@]}"; do
    assert_eq PENDING "$(job_field "$s" JobState)" "1-GPU job $s when H has started"
  done
}

each_scheduler case_gpu_head
