#!/bin/bash
# sched/easypp plans memory on nodes (issue 14, the core issue's key case). One node of
# 64 CPUs and 1000 MB, SelectTypeParameters=CR_CPU_Memory, policy easy (plans on limits):
#   A  8 CPUs, 900 MB, 10 min, running
#   H  32 CPUs, 950 MB: only 100 MB free -> reserved at A's end, on n1
#   L  16 CPUs, 90 MB, 20 min: fits now, but at A's end H leaves 50 MB < 90 -> pending
#   S  16 CPUs, 90 MB, 2 min: ends before A's end -> backfilled
# Worked out by hand. Counting CPUs only (the plugin before issue 14) started L.
# squeue --start shows H's start (A's end) and scontrol its planned nodes (SchedNodeList);
# H waits for Resources, L for Priority.
. "$(dirname "$0")/lib.sh"
need_plugin
tb_up --scheduler sched/easypp --nodes 1 --cpus 64 --params easypp_policy=easy \
  --extra SelectTypeParameters=CR_CPU_Memory --extra DebugFlags=Backfill
log=$TB_DIR/log/slurmctld.log

a=$(tb_submit 8 10 A "sleep 300" --mem=900)
wait_state "$a" RUNNING 15
h=$(tb_submit 32 10 H "sleep 30" --mem=950)
l=$(tb_submit 16 20 L "sleep 300" --mem=90)
s=$(tb_submit 16 2 S "sleep 300" --mem=90)
wait_state "$s" RUNNING 15
sleep 3  # more passes: L must stay put
assert_eq PENDING "$(job_field "$l" JobState)" "L (16 CPUs, 90 MB, 20 min) while H waits for memory"
assert_eq PENDING "$(job_field "$h" JobState)" "H (950 MB) while A holds 900 MB"
grep -q "sched/easypp: started JobId=$s in debug on n1 (easy, backfilled)" "$log" \
  || fail "S was not backfilled by the plugin"
a_end=$(date -d "$(job_field "$a" EndTime)" +%s)
h_start=$(squeue --start -h -j "$h" -o %S)
[ -n "$h_start" ] && [ "$h_start" != N/A ] || fail "squeue --start shows no start for H ('$h_start')"
h_start_s=$(date -d "$h_start" +%s)
[ $(( h_start_s - a_end )) -ge -1 ] && [ $(( h_start_s - a_end )) -le 1 ] \
  || fail "H's start estimate $h_start is not A's end $(job_field "$a" EndTime)"
note "ok: squeue --start shows H at $h_start (A ends $(job_field "$a" EndTime))"
assert_eq n1 "$(job_field "$h" SchedNodeList)" "H's planned nodes (SchedNodeList)"
assert_eq n1 "$(squeue --start -h -j "$h" -o %Y)" "squeue --start SCHEDNODES of H"
assert_eq Resources "$(job_field "$h" Reason)" "H's reason"
assert_eq Priority "$(job_field "$l" Reason)" "L's reason"
scancel "$a" "$h" "$l" "$s"
