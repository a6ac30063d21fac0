#!/bin/bash
# sched/easypp loads into slurmctld 22.05 and runs jobs: batch, srun allocations, job
# arrays, dependencies and holds keep working (the plugin starts jobs only through
# select_nodes on build_job_queue's eligible jobs); sdiag counts its passes.
. "$(dirname "$0")/lib.sh"
need_plugin
tb_up --scheduler sched/easypp --nodes 2 --cpus 4
log=$TB_DIR/log/slurmctld.log

grep -q "sched/easypp: EASY++ prediction-based backfill scheduler loaded" "$log" \
  || fail "no 'loaded' line in slurmctld.log"
note "ok: plugin loaded"

j=$(tb_submit 1 1 basic "sleep 1")
wait_state "$j" COMPLETED 20

out=$(srun -N2 -t 1 hostname | sort | uniq -c | awk '{print $1}' | tr '\n' ' ')
assert_eq "2 " "$out" "srun -N2 hostname line count"

arr=$(sbatch --parsable -o /dev/null -n 1 -t 1 --array=1-3 --wrap "sleep 1")
for t in 1 2 3; do wait_state "${arr}_$t" COMPLETED 30; done

first=$(tb_submit 1 1 first "sleep 3")
dep=$(tb_submit 1 1 dep "sleep 1" --dependency=afterok:"$first")
held=$(tb_submit 1 1 held "sleep 1" --hold)
sleep 1
assert_eq PENDING "$(job_field "$dep" JobState)" "dependent job while its parent runs"
wait_state "$dep" COMPLETED 30
[ "$(job_field "$dep" StartTime)" \> "$(job_field "$first" EndTime)" ] \
  || [ "$(job_field "$dep" StartTime)" = "$(job_field "$first" EndTime)" ] \
  || fail "dependent job started $(job_field "$dep" StartTime) before its parent ended $(job_field "$first" EndTime)"
assert_eq PENDING "$(job_field "$held" JobState)" "held job"
scontrol release "$held"
wait_state "$held" COMPLETED 30

cycles=$(bf_cycles)
[ "${cycles:-0}" -gt 0 ] || fail "sdiag shows no backfill cycles (got '${cycles:-}')"
note "ok: sdiag Total cycles = $cycles"
grep -q "sched/easypp: started JobId=" "$log" || fail "the plugin started no job itself"
