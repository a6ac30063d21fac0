#!/bin/bash
# Paper 000 Fig. 5, live: an underprediction would pin the first blocked job's reservation
# at "now" and stop backfilling; correcting the prediction re-enables it.
# One 4-CPU node, easy++. History teaches ~2 s for this user (limits 10 min). J1 (3 CPUs,
# 10 min limit) then runs 40 s: predicted ~2 s, it outlives that and is corrected to its
# estimate. J2 (4 CPUs) is blocked behind it. J3 (1 CPU, 1 min limit) arrives once J1 is
# past its prediction. Uncorrected, J1 would count as ending now, J2's shadow time would be
# now with no extra CPUs, and J3 could not backfill (Fig. 5, middle). Corrected, J2's
# reservation moves to J1's kill time and J3 backfills at once (Fig. 5, right).
# Slurm's main scheduler is off (sched_interval=-1): with it on, it may start J1 on
# submission before any pass sees J1 waiting, and the pass's trace of J1's prediction
# (checked below) is then never written (a 24.11 CI run failed so).
. "$(dirname "$0")/lib.sh"
need_plugin
tb_up --scheduler sched/easypp --nodes 1 --cpus 4 --params sched_interval=-1,easypp_policy=easy++,easypp_debug=1,easypp_interval=1
log=$TB_DIR/log/slurmctld.log

tb_teach_history 10 2

j1=$(tb_submit 3 10 j1 "sleep 40")
wait_state "$j1" RUNNING 10
j2=$(tb_submit 4 10 j2 "sleep 1")
grep -Eq "waiting JobId=$j1 user=[0-9]+ cpus=3 estimate=600s prediction=[1-4]s" "$log" \
  || fail "JobId=$j1 was not predicted ~2 s from history (see the trace in slurmctld.log)"
note "ok: JobId=$j1 planned with a ~2 s prediction under a 10 min limit"

# Let J1 outlive its prediction and the plugin correct it.
for _ in $(seq 50); do
  grep -Eq "running JobId=$j1 cpus=3 predicted_end=\+[0-9]+s kill=\+[0-9]+s corrections=[1-9]" "$log" && break
  sleep 0.2
done
grep -Eq "running JobId=$j1 cpus=3 predicted_end=\+[0-9]+s kill=\+[0-9]+s corrections=[1-9]" "$log" \
  || fail "JobId=$j1's prediction was not corrected after it outlived it"
note "ok: JobId=$j1's prediction corrected while it runs"

j3=$(tb_submit 1 1 j3 "sleep 3")
wait_state "$j3" RUNNING 10
assert_eq RUNNING "$(job_field "$j1" JobState)" "J1 still running when J3 starts"
assert_eq PENDING "$(job_field "$j2" JobState)" "J2 still blocked when J3 starts"
grep -Eq "started JobId=$j3 .*backfilled" "$log" || fail "JobId=$j3 was not started as a backfill"
note "ok: JobId=$j3 backfilled while J2 waits behind the underpredicted J1"

# J2's start estimate is J1's kill time (its corrected prediction), not "now".
j1_start=$(date -d "$(job_field "$j1" StartTime)" +%s)
j2_est=$(squeue -h -j "$j2" --start -o %S)
j2_start=$(date -d "$j2_est" +%s) || fail "no start estimate for J2: '$j2_est'"
[ "$j2_start" -ge $(( j1_start + 540 )) ] \
  || fail "J2's reservation $j2_est is not at J1's kill time (J1 started $(job_field "$j1" StartTime))"
note "ok: J2's reservation $j2_est follows J1's corrected prediction"
scancel "$j1" "$j2" "$j3"
