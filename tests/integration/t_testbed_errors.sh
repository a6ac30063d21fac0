#!/bin/bash
# Bad input to contrib/testbed gets one clear error naming the option and value, exit 1
# (2 for usage), and leaves nothing running; a failing `up` prints the log lines that say
# why and stops what it had started.
# shellcheck source=tests/integration/lib.sh
. "$(dirname "$0")/lib.sh"

dir=$(mktemp -d /tmp/easypp-tb.XXXXXX)
trap 'contrib_down; rm -rf "$dir"' EXIT
contrib_down() { "$TESTBED" down --dir "$dir" >/dev/null 2>&1 || true; }

expect_error() {   # EXIT-CODE TEXT -- ARGS...
  local code=$1 text=$2 out rc=0
  shift 3
  out=$("$TESTBED" "$@" 2>&1) || rc=$?
  [ "$rc" = "$code" ] || fail "contrib/testbed $*: exit $rc, expected $code (output: $out)"
  case "$out" in *"$text"*) ;; *) fail "contrib/testbed $*: output lacks '$text': $out" ;; esac
  note "ok: contrib/testbed $* -> exit $rc, '$text'"
}

expect_error 2 "contrib/testbed up [--scheduler" -- ""
expect_error 1 "unknown command 'start'" -- start
expect_error 1 "unknown option '--nodez'" -- up --dir "$dir" --nodez 4
expect_error 1 "option --nodes needs a value" -- up --dir "$dir" --nodes
expect_error 1 "--nodes 0: expected 1..64" -- up --dir "$dir" --nodes 0
expect_error 1 "--cpus x: expected a positive integer" -- up --dir "$dir" --cpus x
expect_error 1 "--scheduler sched/fifo: expected" -- up --dir "$dir" --scheduler sched/fifo
expect_error 1 "no /nonexistent/src/plugin/.libs/sched_easypp.so" -- up --dir "$dir" --scheduler sched/easypp --build /nonexistent
expect_error 1 "--partitions: 'nonodes' is not NAME:NODES" -- up --dir "$dir" --partitions 'nonodes'
expect_error 1 "--mem 0: expected a positive integer" -- up --dir "$dir" --mem 0
expect_error 1 "--select cr_cpu: expected a SelectTypeParameters value" -- up --dir "$dir" --select cr_cpu
expect_error 1 "--gres: 'gpu' is not NAME[:TYPE]:COUNT" -- up --dir "$dir" --gres gpu
expect_error 1 "--gres: 'gpu:0' has count 0" -- up --dir "$dir" --gres gpu:0
expect_error 1 "--enforce limits,qos: needs --accounting" -- up --dir "$dir" --enforce limits,qos
expect_error 1 "--max-jobs lots: expected a positive integer" -- up --dir "$dir" --max-jobs lots
long=/tmp/$(printf 'x%.0s' $(seq 70))
expect_error 1 "at most 64 are allowed" -- up --dir "$long"
[ ! -e "$long" ] || { rm -rf "$long"; fail "up created the too-long directory $long"; }
expect_error 1 "no testbed in /tmp/easypp-no-such-testbed" -- env --dir /tmp/easypp-no-such-testbed
[ ! -e /tmp/easypp-no-such-testbed ] || fail "env created /tmp/easypp-no-such-testbed"

# slurmctld refuses a partition over unknown nodes: up reports its fatal line and stops.
expect_error 1 "up failed: slurmctld exited" -- up --dir "$dir" --nodes 1 --partitions 'p:n[7-8]'
out=$("$TESTBED" up --dir "$dir" --nodes 1 --partitions 'p:n[7-8]' 2>&1) || true
case "$out" in *"fatal: Invalid node names in partition p"*) ;; *) fail "up did not show slurmctld's fatal line: $out" ;; esac
left=$(tb_leftovers "$dir")
[ -z "$left" ] || fail "a failed up left processes: $left"
note "ok: a failed up shows slurmctld's fatal line and leaves nothing running"
