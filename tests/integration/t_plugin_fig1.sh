#!/bin/bash
# Paper 000, Fig. 1 (EASY): the first blocked job gets a reservation; a later job is
# backfilled only if it ends by that reservation (or fits the CPUs left over then).
# One 8-CPU node, policy easy (plans on time limits, 1 minute = one time unit):
#   J1  6 CPUs, 3 min limit, running           -> J3's reservation at J1's end (+3 min)
#   J3  8 CPUs                                   blocked, reserved
#   J5  2 CPUs, 4 min: would end after the reservation, no CPUs left over -> waits
#   J4  2 CPUs, 2 min: ends before the reservation                         -> backfilled
# squeue --start: J3 at its reservation, J5 forecast after it.
. "$(dirname "$0")/lib.sh"
need_plugin
tb_up --scheduler sched/easypp --nodes 1 --cpus 8 --params easypp_policy=easy \
  --extra DebugFlags=Backfill
log=$TB_DIR/log/slurmctld.log

j1=$(tb_submit 6 3 J1 "sleep 300")
wait_state "$j1" RUNNING 15
j3=$(tb_submit 8 5 J3 "sleep 10")
j5=$(tb_submit 2 4 J5 "sleep 300")
j4=$(tb_submit 2 2 J4 "sleep 300")
wait_state "$j4" RUNNING 10
sleep 2  # a few more passes: J5 must stay put
assert_eq PENDING "$(job_field "$j5" JobState)" "J5 (ends after the reservation)"
assert_eq PENDING "$(job_field "$j3" JobState)" "J3 (reserved)"
grep -q "sched/easypp: started JobId=$j4 in debug on n1 (easy, backfilled)" "$log" \
  || fail "J4 was not backfilled by the plugin"
j1_end=$(date -d "$(job_field "$j1" EndTime)" +%s)
j3_start=$(date -d "$(squeue --start -h -j "$j3" -o %S)" +%s)
[ $(( j3_start - j1_end )) -ge -1 ] && [ $(( j3_start - j1_end )) -le 1 ] \
  || fail "J3's reservation $(squeue --start -h -j "$j3" -o %S) is not J1's end $(job_field "$j1" EndTime)"
note "ok: J3 reserved at J1's end"
# J5 is neither started nor reserved: squeue --start shows its forecast, after J3's
# reservation (J3 holds all 8 CPUs for its 5-minute limit; easy plans on limits).
j5_start=$(date -d "$(squeue --start -h -j "$j5" -o %S)" +%s) \
  || fail "no start estimate for J5: $(squeue --start -h -j "$j5" -o %S)"
[ $(( j5_start - j3_start )) -ge 299 ] && [ $(( j5_start - j3_start )) -le 301 ] \
  || fail "J5's forecast $(squeue --start -h -j "$j5" -o %S) is not J3's reserved end ($(( j3_start + 300 )))"
note "ok: J5 forecast to start when J3's reservation ends"
# DebugFlags=Backfill traces what each pass saw and decided.
grep -q "sched/easypp: debug: plan starts JobId=$j4" "$log" || fail "no decision trace for J4"
grep -q "sched/easypp: debug: JobId=$j3 reserved at " "$log" || fail "no reservation trace for J3"
grep -q "sched/easypp: debug: JobId=$j5 forecast to start at " "$log" || fail "no forecast trace for J5"
grep -Eq "sched/easypp: debug: waiting JobId=$j5 user=[0-9]+ cpus=2 estimate=240s prediction=240s" "$log" \
  || fail "no trace of J5 as the policy saw it"
note "ok: decisions traced with DebugFlags=Backfill"
scancel "$j1" "$j3" "$j4" "$j5"
