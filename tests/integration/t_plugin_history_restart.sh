#!/bin/bash
# Prediction history survives `scontrol shutdown` + restart and `kill -9` + restart: it is
# saved under StateSaveLocation/easypp/predictor.json (periodically, here every second,
# and at shutdown) and loaded when the plugin starts.
. "$(dirname "$0")/lib.sh"
need_plugin
tb_up --scheduler sched/easypp --nodes 1 --cpus 4 --params easypp_save_interval=1
log=$TB_DIR/log/slurmctld.log
state=$TB_DIR/state/easypp/predictor.json

loaded_records() {   # the record count of the last "history loaded" line
  grep -o "predictor history loaded from $state ([0-9]* records)" "$log" | tail -n 1 \
    | sed 's/.*(\([0-9]*\) records)/\1/'
}

a=$(tb_submit 1 1 h "sleep 1")
b=$(tb_submit 1 1 h "sleep 1")
wait_state "$a" COMPLETED 20
wait_state "$b" COMPLETED 20
tb_restart_ctld
for _ in $(seq 50); do [ -n "$(loaded_records)" ] && break; sleep 0.2; done
assert_eq 2 "$(loaded_records)" "records loaded after scontrol shutdown + restart"
[ "$(stat -c %a "$state")" = 600 ] || fail "$state has mode $(stat -c %a "$state"), expected 600"

c=$(tb_submit 1 1 h "sleep 1")
wait_state "$c" COMPLETED 20
sleep 3  # a pass learns it, the next save (every 1 s) writes it
tb_restart_ctld --kill9
for _ in $(seq 50); do [ "$(loaded_records)" = 3 ] && break; sleep 0.2; done
assert_eq 3 "$(loaded_records)" "records loaded after kill -9 + restart"
d=$(tb_submit 1 1 after "sleep 1")
wait_state "$d" COMPLETED 20
