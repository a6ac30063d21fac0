#!/bin/bash
# With AccountingStorageType=accounting_storage/slurmdbd and no saved history, the plugin
# learns the jobs slurmdbd saw end recently (easypp_bootstrap_days) instead of starting
# empty. Here: two jobs finish and reach slurmdbd; then slurmctld restarts with the plugin
# pointed at a new, empty state file and must bootstrap both from slurmdbd. (A restart,
# not `scontrol reconfigure`: on 22.05 a reconfigure hands the history learnt so far to the
# new configuration in memory, so there is nothing to bootstrap.) Then the same with
# slurmdbd down while slurmctld starts (both daemons restarted, slurmdbd late), and a cold
# start, so that the jobs are only in slurmdbd: the bootstrap fails, is tried again 15 s
# later, and learns all three once slurmdbd answers.
. "$(dirname "$0")/lib.sh"
need_plugin
need_cmd mariadb-install-db mariadb-server
tb_up --scheduler sched/easypp --nodes 1 --cpus 4 --accounting --params easypp_save_interval=1
log=$TB_DIR/log/slurmctld.log

a=$(tb_submit 1 1 acct "sleep 2")
b=$(tb_submit 1 1 acct "sleep 2")
wait_state "$a" COMPLETED 30
wait_state "$b" COMPLETED 30
# The same query the plugin makes: a time window and no job list (with -j, slurmdbd
# lists a job a little before it matches a windowed query).
for _ in $(seq 60); do
  n=$(sacct -n -X -P -S now-30days -E now -o JobID,State 2>/dev/null | grep -cE "^($a|$b)\|COMPLETED" || true)
  [ "$n" = 2 ] && break
  sleep 0.5
done
assert_eq 2 "$n" "jobs COMPLETED in sacct (slurmdbd has them)"

sed -i "s|^SchedulerParameters=.*|SchedulerParameters=easypp_save_interval=1,easypp_state_file=$TB_DIR/state/easypp/fresh.json|" \
  "$TB_DIR/slurm.conf"
tb_restart_ctld
line=
for _ in $(seq 100); do
  line=$(grep "sched/easypp: bootstrapped history from slurmdbd" "$log" | tail -n 1 || true)
  [[ "$line" == *" of 2 jobs "* ]] && break
  sleep 0.2
done
note "log: $line"
[[ "$line" == *"bootstrapped history from slurmdbd: 2 of 2 jobs of the last 30 days learnt (2 records)"* ]] \
  || fail "no bootstrap of the 2 jobs from slurmdbd after pointing at an empty state file"
for _ in $(seq 50); do [ -f "$TB_DIR/state/easypp/fresh.json" ] && break; sleep 0.2; done
[ -f "$TB_DIR/state/easypp/fresh.json" ] || fail "bootstrapped history not saved"
c=$(tb_submit 1 1 after "sleep 1")
wait_state "$c" COMPLETED 20
for _ in $(seq 60); do
  sacct -n -X -P -S now-30days -E now -o JobID,State 2>/dev/null | grep -qE "^$c\|COMPLETED" && break
  sleep 0.5
done

"$TESTBED" stop-dbd --dir "$TB_DIR" >/dev/null || fail "contrib/testbed stop-dbd failed"
sed -i "s|^SchedulerParameters=.*|SchedulerParameters=easypp_save_interval=1,easypp_state_file=$TB_DIR/state/easypp/late.json|" \
  "$TB_DIR/slurm.conf"
tb_restart_ctld --cold
line=
for _ in $(seq 100); do
  line=$(grep "sched/easypp: bootstrapping history from slurmdbd failed" "$log" | tail -n 1 || true)
  [ -n "$line" ] && break
  sleep 0.2
done
note "log: $line"
[[ "$line" == *"trying again in 15 s"* ]] || fail "no failed bootstrap logged with slurmdbd down"
"$TESTBED" start-dbd --dir "$TB_DIR" >/dev/null || fail "contrib/testbed start-dbd failed"
line=
for _ in $(seq 150); do
  line=$(grep "sched/easypp: bootstrapped history from slurmdbd (it answers again)" "$log" | tail -n 1 || true)
  [ -n "$line" ] && break
  sleep 0.2
done
note "log: $line"
[[ "$line" == *"from slurmdbd (it answers again): 3 of 3 jobs of the last 30 days learnt (3 records)"* ]] \
  || fail "no late bootstrap of the 3 jobs once slurmdbd answered again"
