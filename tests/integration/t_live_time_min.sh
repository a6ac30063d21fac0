#!/bin/bash
# --time-min under sched/backfill and sched/easypp. Both plan a job with a minimum time
# below its limit on that minimum, so it may backfill where its limit would not. Stock
# starts it with its minimum (22.05 backfill.c:2228 and :2696: the limit it sets is the
# minimum, and _reset_job_time_limit only lowers it); sched/easypp with as much of its
# limit as the plan's later reservations on its nodes allow (src/plugin/slurm_time_limit.h).
# One node x 4 CPUs. In queue order:
#   A  2 CPUs, 10-min limit: runs.
#   H  4 CPUs, 10-min limit: the head, waits for A (planned start: A's end, at most 10 min
#      from A's start; easypp predicts A on its limit, no history yet).
#   U  2 CPUs, 60-min limit: fits the 2 idle CPUs but would hold them past H's start.
#   T  2 CPUs, 60-min limit, --time-min=5: on its minimum it ends before H's start.
# Worked out by hand: T starts, U and H wait. T's limit: stock 5 min (its minimum);
# easypp the whole minutes left before H's planned start (9: A started a few seconds
# before T, and H is planned at A's predicted end, its 10-min limit). Either way the limit
# T runs with is the one slurmdbd recorded (sacct), as select_nodes was asked with it.
# shellcheck source=tests/integration/lib.sh
. "$(dirname "$0")/lib.sh"

case_time_min() {
  live_up --nodes 1 --cpus 4 --accounting
  local a h u t
  a=$(tb_submit 2 10 A 'sleep 300')
  wait_state "$a" RUNNING 20
  h=$(tb_submit 4 10 H 'sleep 300')
  u=$(tb_submit 2 60 U 'sleep 300')
  assert_stays "$u" PENDING 4 "U would hold 2 CPUs past H's planned start"
  t=$(tb_submit 2 60 T 'sleep 300' --time-min=5)
  wait_state "$t" RUNNING 20
  note "ok: T, on its 5-min minimum, backfilled ahead of U"
  expect_time_min_limit "$t" T 5 8 10 "the whole minutes before H's planned start"
  assert_eq PENDING "$(job_field "$h" JobState)" "H (the head)"
  assert_eq PENDING "$(job_field "$u" JobState)" "U (60 min, no minimum)"
  scancel "$a" "$h" "$u" "$t"
}

each_scheduler case_time_min
