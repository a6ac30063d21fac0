#!/bin/bash
# The testbed's resource options: --select (SelectTypeParameters), --mem (RealMemory; with
# memory as a consumable, DefMemPerCPU = mem/cpus), --gres (GPUs per node, typed, as
# GRES; each gets a stand-in device), --max-jobs (MaxJobCount and MaxArraySize), and the
# lib.sh reservation helper. Memory and GPUs are enforced: a job asking for more than a
# node has is refused, two jobs that together need more than a node's memory or GPUs do
# not run at once, and a job inside the reservation runs on its nodes.
# shellcheck source=tests/integration/lib.sh
. "$(dirname "$0")/lib.sh"

tb_up --nodes 2 --cpus 8 --mem 2000 --select CR_Core_Memory --gres gpu:a100:2 --max-jobs 20000

conf=$(scontrol show config)
assert_eq CR_CORE_MEMORY "$(awk '$1 == "SelectTypeParameters" {print $3}' <<<"$conf")" "SelectTypeParameters"
assert_eq 20000 "$(awk '$1 == "MaxJobCount" {print $3}' <<<"$conf")" "MaxJobCount"
assert_eq 20001 "$(awk '$1 == "MaxArraySize" {print $3}' <<<"$conf")" "MaxArraySize"
assert_eq 250 "$(awk '$1 == "DefMemPerCPU" {print $3}' <<<"$conf")" "DefMemPerCPU (2000 MB / 8 CPUs)"
assert_eq "n1 2000 gpu:a100:2" "$(sinfo -h -N -n n1 -o '%N %m %G')" "n1's memory and GRES"

# Memory beyond a node's, GPUs beyond a node's: refused at submission.
if out=$(sbatch -o /dev/null -t 1 --mem=2001 --wrap true 2>&1); then fail "--mem=2001 on 2000-MB nodes was accepted: $out"; fi
note "ok: --mem=2001 refused: $out"
if out=$(sbatch -o /dev/null -t 1 --gres=gpu:a100:3 --wrap true 2>&1); then fail "--gres=gpu:a100:3 on 2-GPU nodes was accepted: $out"; fi
note "ok: --gres=gpu:a100:3 refused: $out"

# Memory is consumed: two 1500-MB jobs on one node cannot run together.
m1=$(tb_submit 1 2 M1 'sleep 30' --mem=1500 -w n1)
m2=$(tb_submit 1 2 M2 'sleep 30' --mem=1500 -w n1)
wait_state "$m1" RUNNING 20
sleep 2
assert_eq PENDING "$(job_field "$m2" JobState)" "second 1500-MB job on the 2000-MB n1"
scancel "$m1" "$m2"

# GPUs are consumed and visible to the job.
g1=$(tb_submit 1 2 G1 'echo "gpus=$SLURM_GPUS_ON_NODE"; sleep 30' --gres=gpu:a100:2 -w n2)
g2=$(tb_submit 1 2 G2 'sleep 30' --gres=gpu:1 -w n2)
wait_state "$g1" RUNNING 20
sleep 2
assert_eq PENDING "$(job_field "$g2" JobState)" "1-GPU job on n2 while both of its GPUs are taken"
grep -q '^gpus=2$' "$TB_DIR/out/$g1.out" || fail "job $g1 did not see SLURM_GPUS_ON_NODE=2: $(cat "$TB_DIR/out/$g1.out")"
note "ok: job $g1 saw 2 GPUs"
scancel "$g1" "$g2"

# An advance reservation: only a job asking for it runs on its node.
tb_reservation R n2 now 10
r=$(tb_submit 1 1 in-R 'sleep 1' --reservation=R)
wait_state "$r" 'RUNNING|COMPLETING|COMPLETED' 20
assert_eq n2 "$(job_field "$r" NodeList)" "node of the job in reservation R"
x=$(tb_submit 8 1 not-in-R 'sleep 20' -w n2)
sleep 3
assert_eq PENDING "$(job_field "$x" JobState)" "job without the reservation asking for n2"
note "its reason: $(job_field "$x" Reason)"
