#!/bin/bash
# easypp-compare — the operators' A/B: one trace slice replayed live under sched/backfill
# and under sched/easypp running any core policy (--policy, default easy++; a fresh private
# testbed each, contrib/testbed --accounting), plus the simulator (easy and that policy) on
# the same effective jobs and machine size. Restarts and lost work (jobs killed and
# requeued by a policy) come from sacct like everything else.
# Writes DIR/report.md with a table and gnuplot PNGs; its last line is that path.
# All measuring is done by easypp-replay; this script only orchestrates and plots.
set -euo pipefail

usage() {
  cat <<'EOF'
usage: easypp-compare --trace FILE [--first-job K] --jobs N --speedup F --out DIR
         [--nodes N] [--cpus C] [--sequential | --parallel] [--build DIR]
         [--policy P] [--backfill-params V] [--easypp-params V] [--report-only]
Runs the slice under sched/backfill and sched/easypp (easypp_policy=P, default easy++)
on fresh testbeds (root, Slurm packages, a build with the plugin), and easypp-replay
--simulate easy / P. --report-only remakes DIR/report.md and the plots from
DIR/{live-backfill,live-easypp,sim-easy,sim-P}.{json,jobs.csv} (e.g. replays run by hand
on a real partition).
See easypp-compare(1).
EOF
}

die() { echo "easypp-compare: $*" >&2; exit 2; }
log() { echo "easypp-compare: [$(date +%H:%M:%S)] $*" >&2; }

here=$(cd "$(dirname "$0")" && pwd)
build=@bindir_build@/../..
src=@srcdir_top@
trace='' first='' jobs='' speedup='' out='' nodes=4 cpus=16 mode=parallel report_only=no
bf_params='bf_interval=1,bf_resolution=1,bf_continue'
epp_params=''
policy=easy++
while [ $# -gt 0 ]; do
  # --option=value as --option value (the tools' convention).
  if [[ "$1" == --*=* ]]; then set -- "${1%%=*}" "${1#*=}" "${@:2}"; fi
  case "$1" in
    --trace) trace=${2:?}; shift 2 ;;
    --first-job) first=${2:?}; shift 2 ;;
    --jobs) jobs=${2:?}; shift 2 ;;
    --speedup) speedup=${2:?}; shift 2 ;;
    --out) out=${2:?}; shift 2 ;;
    --nodes) nodes=${2:?}; shift 2 ;;
    --cpus) cpus=${2:?}; shift 2 ;;
    --sequential) mode=sequential; shift ;;
    --parallel) mode=parallel; shift ;;
    --report-only) report_only=yes; shift ;;
    --build) build=${2:?}; shift 2 ;;
    --backfill-params) bf_params=${2:?}; shift 2 ;;
    --easypp-params) epp_params=${2:?}; shift 2 ;;
    --policy) policy=${2:?}; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; die "$1: unknown option" ;;
  esac
