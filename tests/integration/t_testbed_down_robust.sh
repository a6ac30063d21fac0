#!/bin/bash
# `down` cleans up whatever state the testbed is in: slurmctld killed with -9 (so no
# `scontrol shutdown` is possible) while a job runs, and a slurmd killed too. Nothing of
# the testbed survives, including the running job's slurmstepd and payload.
# shellcheck source=tests/integration/lib.sh
. "$(dirname "$0")/lib.sh"

tb_up --nodes 2 --cpus 2
j1=$(tb_submit 2 5 one 'sleep 300')
j2=$(tb_submit 2 5 two 'sleep 300')
wait_state "$j1" RUNNING 20
wait_state "$j2" RUNNING 20
payloads=0
for _ in $(seq 50); do
  payloads=$(tb_leftovers "$TB_DIR" | grep -c ' sleep 300 $' || true)
  [ "$payloads" != 2 ] || break
  sleep 0.1
done
assert_eq 2 "$payloads" "running 'sleep 300' payloads seen by tb_leftovers"

kill -9 "$(cat "$TB_DIR/run/slurmctld.pid")"
kill -9 "$(cat "$TB_DIR/run/slurmd-n2.pid")"
sleep 0.5
# shellcheck disable=SC2119
tb_down
left=$(tb_leftovers "$TB_DIR")
[ -z "$left" ] || fail "processes left after down with slurmctld and one slurmd killed: $left"
note "ok: nothing left after down (slurmctld and slurmd n2 had been killed with -9)"
