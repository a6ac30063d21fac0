#!/bin/bash
# Bad SchedulerParameters: one error line per bad easypp_ key naming key=value and the
# default used; Slurm's own keys are not ours to judge; slurmctld keeps running with the
# defaults and runs jobs. `scontrol reconfigure` applies a corrected value.
. "$(dirname "$0")/lib.sh"
need_plugin
tb_up --scheduler sched/easypp --nodes 1 --cpus 4 \
  --params "easypp_window=0,easypp_policy=bogus,easypp_frob=1,easypp_interval=abc,bf_interval=1"
log=$TB_DIR/log/slurmctld.log

j=$(tb_submit 1 1 ok "sleep 1")
wait_state "$j" COMPLETED 20
for want in \
  "error: sched/easypp: SchedulerParameters easypp_window=0: expected an integer in 1..30; using default 2" \
  "error: sched/easypp: SchedulerParameters easypp_policy=bogus: unknown policy (valid: fcfs[:depth=N," \
  ", timed-run[:base=fcfs|easy,trial=SECONDS]); using default easy++" \
  "error: sched/easypp: SchedulerParameters easypp_frob=1: unknown key" \
  "error: sched/easypp: SchedulerParameters easypp_interval=abc: expected an integer in 1..3600; using default 5"; do
  grep -qF "$want" "$log" || fail "missing in slurmctld.log: $want"
  note "ok: logged: $want"
done
n=$(grep -c "sched/easypp: SchedulerParameters" "$log")
assert_eq 4 "$n" "error lines (bf_interval is Slurm's key, not reported)"
grep -q "sched/easypp: policy=easy++," "$log" || fail "the default policy easy++ is not in use"
scontrol ping | grep -q UP || fail "slurmctld not responding"

sed -i 's/^SchedulerParameters=.*/SchedulerParameters=easypp_policy=easy-sjbf/' "$TB_DIR/slurm.conf"
scontrol reconfigure
for _ in $(seq 50); do grep -q "sched/easypp: policy=easy-sjbf," "$log" && break; sleep 0.2; done
grep -q "sched/easypp: policy=easy-sjbf," "$log" || fail "scontrol reconfigure did not apply easypp_policy=easy-sjbf"
note "ok: reconfigure applied easypp_policy=easy-sjbf"
j=$(tb_submit 1 1 ok2 "sleep 1")
wait_state "$j" COMPLETED 20

# A policy that kills and requeues running jobs is simulator-only: refused, with the reason.
before=$(grep -c "sched/easypp: policy=easy++," "$log")
sed -i 's/^SchedulerParameters=.*/SchedulerParameters=easypp_policy=pv-easy/' "$TB_DIR/slurm.conf"
scontrol reconfigure
want="error: sched/easypp: SchedulerParameters easypp_policy=pv-easy: this policy kills and requeues running jobs"
for _ in $(seq 50); do grep -qF "$want" "$log" && break; sleep 0.2; done
grep -qF "$want" "$log" || fail "missing in slurmctld.log: $want"
note "ok: logged: $want"
for _ in $(seq 50); do [ "$(grep -c "sched/easypp: policy=easy++," "$log")" -gt "$before" ] && break; sleep 0.2; done
[ "$(grep -c "sched/easypp: policy=easy++," "$log")" -gt "$before" ] || fail "pv-easy refused, but the default easy++ was not put back"
note "ok: pv-easy refused, default easy++ in use"
j=$(tb_submit 1 1 ok3 "sleep 1")
wait_state "$j" COMPLETED 20