done
[ -n "$trace" ] || die "--trace FILE is required"
[ -r "$trace" ] || die "--trace=$trace: cannot read"
[ -n "$jobs" ] || die "--jobs N is required"
[ -n "$speedup" ] || die "--speedup F is required"
[ -n "$out" ] || die "--out DIR is required"
[[ "$policy" =~ ^[A-Za-z0-9+:=.,/_-]+$ ]] || die "--policy=$policy: not a policy name"
# The policy as the live cluster must run it. The multiple-queue family's queue limits and
# mq-vd's delay are times, written in trace seconds like the simulator's: live, where the
# jobs' limits are compressed F times, they are divided by F too (rounded up, at least
# 1 s, kept increasing). Every other policy runs as named, its keys separated by colons
# (SchedulerParameters is split at commas; the simulator takes either).
live_policy() {   # POLICY F
  local base=${1%%:*} rest=
  case $base in mq|mq-vd|mq-vd0) ;; *) echo "${1//,/:}"; return ;; esac
  [ "$base" = "$1" ] || rest=${1#*:}
  awk -v base="$base" -v rest="$rest" -v f="$2" 'BEGIN {
    gsub(/,/, ":", rest); n = split(rest, item, ":"); nl = 0; delay = ""
    for (i = 1; i <= n; i++) {
      if (item[i] ~ /^delay=/) delay = substr(item[i], 7)
      else if (item[i] ~ /^limits=/) { m = split(substr(item[i], 8), parts, "/"); for (j = 1; j <= m; j++) lim[++nl] = parts[j] }
      else if (item[i] != "") lim[++nl] = item[i]
    }
    if (nl == 0) { lim[1] = 100; lim[2] = 1000; lim[3] = 10000; nl = 3 }
    if (base != "mq" && delay == "") delay = 2500
    out = base; prev = 0
    for (i = 1; i <= nl; i++) {
      l = int((lim[i] + f - 1) / f); if (l < 1) l = 1; if (l <= prev) l = prev + 1
      out = out ":" l; prev = l
    }
    if (delay != "") { d = int((delay + f - 1) / f); out = out ":delay=" d }
    print out }'
}
if [ -z "$epp_params" ]; then
  epp_params="easypp_policy=$(live_policy "$policy" "$speedup"),easypp_interval=1"
  # Slurm's main scheduler starts jobs in priority order whatever the plugin planned: fine
  # for the EASY family (it starts only what EASY would), not for the other papers'
  # policies (it would start mq-vd's delayed jobs, ignore mq's queues): off for those.
  case $policy in
    easy*|fcfs|x2*|sjf*|perfect*) ;;
    *) epp_params+=",sched_interval=-1" ;;
  esac
  # Policies that kill and requeue (papers 002, 004) run only on partitions that opt in:
  # the testbed's one partition, debug.
  case ${policy%%:*} in
    pv-easy|timed-run) epp_params+=",easypp_requeue_partitions=debug" ;;
  esac
