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
  local a h l ls=()
  a=$(tb_submit 1 2 A 'sleep 20' -w n1)
  wait_state "$a" RUNNING 20
  h=$(tb_submit 2 5 H 'sleep 300' -N 2 --exclusive)
  for l in 1 2 3; do ls+=("$(tb_submit 1 60 "L$l" 'sleep 300')"); done
  expect_head_kept "$a" 2 "$h" "n[1-2]" "${ls[@]}"
}

each_scheduler case_exclusive_head
