#!/bin/bash
# With Slurm's main scheduler off (SchedulerParameters=sched_interval=-1, the documented
# alternative to coexistence), the plugin alone starts every job: batch jobs, an srun
# allocation and a 3-task array all run.
. "$(dirname "$0")/lib.sh"
need_plugin
tb_up --scheduler sched/easypp --nodes 2 --cpus 4 --params sched_interval=-1,easypp_interval=1
log=$TB_DIR/log/slurmctld.log

a=$(tb_submit 4 1 a "sleep 2")
b=$(tb_submit 2 1 b "sleep 1")
arr=$(sbatch --parsable -o /dev/null -n 1 -t 1 --array=1-3 --wrap "sleep 1")
out=$(timeout 30 srun -N2 -t 1 hostname | wc -l) || fail "srun -N2 failed"
assert_eq 2 "$out" "srun -N2 output lines"
wait_state "$a" COMPLETED 20
wait_state "$b" COMPLETED 20
for t in 1 2 3; do wait_state "${arr}_$t" COMPLETED 30; done
for j in "$a" "$b"; do
  grep -q "sched/easypp: started JobId=$j " "$log" || fail "JobId=$j was not started by the plugin"
done
n=$(grep -c "sched/easypp: started JobId=" "$log")
[ "$n" -ge 6 ] || fail "the plugin started only $n jobs (expected a, b, 3 array tasks, the srun)"
note "ok: the plugin started all $n jobs"
