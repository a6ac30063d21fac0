#!/bin/bash
# --time-min before an advance reservation, under sched/backfill and sched/easypp. One
# node x 4 CPUs; maintenance reservation M on n1 from 30 min from now, for an hour (its
# users may use it only by naming it). In queue order:
#   U  1 CPU, 60-min limit: would run into M, so it may not start on n1.
#   T  1 CPU, 60-min limit, --time-min=5: on its minimum it ends before M.
# Worked out by hand: T starts, U waits. Stock starts T with its minimum (5 min).
# sched/easypp tests T first with the whole minutes left before M begins (28..30: the
# plan's machine has M as a window on n1 from its start), so T runs up to M and not
# only 5 min; slurmdbd records the limit T runs with.
# shellcheck source=tests/integration/lib.sh
. "$(dirname "$0")/lib.sh"

case_time_min_reservation() {
  live_up --nodes 1 --cpus 4 --accounting
  tb_reservation M n1 now+30minutes 60 flags=maint
  local u t
  u=$(tb_submit 1 60 U 'sleep 300')
  assert_stays "$u" PENDING 4 "U's limit runs into M"
  t=$(tb_submit 1 60 T 'sleep 300' --time-min=5)
  wait_state "$t" RUNNING 20
  note "ok: T, on its 5-min minimum, started before M"
  expect_time_min_limit "$t" T 5 28 30 "the whole minutes before M begins"
  assert_eq PENDING "$(job_field "$u" JobState)" "U (60 min, no minimum)"
  scancel "$u" "$t"
}

each_scheduler case_time_min_reservation
