#!/bin/bash
# easypp-predict import --sacct against the testbed's real slurmdbd: jobs of known run
# times are learnt (a cancelled one is not), `show` predicts their mean (the default
# predictor: the mean of the user's last 2 runs), re-importing learns nothing new, and a
# later import learns only the new job. With slurmdbd down, import fails with exit 2 and
# leaves the state file untouched.
# shellcheck source=tests/integration/lib.sh
. "$(dirname "$0")/lib.sh"
cli=$BUILD/src/tools/easypp-predict
[ -x "$cli" ] || skip "easypp-predict not built ($cli missing; make in $BUILD)"
need_cmd mariadbd mariadb-server
need_cmd slurmdbd slurmdbd

tb_up --nodes 2 --cpus 4 --accounting
state=$TB_DIR/predictor.json
since=$(date -d '-1 hour' +%Y-%m-%dT%H:%M:%S)

# What sacct says of JOB through the same time-window query easypp-predict import runs
# below (a job can show up for `sacct -j` a moment before it does in a window query).
sacct_of() {   # JOB -> "STATE ELAPSED_SECONDS"
  sacct -n -X -P --allusers -S "$since" -o JobIDRaw,State,ElapsedRaw 2>/dev/null \
    | awk -F'|' -v j="$1" '$1 == j {print $2, $3}'
}
wait_sacct() {   # JOB STATE-PREFIX
  local row=
  for _ in $(seq 100); do
    row=$(sacct_of "$1")
    case "$row" in "$2"*) return 0 ;; esac
    sleep 0.2
  done
  fail "job $1 not $2 in sacct after 20 s (sacct: '$row')"
}
elapsed() { sacct_of "$1" | awk '{print $NF}'; }
prediction() {   # ESTIMATE -> the predicted seconds from `show`
  local out
  out=$("$cli" show --state "$state" --estimate "$1" root) || fail "easypp-predict show failed: $out"
  printf '%s\n' "$out" >&2
  printf '%s\n' "$out" | sed -n "s/^next prediction for estimate $1 s: \([0-9]*\) s$/\1/p"
}
import() {   # -> the import summary line; fails the test on a non-zero exit
  local out rc=0
  out=$("$cli" import --state "$state" --sacct --allusers -S "$since" 2>&1) || rc=$?
  printf '%s\n' "$out" >&2
  [ $rc -eq 0 ] || fail "easypp-predict import --sacct exited $rc"
  printf '%s\n' "$out"
}
# mean of two integers: either rounding is accepted
assert_mean() {   # A B ACTUAL WHAT
  local lo=$(( ($1 + $2) / 2 )) hi=$(( ($1 + $2 + 1) / 2 ))
  if [ "$3" != "$lo" ] && [ "$3" != "$hi" ]; then fail "$4: expected mean of $1 and $2 ($lo..$hi), got '$3'"; fi
  note "ok: $4 = $3 (mean of $1 and $2)"
}

j1=$(tb_submit 1 2 short 'sleep 3')
j2=$(tb_submit 1 2 longer 'sleep 6')
j3=$(tb_submit 1 2 cancelled 'sleep 60')
wait_state "$j3" RUNNING 20
sleep 1
scancel "$j3"
wait_state "$j2" COMPLETED 30
wait_sacct "$j1" COMPLETED
wait_sacct "$j2" COMPLETED
wait_sacct "$j3" CANCELLED
r1=$(elapsed "$j1") r2=$(elapsed "$j2")
note "run times in sacct: job $j1 ${r1}s, job $j2 ${r2}s; job $j3 cancelled"

out=$(import)
case "$out" in *"learnt 2,"*) ;; *) fail "first import: expected 'learnt 2', got: $out" ;; esac
case "$out" in *"1 users, 2 runs kept"*) ;; *) fail "first import: expected '1 users, 2 runs kept', got: $out" ;; esac
p=$(prediction 120)
assert_mean "$r1" "$r2" "$p" "prediction after import"

out=$(import)
case "$out" in *"learnt 0,"*) ;; *) fail "re-import: expected 'learnt 0', got: $out" ;; esac
case "$out" in *"2 runs kept"*) ;; *) fail "re-import: expected '2 runs kept', got: $out" ;; esac
assert_eq "$p" "$(prediction 120)" "prediction after re-import"

j4=$(tb_submit 1 2 later 'sleep 2')
wait_state "$j4" COMPLETED 30
wait_sacct "$j4" COMPLETED
r4=$(elapsed "$j4")
out=$(import)
case "$out" in *"learnt 1,"*) ;; *) fail "import after a new job: expected 'learnt 1', got: $out" ;; esac
assert_mean "$r2" "$r4" "$(prediction 120)" "prediction from the last two runs"

# slurmdbd unreachable: import reports the source error (exit 2) and leaves the state alone.
before=$(sha256sum < "$state")
kill -TERM "$(cat "$TB_DIR/run/slurmdbd.pid")"
for _ in $(seq 50); do kill -0 "$(cat "$TB_DIR/run/slurmdbd.pid")" 2>/dev/null || break; sleep 0.1; done
rc=0
out=$(timeout 120 "$cli" import --state "$state" --sacct --allusers -S "$since" 2>&1) || rc=$?
printf '%s\n' "$out"
assert_eq 2 "$rc" "exit code of import --sacct with slurmdbd down"
assert_eq "$before" "$(sha256sum < "$state")" "state file after the failed import"
