#!/bin/bash
# Partitions that share no node each keep their head's reservation, under sched/backfill
# and sched/easypp: stock reserves for jobs of every partition, and sched/easypp plans each
# set of partitions that shares no node or licence as a machine of its own. Two nodes x 4
# CPUs, partitions a (n1) and b (n2). RA (a, 4 CPUs, 10 min) fills n1 and HA (a, 4 CPUs)
# waits for it: the first blocked job in priority order. RB (b, 2 CPUs, 2-min limit,
# really 20 s) runs on n2 and HB (b, 4 CPUs) waits for it; SB (b, 2 CPUs, 60 min), the
# lowest priority, fits now beside RB but would hold n2 past RB's limit. Worked out by
# hand: SB stays pending, HB starts on n2 when RB ends. Before, one plan for both
# partitions reserved only HA (EASY's single reservation) and started SB.
# shellcheck source=tests/integration/lib.sh
. "$(dirname "$0")/lib.sh"

case_disjoint_partitions() {
  live_up --nodes 2 --cpus 4 --partitions 'a:n1;b:n2'
  local ra rb ha hb sb
  ra=$(tb_submit 4 10 RA 'sleep 300' -p a)
  rb=$(tb_submit 2 2 RB 'sleep 20' -p b)
  wait_state "$ra" RUNNING 20
  wait_state "$rb" RUNNING 20
  ha=$(tb_submit 4 10 HA 'sleep 300' -p a)
  hb=$(tb_submit 4 10 HB 'sleep 300' -p b)
  sb=$(tb_submit 2 60 SB 'sleep 300' -p b)
  expect_head_kept "$rb" 2 "$hb" n2 "$sb"
  assert_eq PENDING "$(job_field "$ha" JobState)" "HA while RA runs"
}

each_scheduler case_disjoint_partitions