fi
# Slurm holds a requeued batch job for AuthInfo's cred_expire (120 s by default), which
# at a speed-up of hundreds is days of trace time: both testbeds take 5 s for it when the
# policy kills (the admin guide's "Kill and requeue").
tb_extra=(--extra OverTimeLimit=1)
case ${policy%%:*} in pv-easy|timed-run) tb_extra+=(--extra AuthInfo=cred_expire=5) ;; esac
# The simulator row of the policy: its name made safe for a file name (easy++ stays).
sim_run=sim-${policy//[:=,\/]/_}
[[ "$nodes" =~ ^[0-9]+$ ]] || die "--nodes=$nodes: not a number"
[[ "$cpus" =~ ^[0-9]+$ ]] || die "--cpus=$cpus: not a number"
command -v gnuplot >/dev/null || die "gnuplot not installed (apt-get install gnuplot-nox)"
mkdir -p "$out"
out=$(cd "$out" && pwd)
if [ "$report_only" = yes ]; then
  for r in live-backfill live-easypp sim-easy "$sim_run"; do
    if [ ! -s "$out/$r.json" ] || [ ! -s "$out/$r.jobs.csv" ]; then
      die "--report-only: $out/$r.json or $out/$r.jobs.csv missing"
    fi
  done
  total=$(sed -n 's/.*"procs": \([0-9]*\).*/\1/p' "$out/sim-easy.json")
else
replay=$here/easypp-replay
[ -x "$replay" ] || replay=$build/src/replay/easypp-replay
[ -x "$replay" ] || die "easypp-replay not found next to $0 or in $build/src/replay"
# Installed from a package, the trees it was built in are gone: contrib/testbed then comes
# from the source tree of the --build DIR given.
[ -x "$src/contrib/testbed" ] || src=$(sed -n 's/^abs_top_srcdir = //p' "$build/Makefile" 2>/dev/null || true)
testbed=$src/contrib/testbed
[ -x "$testbed" ] || die "contrib/testbed not found in $src"
[ -f "$build/src/plugin/.libs/sched_easypp.so" ] || die "--build=$build: no src/plugin/.libs/sched_easypp.so (configure with a Slurm source tree)"
build=$(cd "$build" && pwd)
total=$((nodes * cpus))
slice=(--trace "$trace" --jobs "$jobs" --speedup "$speedup")
[ -z "$first" ] || slice+=(--first-job "$first")

# --- simulator rows (same effective jobs: rounded limits, capped procs/runtimes) ---------
for p in easy "$policy"; do
  r=sim-easy
  [ "$p" = easy ] || r=$sim_run
  "$replay" "${slice[@]}" --simulate "$p" --cpus "$total" --out "$out/$r" \
    --write-slice "$out/slice.swf" > /dev/null 2> "$out/$r.log" \
    || { cat "$out/$r.log" >&2; die "easypp-replay --simulate $p failed"; }
done
log "simulator done: $(grep -c . "$out/slice.swf") lines in slice.swf"

# --- live rows ------------------------------------------------------------------------
declare -A tb_dir=()
cleanup() {
  local rc=$? k
  trap - EXIT INT TERM
  for k in "${!tb_dir[@]}"; do
    "$testbed" down --dir "${tb_dir[$k]}" >/dev/null 2>&1 || true
    mkdir -p "$out/testbed-$k"
    cp -r "${tb_dir[$k]}/log" "${tb_dir[$k]}/slurm.conf" "$out/testbed-$k/" 2>/dev/null || true
    rm -rf "${tb_dir[$k]}"
  done
  exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT TERM

live() {   # NAME SCHEDULER PARAMS
  local name=$1 sched=$2 params=$3 dir conf
  dir=${tb_dir[$name]}
  log "$name: testbed up ($sched, $nodes x $cpus CPUs, accounting)"
  "$testbed" up --dir "$dir" --build "$build" --nodes "$nodes" --cpus "$cpus" --accounting \
    --scheduler "$sched" --params "$params" "${tb_extra[@]}" \
    > "$out/live-$name.testbed" 2> "$out/live-$name.testbed.log" \
    || { tail -n 20 "$out/live-$name.testbed.log" >&2; return 1; }
  conf=$dir/slurm.conf
  log "$name: replay starts"
  local as=()
  [ "$sched" = sched/easypp ] && as=(--policy "$policy")
  SLURM_CONF=$conf "$replay" "${slice[@]}" --create-users "${as[@]}" --out "$out/live-$name" \
    > /dev/null 2> "$out/live-$name.log" || { tail -n 5 "$out/live-$name.log" >&2; return 1; }
  log "$name: replay done ($(grep -o '"wall_seconds": [0-9.]*' "$out/live-$name.json" | cut -d' ' -f2) s)"
  "$testbed" down --dir "$dir" >/dev/null 2>&1 || true
}

tb_dir[backfill]=$(mktemp -d /tmp/eppab-bf.XXXXXX)
tb_dir[easypp]=$(mktemp -d /tmp/eppab-ep.XXXXXX)
# Jobs run as the mapped users: slurmd's spool (the batch scripts) must be reachable.
chmod 755 "${tb_dir[backfill]}" "${tb_dir[easypp]}"
t0=$(date +%s)
if [ "$mode" = parallel ]; then
  live backfill sched/backfill "$bf_params" & a=$!
  live easypp sched/easypp "$epp_params" & b=$!
  rc=0
  wait $a || rc=1
  wait $b || rc=1
  [ $rc -eq 0 ] || die "a live replay failed (logs in $out/live-*.log)"
else
  live backfill sched/backfill "$bf_params" || die "live replay under sched/backfill failed"
  live easypp sched/easypp "$epp_params" || die "live replay under sched/easypp failed"
fi
live_seconds=$(( $(date +%s) - t0 ))
log "live replays ($mode) took ${live_seconds}s"

fi

# --- report ---------------------------------------------------------------------------
field() {   # FILE KEY
  sed -n "s/.*\"$2\": \"\{0,1\}\([^,\"}]*\)\"\{0,1\}[,}].*/\1/p" "$1"
}
runs=(live-backfill live-easypp sim-easy "$sim_run")
label() {
  case $1 in
    live-backfill) echo "live sched/backfill" ;;
    live-easypp) echo "live sched/easypp ($policy)" ;;
    sim-easy) echo "simulator easy" ;;
    *) echo "simulator $policy" ;;
  esac
}
pct() {   # A B -> how far A is from B, in percent of B
  awk -v a="$1" -v b="$2" 'BEGIN { if (b == 0) print "n/a"; else printf "%+.0f%%", 100 * (a - b) / b }'
}

