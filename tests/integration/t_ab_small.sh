#!/bin/bash
# A small A/B (60 KTH jobs at speedup 600, about 2-3 minutes): easypp-compare runs them
# under sched/backfill and sched/easypp on fresh testbeds plus the simulator; the report's
# numbers are checked against the raw sacct output of each live run (recomputed here with
# awk, not with the tool's parser): job count, average wait, jobs killed before their
# limit (must be 0); the plots must exist.
# shellcheck source=tests/integration/lib.sh
. "$(dirname "$0")/lib.sh"
need_plugin
need_cmd gnuplot gnuplot-nox
need_cmd slurmdbd slurmdbd
need_cmd mariadbd mariadb-server
[ "$(id -u)" = 0 ] || skip "needs root (sbatch --uid as the mapped users, useradd)"

trace=$SRC/data/traces/KTH-SP2-1996-2.1-cln.swf.gz
speedup=600
jobs=60
out=$TEST_RESULTS/ab
rm -rf "$out"
note "easypp-compare: $jobs jobs from KTH job 10000, speedup $speedup"
last=$("$BUILD/src/replay/easypp-compare" --trace "$trace" --first-job 10000 --jobs $jobs \
  --speedup $speedup --nodes 4 --cpus 25 --out "$out" --build "$BUILD" | tail -n 1) \
  || fail "easypp-compare failed"
assert_eq "$out/report.md" "$last" "last printed line"
cat "$out/report.md"

# JSON field (flat objects written by easypp-replay).
field() { sed -n "s/.*\"$2\": \"\{0,1\}\([^,\"}]*\)\"\{0,1\}[,}].*/\1/p" "$1"; }
# The report table row of RUN: its cells, '|'-separated.
row() { grep -F "| $1 |" "$out/report.md" | head -n 1; }

check_live() {   # NAME LABEL
  local name=$1 label=$2 sacct=$out/live-$1.sacct.txt json=$out/live-$1.json
  [ -s "$sacct" ] || fail "$sacct missing: records did not come from sacct"
  # Allocation lines only (JobIDRaw without a step suffix).
  local count waits states
  count=$(awk -F'|' '$1 != "" && $1 !~ /\./' "$sacct" | wc -l)
  assert_eq "$jobs" "$count" "$name: jobs in sacct"
  assert_eq "$jobs" "$(field "$json" jobs_recorded)" "$name: jobs in the JSON"
  assert_eq "$jobs" "$(row "$label" | awk -F'|' '{gsub(/ /, "", $3); print $3}')" "$name: jobs in report.md"
  # Average wait, all jobs, trace minutes: (Start - Submit) x speedup / 60.
  waits=$(awk -F'|' -v f=$speedup '
    function t(s) { gsub(/[-T:]/, " ", s); return mktime(s) }
    $1 != "" && $1 !~ /\./ { n++; w += t($5) - t($4) } END { printf "%.4f", w / n * f / 60 }' "$sacct")
  local reported
  reported=$(field "$json" all_avg_wait_min)
  awk -v a="$waits" -v b="$reported" 'BEGIN { exit !(a - b < 0.01 && b - a < 0.01) }' \
    || fail "$name: average wait from sacct $waits min, JSON says $reported"
  note "ok: $name: average wait from sacct $waits min = JSON $reported"
  local in_table
  in_table=$(row "$label" | awk -F'|' '{gsub(/ /, "", $6); print $6}')
  assert_eq "$(printf '%.1f' "$waits")" "$in_table" "$name: average wait (all jobs) in report.md"
  # Every job ended COMPLETED: none killed before (or at) its limit.
  states=$(awk -F'|' '$1 != "" && $1 !~ /\./ && $9 != "COMPLETED"' "$sacct" | wc -l)
  assert_eq 0 "$states" "$name: jobs not COMPLETED in sacct"
  assert_eq 0 "$(field "$json" killed_before_limit)" "$name: killed before limit (JSON)"
  assert_eq 0 "$(row "$label" | awk -F'|' '{gsub(/ /, "", $10); print $10}')" "$name: killed before limit (report.md)"
  # Restarts: sacct --duplicates's REQUEUED allocation lines (none under these policies).
  local requeued
  requeued=$(awk -F'|' '$1 != "" && $1 !~ /\./ && $9 == "REQUEUED"' "$sacct" | wc -l)
  assert_eq "$requeued" "$(field "$json" restarts)" "$name: restarts (JSON) = REQUEUED runs in sacct"
  assert_eq "$requeued" "$(row "$label" | awk -F'|' '{gsub(/ /, "", $12); print $12}')" "$name: restarts (report.md)"
}
check_live backfill "live sched/backfill"
check_live easypp "live sched/easypp (easy++)"

# The simulator rows ran on the same effective jobs.
assert_eq "$jobs" "$(field "$out/sim-easy.json" jobs)" "simulated jobs"
for png in wait-cdf bsld-cdf runtime-classes utilization; do
  [ -s "$out/$png.png" ] || fail "$png.png missing or empty"
  file "$out/$png.png" | grep -q 'PNG image' || fail "$png.png is not a PNG"
done
note "ok: 4 plots"
