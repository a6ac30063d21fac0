#!/bin/bash
# A 2-node exclusive head behind long 1-CPU jobs keeps its reservation (issue 14,
# must-show 9), under sched/backfill and sched/easypp. Two nodes x 4 CPUs. A (1 CPU on n1,
# 2-min limit, really 20 s) runs; H (2 nodes, --exclusive) waits; L1..L3 (1 CPU, 60 min),
# submitted after H, each fit now (3 CPUs idle on n1, n2 idle) but would keep a node
# busy when A's limit ends. Worked out by hand: no L starts before H; H starts on n[1-2]
# when A ends; squeue --start shows H's planned start meanwhile.
# shellcheck source=tests/integration/lib.sh
. "$(dirname "$0")/lib.sh"

case_exclusive_head() {
  live_up --nodes 2 --cpus 4
  local a h l ls=() planned a_end h_start
  a=$(tb_submit 1 2 A 'sleep 20' -w n1)
  wait_state "$a" RUNNING 20
  h=$(tb_submit 2 5 H 'sleep 300' -N 2 --exclusive)
  for l in 1 2 3; do ls+=("$(tb_submit 1 60 "L$l" 'sleep 300')"); done
  planned=
  while [ "$(job_field "$a" JobState)" = RUNNING ]; do
    for l in "${ls[@]}"; do
      [ "$(job_field "$l" JobState)" = PENDING ] || fail "1-CPU 60-min job $l started on $(job_field "$l" NodeList) while the exclusive head H waits"
    done
    assert_eq PENDING "$(job_field "$h" JobState)" "H (2 nodes, exclusive) while A runs"
    [ -n "$planned" ] || planned=$(squeue_start "$h")
    sleep 1
  done
  a_end=$(date +%s)
  [ -n "$planned" ] || fail "squeue --start never showed a planned start for H while A ran"
  [ "$planned" -le $(( $(job_start "$a") + 120 + 5 )) ] \
    || fail "H's planned start $(date -d "@$planned" +%T) is after A's limit ends"
  wait_state "$h" RUNNING 15
  h_start=$(job_start "$h")
  [ $(( h_start - a_end )) -le 10 ] || fail "H started $(( h_start - a_end ))s after A ended"
  assert_eq "n[1-2]" "$(job_field "$h" NodeList)" "H's nodes"
  for l in "${ls[@]}"; do assert_eq PENDING "$(job_field "$l" JobState)" "$l when H has started"; done
}

each_scheduler case_exclusive_head