# Per-job data for the plots: wait, bounded slowdown (max(1, (Tw+Tr)/max(10 s, Tr))).
for r in "${runs[@]}"; do
  awk -F, 'NR > 1 { w = $8; t = $9; b = (w + t) / (t > 10 ? t : 10); if (b < 1) b = 1;
                    print w / 60, b, t }' "$out/$r.jobs.csv" > "$out/$r.perjob"
  sort -g -k1,1 "$out/$r.perjob" | awk '{ a[NR] = $1 } END { for (i = 1; i <= NR; i++) print a[i], i / NR }' > "$out/$r.wait-cdf"
  sort -g -k2,2 "$out/$r.perjob" | awk '{ a[NR] = $2 } END { for (i = 1; i <= NR; i++) print a[i], i / NR }' > "$out/$r.bsld-cdf"
  # Busy CPUs over time: mean over bins of 1/100 of the makespan (trace hours).
  awk -F, -v cpus="$total" 'NR > 1 { s[NR] = $6; e[NR] = $7; p[NR] = $4; if ($7 > end) end = $7 }
    END { w = end / 100; if (w <= 0) w = 1
          for (i in s) for (b = int(s[i] / w); b * w < e[i]; b++) {
            lo = b * w > s[i] ? b * w : s[i]; hi = (b + 1) * w < e[i] ? (b + 1) * w : e[i]
            busy[b] += p[i] * (hi - lo) }
          for (b = 0; b * w < end; b++) printf "%.4f %.2f\n", b * w / 3600, 100 * busy[b] / (w * cpus)
          printf "%.4f %.2f\n", end / 3600, 0 }' "$out/$r.jobs.csv" > "$out/$r.util"
  # Mean wait per runtime class: <10 min, 10 min-1 h, 1-4 h, >4 h.
  awk '{ c = $3 < 600 ? 1 : $3 < 3600 ? 2 : $3 < 14400 ? 3 : 4; n[c]++; s[c] += $1 }
       END { for (c = 1; c <= 4; c++) printf "%d %d %.2f\n", c, n[c], n[c] ? s[c] / n[c] : 0 }' \
    "$out/$r.perjob" > "$out/$r.classes"
done
paste "$out"/live-backfill.classes "$out"/live-easypp.classes "$out"/sim-easy.classes "$out/$sim_run.classes" \
  | awk 'BEGIN { split("<10min 10min-1h 1h-4h >4h", name, " ") }
         { printf "\"%s (n=%d)\" %s %s %s %s\n", name[$1], $2, $3, $6, $9, $12 }' > "$out/classes.dat"

