#!/bin/bash
# slurmctld's fatal() exits the process with the scheduler plugin loaded and busy, as it does
# with stock backfill: the plugin's exit-time clean-up must not wait for the scheduling
# thread (which waits for the locks fatal()'s caller holds) nor destroy it joinable
# (std::terminate). The fatal() here is 22.05's refusal of a MaxNodeCount change on
# reconfigure (read_config.c: "MaxNodeCount has changed ... slurmctld must be restarted",
# raised with every slurmctld lock held). The new node lines are many FUTURE nodes, so the
# reconfiguration holds the locks for seconds before its fatal(): the scheduling thread,
# woken meanwhile, is then waiting for them (before 84e02b9 slurmctld hung there until
# killed: this test failed on that commit's parent). Slurm 23.11 and later reconfigure by
# starting a new slurmctld, which never reaches that fatal(): skipped there.
# shellcheck source=tests/integration/lib.sh
. "$(dirname "$0")/lib.sh"

# The release the testbed runs (slurmctld -V needs no configuration).
version=$("${EASYPP_SLURM_PREFIX:-/usr}/sbin/slurmctld" -V | awk '{print $2}')
case "$version" in
  22.05.*|23.02.*) ;;
  *) skip "slurmctld $version reconfigures by restarting itself: no fatal() on a MaxNodeCount change" ;;
esac

case_fatal_exits() {
  live_up --nodes 2 --cpus 2
  local running pending pid log deadline
  # Work for the scheduling thread: one job running, two waiting behind it.
  running=$(tb_submit 4 2 running 'sleep 60')
  wait_state "$running" RUNNING 20
  pending=$(tb_submit 4 2 pending 'sleep 1')
  tb_submit 1 5 small 'sleep 1' >/dev/null
  assert_eq PENDING "$(job_field "$pending" JobState)" "the job behind the running one"
  pid=$(cat "$TB_DIR/run/slurmctld.pid")
  log=$TB_DIR/log/slurmctld.log
  echo "NodeName=ghost[1-30000] CPUs=1 State=FUTURE" >> "$TB_DIR/slurm.conf"
  scontrol reconfigure >/dev/null 2>&1 || true  # the reply may never come
  deadline=$(( $(date +%s) + 30 ))
  while kill -0 "$pid" 2>/dev/null && [ "$(date +%s)" -lt "$deadline" ]; do sleep 0.2; done
  grep -q 'MaxNodeCount has changed' "$log" || fail "slurmctld never reached the MaxNodeCount fatal() (see $log)"
  if kill -0 "$pid" 2>/dev/null; then
    fail "slurmctld (pid $pid) still running 30 s after fatal(): stuck in its exit"
  fi
  if grep -E 'terminate called|Aborted|core dumped|sched/easypp: .*(exception|crash)' "$log"; then
    fail "slurmctld did not exit cleanly from fatal() (lines above, from $log)"
  fi
  note "ok: slurmctld exited within 30 s of fatal()"
}

each_scheduler case_fatal_exits
