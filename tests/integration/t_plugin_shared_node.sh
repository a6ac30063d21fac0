#!/bin/bash
# Resource-accurate planning on a shared node (the issue's point 4): one 64-CPU node,
# A = 48 CPUs running (5 min limit), B = 56 CPUs pending, C = 8 CPUs / 10 min pending.
# B's reservation is at A's end; then 64 - 56 = 8 CPUs are left over, so EASY lets C run
# now on those "extra processors". Stock sched/backfill keeps C pending
# (t_stock_shared_node.sh). Then an interactive srun of 8 CPUs for 1 minute fits the last
# free CPUs and ends before B's reservation: the plugin backfills it too and srun gets its
# allocation. Also: squeue --start shows B's planned start, sdiag counts backfilled jobs.
. "$(dirname "$0")/lib.sh"
need_plugin
tb_up --scheduler sched/easypp --nodes 1 --cpus 64 --params easypp_policy=easy
log=$TB_DIR/log/slurmctld.log

a=$(tb_submit 48 5 A "sleep 300")
wait_state "$a" RUNNING 15
b=$(tb_submit 56 10 B "sleep 30")
c=$(tb_submit 8 10 C "sleep 300")
wait_state "$c" RUNNING 10
assert_eq PENDING "$(job_field "$b" JobState)" "B (56 CPUs) while A runs"
grep -q "sched/easypp: started JobId=$c in debug on n1 (easy, backfilled)" "$log" \
  || fail "C was not started by the plugin as a backfilled job"

# B's start estimate: A's kill time (start + 5 min), shown by squeue --start.
a_end=$(date -d "$(job_field "$a" EndTime)" +%s)
b_start=$(squeue --start -h -j "$b" -o %S)
[ -n "$b_start" ] && [ "$b_start" != N/A ] || fail "squeue --start shows no start time for B ('$b_start')"
b_start_s=$(date -d "$b_start" +%s)
[ $(( b_start_s - a_end )) -ge -1 ] && [ $(( b_start_s - a_end )) -le 1 ] \
  || fail "B's start estimate $b_start is not A's end $(job_field "$a" EndTime)"
note "ok: squeue --start shows B at $b_start (A ends $(job_field "$a" EndTime))"

# An srun waiting for its allocation is answered by the plugin (srun_allocate).
srun_out=$(timeout 30 srun -n 8 -t 1 -J D sh -c 'echo $SLURM_JOB_ID' | head -n 1) \
  || fail "srun -n 8 -t 1 did not run (exit $?)"
grep -q "sched/easypp: started JobId=$srun_out in debug on n1 (easy, backfilled)" "$log" \
  || fail "srun job $srun_out was not started by the plugin as a backfilled job"
note "ok: srun job $srun_out backfilled and ran"
assert_eq PENDING "$(job_field "$b" JobState)" "B after the srun"

bf=$(sdiag | awk '/Total backfilled jobs \(since last slurm start\)/ {print $NF}')
[ "${bf:-0}" -ge 2 ] || fail "sdiag: Total backfilled jobs = '${bf:-}'"
note "ok: sdiag Total backfilled jobs = $bf"
scancel "$a" "$b" "$c"
