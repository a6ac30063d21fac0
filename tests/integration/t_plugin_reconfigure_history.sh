#!/bin/bash
# History learnt since the last save survives `scontrol reconfigure` (issue 19, must-show 3).
# easypp_save_interval=3600: no periodic save happens during the test. Two jobs end, a pass
# learns them, and the reconfigure follows at once (changing a key, so that 22.05's plugin
# builds a new configuration). Worked out from the code: on 22.05 the plugin stays loaded
# and hands its history to the new planner in memory ("kept in memory"); from 23.11
# slurmctld execs a new process, the old one's fini saves and the new one loads ("loaded
# from STATE"). Either way the line after the reconfigure counts the 2 jobs.
# shellcheck source=tests/integration/lib.sh
. "$(dirname "$0")/lib.sh"
need_plugin
tb_up --scheduler sched/easypp --nodes 1 --cpus 4 --params easypp_interval=1,easypp_save_interval=3600
log=$TB_DIR/log/slurmctld.log
state=$TB_DIR/state/easypp/predictor.json
version=$(scontrol --version | awk '{print $2}')
case $version in
  22.05.*) expected="kept in memory" settle=2 ;;  # the old planner must have learnt them
  *) expected="loaded from $state" settle=0 ;;    # fini learns what ended since the last pass
esac

a=$(tb_submit 1 1 h "sleep 1")
b=$(tb_submit 1 1 h "sleep 1")
wait_state "$a" COMPLETED 20
wait_state "$b" COMPLETED 20
sleep "$settle"  # a pass (every second) learns them; the next save would be in an hour
[ ! -e "$state" ] || fail "$state written before the reconfigure (save interval 3600 s)"
from=$(wc -l < "$log")
tb_set_params easypp_interval=1,easypp_save_interval=3601

records_after() {   # the record count of the history line logged after the reconfigure
  tail -n +"$((from + 1))" "$log" | grep -o "predictor history $expected ([0-9]* records)" \
    | tail -n 1 | sed 's/.*(\([0-9]*\) records)/\1/'
}
for _ in $(seq 100); do [ -n "$(records_after)" ] && break; sleep 0.2; done
assert_eq 2 "$(records_after)" "records after scontrol reconfigure on $version ($expected)"
c=$(tb_submit 1 1 after "sleep 1")
wait_state "$c" COMPLETED 20
note "ok: Slurm $version kept both jobs' history across the reconfigure ($expected)"

# A newer easypp's state file (a downgrade): every save is refused while it stays, and the
# error is logged once, not every save interval (here every second for 4 s).
tb_set_params easypp_interval=1,easypp_save_interval=1
sleep 2  # what is learnt gets saved; then the newer file replaces it, loaded at the restart
printf '{"format":"easypp-predictor-state","schema":99,"spec":"","users":[]}\n' > "$state"
tb_restart_ctld
from=$(wc -l < "$log")
d=$(tb_submit 1 1 newer "sleep 1")
wait_state "$d" COMPLETED 20
sleep 4
refused=$(tail -n +"$((from + 1))" "$log" | grep -c "saving predictor history to $state failed: .*newer easypp" || true)
assert_eq 1 "$refused" "save errors logged for a newer state file (saves every second)"
grep -q '"schema":99' "$state" || fail "the newer state file was overwritten"
