#!/bin/bash
# A reservation depth of 2 keeps the SECOND blocked job's reservation live, under
# sched/backfill (which reserves every pending job it tests) and sched/easypp with
# easypp_policy=easy++-safe,easypp_reservation_depth=2; the same mix under easy++-safe at
# depth 1, and under easy++:depth=2 (backfills on predictions), does not keep it.
# Two nodes x 2 CPUs. The user's history (two 2-s jobs) predicts ~2 s for their jobs. At
# t0: A1 (2 CPUs on n1) and A2 (1 CPU on n2), 3-min limits, really 25 s; one CPU of n2 is
# idle. Then, in queue order:
#   H1  2 CPUs, -w n1, 5-min limit: waits for A1; the head, reserved on n1 at t0+180 (A1's
#       limit; the plugin's prediction of A1 once A1 outlives ~2 s and is corrected).
#   H2  2 CPUs, -w n2, 5-min limit: waits for A2; the second blocked job, reserved on n2 at
#       t0+180 (A2's limit) when two jobs get a reservation.
#   J   1 CPU, 10-min limit, predicted ~2 s (really 300 s): fits now only on n2's idle CPU;
#       on its limit it would hold it until ~t0+600, past H2's reservation, and it never
#       touches n1, H1's node.
#   K   1 CPU, 1-min limit, really 5 s: fits now on n2, and its limit (~t0+62) ends before
#       both reservations.
# Why 3 minutes against K's 1: stock backfill floors a reservation's start to its
# bf_resolution (60 s by default; _set_slot_time in backfill.c, 22.05 and 24.11), so H2's
# reservation may begin up to 59 s before A2's limit. With 2-min limits K overlapped it
# whenever A2 started in a minute's last few seconds, and stock kept K pending (the CI
# failure of 55f3f15, reproduced by starting A2 at second 57).
# Worked out by hand:
# - sched/backfill (H1 and H2 both reserved; stock reserves whole nodes on limits) and
#   sched/easypp with easy++-safe at depth 2 (H1 and H2 reserved; J, a backfill, plans on
#   its limit): J would delay H2, so J waits; K is backfilled on n2 at ~t0+2 and ends at
#   ~t0+7; squeue --start shows H2 no later than A2's limit; when A1 and A2 end (t0+25)
#   H1 starts on n1 and H2 on n2; J is still pending (no CPU left).
# - sched/easypp with easy++-safe at depth 1: only H1 is reserved and J on n2 cannot
#   delay it, so J is backfilled on n2 (at ~t0+2, or when K ends if K went first); at
#   t0+25 H1 starts on n1 but H2 keeps waiting: J holds one of n2's two CPUs.
# - sched/easypp with easy++:depth=2: H2 is reserved at t0+180, but J planned on its ~2 s
#   prediction ends long before, so J is backfilled on n2 and H2 keeps waiting after A2
#   ends, as at depth 1 (the safe fit, not the depth alone, holds J).
# If the depth were ignored, the first case would be the depth-1 one: J starts on n2 while
# H2 waits for A2, and expect_head_kept fails.
# shellcheck source=tests/integration/lib.sh
. "$(dirname "$0")/lib.sh"
a1='' a2='' h1='' h2='' j='' k=''

# History, then A1 and A2 running, then H1, H2, J and K (their ids in the globals above).
submit_case() {
  tb_teach_history 10 2
  a1=$(tb_submit 2 3 A1 'sleep 25' -w n1)
  a2=$(tb_submit 1 3 A2 'sleep 25' -w n2)
  wait_state "$a1" RUNNING 20
  wait_state "$a2" RUNNING 20
  h1=$(tb_submit 2 5 H1 'sleep 300' -w n1)
  h2=$(tb_submit 2 5 H2 'sleep 300' -w n2)
  j=$(tb_submit 1 10 J 'sleep 300')
  k=$(tb_submit 1 1 K 'sleep 5')
}

# The plugin logs the policy it plans with (the depth folded in by
# easypp_reservation_depth); nothing to check under stock backfill.
expect_policy() {   # SPEC
  [ "$LIVE_SCHED" = sched/easypp ] || return 0
  grep -qF "sched/easypp: policy=$1," "$TB_DIR/log/slurmctld.log" \
    || fail "slurmctld.log does not show policy=$1: $(grep -F 'sched/easypp: policy=' "$TB_DIR/log/slurmctld.log" | tail -n 1)"
  note "ok: the plugin plans with policy=$1"
}

# Checks that an ended job started after FROM and within 20 s of it.
started_soon_after() {   # JOB FROM WHAT
  local started
  started=$(job_start "$1")
  [ -n "$started" ] && [ "$started" -ge "$2" ] && [ $(( started - $2 )) -le 20 ] \
    || fail "$3 started at '${started:+$(date -d "@$started" +%T)}', not within 20 s after $(date -d "@$2" +%T)"
  note "ok: $3 started at $(date -d "@$started" +%T), $(( started - $2 ))s after $(date -d "@$2" +%T)"
}

