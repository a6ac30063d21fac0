# shellcheck shell=bash
# tests/integration/lib.sh — helpers for live-Slurm integration tests; source it first:
#   . "$(dirname "$0")/lib.sh"
#
# A test exits 0 (pass), 77 (skip; `skip` prints the reason as the last line) or anything
# else (fail). The runner exports SRC, BUILD and RESULTS; run alone, a test derives them.
set -euo pipefail

SRC=${SRC:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
BUILD=${BUILD:-$SRC/build}
RESULTS=${RESULTS:-$BUILD/tests/integration-results}
export SRC BUILD RESULTS
TESTBED=$SRC/contrib/testbed
TEST_NAME=$(basename "$0" .sh)
TEST_RESULTS=$RESULTS/$TEST_NAME
mkdir -p "$TEST_RESULTS"

# Testbeds started by tb_up in this test: name -> directory.
declare -A TB_DIRS=()
TB_DIR=

# A command that fails outside fail() (set -e) still says where.
tb_on_err() { echo "FAIL: $(basename "$0") line $2: \"$3\" exited $1" >&2; }
trap 'tb_on_err $? $LINENO "$BASH_COMMAND"' ERR

note() { echo "[$(date +%H:%M:%S)] $*"; }
fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "$*"; exit 77; }

assert_eq() {   # EXPECTED ACTUAL WHAT
  if [ "$1" != "$2" ]; then fail "${3:-value}: expected '$1', got '$2'"; fi
  note "ok: ${3:-value} = '$2'"
}

need_plugin() {
  local so=$BUILD/src/plugin/.libs/sched_easypp.so
  [ -f "$so" ] || skip "sched/easypp plugin not built ($so missing; configure with a Slurm source tree, see contrib/slurm-source)"
}

need_cmd() {   # COMMAND [package]
  command -v "$1" >/dev/null 2>&1 || skip "$1 not installed${2:+ (apt-get install $2)}"
}

# --- testbed lifecycle ---------------------------------------------------------------
# The testbed runs in a short directory under /tmp (unix socket paths below it must stay
# short); RESULTS/TEST/NAME links to it while it runs, and its logs and configuration are
# copied to RESULTS/TEST/NAME/ when the test ends.
tb_up() {   # [contrib/testbed up options...]   (TB_NAME=x tb_up ... for a second testbed)
  local name=${TB_NAME:-tb} dir
  [ "$(id -u)" = 0 ] || skip "the live Slurm testbed needs root"
  if [ ! -x /usr/sbin/slurmctld ] || [ ! -x /usr/sbin/slurmd ] || [ ! -x /usr/sbin/munged ]; then
    skip "Slurm or munge not installed (apt-get install slurmctld slurmd slurm-client munge)"
  fi
  [ -z "${TB_DIRS[$name]:-}" ] || fail "tb_up: testbed '$name' already up in this test"
  dir=$(mktemp -d /tmp/easypp-tb.XXXXXX)
  TB_DIRS[$name]=$dir
  rm -rf "${TEST_RESULTS:?}/$name"
  ln -s "$dir" "$TEST_RESULTS/$name"
  trap tb_cleanup EXIT
  note "testbed $name: up $* (dir $dir)"
  local out
  if ! out=$("$TESTBED" up --dir "$dir" --build "$BUILD" "$@"); then
    fail "contrib/testbed up $* failed (logs in $TEST_RESULTS/$name/)"
  fi
  eval "$out"
  export SLURM_CONF
  TB_DIR=$dir
}

# Selects which testbed SLURM_CONF and TB_DIR point at.
tb_use() {   # NAME
  local dir=${TB_DIRS[$1]:-}
  [ -n "$dir" ] || fail "tb_use: no testbed '$1'"
  TB_DIR=$dir
  export SLURM_CONF=$dir/slurm.conf
}

tb_down() {   # [NAME]   (explicit; tb_cleanup does it anyway)
  local name=${1:-${TB_NAME:-tb}}
  local dir=${TB_DIRS[$name]:-}
  [ -n "$dir" ] || return 0
  "$TESTBED" down --dir "$dir"
}

tb_restart_ctld() {   # [--kill9]
  "$TESTBED" restart-ctld --dir "$TB_DIR" "$@"
}

# Rewrites SchedulerParameters in the current testbed's slurm.conf and reconfigures.
tb_set_params() {   # VALUE ('' removes the line)
  local conf=$TB_DIR/slurm.conf
  sed -i '/^SchedulerParameters=/d' "$conf"
  if [ -n "$1" ]; then echo "SchedulerParameters=$1" >> "$conf"; fi
  scontrol reconfigure || fail "scontrol reconfigure failed after SchedulerParameters=$1"
  note "SchedulerParameters=$1 (reconfigured)"
}

# Processes of the testbed in DIR still alive: our daemons carry EASYPP_TESTBED_DAEMON_OF=DIR,
# slurmstepd and batch scripts hold files open in DIR/log or DIR/spool, job payloads have
# SLURM_JOB_ID and SLURM_CONF=DIR/slurm.conf in their environment.
tb_leftovers() {   # DIR
  local dir=$1 p st f
  {
    grep -lxzF "EASYPP_TESTBED_DAEMON_OF=$dir" /proc/[0-9]*/environ 2>/dev/null | cut -d/ -f3 || true
    grep -lxzF "SLURM_CONF=$dir/slurm.conf" /proc/[0-9]*/environ 2>/dev/null | while read -r f; do
      if grep -qz '^SLURM_JOB_ID=' "$f" 2>/dev/null; then echo "$f" | cut -d/ -f3; fi
    done
    find /proc/[0-9]*/fd -maxdepth 1 \( -lname "$dir/log/*" -o -lname "$dir/spool/*" \) 2>/dev/null \
      | cut -d/ -f3 || true
  } | sort -un | while read -r p; do
    [ "$p" = $$ ] && continue
    st=$(sed 's/^.*) \([A-Za-z]\) .*/\1/' "/proc/$p/stat" 2>/dev/null) || continue
    if [ -n "$st" ] && [ "$st" != Z ]; then echo "$p $(tr '\0' ' ' 2>/dev/null < "/proc/$p/cmdline")"; fi
  done
  return 0
}

