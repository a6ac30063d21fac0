#!/bin/bash
# A --contiguous head keeps its reservation on adjacent nodes, under sched/backfill and
# sched/easypp (sched_interval=-1: only the backfill scheduler starts jobs). Four nodes x
# 4 CPUs. B (1 CPU on n2, 60 min) and A (1 CPU on n4, 3-min limit, really 25 s) run. H
# (2 whole nodes, --contiguous) cannot have n1 and n3 (not adjacent); n[1-2] and n[2-3]
# wait for B, n[3-4] only for A, so H is reserved on n[3-4] at A's limit. L1..L4 (1 CPU,
# 60 min) fit now on n1, n2 or n3, and must leave n3 to H. Worked out by hand: H starts on
# n[3-4] when A ends; the L jobs run on n1 and n2 meanwhile (stock: whole-node reservation).
# (Before, the plan put H on n1 and n3, select_nodes refused that every pass, and an L job
# took n3 or n4: H waited for it. A review finding, reproduced live.)
# shellcheck source=tests/integration/lib.sh
. "$(dirname "$0")/lib.sh"
LIVE_EXTRA_PARAMS=sched_interval=-1

case_contiguous_head() {
  live_up --nodes 4 --cpus 4
  local a b h l later=()
  b=$(tb_submit 1 60 B 'sleep 300' -w n2)
  a=$(tb_submit 1 3 A 'sleep 25' -w n4)
  wait_state "$b" RUNNING 20
  wait_state "$a" RUNNING 20
  h=$(tb_submit 2 5 H 'sleep 300' -N 2 --exclusive --contiguous)
  for l in 1 2 3 4; do later+=("$(tb_submit 1 60 "L$l" 'sleep 300')"); done
  sleep 5  # passes place the L jobs
  for l in "${later[@]}"; do
    case "$(job_field "$l" JobState):$(job_field "$l" NodeList)" in
      RUNNING:n1|RUNNING:n2|PENDING:*) ;;
      *) fail "L job $l is $(job_field "$l" JobState) on $(job_field "$l" NodeList): H's nodes are n[3-4]" ;;
    esac
  done
  note "ok: the L jobs left n[3-4] to H"
  expect_head_kept "$a" 3 "$h" "n[3-4]"
  scancel "$b" "$h" "${later[@]}"
}

each_scheduler case_contiguous_head
