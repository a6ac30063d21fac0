#!/bin/bash
# mq live (issue 18, point 4): paper 001's multiple-queue backfilling (section 3.2, Fig. 4)
# on a real partition's nodes under sched/easypp, and the same case through easypp-sim.
# Paper values: four queues by runtime limit (<= 100 s, <= 1000 s, <= 10000 s, longer),
# each first owning an even share of the processors (8 CPUs: 2 each); each queue's first
# job (its pivot) is reserved on the whole machine in arrival order; any other job starts
# only if it delays no pivot; a job short of processors in its own partition borrows idle
# ones of others (they join its partition). mq plans on limits. One 8-CPU node.
# Expected schedule, worked out by hand (t = R's start; limits in seconds):
#   R  6 CPUs, 10 min = 600 s, queue 1: starts at t on an empty machine; its partition has
#      2, so it borrows 2 of queue 0's and 2 of queue 2's -> shares {0, 6, 0, 2}.
#   A  4 CPUs, 50 min = 3000 s, queue 2 pivot: 2 CPUs idle -> reserved at t+600 (R's end).
#   B  8 CPUs, 200 min = 12000 s, queue 3 pivot: reserved at A's end, t+3600.
#   C  2 CPUs, 200 min, queue 3 behind B: fits the 2 idle CPUs now and leaves A its 4 at
#      t+600 (EASY, one reservation, starts it: easypp-sim easy backfills it at once), but
#      it would still run at t+3600 and delay pivot B -> stays pending.
#   D  2 CPUs, 1 min = 60 s, queue 0 pivot, submitted after: its partition is empty (lent
#      to R), so it starts only by borrowing queue 3's 2 idle CPUs; it ends long before A's
#      reservation -> starts at once.
# easypp-sim runs the same jobs (R ends at 600 s, D after 20 s, as `sleep` runs them) and
# must make the same decisions: D at its submit, A at 600, B at 3600, C only after B
# (3600 + 12000); under easy, C at its submit instead.
. "$(dirname "$0")/lib.sh"
need_plugin
sim=$BUILD/src/sim/easypp-sim
[ -x "$sim" ] || fail "$sim missing"

# The simulator first (a second): the hand-computed schedule, and EASY's difference.
swf=$TEST_RESULTS/mq-paper001.swf
cat >"$swf" <<'EOF'
; MaxProcs: 8
; R, A, B, C, D of this test: job submit wait runtime procs cpu mem req_procs req_time ...
1 0 0 600 6 -1 -1 6 600 -1 1 1 1 -1 -1 -1 -1 -1
2 10 0 3000 4 -1 -1 4 3000 -1 1 1 1 -1 -1 -1 -1 -1
3 10 0 12000 8 -1 -1 8 12000 -1 1 1 1 -1 -1 -1 -1 -1
4 10 0 12000 2 -1 -1 2 12000 -1 1 1 1 -1 -1 -1 -1 -1
5 40 0 20 2 -1 -1 2 60 -1 1 1 1 -1 -1 -1 -1 -1
EOF
"$sim" --trace "$swf" --policy mq,easy --machine 'nodes=1,cpus=8' \
  --schedule "$TEST_RESULTS/sim.csv" >"$TEST_RESULTS/sim.txt" || fail "easypp-sim failed"
sim_start() { awk -F, -v j="$2" '$1 == j { print $5 }' "$TEST_RESULTS/sim.$1.csv"; }
assert_eq 0 "$(sim_start mq 1)" "sim mq: R starts"
assert_eq 600 "$(sim_start mq 2)" "sim mq: A starts at R's end"
assert_eq 3600 "$(sim_start mq 3)" "sim mq: B starts at A's end"
assert_eq 15600 "$(sim_start mq 4)" "sim mq: C only after B"
assert_eq 40 "$(sim_start mq 5)" "sim mq: D at its submit (borrowing)"
assert_eq 10 "$(sim_start easy 4)" "sim easy: C backfilled at its submit"

# Live: the main scheduler off (it would start C, knowing nothing of queues).
tb_up --scheduler sched/easypp --nodes 1 --cpus 8 \
  --params "sched_interval=-1,easypp_policy=mq,easypp_interval=1"
log=$TB_DIR/log/slurmctld.log
r=$(tb_submit 6 10 R "sleep 600")
wait_state "$r" RUNNING 15
t=$(job_start "$r")
a=$(tb_submit 4 50 A "sleep 600")
b=$(tb_submit 8 200 B "sleep 600")
c=$(tb_submit 2 200 C "sleep 600")
assert_stays "$c" PENDING 4 "C would delay pivot B (EASY would start it)"
assert_eq PENDING "$(job_field "$a" JobState)" "A (reserved)"
within() {   # WHAT GOT WANT
  [ -n "$2" ] && [ $(( $2 - $3 )) -ge -1 ] && [ $(( $2 - $3 )) -le 1 ] \
    || fail "$1: planned start ${2:-none}, expected $3 (t+$(( $3 - t )))"
  note "ok: $1 reserved at t+$(( $2 - t ))"
}
within "A" "$(squeue_start "$a")" $((t + 600))
within "B" "$(squeue_start "$b")" $((t + 3600))
d=$(tb_submit 2 1 D "sleep 20")
wait_state "$d" "RUNNING|COMPLETED" 5
d_late=$(( $(job_start "$d") - $(slurm_epoch "$(job_field "$d" SubmitTime)") ))
[ "$d_late" -le 1 ] || fail "D started ${d_late}s after its submit, expected at once"
grep -q "sched/easypp: started JobId=$d in debug on n1 (mq, backfilled)" "$log" \
  || grep -q "sched/easypp: started JobId=$d in debug on n1 (mq)" "$log" \
  || fail "D was not started by the plugin's mq plan"
note "ok: D (queue 0, its share lent to R) started at once on borrowed CPUs"
assert_stays "$c" PENDING 2 "C would delay pivot B"
within "B after D" "$(squeue_start "$b")" $((t + 3600))
scancel "$r" "$a" "$b" "$c" "$d"
