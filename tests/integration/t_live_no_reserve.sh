#!/bin/bash
# Slurm's QOS flag NoReserve (a standby QOS) under sched/backfill and sched/easypp (Slurm's
# main scheduler off: sched_interval=-1). Stock backfill tries a job of such a QOS and
# starts it if it fits now, but reserves nothing for it, so the jobs behind it are planned
# as if it were not there. One node x 8 CPUs, accounting with
# AccountingStorageEnforce=limits,qos; QOS standby has Flags=NoReserve. In queue order:
#   R  6 CPUs, QOS normal, 10-min limit: runs; 2 CPUs idle.
#   H  8 CPUs, QOS standby, 10-min limit: does not fit until R ends.
#   L  2 CPUs, QOS normal, 60-min limit: fits the 2 idle CPUs now, but runs past R's end.
# Worked out by hand: H gets no reservation, so L, which would delay a reservation for H
# at R's end, starts; H waits. (With H in QOS normal, H would be reserved at R's end and L
# would wait: t_live_memory_head and the others show that side.) Second case, the same
# with H in QOS normal: L waits, H is reserved.
# shellcheck source=tests/integration/lib.sh
. "$(dirname "$0")/lib.sh"

# H_QOS: the head's QOS; L_RUNS: whether L must start.
case_no_reserve() {
  LIVE_EXTRA_PARAMS=sched_interval=-1 live_up --nodes 1 --cpus 8 --accounting --enforce limits,qos
  tb_qos_add standby Flags=NoReserve
  tb_user_add nobody first qos=normal,standby
  local r h l i
  r=$(tb_submit_as nobody 6 10 R 'sleep 300' -q normal)
  wait_state "$r" RUNNING 20
  h=$(tb_submit_as nobody 8 10 H 'sleep 300' -q "$H_QOS")
  l=$(tb_submit_as nobody 2 60 L 'sleep 300' -q normal)
  if [ "$L_RUNS" = yes ]; then
    wait_state "$l" RUNNING 20
    note "ok: L started: nothing is reserved for H (QOS $H_QOS, NoReserve)"
    assert_eq PENDING "$(job_field "$h" JobState)" "H (8 CPUs, R holds 6)"
  else
    # Long enough for several passes of either scheduler (bf_interval and
    # easypp_interval are a few seconds on the testbed).
    for i in 1 2 3 4 5 6 7 8; do
      sleep 2
      assert_eq PENDING "$(job_field "$l" JobState)" "L (would delay H's reservation), check $i"
      assert_eq PENDING "$(job_field "$h" JobState)" "H, check $i"
    done
    note "ok: L waits behind H's reservation (QOS $H_QOS)"
  fi
  scancel "$r" "$h" "$l"
}

H_QOS=standby L_RUNS=yes each_scheduler case_no_reserve
TEST_NAME=$TEST_NAME.reserved H_QOS=normal L_RUNS=no each_scheduler case_no_reserve
