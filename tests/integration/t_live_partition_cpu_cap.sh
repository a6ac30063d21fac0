#!/bin/bash
# A partition's MaxCPUsPerNode (a CPU partition capped on nodes it shares with a GPU
# partition, as sites keep cores for GPU jobs), under sched/backfill and sched/easypp,
# with Slurm's main scheduler off (sched_interval=-1) so that the backfill scheduler
# under test starts every job. Two nodes x 8 CPUs; partitions cpu (n[1-2],
# MaxCPUsPerNode=6, default) and gpu (n1).
#   R (cpu, -w n1, 6 CPUs, 2-min limit, really 20 s) and A (cpu, -w n2, 6 CPUs, 60 min) run:
#   each node has 2 idle CPUs, but cpu's jobs hold all 6 of its CPUs on both.
#   H (cpu, 2 CPUs) cannot start on either node's idle CPUs: planned on n1 at R's end.
#   G (gpu, 2 CPUs, 60 min) fits n1's 2 idle CPUs; at R's end n1 still has 6 for cpu's H.
# Worked out by hand: H waits and starts on n1 when R ends, under both. sched/easypp
# starts G at once (a plan that did not count the cap would start H on the idle CPUs,
# select_nodes would refuse it, and it would keep them for the pass, so G would wait);
# stock keeps all of n1 for H (its reservations are whole nodes), so G waits for H.
# shellcheck source=tests/integration/lib.sh
. "$(dirname "$0")/lib.sh"

case_partition_cpu_cap() {
  LIVE_EXTRA_PARAMS=sched_interval=-1 live_up --nodes 2 --cpus 8 \
    --partitions 'cpu:ALL:MaxCPUsPerNode=6;gpu:n1'
  local r a h g
  r=$(tb_submit 6 2 R 'sleep 20' -w n1)
  a=$(tb_submit 6 60 A 'sleep 300' -w n2)
  wait_state "$r" RUNNING 20
  wait_state "$a" RUNNING 20
  h=$(tb_submit 2 10 H 'sleep 300')
  g=$(tb_submit 2 60 G 'sleep 300' -p gpu)
  if [ "$LIVE_SCHED" = sched/backfill ]; then
    assert_stays "$g" PENDING 5 "stock reserves the whole of n1 for H"
    expect_head_kept "$r" 2 "$h" n1
  else
    wait_state "$g" RUNNING 15
    assert_eq n1 "$(job_field "$g" NodeList)" "G's node"
    expect_head_kept "$r" 2 "$h" n1
  fi
  scancel "$a" "$h" "$g"
}

each_scheduler case_partition_cpu_cap
