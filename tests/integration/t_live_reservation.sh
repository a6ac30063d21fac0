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
  local a h l j planned a_end h_start
  a=$(tb_submit 1 2 A 'sleep 20' -w n1)
  wait_state "$a" RUNNING 20
  h=$(tb_submit 2 5 H 'sleep 300' -N 2 --exclusive)
  l=$(tb_submit 1 60 L 'sleep 300')
  j=$(tb_submit 2 5 J 'sleep 300' -N 2 --reservation=R)
  wait_state "$j" RUNNING 15
  assert_eq "n[3-4]" "$(job_field "$j" NodeList)" "nodes of J (--reservation=R)"
  planned=
  while [ "$(job_field "$a" JobState)" = RUNNING ]; do
    [ "$(job_field "$l" JobState)" = PENDING ] || fail "L (1 CPU, 60 min) started on $(job_field "$l" NodeList) while H waits for n[1-2]"
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
  assert_eq PENDING "$(job_field "$l" JobState)" "L when H has started"
}

each_scheduler case_reservation
