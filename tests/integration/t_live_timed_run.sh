#!/bin/bash
# Timed-run live (paper 004 section 2.1, Fig. 2; issue 18 points 1-2): trial runs and
# lazy termination carried out by slurmctld's own requeue, on one node of 10 CPUs.
# The paper's instance: "a 100-processor machine with 90-second trial runs and a FCFS
# base scheduler", A(0 s, 80 procs, 300 s), B(100, 100, 40), C(110, 20, > 190 s). Here
# every size and time is divided by 10: easypp_policy=timed-run:base=fcfs:trial=9. The
# same case runs in the simulator (tests/preempt/live_cases_test.cpp, LiveCaseTimedRun).
#
# Worked out by hand (seconds from A's start; priority = submit order):
#   A ( 8 CPUs, sleeps 30 s)  starts at 0; at 9 nothing else waits: it runs on
#       (committed: FCFS would start it).
#   B (10 CPUs, sleeps  4 s, submitted at 10)  no trial (A holds 8): heads the queue.
#   C ( 2 CPUs, sleeps 25 s, submitted at 11)  trial at 11 on the 2 idle CPUs. Its trial
#       ends at 20 but B cannot start before A ends: C runs on ("jobs continue trial runs
#       until replaced").
#   N ( 2 CPUs, sleeps 10 s, submitted at 12, --no-requeue)  may not be killed, so no
#       trial: it waits behind B in FCFS order, and is never killed.
#   30: A ends. B's trial needs all 10 CPUs: C, terminable, is killed (ran 19 s: ~38
#       CPU-seconds lost) and B runs 30-34, ending within its trial.
#   34: N starts (FCFS; C is not yet eligible again). C restarts (committed: a job has
#       one trial) when Slurm's requeue delay allows: its kill's completion +
#       AuthInfo=cred_expire (5 s here) + 1 s, about 36 (the simulator, without that
#       delay, restarts it at 34), and runs its 25 s to COMPLETED.
# Cost: about 80 s (one testbed of one node).
# shellcheck source=tests/integration/lib.sh
. "$(dirname "$0")/lib.sh"
need_plugin
tb_up --scheduler sched/easypp --nodes 1 --cpus 10 \
  --params "easypp_interval=1,easypp_debug=1,easypp_policy=timed-run:base=fcfs:trial=9,easypp_requeue_partitions=debug" \
  --extra AuthInfo=cred_expire=5
log=$TB_DIR/log/slurmctld.log

a=$(tb_submit 8 2 A 'sleep 30')
wait_state "$a" RUNNING 20
t0=$(job_start "$a")
at() { local wait=$(( t0 + $1 - $(date +%s) )); [ "$wait" -le 0 ] || sleep "$wait"; }
at 10; b=$(tb_submit 10 1 B 'sleep 4')
at 11; c=$(tb_submit 2 2 C 'sleep 25')
at 12; n=$(tb_submit 2 1 N 'sleep 10' --no-requeue)
wait_state "$c" RUNNING 5
grep -q "started JobId=$c in debug on .* (timed-run" "$log" || fail "C's trial was not started by the plugin"
note "ok: C on its trial at +$(( $(job_start "$c") - t0 ))s"

# Until A ends: A runs past its trial, C past its trial (lazy termination), B and N wait.
# A's state is read again after a change is seen: A may have ended between the two reads.
while job_running "$a"; do
  if [ "$(job_field "$c" JobState)" != RUNNING ] && job_running "$a"; then
    fail "C left RUNNING at +$(( $(date +%s) - t0 ))s, before A ended"
  fi
  for j in "$b" "$n"; do
    if [ "$(job_field "$j" JobState)" != PENDING ] && job_running "$a"; then
      fail "$(job_field "$j" JobName) started while A runs"
    fi
  done
  sleep 0.5
done
a_end=$(slurm_epoch "$(job_field "$a" EndTime)")
note "ok: A (committed) and C (past its trial since +20s) ran until A ended at +$(( a_end - t0 ))s"
wait_state "$b" RUNNING 20
b_start=$(job_start "$b")
[ $(( b_start - a_end )) -le 8 ] || fail "B started $(( b_start - a_end ))s after A ended"
assert_eq 1 "$(job_field "$c" Restarts)" "C's restarts (lazy termination)"
assert_eq 0 "$(job_field "$a" Restarts)" "A's restarts"
assert_eq PENDING "$(job_field "$n" JobState)" "N (no trial: FCFS behind B)"
grep -q "killed and requeued JobId=$c (timed-run" "$log" || fail "no kill of C logged"

# C's killed run, as Slurm recorded it.
killed_run "$c" 2
lost=$KILLED_LOST k_start=$KILLED_START k_end=$KILLED_END
note "C's killed run: +$(( k_start - t0 ))s to +$(( k_end - t0 ))s on 2 CPUs = $lost CPU-seconds lost (hand: 38)"
if [ "$lost" -lt 30 ] || [ "$lost" -gt 48 ]; then fail "lost work $lost CPU-seconds, expected ~38"; fi

wait_state "$b" COMPLETED 20
b_end=$(slurm_epoch "$(job_field "$b" EndTime)")
wait_state "$n" RUNNING 15
n_start=$(job_start "$n")
[ "$n_start" -ge "$b_end" ] || fail "N started before B ended"
wait_state "$c" RUNNING 30
c_restart=$(job_start "$c")
note "B ran +$(( b_start - t0 ))s to +$(( b_end - t0 ))s; N started at +$(( n_start - t0 ))s; C restarted at +$(( c_restart - t0 ))s, $(( c_restart - k_end ))s after its kill"
[ "$c_restart" -ge "$b_end" ] || fail "C restarted before B ended"
[ $(( c_restart - k_end )) -le 20 ] || fail "C restarted only $(( c_restart - k_end ))s after its kill"
echo "MEASURE t_live_timed_run requeue_delay_s=$(( c_restart - k_end )) lost_cpu_s=$lost"
wait_state "$n" COMPLETED 30
wait_state "$c" COMPLETED 60
assert_eq 1 "$(job_field "$c" Restarts)" "C's restarts at the end (one trial, one commit)"
for j in "$a" "$b" "$n"; do
  assert_eq 0 "$(job_field "$j" Restarts)" "restarts of $(job_field "$j" JobName)"
done
killed=$(grep -cE "JobState=(REQUEUED|PENDING) " "$TB_DIR/jobcomp.txt" || true)
[ "$killed" = 1 ] || fail "$killed runs were killed, expected 1 (C's)"
note "ok: one victim (C), restarted once and COMPLETED; N (--no-requeue) had no trial and was never killed"