# The EXIT trap belongs to tb_up; a test that needs its own clean-up defines
# test_cleanup(), which runs first (with the testbeds still up).
tb_cleanup() {
  local rc=$? name dir f
  trap - EXIT
  set +e
  if declare -F test_cleanup >/dev/null; then test_cleanup; fi
  for name in "${!TB_DIRS[@]}"; do
    dir=${TB_DIRS[$name]}
    [ -d "$dir" ] || continue
    if [ $rc -ne 0 ] && [ $rc -ne 77 ] && [ -f "$dir/slurm.conf" ]; then
      echo "--- testbed $name at failure:"
      SLURM_CONF=$dir/slurm.conf squeue -o '%i %j %T %C %l %M %R' 2>&1 | head -n 20
      SLURM_CONF=$dir/slurm.conf sinfo -N -o '%N %T %C' 2>&1 | head -n 20
    fi
    "$TESTBED" down --dir "$dir" || rc=1
    rm -f "$TEST_RESULTS/$name"
    mkdir -p "$TEST_RESULTS/$name"
    cp -r "$dir/log" "$TEST_RESULTS/$name/" 2>/dev/null
    cp "$dir"/slurm.conf "$dir"/jobcomp.txt "$dir"/testbed.settings "$TEST_RESULTS/$name/" 2>/dev/null
    [ ! -d "$dir/out" ] || cp -r "$dir/out" "$TEST_RESULTS/$name/"
    if [ $rc -ne 0 ] && [ $rc -ne 77 ]; then
      for f in "$dir"/log/slurmctld.log "$dir"/log/slurmdbd.log; do
        [ -f "$f" ] || continue
        echo "--- last lines of $name/log/$(basename "$f") (all logs in $TEST_RESULTS/$name/log/)"
        tail -n 20 "$f"
      done
    fi
    if [ -n "$(tb_leftovers "$dir")" ]; then
      echo "FAIL: testbed $name left processes behind after down:"; tb_leftovers "$dir"; rc=1
    else
      rm -rf "$dir"
    fi
  done
  exit $rc
}

# --- jobs ----------------------------------------------------------------------------
# Submits `sbatch --wrap CMD` with NTASKS tasks, a TIME limit in minutes and a job name;
# further arguments go to sbatch. Prints the job id. Output goes to $TB_DIR/out/.
tb_submit() {   # NTASKS TIME NAME CMD [sbatch options...]
  [ $# -ge 4 ] || fail "tb_submit NTASKS TIME NAME CMD [sbatch options...]"
  local n=$1 t=$2 name=$3 cmd=$4 out
  shift 4
  mkdir -p "$TB_DIR/out"
  out=$(sbatch --parsable -o "$TB_DIR/out/%j.out" -n "$n" -t "$t" -J "$name" "$@" --wrap "$cmd") \
    || fail "sbatch -n $n -t $t -J $name $* --wrap '$cmd' failed"
  echo "${out%%;*}"
}

# One field of `scontrol show job -o JOB` (e.g. JobState, Reason, NodeList, StartTime).
job_field() {   # JOB FIELD
  local line
  line=$(scontrol show job -o "$1" 2>/dev/null) || { echo "?"; return 0; }
  printf '%s\n' "$line" | tr ' ' '\n' | sed -n "s/^$2=//p" | head -n 1
}

# Waits until JOB's state is STATE (or one of A|B|C); fails the test after TIMEOUT s.
wait_state() {   # JOB STATE TIMEOUT
  local job=$1 want=$2 timeout=$3 state deadline
  deadline=$(( $(date +%s) + timeout ))
  while :; do
    state=$(job_field "$job" JobState)
    if [[ "|$want|" == *"|$state|"* ]]; then note "job $job is $state"; return 0; fi
    if [ "$(date +%s)" -ge $deadline ]; then
      fail "job $job: state $state (reason $(job_field "$job" Reason)) after ${timeout}s, expected $want"
    fi
    sleep 0.2
  done
}

# Backfill scheduler cycles run so far (sdiag "Backfilling stats: Total cycles").
bf_cycles() {
  sdiag 2>/dev/null | awk '/^Backfilling stats/ {b=1} b && /Total cycles:/ {print $3; exit}'
}

# Waits until at least N more backfill cycles have run than FROM; fails after TIMEOUT s.
wait_bf_cycles() {   # FROM N TIMEOUT
  local from=$1 n=$2 timeout=$3 now deadline
  deadline=$(( $(date +%s) + timeout ))
  while :; do
    now=$(bf_cycles)
    [ "${now:-0}" -lt $((from + n)) ] || { note "backfill cycles: $from -> $now"; return 0; }
    [ "$(date +%s)" -lt $deadline ] || fail "only $((${now:-0} - from)) backfill cycles in ${timeout}s, wanted $n"
    sleep 0.5
  done
}
