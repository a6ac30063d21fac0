#!/bin/bash
# PV-EASY live (paper 002 section 4; issue 18 points 1-2): a venture backfill, then a
# shadow-load preemption carried out by slurmctld's own requeue, on one node of 14 CPUs.
# The same case runs in the simulator (tests/preempt/live_cases_test.cpp,
# LiveCasePvEasy): times there are seconds from A's start.
#
# Worked out by hand (priority = submit order, priority/basic; predictions: the default
# Last Model, which has no history yet, so the user's estimate = the time limit):
#   A  ( 6 CPUs, sleeps 20 s, limit 3 min)  starts at 0.
#   H  (12 CPUs, sleeps  5 s, limit 1 min)  blocked (8 idle). Its reservation from the
#       sunny load only (A): A's predicted end, 0 + 180 s.
#   V1, V2 (2 CPUs, sleep 8 s, limit 1 min)  venture backfilling, first step: predicted
#       to end by 1 + 60 <= 180: both start at once (backfilled).
#   L  ( 2 CPUs, sleeps 40 s, limit 5 min)  predicted 1 + 300 > 180, but CPUs are idle:
#       the second step starts it "regardless of predictions".
#   N  ( 2 CPUs, sleeps 40 s, limit 5 min, --no-requeue)  the same: starts; 0 idle.
#   ~9 s: V1, V2 end: 4 idle + the shadow load that may be killed (L) = 6 < 12: no kill.
#   20 s: A ends: 10 idle. Shadow load preemption, lowest priority first: N is lowest but
#       may not be requeued, so L is killed (ran ~19 s: ~38 CPU-seconds lost) and H
#       starts as soon as L's CPUs are clean; H ends ~5 s later.
#   L restarts from the beginning once H has ended and Slurm's requeue delay has passed
#   (begin time = its kill's completion + AuthInfo=cred_expire (5 s here) + 1 s), and
#   runs 40 s to COMPLETED. N runs its 40 s untouched. Nothing else is ever killed.
# Cost: about 70 s (one testbed of one node).
# shellcheck source=tests/integration/lib.sh
. "$(dirname "$0")/lib.sh"
need_plugin
tb_up --scheduler sched/easypp --nodes 1 --cpus 14 \
  --params easypp_interval=1,easypp_debug=1,easypp_policy=pv-easy,easypp_requeue_partitions=debug \
  --extra AuthInfo=cred_expire=5
log=$TB_DIR/log/slurmctld.log

a=$(tb_submit 6 3 A 'sleep 20')
wait_state "$a" RUNNING 20
h=$(tb_submit 12 1 H 'sleep 5')
v1=$(tb_submit 2 1 V1 'sleep 8')
v2=$(tb_submit 2 1 V2 'sleep 8')
l=$(tb_submit 2 5 L 'sleep 40')
n=$(tb_submit 2 5 N 'sleep 40' --no-requeue)
for j in "$v1" "$v2" "$l" "$n"; do wait_state "$j" RUNNING 15; done
assert_eq PENDING "$(job_field "$h" JobState)" "H (12 CPUs) while A holds 6"
for j in "$v1" "$v2"; do
  grep -q "started JobId=$j in debug on .* (pv-easy, backfilled)" "$log" \
    || fail "JobId=$j was not venture-backfilled (slurmctld.log)"
done
note "ok: V1, V2 venture-backfilled, L and N started on the idle CPUs, H waits"

# Until A ends nothing is killed (V1, V2 end meanwhile: 4 idle + L's 2 < 12).
# A's state is read again after a change is seen: A may have ended between the two reads.
while job_running "$a"; do
  if [ "$(job_field "$l" Restarts)" != 0 ] && job_running "$a"; then fail "L was killed while A runs"; fi
  if [ "$(job_field "$h" JobState)" != PENDING ] && job_running "$a"; then
    fail "H left PENDING while A runs"
  fi
  sleep 0.5
done
a_end=$(slurm_epoch "$(job_field "$a" EndTime)")
wait_state "$h" RUNNING 20
h_start=$(job_start "$h")
note "A ended at +0, H started at +$(( h_start - a_end ))s"
[ $(( h_start - a_end )) -le 8 ] || fail "H started $(( h_start - a_end ))s after A ended"
assert_eq 1 "$(job_field "$l" Restarts)" "L's restarts (the victim)"
assert_eq 0 "$(job_field "$n" Restarts)" "N's restarts (--no-requeue: never a victim)"
assert_eq RUNNING "$(job_field "$n" JobState)" "N when H starts"
grep -q "killed and requeued JobId=$l (pv-easy)" "$log" || fail "no kill of L logged"

# The killed run, as Slurm recorded it: ~19 s of 2 CPUs lost.
killed_run "$l" 2
lost=$KILLED_LOST k_end=$KILLED_END
note "L's killed run: $(( k_end - KILLED_START ))s on 2 CPUs = $lost CPU-seconds lost (hand: 38)"
if [ "$lost" -lt 30 ] || [ "$lost" -gt 48 ]; then fail "lost work $lost CPU-seconds, expected ~38"; fi
[ $(( k_end - a_end )) -le 5 ] || fail "L was killed $(( k_end - a_end ))s after A ended"

# L restarts from the beginning after H; the requeue delay Slurm imposes is measured.
wait_state "$h" COMPLETED 30
h_end=$(slurm_epoch "$(job_field "$h" EndTime)")
wait_state "$l" RUNNING 60
l_restart=$(job_start "$l")
note "restart delay: L restarted $(( l_restart - k_end ))s after its kill, $(( l_restart - h_end ))s after H ended"
[ "$l_restart" -ge "$h_end" ] || fail "L restarted before H ended"
[ $(( l_restart - k_end )) -le 20 ] || fail "L restarted only $(( l_restart - k_end ))s after its kill"
echo "MEASURE t_live_pv_easy requeue_delay_s=$(( l_restart - k_end )) after_head_end_s=$(( l_restart - h_end )) lost_cpu_s=$lost"
wait_state "$n" COMPLETED 60
wait_state "$l" COMPLETED 60
for j in "$a" "$h" "$v1" "$v2" "$n"; do
  assert_eq 0 "$(job_field "$j" Restarts)" "restarts of $(job_field "$j" JobName)"
done
killed=$(grep -cE "JobState=(REQUEUED|PENDING) " "$TB_DIR/jobcomp.txt" || true)
[ "$killed" = 1 ] || fail "$killed runs were killed, expected 1 (L's)"
note "ok: one victim (L), restarted and COMPLETED; N (--no-requeue) never killed"
