#!/bin/bash
# With AccountingStorageType=accounting_storage/slurmdbd and no saved history, the plugin
# learns the jobs slurmdbd saw end recently (easypp_bootstrap_days) instead of starting
# empty. Here: two jobs finish and reach slurmdbd; then slurmctld restarts with the plugin
# pointed at a new, empty state file and must bootstrap both from slurmdbd. (A restart,
# not `scontrol reconfigure`: on 22.05 a reconfigure hands the history learnt so far to the
# new configuration in memory, so there is nothing to bootstrap.) Then the same with
# slurmdbd down while slurmctld starts (both daemons restarted, slurmdbd late), and a cold
# start, so that the jobs are only in slurmdbd: the bootstrap fails and stays owed, also
# across a restart of slurmctld after a job was learnt live (a marker beside the state
# file; one made unreadable too), and learns all three once slurmdbd answers.
. "$(dirname "$0")/lib.sh"
need_plugin
need_cmd mariadb-install-db mariadb-server
tb_up --scheduler sched/easypp --nodes 1 --cpus 4 --accounting --params easypp_save_interval=1
log=$TB_DIR/log/slurmctld.log

# Waits until slurmdbd lists JOBS as COMPLETED, with the same query the plugin makes: a
# time window and no job list (with -j, slurmdbd lists a job a little before it matches a
# windowed query).
wait_in_sacct() {   # WHAT JOB...
  local what=$1 want=$(( $# - 1 )) ids n=0
  shift
  ids=$(IFS='|'; echo "$*")
  for _ in $(seq 60); do
    n=$(sacct -n -X -P -S now-30days -E now -o JobID,State 2>/dev/null | grep -cE "^($ids)\|COMPLETED" || true)
    [ "$n" = "$want" ] && break
    sleep 0.5
  done
  assert_eq "$want" "$n" "$what COMPLETED in sacct (slurmdbd has them)"
}
wait_log() {   # PATTERN TRIES: line = the last log line with PATTERN, polled every 0.2 s
  line=''
  for _ in $(seq "$2"); do
    line=$(grep -F "$1" "$log" | tail -n 1 || true)
    [ -n "$line" ] && break
    sleep 0.2
  done
  note "log: ${line:-(none: $1)}"
}

a=$(tb_submit 1 1 acct "sleep 2")
b=$(tb_submit 1 1 acct "sleep 2")
wait_state "$a" COMPLETED 30
wait_state "$b" COMPLETED 30
wait_in_sacct "jobs a and b" "$a" "$b"

sed -i "s|^SchedulerParameters=.*|SchedulerParameters=easypp_save_interval=1,easypp_state_file=$TB_DIR/state/easypp/fresh.json|" \
  "$TB_DIR/slurm.conf"
tb_restart_ctld
# slurmdbd is asked on the plugin's own thread while passes go on: the first pass may
# learn a and b first from slurmctld's job list (a warm restart keeps them for MinJobAge);
# either way slurmdbd lists both and the history holds both. (The cold start below has
# them in slurmdbd only.)
wait_log "jobs of the last 30 days learnt (2 records)" 100
[[ "$line" =~ bootstrapped\ history\ from\ slurmdbd:\ [0-2]\ of\ 2\ jobs\ of\ the\ last\ 30\ days\ learnt\ \(2\ records\) ]] \
  || fail "no bootstrap of the 2 jobs from slurmdbd after pointing at an empty state file"
for _ in $(seq 50); do [ -f "$TB_DIR/state/easypp/fresh.json" ] && break; sleep 0.2; done
[ -f "$TB_DIR/state/easypp/fresh.json" ] || fail "bootstrapped history not saved"
c=$(tb_submit 1 1 after "sleep 1")
wait_state "$c" COMPLETED 20
wait_in_sacct "job c" "$c"

# slurmdbd down while slurmctld cold-starts (its jobs gone: only slurmdbd has a, b, c).
"$TESTBED" stop-dbd --dir "$TB_DIR" >/dev/null || fail "contrib/testbed stop-dbd failed"
sed -i "s|^SchedulerParameters=.*|SchedulerParameters=easypp_save_interval=1,easypp_state_file=$TB_DIR/state/easypp/late.json|" \
  "$TB_DIR/slurm.conf"
tb_restart_ctld --cold
wait_log "sched/easypp: bootstrapping history from slurmdbd failed" 100
[[ "$line" == *"trying again in 15 s"* ]] || fail "no failed bootstrap logged with slurmdbd down"
[ -f "$TB_DIR/state/easypp/late.json.bootstrap-owed" ] || fail "no marker of the owed bootstrap"
# Meanwhile d ends and is learnt live (saved: the history is no longer empty), and
# slurmctld restarts: the bootstrap is still owed (the marker), not skipped.
d=$(tb_submit 1 1 during "sleep 1")
wait_state "$d" COMPLETED 20
for _ in $(seq 50); do [ -f "$TB_DIR/state/easypp/late.json" ] && break; sleep 0.2; done
[ -f "$TB_DIR/state/easypp/late.json" ] || fail "d's history not saved"
tb_restart_ctld
wait_log "sched/easypp: a bootstrap from slurmdbd is owed since" 100
[ -n "$line" ] || fail "the owed bootstrap was forgotten across a restart of slurmctld"
# A marker that cannot be read (a disk fault) still says it is owed: owed from now, rewritten.
marker=$TB_DIR/state/easypp/late.json.bootstrap-owed
echo garbage > "$marker"
tb_restart_ctld
wait_log "bootstrap-owed is not one epoch second" 100
[ -n "$line" ] || fail "an unreadable marker was not reported"
grep -qxE '[0-9]+' "$marker" || fail "the unreadable marker was not written anew: $(cat "$marker")"
"$TESTBED" start-dbd --dir "$TB_DIR" >/dev/null || fail "contrib/testbed start-dbd failed"
# Asked again 30 s after the restart's failed try (15 s, doubled).
wait_log "sched/easypp: bootstrapped history from slurmdbd (it answers again)" 400
# a, b and c learnt; d too if its record reached slurmdbd (queued while it was down), but
# learnt live already.
[[ "$line" =~ \(it\ answers\ again\):\ 3\ of\ [34]\ jobs\ of\ the\ last\ 30\ days\ learnt\ \(4\ records\) ]] \
  || fail "no late bootstrap of a, b and c once slurmdbd answered again"
[ ! -e "$TB_DIR/state/easypp/late.json.bootstrap-owed" ] || fail "the marker outlived the bootstrap"
# Saved before the log line, with the marker's removal: a crash before the next periodic
# save must not leave a history with d but no a, b, c and no marker (never bootstrapped).
for j in "$a" "$b" "$c"; do
  grep -qF "[$j," "$TB_DIR/state/easypp/late.json" || fail "job $j, bootstrapped, not in the saved history yet"
done

# slurmctld stops while slurmdbd is still being asked (3650 days, asked a day at a time on
# the plugin's own thread, while passes go on and may save history learnt live): the
# bootstrap stays owed, since the marker is written at the first try, not at the first
# failure; the stop waits for the day being asked only, and the restart asks again.
long=$TB_DIR/state/easypp/long.json
sed -i "s|^SchedulerParameters=.*|SchedulerParameters=easypp_save_interval=1,easypp_bootstrap_days=3650,easypp_state_file=$long|" \
  "$TB_DIR/slurm.conf"
tb_restart_ctld
wait_log "asking slurmdbd for the jobs that ended in the last 3650 days" 100
[ -n "$line" ] || fail "no bootstrap asked for the 3650-day window"
[ -f "$long.bootstrap-owed" ] || fail "no marker while slurmdbd is still being asked"
answered=$(grep -c "jobs of the last 3650 days learnt" "$log" || true)
sed -i "s|easypp_bootstrap_days=3650|easypp_bootstrap_days=30|" "$TB_DIR/slurm.conf"
tb_restart_ctld
if [ "$answered" = 0 ]; then
  wait_log "owed since" 100
  [[ "$line" == *"($long.bootstrap-owed); asking slurmdbd"* ]] \
    || fail "the bootstrap in flight at the stop was forgotten across the restart"
  before=$(grep -c "(it answers again)" "$log" || true)
  for _ in $(seq 100); do
    [ "$(grep -c "(it answers again)" "$log" || true)" -gt "$before" ] && break
    sleep 0.2
  done
  [ "$(grep -c "(it answers again)" "$log" || true)" -gt "$before" ] \
    || fail "the owed bootstrap was not asked again after the restart"
  note "ok: $(grep -F "(it answers again)" "$log" | tail -n 1)"
else
  note "slurmdbd answered the 3650 days before the stop: nothing left owed to check"
fi
[ ! -e "$long.bootstrap-owed" ] || fail "the marker outlived the bootstrap"

# 22.05's `scontrol reconfigure` keeps the plugin loaded: one that changes
# easypp_bootstrap_days while the query is in flight stops it after its day and asks the
# new window (before, the old window's answer was learnt as the new one's). From 23.11 a
# reconfigure restarts slurmctld, the case above.
if [[ "$(scontrol --version | awk '{print $2}')" == 22.05.* ]]; then
  again=$TB_DIR/state/easypp/again.json
  sed -i "s|^SchedulerParameters=.*|SchedulerParameters=easypp_save_interval=1,easypp_bootstrap_days=3650,easypp_state_file=$again|" \
    "$TB_DIR/slurm.conf"
  from=$(wc -l < "$log")
  tb_restart_ctld
  for _ in $(seq 100); do
    tail -n +"$((from + 1))" "$log" | grep -qF "ended in the last 3650 days" && break
    sleep 0.2
  done
  tail -n +"$((from + 1))" "$log" | grep -qF "ended in the last 3650 days" \
    || fail "no bootstrap asked for the 3650-day window (again)"
  if tail -n +"$((from + 1))" "$log" | grep -qF "jobs of the last 3650 days learnt"; then
    note "slurmdbd answered the 3650 days before the reconfigure: nothing to check"
  else
    tb_set_params "easypp_save_interval=1,easypp_bootstrap_days=20,easypp_state_file=$again"
    wait_log "asking slurmdbd for the jobs that ended in the last 20 days" 150
    [ -n "$line" ] || fail "the reconfigure to 20 days did not ask slurmdbd for them (the 3650-day query went on)"
    wait_log "jobs of the last 20 days learnt" 150
    [ -n "$line" ] || fail "the 20-day bootstrap was not learnt"
    [ ! -e "$again.bootstrap-owed" ] || fail "the marker outlived the 20-day bootstrap"
    note "ok: the reconfigure's window was asked and learnt"
  fi
fi