case_depth_two_keeps_second() {
  [ "$LIVE_SCHED" != sched/easypp ] \
    || LIVE_EXTRA_PARAMS=easypp_policy=easy++-safe,easypp_reservation_depth=2
  live_up --nodes 2 --cpus 2
  local a1_end a2_end k_start deadline
  submit_case
  expect_policy 'easy++-safe:depth=2'
  # K is backfilled at once: it cannot delay either reservation; J, ahead of K and
  # fitting the same CPU, must not be (it would delay H2).
  deadline=$(( $(date +%s) + 20 ))
  while [ "$(job_field "$k" JobState)" = PENDING ]; do
    [ "$(job_field "$j" JobState)" = PENDING ] \
      || fail "J (job $j) is $(job_field "$j" JobState) on $(job_field "$j" NodeList) while H2 waits for A2: the second reservation was not kept"
    [ "$(date +%s)" -lt $deadline ] || fail "K (job $k) still pending after 20 s (reason $(job_field "$k" Reason))"
    sleep 0.2
  done
  k_start=$(job_start "$k")
  job_running "$a2" || fail "A2 ended before K started: K shows no backfill"
  assert_eq n2 "$(job_field "$k" NodeList)" "K's node"
  note "ok: K backfilled at $(date -d "@$k_start" +%T) while A2 runs (H2 reason $(job_field "$h2" Reason), J reason $(job_field "$j" Reason))"
  # The second reservation: H2 (and J, behind it) pending while A2 runs, H2 planned by
  # A2's limit, H2 on n2 within 20 s of A2's end, J still pending then.
  expect_head_kept "$a2" 3 "$h2" n2 "$j"
  assert_eq COMPLETED "$(job_field "$k" JobState)" "K when H2 has started"
  # The head: H1 on n1 after A1's end.
  wait_state "$h1" RUNNING 30
  assert_eq n1 "$(job_field "$h1" NodeList)" "H1's node"
  a1_end=$(slurm_epoch "$(job_field "$a1" EndTime)")
  started_soon_after "$h1" "$a1_end" H1
  a2_end=$(slurm_epoch "$(job_field "$a2" EndTime)")
  started_soon_after "$h2" "$a2_end" H2
  assert_eq PENDING "$(job_field "$j" JobState)" "J when H1 and H2 run"
  scancel "$h1" "$h2" "$j"
}

# sched/easypp with LIVE_EXTRA_PARAMS set by the caller: J is backfilled on n2 while A2
# runs and H2 keeps waiting after A2 has ended; the head H1 still starts on n1.
case_second_not_kept() {
  live_up --nodes 2 --cpus 2
  local a1_end planned
  submit_case
  expect_policy "$EXPECT_POLICY"
  wait_state "$j" RUNNING 20
  job_running "$a2" || fail "A2 ended before J started"
  assert_eq n2 "$(job_field "$j" NodeList)" "J's node"
  assert_eq PENDING "$(job_field "$h2" JobState)" "H2 when J starts"
  note "ok: J backfilled on n2 while H2 waits for A2"
  wait_state "$a2" COMPLETED 40
  wait_state "$a1" COMPLETED 10
  wait_state "$h1" RUNNING 30
  assert_eq n1 "$(job_field "$h1" NodeList)" "H1's node"
  a1_end=$(slurm_epoch "$(job_field "$a1" EndTime)")
  started_soon_after "$h1" "$a1_end" H1
  assert_stays "$h2" PENDING 5 "J holds one of n2's two CPUs after A2's end"
  planned=$(squeue_start "$h2")
  note "ok: H2 is still pending after A2's end (planned start ${planned:+$(date -d "@$planned" +%T)})"
  scancel "$h1" "$h2" "$j"
}

LIVE_SCHEDULERS="sched/backfill sched/easypp" each_scheduler case_depth_two_keeps_second
# Contrasts (their own results directories): the same mix without depth 2, and at depth 2
# with backfills planned on predictions.
TEST_NAME=$TEST_NAME.depth1 LIVE_SCHEDULERS=sched/easypp \
  LIVE_EXTRA_PARAMS=easypp_policy=easy++-safe EXPECT_POLICY=easy++-safe \
  each_scheduler case_second_not_kept
TEST_NAME=$TEST_NAME.unsafe LIVE_SCHEDULERS=sched/easypp \
  LIVE_EXTRA_PARAMS=easypp_policy=easy++:depth=2 EXPECT_POLICY=easy++:depth=2 \
  each_scheduler case_second_not_kept
