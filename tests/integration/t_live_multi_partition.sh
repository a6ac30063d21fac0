#!/bin/bash
# A job queued in several partitions (-p a,b) runs in one of them, under sched/backfill
# and sched/easypp with Slurm's main scheduler off (sched_interval=-1), so every start
# is the scheduler's. Slurm queues a record per partition and starts the job in one
# (job_scheduler.c, backfill.c: each record with its own part_ptr); the plan must do the
# same: plan each partition alone and start the job where it planned it.
#
# First case, a partition that can never take the job. Two nodes x 4 CPUs, partitions
# small (n[1-2], MaxNodes=1) and big (n[1-2]). In queue order:
#   A  1 CPU on n1, big, 3-min limit, really 30 s: runs.
#   H  -N2 --exclusive, -p small,big, 5-min limit: never fits small (MaxNodes=1); waits
#      for A in big (the head).
#   L  1 CPU on n2, big, 10-min limit: fits n2 now but would hold it past A's limit, when
#      H needs the whole node.
# Worked out by hand: L waits; H starts in big on n[1-2] when A ends. (H stays queued in
# small,big, but Slurm leaves its record in small out of the queue, job_limits_check's
# PartitionNodeLimit, so the plan sees big only.) Not OverSubscribe=EXCLUSIVE for the
# refusing partition: Slurm's first try of a job in such a partition sets its whole_node
# for good (node_scheduler.c, _resolve_shared_status, 22.05 and 24.11), so the job then
# wants whole nodes in every partition, under both schedulers alike.
#
# Second case, a partition's CPU cap. Three nodes x 4 CPUs in two partitions: cap
# (n[1-3], MaxCPUsPerNode=2: its jobs hold at most 2 CPUs of a node, 6 in all) and all
# (n[1-3]). In queue order:
#   X  2 CPUs on n3, cap, 30-min limit: runs (n3's cap is full).
#   A  4 CPUs on n1, all, 3-min limit, really 30 s: runs.
#   B  4 CPUs on n2, all, 30-min limit: runs.
#   H  6 CPUs, -p cap,all, 5-min limit: in cap it fits only when X or B ends (2 CPUs of
#      n1 under the cap, none of n3's), in all at A's end (n1's 4 and n3's 2): the head.
#   L  2 CPUs on n3, all, 10-min limit: fits n3 now but would hold its CPUs past A's
#      limit, when H needs them.
# Worked out by hand: L waits; H starts in all on n1 and n3 when A ends. (Counted against
# both partitions' caps, H was planned at X's end: L, ending before, was backfilled.
# Started in the first partition listed that holds n1 and n3, cap, select_nodes would
# refuse H: 4 CPUs of n1 are over cap's 2.)
#
# Third case, a partition's MaxNodes as a cap on a job's nodes (select_nodes caps the
# nodes of a job that asks no more). Two nodes x 4 CPUs, partition one (n[1-2],
# MaxNodes=1). In queue order:
#   A  2 CPUs on n1, 3-min limit, really 30 s: runs.
#   B  2 CPUs on n2, 30-min limit: runs.
#   H  4 CPUs, 5-min limit: 2 + 2 are free now, but on two nodes; one node has 4 free
#      only at A's end (n1): the head.
#   L  2 CPUs on n1, 10-min limit: fits now but would hold n1 past A's limit.
# Worked out by hand: L waits; H starts on n1 when A ends. (Planned on two nodes, H
# would look startable now: the plan would start it where select_nodes refuses it, and
# squeue --start would show it no planned start.)
# shellcheck source=tests/integration/lib.sh
. "$(dirname "$0")/lib.sh"
export LIVE_EXTRA_PARAMS=sched_interval=-1

case_never_fits() {
  live_up --nodes 2 --cpus 4 --partitions 'small:n[1-2]:MaxNodes=1;big:n[1-2]'
  local a h l
  a=$(tb_submit 1 3 A 'sleep 30' -p big -w n1)
  wait_state "$a" RUNNING 20
  h=$(tb_submit 2 5 H 'sleep 300' -p small,big -N 2 --exclusive)
  l=$(tb_submit 1 10 L 'sleep 300' -p big -w n2)
  note "H queued in: $(job_field "$h" Partition)"
  expect_head_kept "$a" 3 "$h" "n[1-2]" "$l"
  assert_eq big "$(job_field "$h" Partition)" "H's partition"
  scancel "$h" "$l"
}

case_partition_cap() {
  live_up --nodes 3 --cpus 4 --partitions 'cap:n[1-3]:MaxCPUsPerNode=2;all:n[1-3]'
  local x a b h l
  x=$(tb_submit 2 30 X 'sleep 300' -p cap -N 1 -w n3)
  a=$(tb_submit 4 3 A 'sleep 30' -p all -N 1 -w n1)
  b=$(tb_submit 4 30 B 'sleep 300' -p all -N 1 -w n2)
  wait_state "$x" RUNNING 20
  wait_state "$a" RUNNING 20
  wait_state "$b" RUNNING 20
  h=$(tb_submit 6 5 H 'sleep 300' -p cap,all)
  l=$(tb_submit 2 10 L 'sleep 300' -p all -N 1 -w n3)
  expect_head_kept "$a" 3 "$h" "n[1,3]" "$l"
  assert_eq all "$(job_field "$h" Partition)" "H's partition"
  scancel "$x" "$b" "$h" "$l"
}

case_node_cap() {
  live_up --nodes 2 --cpus 4 --partitions 'one:n[1-2]:MaxNodes=1'
  local a b h l
  a=$(tb_submit 2 3 A 'sleep 30' -p one -w n1)
  b=$(tb_submit 2 30 B 'sleep 300' -p one -w n2)
  wait_state "$a" RUNNING 20
  wait_state "$b" RUNNING 20
  h=$(tb_submit 4 5 H 'sleep 300' -p one)
  l=$(tb_submit 2 10 L 'sleep 300' -p one -w n1)
  expect_head_kept "$a" 3 "$h" n1 "$l"
  scancel "$b" "$h" "$l"
}

each_scheduler case_never_fits
TEST_NAME=$TEST_NAME.partition_cap each_scheduler case_partition_cap
TEST_NAME=$TEST_NAME.node_cap each_scheduler case_node_cap
