#!/bin/bash
# Jobs stock backfill reserves nothing for, under sched/backfill and sched/easypp (Slurm's
# main scheduler off: sched_interval=-1): a job of a QOS with Flags=NoReserve (a standby
# QOS), one of a priority under SchedulerParameters=bf_min_prio_reserve, and one eligible
# for less than bf_min_age_reserve. Stock tries such a job and starts it if it fits now,
# but reserves nothing for it, so the jobs behind it are planned as if it were not there.
# One node x 8 CPUs, accounting with AccountingStorageEnforce=limits,qos; QOS standby has
# Flags=NoReserve. In queue order:
#   R  6 CPUs, QOS normal, 10-min limit: runs; 2 CPUs idle.
#   H  8 CPUs, 10-min limit: does not fit until R ends.
#   L  2 CPUs, QOS normal, 60-min limit: fits the 2 idle CPUs now, but runs past R's end.
# Worked out by hand, case by case:
#   standby:  H in QOS standby: nothing is reserved for H, so L, which would delay a
#             reservation for H at R's end, starts; H waits. Then M (QOS normal, 8 CPUs)
#             is reserved behind H; H, reserved nothing and ahead of M, waits behind no
#             one: its reason is not Priority.
#   reserved: H in QOS normal, priorities fixed as below, no threshold: H is reserved at
#             R's end and L waits.
#   priority: bf_min_prio_reserve=100, H priority 50, L priority 40 (sbatch --priority, as
#             root): H is under the threshold, L starts.
#   age:      bf_min_age_reserve=600: H has been eligible for seconds, L starts.
# Last case, a refused job keeps nothing: under assoc_limit_stop, QOS standby also has
# GrpTRES=cpu=4. A (standby, 2 CPUs) runs; B (standby, 4 CPUs) fits the idle CPUs and is
# tried, but select_nodes refuses it for the group limit; D (normal, 4 CPUs, 60 min) fits
# the idle CPUs. Worked out by hand: stock reserves nothing for B (NoReserve), so D starts;
# squeue --start still shows B a start time (stock: its later_start or 500 s ahead).
# (Before, the plugin kept B's planned CPUs for the pass, as for any job a limit holds
# back under assoc_limit_stop, and D waited.)
# The exemption on the resources admins configure: cores and memory consumable
# (CR_Core_Memory), GPUs as GRES, overlapping partitions. Two nodes x 4 cores, 8000 MB,
# 1 GPU; partitions all (n[1-2]) and two (n2). In queue order:
#   R  all, on n1, 1 CPU, 1000 MB, 1 GPU, 10-min limit: runs; n1's GPU is busy.
#   H  all, 2 nodes, 1 CPU, 6000 MB and 1 GPU per node: waits for n1's GPU.
#   L  two (n2 only), 1 CPU, 4000 MB, no GPU, 60 min: fits n2 now, but would leave n2
#      4000 < 6000 MB at R's end, so it would delay a reservation for H.
# Worked out by hand: with H in QOS standby, L starts on n2 and H waits; with H in QOS
# normal (the control), H is reserved n[1-2] at R's end and L waits.
# shellcheck source=tests/integration/lib.sh
. "$(dirname "$0")/lib.sh"

# H_QOS: H's QOS; PARAMS: SchedulerParameters besides sched_interval=-1; PRIORITIES: yes
# to give H and L fixed priorities 50 and 40; L_RUNS: whether L must start.
case_no_reserve() {
  LIVE_EXTRA_PARAMS=sched_interval=-1${PARAMS:+,${PARAMS}} live_up --nodes 1 --cpus 8 \
    --accounting --enforce limits,qos
  tb_qos_add standby Flags=NoReserve
  tb_user_add nobody first qos=normal,standby
  local r h l
  r=$(tb_submit_as nobody 6 10 R 'sleep 300' -q normal)
  wait_state "$r" RUNNING 20
  if [ "${PRIORITIES:-no}" = yes ]; then
    h=$(tb_submit_as nobody 8 10 H 'sleep 300' -q "$H_QOS" --priority=50)
    l=$(tb_submit_as nobody 2 60 L 'sleep 300' -q normal --priority=40)
  else
    h=$(tb_submit_as nobody 8 10 H 'sleep 300' -q "$H_QOS")
    l=$(tb_submit_as nobody 2 60 L 'sleep 300' -q normal)
  fi
  expect_l_runs "$h" "$l" "8 CPUs, R holds 6"
  if [ "$H_QOS" = standby ]; then
    # M (QOS normal, 8 CPUs) is reserved behind H: H, ahead of it and reserved nothing,
    # waits behind no one (its reason is not Priority). Judged once a pass has shown
    # M's reservation (squeue --start).
    local m tries=40
    m=$(tb_submit_as nobody 8 10 M 'sleep 300' -q normal)
    while [ -z "$(squeue_start "$m")" ] && [ $(( tries -= 1 )) -gt 0 ]; do sleep 0.5; done
    [ -n "$(squeue_start "$m")" ] || fail "no start time shown for M, reserved behind H"
    [ "$(job_field "$h" Reason)" != Priority ] \
      || fail "H, ahead of every reserved job, waits with reason Priority"
    note "ok: H's reason is $(job_field "$h" Reason)"
    scancel "$m"
  fi
  scancel "$r" "$h" "$l"
}

