#!/bin/bash
# The testbed itself: up replaces a running testbed, 4 nodes come up idle, a batch job
# runs to COMPLETED, a 2-node srun runs on two distinct nodes, and `down` leaves none of
# the testbed's processes behind, even with a job still running.
# shellcheck disable=SC2119
# shellcheck source=tests/integration/lib.sh
. "$(dirname "$0")/lib.sh"

tb_up --scheduler sched/backfill --nodes 3 --cpus 4
old=$(sort -un "$TB_DIR"/run/*.pid | tr '\n' ' ')
# up again on a running testbed: a fresh cluster replaces it (here with 4 nodes).
"$TESTBED" up --dir "$TB_DIR" --build "$BUILD" --scheduler sched/backfill --nodes 4 --cpus 4 >/dev/null
for pid in $old; do
  if tb_daemon_alive "$TB_DIR" "$pid"; then
    fail "pid $pid of the first up still runs after the second up"
  fi
done
assert_eq 4 "$(sinfo -h -N -t idle -o %N | sort -u | wc -l)" "idle nodes after up"
status=$("$TESTBED" status --dir "$TB_DIR")
printf '%s\n' "$status"
case "$status" in *"slurmctld: running"*"slurmd-n4: running"*) ;; *) fail "status does not show slurmctld and slurmd-n4 running" ;; esac

job=$(tb_submit 2 1 basic 'echo payload-ran; sleep 2')
wait_state "$job" RUNNING 20
wait_state "$job" COMPLETED 30
assert_eq 0:0 "$(job_field "$job" ExitCode)" "batch job exit code"
grep -q payload-ran "$TB_DIR/out/$job.out" || fail "job output $TB_DIR/out/$job.out lacks the payload's line"

lines=$(timeout 60 srun -N2 -t1 hostname | wc -l)
assert_eq 2 "$lines" "lines printed by srun -N2 hostname"
# shellcheck disable=SC2016
hosts=$(timeout 60 srun -N2 -t1 bash -c 'echo $SLURMD_NODENAME' | sort -u | tr '\n' ' ')
# Two distinct testbed nodes (which two depends on what is still completing).
[[ "$hosts" =~ ^n[1-4]\ n[1-4]\ $ ]] || fail "srun -N2 ran on '$hosts', expected two distinct nodes of n1..n4"
note "ok: srun -N2 ran on $hosts"

# jobcomp/filetxt records the finished batch job.
grep -q "JobId=$job .*JobState=COMPLETED" "$TB_DIR/jobcomp.txt" || fail "no COMPLETED record of job $job in jobcomp.txt"

# A job still running at down time must not survive it (slurmstepd outlives slurmd).
long=$(tb_submit 1 5 long 'sleep 300')
wait_state "$long" RUNNING 20
daemons=$(sort -un "$TB_DIR"/run/*.pid | tr '\n' ' ')
tb_down
for pid in $daemons; do
  if tb_daemon_alive "$TB_DIR" "$pid"; then
    fail "daemon pid $pid still running after down: $(tr '\0' ' ' 2>/dev/null < "/proc/$pid/cmdline")"
  fi
done
left=$(tb_leftovers "$TB_DIR")
[ -z "$left" ] || fail "processes left after down: $left"
note "ok: no processes of the testbed after down (daemons were $daemons)"
# down is idempotent
tb_down
