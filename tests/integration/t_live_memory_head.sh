#!/bin/bash
# A memory-bound head keeps its reservation (issue 14, must-show 9), under sched/backfill
# and sched/easypp. One node, 64 CPUs, 1000 MB, CR_CPU_Memory. A (8 CPUs, 900 MB, 10-min
# limit, really 20 s) runs; H (32 CPUs, 950 MB) waits for A's memory; L (16 CPUs, 90 MB,
# 60 min), submitted after H, fits now in CPUs (56 free) and memory (100 MB free) but
# would leave H 910 < 950 MB at A's end, so it must stay pending. Worked out by hand: H
# starts when A ends (within a few seconds), L is still pending then (H leaves it 50 MB),
# and while H waits squeue --start shows H's planned start, no later than A's limit.
# shellcheck source=tests/integration/lib.sh
. "$(dirname "$0")/lib.sh"

case_memory_head() {
  live_up --nodes 1 --cpus 64 --mem 1000 --select CR_CPU_Memory
  local a h l
  a=$(tb_submit 8 10 A 'sleep 20' --mem=900)
  wait_state "$a" RUNNING 20
  h=$(tb_submit 32 10 H 'sleep 300' --mem=950)
  l=$(tb_submit 16 60 L 'sleep 300' --mem=90)
  expect_head_kept "$a" 10 "$h" - "$l"
}

each_scheduler case_memory_head
