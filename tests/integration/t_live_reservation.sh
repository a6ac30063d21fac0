#!/bin/bash
# An advance reservation on 2 of 4 nodes is a window the plan keeps off (issue 14,
# must-show 9), under sched/backfill and sched/easypp. Four nodes x 4 CPUs; reservation R
# on n[3-4] for 30 min from now (users=root). A (1 CPU on n1, 2-min limit, really 20 s)
# runs; H (2 nodes, --exclusive, no reservation) waits: n[3-4] are idle but R's, so H's
# only nodes are n[1-2] after A. L (1 CPU, 60 min, no reservation), submitted after H,
# fits now on n1 or n2 but would delay H; J (2 nodes, --reservation=R) runs in R.
# Worked out by hand: J starts at once on n[3-4]; L stays pending; H starts on n[1-2]
# when A ends; squeue --start shows H's planned start meanwhile, no later than A's limit.
# shellcheck source=tests/integration/lib.sh
. "$(dirname "$0")/lib.sh"

case_reservation() {
  live_up --nodes 4 --cpus 4
  tb_reservation R 'n[3-4]' now 30
  local a h l j
  a=$(tb_submit 1 2 A 'sleep 20' -w n1)
  wait_state "$a" RUNNING 20
  h=$(tb_submit 2 5 H 'sleep 300' -N 2 --exclusive)
  l=$(tb_submit 1 60 L 'sleep 300')
  j=$(tb_submit 2 5 J 'sleep 300' -N 2 --reservation=R)
  wait_state "$j" RUNNING 15
  assert_eq "n[3-4]" "$(job_field "$j" NodeList)" "nodes of J (--reservation=R)"
  expect_head_kept "$a" 2 "$h" "n[1-2]" "$l"
}

each_scheduler case_reservation
