#!/bin/bash
# sched/easypp plans partitions that share nodes in one plan (issue 14, point 2). Two
# 8-CPU nodes; partition big = n1,n2, partition small = n2 only; policy easy:
#   X  8 CPUs on n1 (big), 10 min, running
#   H  16 CPUs in big: needs both nodes -> reserved at X's end on n1 and n2
#   L  8 CPUs in small, 20 min: n2 is idle, but L would hold it at X's end -> pending
#   S  8 CPUs in small, 2 min: ends before X's end -> backfilled on n2
# Worked out by hand. Planned partition by partition (the plugin before issue 14), small
# did not see H's reservation and started L.
. "$(dirname "$0")/lib.sh"
need_plugin
tb_up --scheduler sched/easypp --nodes 2 --cpus 8 --params easypp_policy=easy \
  --partitions 'big:n[1-2];small:n2'
log=$TB_DIR/log/slurmctld.log

x=$(tb_submit 8 10 X "sleep 300" -p big -w n1)
wait_state "$x" RUNNING 15
h=$(tb_submit 16 10 H "sleep 30" -p big)
l=$(tb_submit 8 20 L "sleep 300" -p small)
s=$(tb_submit 8 2 S "sleep 300" -p small)
wait_state "$s" RUNNING 15
sleep 3  # more passes: L must stay put
assert_eq PENDING "$(job_field "$l" JobState)" "L (small, 20 min) while H is reserved on n1,n2"
assert_eq PENDING "$(job_field "$h" JobState)" "H (16 CPUs)"
grep -q "sched/easypp: started JobId=$s in small on n2 (easy, backfilled)" "$log" \
  || fail "S was not backfilled on n2 by the plugin"
assert_eq "n[1-2]" "$(job_field "$h" SchedNodeList)" "H's planned nodes"
x_end=$(date -d "$(job_field "$x" EndTime)" +%s)
h_start_s=$(date -d "$(squeue --start -h -j "$h" -o %S)" +%s)
[ $(( h_start_s - x_end )) -ge -1 ] && [ $(( h_start_s - x_end )) -le 1 ] \
  || fail "H's start estimate is not X's end"
note "ok: H reserved at X's end on n[1-2]; L pending; S backfilled"
scancel "$x" "$h" "$l" "$s"
