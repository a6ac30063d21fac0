#!/bin/bash
# A job whose node constraints the plan does not model still starts, under sched/backfill
# and sched/easypp (both with sched_interval=-1, so only the backfill scheduler starts
# jobs). The plan places it on nodes select_nodes then refuses; the plugin lets
# select_nodes choose among those and the nodes no reservation holds, as stock backfill
# lets it choose among the nodes its reservations leave (before, it was refused on the
# same nodes every pass and never started). Worked out by hand:
# - MaxCPUsPerNode=2 on the partition, 2 nodes x 4 CPUs, J asks 4 tasks: only 2 CPUs of
#   each node may be used, so J runs on both nodes at once (the plan, which models the
#   cap since t_live_partition_cpu_cap, puts it there too; before, it put it on one).
# - 3 nodes x 4 CPUs, X (1 task) on n1, Y (3 tasks) on n2; J asks 4 tasks on 2 nodes, 2 per
#   node (--ntasks-per-node=2): n2 has 1 CPU left, so J runs on n1 and n3 at once (the
#   plan, which models --ntasks-per-node per node since, puts it there too; before, it
#   split it 3 + 1 over n1 and n2).
# shellcheck source=tests/integration/lib.sh
. "$(dirname "$0")/lib.sh"
LIVE_EXTRA_PARAMS=sched_interval=-1

case_partition_cpus_per_node() {
  live_up --nodes 2 --cpus 4 --partitions 'debug:ALL:MaxCPUsPerNode=2'
  local j
  j=$(tb_submit 4 10 J 'sleep 30')
  wait_state "$j" RUNNING 20
  assert_eq 2 "$(job_field "$j" NumNodes)" "J's nodes (2 CPUs of each)"
  scancel "$j"
}

case_tasks_per_node() {
  live_up --nodes 3 --cpus 4
  local x y j
  x=$(tb_submit 1 10 X 'sleep 120' -w n1)
  y=$(tb_submit 3 10 Y 'sleep 120' -w n2)
  wait_state "$x" RUNNING 20
  wait_state "$y" RUNNING 20
  j=$(tb_submit 4 10 J 'sleep 30' -N2 --ntasks-per-node=2)
  wait_state "$j" RUNNING 20
  assert_eq "n[1,3]" "$(job_field "$j" NodeList)" "J's nodes (2 tasks each, n2 has 1 CPU left)"
  scancel "$x" "$y" "$j"
}

each_scheduler case_partition_cpus_per_node
TEST_NAME=$TEST_NAME.tasks_per_node each_scheduler case_tasks_per_node
