#!/bin/bash
# restart-ctld keeps state: a running job and a pending one survive a clean restart and a
# kill -9 of slurmctld, the running one completes, and job ids keep counting.
# shellcheck source=tests/integration/lib.sh
. "$(dirname "$0")/lib.sh"

tb_up --nodes 1 --cpus 4
run=$(tb_submit 4 2 running 'sleep 8')
wait_state "$run" RUNNING 20
held=$(tb_submit 1 2 held 'true' --hold)
pid_before=$(cat "$TB_DIR/run/slurmctld.pid")

tb_restart_ctld
pid_clean=$(cat "$TB_DIR/run/slurmctld.pid")
[ "$pid_clean" != "$pid_before" ] || fail "slurmctld pid unchanged ($pid_clean) after restart-ctld"
assert_eq RUNNING "$(job_field "$run" JobState)" "running job after a clean restart"
assert_eq PENDING "$(job_field "$held" JobState)" "held job after a clean restart"

tb_restart_ctld --kill9
assert_eq RUNNING "$(job_field "$run" JobState)" "running job after kill -9"
assert_eq PENDING "$(job_field "$held" JobState)" "held job after kill -9"
wait_state "$run" COMPLETED 30
scontrol release "$held"
wait_state "$held" COMPLETED 30
next=$(tb_submit 1 1 next 'true')
[ "$next" -gt "$held" ] || fail "job id $next after restarts is not above $held"
note "ok: job ids continue ($next)"
