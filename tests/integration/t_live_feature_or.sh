#!/bin/bash
# A head asking one of two node features (--constraint="x|y") keeps its reservation, under
# sched/backfill and sched/easypp with Slurm's main scheduler off (sched_interval=-1).
# Each node needs one of the features (node_scheduler.c ORs their nodes). Three nodes x
# 4 CPUs: n1 has feature x, n2 has y, n3 neither. In queue order:
#   A  4 CPUs on n1, 20-min limit: runs.
#   B  2 CPUs on n2, 10-min limit: runs.
#   J  4 CPUs on one node, x|y, 10-min limit: n3 has neither feature, n1 is full, n2 has
#      2 CPUs idle: J's earliest start is n2 at B's end.
#   L  2 CPUs on n2 (-w n2), 60-min limit: fits n2's idle CPUs now, but would hold them at
#      B's end, delaying J.
#   M  4 CPUs, no constraint, 60-min limit: fits n3 now.
# Worked out by hand: L waits, M starts on n3; once B is cancelled J starts on n2. (Before,
# the plan left an OR to select_nodes: it planned J on n3, select_nodes refused, J was
# planned again without it, and L started on n2.)
# shellcheck source=tests/integration/lib.sh
. "$(dirname "$0")/lib.sh"
export LIVE_EXTRA_PARAMS=sched_interval=-1

case_feature_or() {
  live_up --nodes 3 --cpus 4
  scontrol update NodeName=n1 AvailableFeatures=x ActiveFeatures=x
  scontrol update NodeName=n2 AvailableFeatures=y ActiveFeatures=y
  local a b j l m
  a=$(tb_submit 4 20 A 'sleep 300' -w n1)
  b=$(tb_submit 2 10 B 'sleep 300' -w n2)
  wait_state "$a" RUNNING 20
  wait_state "$b" RUNNING 20
  j=$(tb_submit 4 10 J 'sleep 300' -N1 --constraint='x|y')
  l=$(tb_submit 2 60 L 'sleep 300' -w n2)
  m=$(tb_submit 4 60 M 'sleep 300')
  wait_state "$m" RUNNING 15
  assert_eq n3 "$(job_field "$m" NodeList)" "M's node"
  assert_stays "$l" PENDING 8 "J is reserved on n2 at B's end"
  assert_eq PENDING "$(job_field "$j" JobState)" "J"
  scancel "$b"
  wait_state "$j" RUNNING 20
  assert_eq n2 "$(job_field "$j" NodeList)" "J's node"
  assert_eq PENDING "$(job_field "$l" JobState)" "L once J started"
  note "ok: J started on n2 once B was cancelled; L still waits"
  scancel "$a" "$j" "$l" "$m"
}

each_scheduler case_feature_or
