#!/bin/bash
# live-serial: measures the scheduling pass time, which other tests running beside it would inflate
# Live scheduling-pass cost, sched/easypp vs stock sched/backfill, on the same load: 4
# nodes x 16 CPUs, 120 queued jobs (EASYPP_CYCLE_JOBS) of 1-32 CPUs and 5-30 min limits
# (they never finish during the test). Prints sdiag's "Backfilling stats" of both and keeps
# them in RESULTS/t_plugin_cycle_time/cycle_time.txt. Passes if the plugin's passes saw the
# whole queue and its mean pass stays under 100 ms. (sdiag's depth is how many jobs the
# policy examined: EASY stops early once no CPU is left, stock backfill tries them all.)
. "$(dirname "$0")/lib.sh"
need_plugin
jobs=${EASYPP_CYCLE_JOBS:-120}
out=$TEST_RESULTS/cycle_time.txt
: > "$out"

load() {
  local i n t
  for i in $(seq "$jobs"); do
    n=$(( (i * 7) % 32 + 1 )); t=$(( (i * 11) % 26 + 5 ))
    sbatch -o /dev/null -n "$n" -t "$t" -J "load$i" --wrap "sleep 3000" >/dev/null \
      || fail "sbatch $i failed"
  done
}

stats() {   # LABEL
  local s
  s=$(sdiag | awk '/^Backfilling stats/ {b=1} b && /Total backfilled jobs \(since last slurm start\)|Total cycles|Last cycle:|Max cycle|Mean cycle|Last depth cycle:|Last queue length/ {sub(/^[ \t]+/, ""); print}')
  printf '%s\n%s\n\n' "== $1" "$s" | tee -a "$out"
}

for sched in sched/easypp sched/backfill; do
  name=${sched#sched/}
  params=$([ "$name" = backfill ] && echo bf_interval=1 || echo easypp_interval=1)
  TB_NAME=$name tb_up --scheduler "$sched" --nodes 4 --cpus 16 --params "$params"
  load
  from=$(bf_cycles)
  wait_bf_cycles "${from:-0}" 5 60
  stats "$sched, $jobs jobs queued ($params)"
  [ "$name" = easypp ] && easypp_mean=$(sdiag | awk '/^Backfilling stats/ {b=1} b && /Mean cycle/ {print $3; exit}') \
    && easypp_queue=$(sdiag | awk '/^Backfilling stats/ {b=1} b && /Last queue length/ {print $4; exit}')
  scancel -u "$(id -u)"
  tb_down "$name"
done
[ "${easypp_queue:-0}" -ge $((jobs - 20)) ] || fail "easypp passes saw only ${easypp_queue:-0} of $jobs queued jobs"
[ "${easypp_mean:-999999}" -lt 100000 ] || fail "easypp mean pass ${easypp_mean} usec >= 100 ms"
note "ok: easypp mean pass ${easypp_mean} usec with ${easypp_queue} jobs queued"
