#!/bin/bash
# Stock sched/backfill on ONE 64-CPU node keeps a whole-node reservation for the blocked
# head job: with A (48 CPUs) running and B (56 CPUs) blocked, C (8 CPUs, 10 min) stays
# PENDING although 64 - 48 = 16 CPUs are free now and 64 - 56 = 8 remain beside B later
# (EASY's "extra processors"). D (8 CPUs, 1 min, ends before B can start) is backfilled,
# which proves backfill cycles ran over C. t_plugin_* shows sched/easypp starting C.
# shellcheck source=tests/integration/lib.sh
. "$(dirname "$0")/lib.sh"

tb_up --scheduler sched/backfill --nodes 1 --cpus 64 --params bf_interval=1

a=$(tb_submit 48 5 A 'sleep 300')
wait_state "$a" RUNNING 20
b=$(tb_submit 56 5 B 'sleep 300')
c=$(tb_submit 8 10 C 'sleep 300')
d=$(tb_submit 8 1 D 'sleep 300')
before=$(bf_cycles)

# D starts by backfill; after that, give backfill a few more cycles to start C.
wait_state "$d" RUNNING 30
wait_bf_cycles "${before:-0}" 3 30
sleep 3

assert_eq RUNNING "$(job_field "$a" JobState)" "A (48 CPUs)"
assert_eq PENDING "$(job_field "$b" JobState)" "B (56 CPUs, blocked head)"
assert_eq PENDING "$(job_field "$c" JobState)" "C (8 CPUs, 10 min): stock backfill does not start it"
assert_eq RUNNING "$(job_field "$d" JobState)" "D (8 CPUs, 1 min): backfilled"
# Backfill's last cycle looked at both pending jobs (B and C), so C was considered.
depth=$(sdiag | awk '/^Backfilling stats/ {b=1} b && /Last depth cycle:/ {print $4; exit}')
[ "${depth:-0}" -ge 2 ] || fail "backfill's last cycle examined ${depth:-0} jobs, expected B and C (2)"
note "C's reason: $(job_field "$c" Reason); backfill stats:"
sdiag | sed -n '/^Backfilling stats/,/^$/p' | head -n 12
