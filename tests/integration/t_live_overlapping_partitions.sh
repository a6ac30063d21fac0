#!/bin/bash
# Two overlapping partitions: a head's reservation in one holds against jobs of the other
# (issue 14, must-show 9), under sched/backfill and sched/easypp. Four nodes x 4 CPUs,
# partitions all (n[1-4], default) and half (n[3-4]). A (1 CPU on n3, partition half,
# 2-min limit, really 20 s) runs; H (partition half, 2 nodes, --exclusive) waits for n3;
# then L1..L3 (partition all, one whole node each, 60 min) arrive. Worked out by hand: L1
# and L2 start at once on n1 and n2 (the partition is not idled: those nodes are no one's
# reservation); L3 could take n4 now but would hold it past A's limit, so it must wait;
# H starts on n[3-4] when A ends; squeue --start shows H's planned start meanwhile.
# shellcheck source=tests/integration/lib.sh
. "$(dirname "$0")/lib.sh"

case_overlapping_partitions() {
  live_up --nodes 4 --cpus 4 --partitions 'all:n[1-4];half:n[3-4]'
  local a h l1 l2 l3
  a=$(tb_submit 1 2 A 'sleep 20' -p half -w n3)
  wait_state "$a" RUNNING 20
  h=$(tb_submit 2 5 H 'sleep 300' -p half -N 2 --exclusive)
  l1=$(tb_submit 4 60 L1 'sleep 300' -p all -N 1)
  l2=$(tb_submit 4 60 L2 'sleep 300' -p all -N 1)
  l3=$(tb_submit 4 60 L3 'sleep 300' -p all -N 1)
  wait_state "$l1" RUNNING 15
  wait_state "$l2" RUNNING 15
  assert_eq "n1 n2" "$(printf '%s\n' "$(job_field "$l1" NodeList)" "$(job_field "$l2" NodeList)" | sort | tr '\n' ' ' | sed 's/ $//')" "nodes of L1 and L2"
  expect_head_kept "$a" 2 "$h" "n[3-4]" "$l3"
}

each_scheduler case_overlapping_partitions
