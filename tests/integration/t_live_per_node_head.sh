#!/bin/bash
# Heads whose request is per node keep their reservation, under sched/backfill and
# sched/easypp: cons_tres tests --ntasks-per-node and --cpus-per-gpu on each node, so a
# plan that counts only the job's total CPUs reserves a start Slurm would refuse and lets
# a backfill take what the head needs. Worked out by hand:
# - Tasks per node (CR_Core_Memory, 2 nodes x 8 CPUs, 4000 MB): R1 (1 CPU, 60 min) runs on
#   n1, R2 (7 CPUs, 2-min limit, really 20 s) on n2. H asks -N2 --ntasks-per-node=4: n2
#   has 1 CPU free, so H waits for R2 (7 + 1 CPUs free now is all a total count sees).
#   L (5 CPUs, one node, 10 min) fits now on n1 but would leave it 2 CPUs at R2's end, so
#   it stays pending; H starts on n[1-2] when R2 ends, leaving 3 + 4 CPUs: L still waits.
# - CPUs per GPU (CR_Core_Memory, 1 node x 8 CPUs, 4 GPUs as GRES): C (7 CPUs, no GPU,
#   2-min limit, really 20 s) runs. H asks 4 GPUs with --cpus-per-gpu=2 and one task:
#   8 CPUs, 1 free, so it waits for C (the job's own CPU count is 1). L (1 GPU, 1 CPU,
#   10 min) fits now but would hold a CPU and a GPU H needs at C's end: it stays pending.
# shellcheck source=tests/integration/lib.sh
. "$(dirname "$0")/lib.sh"

case_tasks_per_node() {
  live_up --nodes 2 --cpus 8 --mem 4000 --select CR_Core_Memory
  local r1 r2 h l
  r1=$(tb_submit 1 60 R1 'sleep 300' -w n1 --mem=100)
  r2=$(tb_submit 7 2 R2 'sleep 20' -w n2 --mem=100)
  wait_state "$r1" RUNNING 20
  wait_state "$r2" RUNNING 20
  h=$(tb_submit 8 10 H 'sleep 300' -N2 --ntasks-per-node=4 --mem=100)
  l=$(tb_submit 5 10 L 'sleep 300' -N1 --mem=100)
  expect_head_kept "$r2" 2 "$h" "n[1-2]" "$l"
}

case_cpus_per_gpu() {
  live_up --nodes 1 --cpus 8 --mem 4000 --select CR_Core_Memory --gres gpu:4
  local c h l
  c=$(tb_submit 7 2 C 'sleep 20' --mem=100)
  wait_state "$c" RUNNING 20
  h=$(tb_submit 1 10 H 'sleep 300' --gres=gpu:4 --cpus-per-gpu=2 --mem=100)
  l=$(tb_submit 1 10 L 'sleep 300' --gres=gpu:1 --mem=100)
  expect_head_kept "$c" 2 "$h" n1 "$l"
}

each_scheduler case_tasks_per_node
TEST_NAME=$TEST_NAME.cpus_per_gpu each_scheduler case_cpus_per_gpu
