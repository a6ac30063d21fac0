#!/bin/bash
# A head waiting for nodes keeps the licences it needs, with Slurm's default parameters
# (no bf_licenses), under sched/backfill and sched/easypp. Two nodes x 4 CPUs,
# Licenses=lic:2. R (-w n1, 4 CPUs, 2-min limit, really 20 s) and X (-w n2, 2 CPUs, 60
# min) run; H (4 CPUs, lic:2) waits for a whole node, n1 at R's end, its licences free
# now (Slurm's main scheduler then stops at H: a job that names its nodes would not
# stop it); L (1 CPU, lic:1, 60 min), submitted after H, fits now on n2 beside X with
# one of the free licences, but would hold it when R ends, leaving H one of the two it
# needs. Worked out by hand: L must stay pending, H starts on n1 when R ends. sched/easypp plans licences whatever the parameters, so it keeps
# H's; stock backfill plans them only under bf_licenses, so it starts L (listed in
# LIVE_EXPECTED_FAILURES; t_live_licence_head has both schedulers keep a licence head).
# shellcheck source=tests/integration/lib.sh
. "$(dirname "$0")/lib.sh"

case_licence_nodes() {
  live_up --nodes 2 --cpus 4 --extra 'Licenses=lic:2'
  local r x h l
  r=$(tb_submit 4 2 R 'sleep 20' -w n1)
  x=$(tb_submit 2 60 X 'sleep 300' -w n2)
  wait_state "$r" RUNNING 20
  wait_state "$x" RUNNING 20
  h=$(tb_submit 4 10 H 'sleep 300' -L lic:2)
  l=$(tb_submit 1 60 L 'sleep 300' -L lic:1)
  expect_head_kept "$r" 2 "$h" n1 "$l"
  scancel "$x" "$h" "$l"
}

each_scheduler case_licence_nodes
