#!/bin/bash
# A waiting job's time limit raised with `scontrol update` is planned on the new limit,
# under sched/backfill and sched/easypp (easy, so the plan is on limits alone). One node x
# 4 CPUs. A1 (2 CPUs, 2-min limit, really 15 s) and A2 (2 CPUs, 3-min limit, really 40 s)
# run; H (4 CPUs, 5 min) waits for both, reserved at A2's limit; L (2 CPUs) is submitted
# with a 1-min limit, seen by a pass, then raised to 60 min. Worked out by hand: when A1
# ends L fits its 2 CPUs, but on its 60-min limit it would hold them past H's reservation,
# so it stays pending; H starts when A2 ends, and L is still pending then. (Before, the
# plugin kept the prediction it made under the 1-min limit, so L was backfilled as a
# 1-min job and H waited for L: a review finding, reproduced live.)
# shellcheck source=tests/integration/lib.sh
. "$(dirname "$0")/lib.sh"

case_limit_raised() {
  [ "$LIVE_SCHED" != sched/easypp ] || LIVE_EXTRA_PARAMS=easypp_policy=easy
  live_up --nodes 1 --cpus 4
  local a1 a2 h l
  a1=$(tb_submit 2 2 A1 'sleep 15')
  a2=$(tb_submit 2 3 A2 'sleep 40')
  wait_state "$a1" RUNNING 20
  wait_state "$a2" RUNNING 20
  h=$(tb_submit 4 5 H 'sleep 300')
  l=$(tb_submit 2 1 L 'sleep 300')
  sleep 3  # a pass or two see L under its 1-min limit
  scontrol update jobid="$l" TimeLimit=60 || fail "scontrol update of L's limit failed"
  assert_eq 01:00:00 "$(job_field "$l" TimeLimit)" "L's limit after the update"
  expect_head_kept "$a2" 3 "$h" - "$l"
  scancel "$h" "$l"
}

each_scheduler case_limit_raised
