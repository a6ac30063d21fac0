#!/bin/bash
# A memory-bound head keeps its reservation (issue 14, must-show 9), under sched/backfill
# and sched/easypp. One node, 64 CPUs, 1000 MB, CR_CPU_Memory. A (8 CPUs, 900 MB, 10-min
# limit, really 20 s) runs; H (32 CPUs, 950 MB) waits for A's memory; L (16 CPUs, 90 MB,
# 60 min), submitted after H, fits now in CPUs (56 free) and memory (100 MB free) but
# would leave H 910 < 950 MB at A's end, so it must stay pending. Worked out by hand: H
# starts when A ends (within a few seconds), L is still pending then (H leaves it 50 MB),
# and while H waits squeue --start shows H's planned start, no later than A's limit.
# shellcheck source=tests/integration/lib.sh
. "$(dirname "$0")/lib.sh"

case_memory_head() {
  live_up --nodes 1 --cpus 64 --mem 1000 --select CR_CPU_Memory
  local a h l planned a_end h_start
  a=$(tb_submit 8 10 A 'sleep 20' --mem=900)
  wait_state "$a" RUNNING 20
  h=$(tb_submit 32 10 H 'sleep 300' --mem=950)
  l=$(tb_submit 16 60 L 'sleep 300' --mem=90)
  # While A runs: L never starts, H waits with a planned start.
  planned=
  while [ "$(job_field "$a" JobState)" = RUNNING ]; do
    assert_eq PENDING "$(job_field "$l" JobState)" "L (16 CPUs, 90 MB, 60 min) while A runs"
    assert_eq PENDING "$(job_field "$h" JobState)" "H (32 CPUs, 950 MB) while A runs"
    [ -n "$planned" ] || planned=$(squeue_start "$h")
    sleep 1
  done
  a_end=$(date +%s)
  [ -n "$planned" ] || fail "squeue --start never showed a planned start for H while A ran"
  [ "$planned" -le $(( $(job_start "$a") + 600 + 5 )) ] \
    || fail "H's planned start $(date -d "@$planned" +%T) is after A's limit ends ($(date -d "@$(( $(job_start "$a") + 600 ))" +%T))"
  note "ok: squeue --start showed H at $(date -d "@$planned" +%T) (A's limit ends $(date -d "@$(( $(job_start "$a") + 600 ))" +%T))"
  wait_state "$h" RUNNING 15
  h_start=$(job_start "$h")
  [ $(( h_start - a_end )) -le 10 ] || fail "H started $(( h_start - a_end ))s after A ended"
  assert_eq PENDING "$(job_field "$l" JobState)" "L when H has started"
}

each_scheduler case_memory_head
