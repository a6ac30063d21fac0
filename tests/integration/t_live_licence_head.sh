#!/bin/bash
# A head waiting for licences keeps them (SchedulerParameters=bf_licenses, under which
# both schedulers plan licences over time and Slurm's main scheduler stops at such a
# job), under sched/backfill and sched/easypp. One node x 4 CPUs, Licenses=lic:2.
# R (1 CPU, lic:1, 2-min limit, really 20 s) runs; H (1 CPU, lic:2) waits for R's licence;
# L (1 CPU, lic:1, 60 min), submitted after H, fits now (3 CPUs and one licence free) but
# would hold its licence past R's end, leaving H one of the two it needs, so it must stay
# pending. Worked out by hand: H starts when R ends (within a few seconds), L is still
# pending then (H holds both licences), and while H waits squeue --start shows H's
# planned start, no later than R's limit.
# shellcheck source=tests/integration/lib.sh
. "$(dirname "$0")/lib.sh"

case_licence_head() {
  live_up --nodes 1 --cpus 4 --extra 'Licenses=lic:2'
  local r h l
  r=$(tb_submit 1 2 R 'sleep 20' -L lic:1)
  wait_state "$r" RUNNING 20
  h=$(tb_submit 1 10 H 'sleep 300' -L lic:2)
  l=$(tb_submit 1 60 L 'sleep 300' -L lic:1)
  # Stock plans the end of a running job holding licences rounded up to bf_resolution
  # (60 s; 24.11 backfill.c, _bf_reserve_running): its shown start may be that late.
  local slack=5
  [ "$LIVE_SCHED" != sched/backfill ] || slack=60
  HEAD_PLANNED_SLACK=$slack expect_head_kept "$r" 2 "$h" - "$l"
}

LIVE_EXTRA_PARAMS=bf_licenses
each_scheduler case_licence_head
