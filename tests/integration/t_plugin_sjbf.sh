#!/bin/bash
# Shortest Job Backfilled First (paper 000, 3.3) and per-partition policies: two
# partitions of one 8-CPU node each, `peasy` under easy and `psjbf` under easy-sjbf. In
# each: J1 (4 CPUs, 5 min) runs, J2 (8 CPUs) is blocked with a reservation at +5 min,
# then LONG (4 CPUs, 4 min) and SHORT (4 CPUs, 1 min) become eligible at the same moment
# (same --begin), LONG first in priority. Both end before the reservation but only one
# fits the 4 free CPUs: EASY backfills in priority order (LONG), SJBF the shortest (SHORT).
. "$(dirname "$0")/lib.sh"
need_plugin
tb_up --scheduler sched/easypp --nodes 2 --cpus 8 --partitions 'peasy:n1;psjbf:n2' \
  --params 'easypp_partition_policy=peasy:easy;psjbf:easy-sjbf'

begin=$(date -d "+4 sec" +%Y-%m-%dT%H:%M:%S)
declare -A long short blocked run
for p in peasy psjbf; do
  run[$p]=$(tb_submit 4 5 "J1-$p" "sleep 300" -p "$p")
  wait_state "${run[$p]}" RUNNING 15
  blocked[$p]=$(tb_submit 8 5 "J2-$p" "sleep 10" -p "$p")
  long[$p]=$(tb_submit 4 4 "LONG-$p" "sleep 300" -p "$p" --begin="$begin")
  short[$p]=$(tb_submit 4 1 "SHORT-$p" "sleep 300" -p "$p" --begin="$begin")
done
wait_state "${long[peasy]}" RUNNING 20
wait_state "${short[psjbf]}" RUNNING 20
sleep 2
assert_eq PENDING "$(job_field "${short[peasy]}" JobState)" "SHORT under easy"
assert_eq PENDING "$(job_field "${long[psjbf]}" JobState)" "LONG under easy-sjbf"
for p in peasy psjbf; do
  assert_eq PENDING "$(job_field "${blocked[$p]}" JobState)" "J2 in $p"
done
scancel -u "$(id -u)"
