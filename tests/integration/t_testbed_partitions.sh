#!/bin/bash
# --partitions: two partitions over disjoint nodes, the first is the default; a job lands
# on its partition's nodes and a partition's MaxTime holds back a longer job.
# shellcheck source=tests/integration/lib.sh
. "$(dirname "$0")/lib.sh"

tb_up --nodes 4 --cpus 2 --partitions 'short:n[1-2]:MaxTime=10;long:n[3-4]'

assert_eq "long short*" "$(sinfo -h -o %P | sort | tr '\n' ' ' | sed 's/ $//')" "partitions"
assert_eq "n[1-2]" "$(sinfo -h -p short -o %N)" "nodes of short"
assert_eq "n[3-4]" "$(sinfo -h -p long -o %N)" "nodes of long"

j_default=$(tb_submit 1 1 default 'sleep 1')
j_long=$(tb_submit 2 20 in-long 'sleep 1' -p long)
j_over=$(tb_submit 1 20 over-limit 'sleep 1' -p short)
wait_state "$j_default" COMPLETED 30
wait_state "$j_long" COMPLETED 30
assert_eq short "$(job_field "$j_default" Partition)" "partition of a job without -p"
case "$(job_field "$j_default" NodeList)" in n1|n2) ;; *) fail "default job ran on $(job_field "$j_default" NodeList)" ;; esac
case "$(job_field "$j_long" NodeList)" in n3|n4) ;; *) fail "long job ran on $(job_field "$j_long" NodeList)" ;; esac
assert_eq PENDING "$(job_field "$j_over" JobState)" "20-min job in short (MaxTime=10)"
assert_eq PartitionTimeLimit "$(job_field "$j_over" Reason)" "its reason"

# Overlapping partitions, and Default=YES on a later item picks the default partition.
tb_down
TB_NAME=overlap tb_up --nodes 3 --cpus 2 --partitions 'all:ALL;top:n3:Default=YES PriorityTier=2'
assert_eq "all top*" "$(sinfo -h -o %P | sort | tr '\n' ' ' | sed 's/ $//')" "partitions (top is the default)"
assert_eq "n[1-3]" "$(sinfo -h -p all -o %N)" "nodes of all"
assert_eq "n3" "$(sinfo -h -p top -o %N)" "nodes of top"
assert_eq 2 "$(scontrol show partition top | tr ' ' '\n' | sed -n 's/^PriorityTier=//p')" "PriorityTier of top"
j_top=$(tb_submit 1 1 default-top 'sleep 1')
wait_state "$j_top" COMPLETED 30
assert_eq "top n3" "$(job_field "$j_top" Partition) $(job_field "$j_top" NodeList)" "partition and node of a job without -p"
