#!/bin/bash
# Jobs with a choice of reservations, under sched/backfill and sched/easypp (both with
# sched_interval=-1, so only the backfill scheduler starts jobs): a job that
# names two (--reservation=R1,R2) runs in either, and a MAGNETIC reservation draws jobs
# that named none. Slurm queues a record per reservation; before, sched/easypp planned the
# names "R1,R2" as one (no node had it: the job never started) and kept every job that
# named none off a magnetic reservation's nodes.
# Four nodes x 4 CPUs; R1 on n1, R2 on n2, G on n[3-4] (MAGNETIC), all users=root, 30 min.
# X (4 CPUs, --reservation=R1) fills n1. M (4 CPUs on one node, --reservation=R1,R2)
# fits only in R2: worked out by hand, it starts at once on n2. P (4 CPUs on one node, no
# reservation) has no node outside every reservation: it starts at once in G (n3 or n4),
# and Slurm shows it in reservation G. W (8 CPUs on two nodes, no reservation) can only run
# inside G either, where P holds one node: it waits.
# shellcheck source=tests/integration/lib.sh
. "$(dirname "$0")/lib.sh"
LIVE_EXTRA_PARAMS=sched_interval=-1

case_reservation_choices() {
  live_up --nodes 4 --cpus 4
  tb_reservation R1 n1 now 30
  tb_reservation R2 n2 now 30
  tb_reservation G 'n[3-4]' now 30 flags=magnetic
  local x m p w
  x=$(tb_submit 4 5 X 'sleep 300' -N 1 --reservation=R1)
  wait_state "$x" RUNNING 15
  m=$(tb_submit 4 5 M 'sleep 300' -N 1 --reservation=R1,R2)
  wait_state "$m" RUNNING 15
  assert_eq "n2" "$(job_field "$m" NodeList)" "nodes of M (--reservation=R1,R2, R1 full)"
  p=$(tb_submit 4 5 P 'sleep 300' -N 1)
  wait_state "$p" RUNNING 15
  case "$(job_field "$p" NodeList)" in
    n3|n4) ;;
    *) fail "P ran on $(job_field "$p" NodeList), not in magnetic G (n[3-4])" ;;
  esac
  assert_eq "G" "$(job_field "$p" Reservation)" "reservation of P (drawn by magnetic G)"
  w=$(tb_submit 8 5 W 'sleep 300' -N 2)
  assert_stays "$w" PENDING 8 "W would need n[3-4], P holds one"
}

each_scheduler case_reservation_choices