gnuplot <<EOF
set terminal pngcairo size 900,560 font "Sans,11"
set key bottom right box opaque
set grid
set style line 1 lc rgb "#1f77b4" lw 2.5
set style line 2 lc rgb "#d62728" lw 2.5
set style line 3 lc rgb "#1f77b4" lw 2 dt 2
set style line 4 lc rgb "#d62728" lw 2 dt 2
set output "$out/wait-cdf.png"
set title "Wait time CDF (trace time, minutes; log scale, zero waits at the left edge)"
set xlabel "wait [min]"
set ylabel "fraction of jobs"
set logscale x
set yrange [0:1.02]
plot "$out/live-backfill.wait-cdf" u (\$1 < 0.1 ? 0.1 : \$1):2 w steps ls 1 t "live sched/backfill", \
     "$out/live-easypp.wait-cdf" u (\$1 < 0.1 ? 0.1 : \$1):2 w steps ls 2 t "live sched/easypp", \
     "$out/sim-easy.wait-cdf" u (\$1 < 0.1 ? 0.1 : \$1):2 w steps ls 3 t "simulator easy", \
     "$out/$sim_run.wait-cdf" u (\$1 < 0.1 ? 0.1 : \$1):2 w steps ls 4 t "simulator $policy"
set output "$out/bsld-cdf.png"
set title "Bounded slowdown CDF (log scale)"
set xlabel "bounded slowdown"
set xrange [1:*]
plot "$out/live-backfill.bsld-cdf" u 1:2 w steps ls 1 t "live sched/backfill", \
     "$out/live-easypp.bsld-cdf" u 1:2 w steps ls 2 t "live sched/easypp", \
     "$out/sim-easy.bsld-cdf" u 1:2 w steps ls 3 t "simulator easy", \
     "$out/$sim_run.bsld-cdf" u 1:2 w steps ls 4 t "simulator $policy"
unset logscale x
set xrange [*:*]
set output "$out/runtime-classes.png"
set title "Mean wait by runtime class"
set xlabel "runtime class (trace time)"
set ylabel "mean wait [min]"
set yrange [0:*]
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set key top left
plot "$out/classes.dat" u 2:xtic(1) lc rgb "#1f77b4" t "live sched/backfill", \
     "" u 3 lc rgb "#d62728" t "live sched/easypp", \
     "" u 4 lc rgb "#aec7e8" t "simulator easy", \
     "" u 5 lc rgb "#ff9896" t "simulator $policy"
set output "$out/utilization.png"
set title "Utilization over time ($total CPUs; mean over 1/100 of the run)"
set style data lines
set xlabel "hours since the slice's first submit (trace time)"
set ylabel "busy CPUs [%]"
set yrange [0:105]
set key top right
plot "$out/live-backfill.util" u 1:2 w steps ls 1 t "live sched/backfill", \
     "$out/live-easypp.util" u 1:2 w steps ls 2 t "live sched/easypp", \
     "$out/sim-easy.util" u 1:2 w steps ls 3 t "simulator easy", \
     "$out/$sim_run.util" u 1:2 w steps ls 4 t "simulator $policy"
EOF