# L starts at once if L_RUNS=yes, else stays pending for several passes of either
# scheduler (bf_interval and easypp_interval are a few seconds on the testbed); H waits
# for R (WHY) either way.
expect_l_runs() {   # H L WHY
  local h=$1 l=$2 why=$3
  if [ "$L_RUNS" = yes ]; then
    wait_state "$l" RUNNING 20
    note "ok: L started: nothing is reserved for H"
  else
    assert_stays "$l" PENDING 16 "L would delay H's reservation"
  fi
  assert_eq PENDING "$(job_field "$h" JobState)" "H ($why)"
}

case_no_reserve_nodes() {
  LIVE_EXTRA_PARAMS=sched_interval=-1 live_up --nodes 2 --cpus 4 --mem 8000 \
    --select CR_Core_Memory --gres gpu:1 --partitions 'all:n[1-2];two:n2' \
    --accounting --enforce limits,qos
  tb_qos_add standby Flags=NoReserve
  tb_user_add nobody first qos=normal,standby
  local r h l
  r=$(tb_submit_as nobody 1 10 R 'sleep 300' -q normal -p all -w n1 --mem=1000 --gres=gpu:1)
  wait_state "$r" RUNNING 20
  h=$(tb_submit_as nobody 2 10 H 'sleep 300' -q "$H_QOS" -p all -N 2 --ntasks-per-node=1 \
    --mem=6000 --gres=gpu:1 --priority=50)
  l=$(tb_submit_as nobody 1 60 L 'sleep 300' -q normal -p two --mem=4000 --priority=40)
  expect_l_runs "$h" "$l" "n1's GPU is R's"
  [ "$L_RUNS" = no ] || assert_eq n2 "$(job_field "$l" NodeList)" "L's node"
  scancel "$r" "$h" "$l"
}

case_refused_keeps_nothing() {
  LIVE_EXTRA_PARAMS=sched_interval=-1,assoc_limit_stop live_up --nodes 1 --cpus 8 \
    --accounting --enforce limits,qos
  tb_qos_add standby Flags=NoReserve GrpTRES=cpu=4
  tb_user_add nobody first qos=normal,standby
  local a b d
  a=$(tb_submit_as nobody 2 10 A 'sleep 300' -q standby)
  wait_state "$a" RUNNING 20
  b=$(tb_submit_as nobody 4 10 B 'sleep 300' -q standby)
  d=$(tb_submit_as nobody 4 60 D 'sleep 300' -q normal)
  wait_state "$d" RUNNING 20
  assert_eq PENDING "$(job_field "$b" JobState)" "B (over standby's GrpTRES=cpu=4)"
  [ -n "$(squeue_start "$b")" ] || fail "squeue --start shows no start time for B, refused for a limit"
  scancel "$a" "$b" "$d"
}

H_QOS=standby L_RUNS=yes each_scheduler case_no_reserve
TEST_NAME=$TEST_NAME.reserved H_QOS=normal PRIORITIES=yes L_RUNS=no each_scheduler case_no_reserve
TEST_NAME=$TEST_NAME.priority H_QOS=normal PARAMS=bf_min_prio_reserve=100 PRIORITIES=yes \
  L_RUNS=yes each_scheduler case_no_reserve
TEST_NAME=$TEST_NAME.age H_QOS=normal PARAMS=bf_min_age_reserve=600 L_RUNS=yes \
  each_scheduler case_no_reserve
TEST_NAME=$TEST_NAME.refused each_scheduler case_refused_keeps_nothing
TEST_NAME=$TEST_NAME.nodes H_QOS=standby L_RUNS=yes each_scheduler case_no_reserve_nodes
TEST_NAME=$TEST_NAME.nodes_reserved H_QOS=normal L_RUNS=no each_scheduler case_no_reserve_nodes
