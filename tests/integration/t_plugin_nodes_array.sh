#!/bin/bash
# sched/easypp starts many tasks of a job array in one pass (issue 14, point 4): each
# pending task is planned as a copy of the array's meta record. Slurm's main scheduler is
# off, so only the plugin starts jobs. 40 one-CPU tasks on 4 nodes x 16 CPUs all fit: they
# must all start in the plugin's first pass after the submit (one task per pass, as before
# issue 14, takes 40 passes).
. "$(dirname "$0")/lib.sh"
need_plugin
tb_up --scheduler sched/easypp --nodes 4 --cpus 16 \
  --params sched_interval=-1,easypp_interval=60,easypp_policy=easy
log=$TB_DIR/log/slurmctld.log

arr=$(sbatch --parsable -o /dev/null -n 1 -t 5 --array=0-39 --wrap "sleep 300")
for _ in $(seq 50); do
  running=$(squeue -h -t R -j "$arr" | wc -l)
  [ "$running" -eq 40 ] && break
  sleep 0.2
done
assert_eq 40 "$running" "array tasks running"
# All 40 starts were logged within the same second: one pass.
seconds=$(grep "sched/easypp: started JobId=" "$log" | cut -c2-20 | sort -u | wc -l)
[ "$seconds" -le 2 ] || fail "the 40 tasks started over $seconds different seconds"
note "ok: 40 array tasks started within $seconds second(s)"
scancel "$arr"
