#!/bin/bash
# The kill time stays the user's limit (paper 000, 3.1): history predicts ~10 s for this
# user, then a job of theirs runs 60 s under a 3 min limit. easy++ plans it as a 10 s job,
# corrects the prediction when it outlives it, and the job runs to COMPLETED with its
# limit untouched. A whole-node job waits behind it, so every pass plans the partition
# (and corrects the running job's prediction). Slurm's main scheduler is off
# (sched_interval=-1), as in t_plugin_fig5: otherwise it may start the job on submission
# before a pass has traced its prediction.
# While the whole-node job waits, the correction moves its planned start later with no
# job changing state: `squeue -i`, which asks only for what changed since its last answer
# (last_job_update), must still see the move.
. "$(dirname "$0")/lib.sh"
need_plugin
tb_up --scheduler sched/easypp --nodes 1 --cpus 8 --params sched_interval=-1,easypp_policy=easy++,easypp_debug=1,easypp_interval=1
log=$TB_DIR/log/slurmctld.log

tb_teach_history 3 10
x=$(tb_submit 1 3 long "sleep 60")
wait_state "$x" RUNNING 10
grep -Eq "waiting JobId=$x user=[0-9]+ cpus=1 estimate=180s prediction=1[01]s" "$log" \
  || fail "JobId=$x was not predicted ~10 s from history (see the trace in slurmctld.log)"
note "ok: JobId=$x planned with a ~10 s prediction, 180 s limit"
y=$(tb_submit 8 1 wide "sleep 1")
iterated=$TB_DIR/squeue-i.out
# Not -j: squeue asks for one job afresh every time, for all of them only what changed.
stdbuf -oL squeue -i 1 --start -h -o '%i %S' > "$iterated" 2>&1 &
iterating=$!
for _ in $(seq 60); do
  grep -Eq "running JobId=$x cpus=1 predicted_end=\+[0-9]+s kill=\+[0-9]+s corrections=[1-9]" "$log" && break
  sleep 0.5
done
sleep 4   # a few of squeue -i's answers after the correction
fresh=$(squeue_start "$y")
kill "$iterating"; wait "$iterating" 2>/dev/null || true
[ "$(job_field "$x" JobState)" = RUNNING ] || fail "JobId=$x ended before squeue -i could be checked"
shown=$(sed -n "s/^$y //p" "$iterated" | tail -n 1)
[ -n "$shown" ] || fail "squeue -i showed no start for JobId=$y: $(head -c 600 "$iterated")"
[ -n "$fresh" ] || fail "squeue --start shows no start for JobId=$y"
# A planned start may creep by up to the plugin's 60-s slack without squeue -i being told;
# the correction moves it by far more (without the stamp moved, ~170 s early).
off=$(( fresh - $(slurm_epoch "$shown") ))
[ "${off#-}" -lt 60 ] || fail "squeue -i last showed JobId=$y starting at $shown, ${off}s before what a fresh squeue --start shows ($(date -d "@$fresh" +%T))"
note "ok: squeue -i saw JobId=$y's start move with the correction (${off}s off, $(grep -c "^$y " "$iterated") answers)"
wait_state "$x" COMPLETED 90
assert_eq "00:03:00" "$(job_field "$x" TimeLimit)" "TimeLimit after the run"
run=$(( $(date -d "$(job_field "$x" EndTime)" +%s) - $(date -d "$(job_field "$x" StartTime)" +%s) ))
[ "$run" -ge 59 ] || fail "JobId=$x ran only ${run}s"
note "ok: JobId=$x ran ${run}s and COMPLETED"
grep -Eq "running JobId=$x cpus=1 predicted_end=\+[0-9]+s kill=\+[0-9]+s corrections=[1-9]" "$log" \
  || fail "no corrected prediction logged for JobId=$x"
note "ok: its prediction was corrected while it ran"
wait_state "$y" COMPLETED 20