{
  echo "# A/B: sched/backfill vs sched/easypp ($policy) on $(basename "$trace")"
  echo
  if [ "$report_only" = yes ]; then
    echo "Slice: ${first:+from job $first, }$jobs jobs, speedup $speedup, $total CPUs. Report remade"
    echo "from the runs' files (--report-only). Times below are trace time (real"
  else
    echo "Slice: ${first:+from job $first, }$jobs jobs, speedup $speedup, $nodes nodes x $cpus CPUs ($total CPUs)."
  echo "sched/easypp ran with SchedulerParameters=$epp_params."
    echo "Live replays ran $([ "$mode" = parallel ] && echo "side by side" || echo "one after the other") (${live_seconds} s wall for both). Times below are trace time (real"
  fi
  echo "times x $speedup). Simulator rows run on the same effective jobs (slice.swf: limits"
  echo "rounded up to whole minutes of compressed time, runtimes capped at the estimate)."
  echo
  echo "| run | jobs | avg wait [min] | avg bsld | avg wait, all jobs [min] | avg bsld, all jobs | utilization [%] | prediction accuracy [%] | killed before limit | timeouts | restarts | lost work [%] |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
  for r in "${runs[@]}"; do
    j=$out/$r.json
    printf '| %s | %s | %.1f | %.2f | %.1f | %.2f | %.1f | %.1f | %s | %s | %s | %.1f |\n' "$(label "$r")" \
      "$(field "$j" jobs_recorded)" "$(field "$j" avg_wait_min)" "$(field "$j" avg_bsld)" \
      "$(field "$j" all_avg_wait_min)" "$(field "$j" all_avg_bsld)" "$(field "$j" utilization)" \
      "$(field "$j" accuracy)" "$(field "$j" killed_before_limit || echo 0)" "$(field "$j" timeouts)" \
      "$(field "$j" restarts)" "$(field "$j" lost_work_pct)"
  done
  for r in live-backfill live-easypp; do
    bad=$(( $(field "$out/$r.json" killed_before_limit) + $(field "$out/$r.json" missing) + $(field "$out/$r.json" timeouts) ))
    if [ "$bad" -gt 0 ]; then
      echo
      echo "**Warning: $(label "$r"): $(field "$out/$r.json" killed_before_limit) jobs killed before their limit, $(field "$out/$r.json" timeouts) timeouts, $(field "$out/$r.json" missing) without an accounting record (see $r.log and $r.jobs.csv).**"
      echo "easypp-compare: warning: $r has killed/timed-out/missing jobs" >&2
    fi
  done
  echo
  echo "\"avg wait\" and \"avg bsld\" follow easypp-sim(1): the first 1% of ends and jobs ending after"
  echo "the last arrival are left out ($(field "$out/live-backfill.json" counted) / $(field "$out/live-easypp.json" counted) / $(field "$out/sim-easy.json" counted) / $(field "$out/$sim_run.json" counted) jobs counted); the \"all jobs\" columns count every job."
  echo "Live prediction accuracy is reconstructed: the policy's predictor replayed over the real"
  echo "schedule (predicted at submit from jobs ended before, corrected, taught at the end)."
  echo
  lb=$(field "$out/live-backfill.json" all_avg_wait_min); se=$(field "$out/sim-easy.json" all_avg_wait_min)
  le=$(field "$out/live-easypp.json" all_avg_wait_min); sp=$(field "$out/$sim_run.json" all_avg_wait_min)
  lbb=$(field "$out/live-backfill.json" all_avg_bsld); seb=$(field "$out/sim-easy.json" all_avg_bsld)
  leb=$(field "$out/live-easypp.json" all_avg_bsld); spb=$(field "$out/$sim_run.json" all_avg_bsld)
  echo "Live vs simulator (all jobs): sched/backfill's average wait is $(pct "$lb" "$se") from the"
  echo "simulator's easy (bounded slowdown $(pct "$lbb" "$seb")); sched/easypp's average wait is"
  echo "$(pct "$le" "$sp") from the simulator's $policy (bounded slowdown $(pct "$leb" "$spb"))."
  echo "$policy vs EASY: live $(pct "$le" "$lb") average wait, simulator $(pct "$sp" "$se")."
  echo "Restarts and lost work: live from sacct --duplicates (each REQUEUED run is a killed run,"
  echo "its CPUs x run time lost), simulated from the policy's kill decisions."
  echo "Every second of real scheduling latency (submission, scheduler pass, launch) is $speedup s"
  echo "of trace time here, which is why live waits are longer and short jobs' bounded"
  echo "slowdowns much higher than simulated; compare live with live, and the live gap with the"
  echo "simulated gap (see doc/operators-guide.md)."
  echo
  echo "![wait CDF](wait-cdf.png)"
  echo "![bounded slowdown CDF](bsld-cdf.png)"
  echo "![wait by runtime class](runtime-classes.png)"
  echo "![utilization](utilization.png)"
  echo
  echo "Raw data: live-*.json / sim-*.json (metrics), *.jobs.csv (one row per job), live-*.log"
  echo "(replay progress), testbed-*/ (Slurm logs and configuration)."
} > "$out/report.md"
echo "$out/report.md"
