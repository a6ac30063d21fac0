#!/bin/bash
# Two testbeds at once (as the A/B tool runs sched/backfill next to sched/easypp): distinct
# ports and clusters, jobs in each, and taking one down leaves the other running.
# shellcheck source=tests/integration/lib.sh
. "$(dirname "$0")/lib.sh"

TB_NAME=a tb_up --nodes 2 --cpus 4
TB_NAME=b tb_up --nodes 2 --cpus 4
dir_a=${TB_DIRS[a]} dir_b=${TB_DIRS[b]}

port() { awk -F= '$1 == "SlurmctldPort" {print $2}' "$1/slurm.conf"; }
[ "$(port "$dir_a")" != "$(port "$dir_b")" ] || fail "both testbeds use SlurmctldPort $(port "$dir_a")"
node_ports() { sed -n 's/^NodeName=.* Port=\([0-9]*\) .*/\1/p' "$1/slurm.conf"; }
common=$(comm -12 <(node_ports "$dir_a" | sort) <(node_ports "$dir_b" | sort))
[ -z "$common" ] || fail "slurmd ports used by both testbeds: $common"

tb_use a
ja=$(tb_submit 1 2 in-a 'sleep 60')
tb_use b
jb=$(tb_submit 2 2 in-b 'sleep 60')
tb_use a; wait_state "$ja" RUNNING 20
assert_eq 1 "$(squeue -h -o %i | wc -l)" "jobs seen by testbed a"
tb_use b; wait_state "$jb" RUNNING 20
assert_eq 2 "$(job_field "$jb" NumCPUs)" "CPUs of b's job"
cluster_a=$(SLURM_CONF=$dir_a/slurm.conf scontrol show config | awk '$1 == "ClusterName" {print $3}')
cluster_b=$(scontrol show config | awk '$1 == "ClusterName" {print $3}')
[ "$cluster_a" != "$cluster_b" ] || fail "both testbeds are cluster $cluster_a"

tb_down a
left=$(tb_leftovers "$dir_a")
[ -z "$left" ] || fail "testbed a left processes: $left"
tb_use b
scontrol ping | grep -q 'is UP' || fail "testbed b's slurmctld went down with a"
assert_eq RUNNING "$(job_field "$jb" JobState)" "b's job after a went down"
[ -n "$(tb_leftovers "$dir_b")" ] || fail "testbed b has no processes left"
note "ok: b still runs ($(tb_leftovers "$dir_b" | wc -l) processes) after a went down"
