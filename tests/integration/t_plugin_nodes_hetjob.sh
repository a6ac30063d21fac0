#!/bin/bash
# sched/easypp starts heterogeneous jobs (issue 14, point 4). slurmctld (22.05, 24.11) refuses to
# accept a het job unless SchedulerType=sched/backfill (proc_req.c, _sched_backfill), and
# its main scheduler never starts one; but a cluster switching from sched/backfill to
# sched/easypp keeps the het jobs it had. This test submits two held het jobs under
# sched/backfill, restarts slurmctld with sched/easypp (main scheduler off) and releases
# them; two 4-CPU nodes, n1 busy with a 4-CPU job:
#   ok   = 1 task : 3 tasks   fits on n2 now: both components started by the plugin
#   half = 1 task : 4 tasks   its 4-task component needs a whole node: n2 would take
#          component 0 and leave 3 CPUs, so the plugin starts neither (never half a job)
#          until n1 is free; then both run.
. "$(dirname "$0")/lib.sh"
need_plugin
tb_up --scheduler sched/easypp --nodes 2 --cpus 4 \
  --params sched_interval=-1,easypp_interval=1,easypp_policy=easy --extra DebugFlags=Backfill
conf=$TB_DIR/slurm.conf
log=$TB_DIR/log/slurmctld.log

big=$(tb_submit 4 5 big "sleep 300" -w n1)
wait_state "$big" RUNNING 15
sed -i 's|^SchedulerType=.*|SchedulerType=sched/backfill|' "$conf"
tb_restart_ctld
ok=$(sbatch --parsable --hold -o /dev/null -t 1 -n 1 : -n 3 --wrap "sleep 2") \
  || fail "sbatch of a het job under sched/backfill failed"
half=$(sbatch --parsable --hold -o /dev/null -t 1 -n 1 : -N 1 -n 4 --wrap "sleep 2") \
  || fail "sbatch of the second het job failed"
sed -i 's|^SchedulerType=.*|SchedulerType=sched/easypp|' "$conf"
tb_restart_ctld
scontrol release "$ok" "$half" || fail "scontrol release failed"

wait_state "${ok}+0" COMPLETED 30
assert_eq COMPLETED "$(job_field "${ok}+1" JobState)" "het job ok, component 1"
for c in 0 1; do
  id=$(job_field "${ok}+$c" JobId)
  grep -q "sched/easypp: started JobId=$id " "$log" \
    || fail "het job ok, component $c (JobId=$id), not started by the plugin"
done
note "ok: het job $ok ran, both components started by the plugin"

assert_eq PENDING "$(job_field "${half}+0" JobState)" "het job half, component 0, while n1 is busy"
assert_eq PENDING "$(job_field "${half}+1" JobState)" "het job half, component 1, while n1 is busy"
scancel "$big"
wait_state "${half}+0" COMPLETED 30
assert_eq COMPLETED "$(job_field "${half}+1" JobState)" "het job half, component 1"
note "ok: het job $half waited whole and ran when n1 was free"
