#!/bin/bash
# A job queued in two partitions is checked against each partition's own limits, under
# sched/backfill and sched/easypp with Slurm's main scheduler off (sched_interval=-1).
# Stock backfill sets the job's partition to the record's before asking the QOS and
# association checks, so a partition QOS limits only that partition's record. Two nodes
# x 4 CPUs, partitions a (n1, partition QOS pq: GrpTRES=cpu=2) and b (n2), accounting with
# AccountingStorageEnforce=limits,qos. In queue order:
#   X  2 CPUs, partition a, 10-min limit: runs on n1 (pq's 2 CPUs).
#   Y  2 CPUs, partition b, 10-min limit: runs on n2.
#   J  4 CPUs, partitions a,b, 10-min limit: in a over pq's limit (and short of CPUs);
#      in b short of CPUs until Y ends.
#   L  2 CPUs, partition b, 60-min limit: fits n2's 2 idle CPUs now, but would hold them
#      past Y's end, when J needs the whole node.
# Worked out by hand: J's record in a is left out, the one in b is reserved at Y's end, so
# L waits; once Y is cancelled, J starts on n2. (Before, the plugin asked both records'
# checks with one partition: J was planned in a or left out, and L started on n2.)
# Second case, billing: the same two partitions, a with TRESBillingWeights=CPU=4.0, and the
# job's QOS bq with GrpTRES=billing=8. J (4 CPUs, -p a,b, QOS bq) is billed 16 in a, over
# the limit, and 4 in b. Worked out by hand: stock bills each record by its partition, so
# J starts in b, on n2. (Before, the plugin checked every record with the billing J was
# given at submission.)
# shellcheck source=tests/integration/lib.sh
. "$(dirname "$0")/lib.sh"
export LIVE_EXTRA_PARAMS=sched_interval=-1

case_partition_qos() {
  live_up --nodes 2 --cpus 4 --partitions 'a:n1;b:n2' --accounting --enforce limits,qos
  tb_qos_add pq GrpTRES=cpu=2
  scontrol update PartitionName=a QOS=pq
  local x y j l
  x=$(tb_submit 2 10 X 'sleep 300' -p a)
  y=$(tb_submit 2 10 Y 'sleep 300' -p b)
  wait_state "$x" RUNNING 20
  wait_state "$y" RUNNING 20
  j=$(tb_submit 4 10 J 'sleep 300' -p a,b)
  l=$(tb_submit 2 60 L 'sleep 300' -p b)
  assert_stays "$l" PENDING 12 "J's record in b is reserved at Y's end"
  assert_eq PENDING "$(job_field "$j" JobState)" "J"
  scancel "$y"
  wait_state "$j" RUNNING 20
  assert_eq n2 "$(job_field "$j" NodeList)" "J's node"
  assert_eq PENDING "$(job_field "$l" JobState)" "L once J started"
  note "ok: J started in b once Y was cancelled"
  scancel "$x" "$j" "$l"
}

case_partition_billing() {
  live_up --nodes 2 --cpus 4 --partitions 'a:n1;b:n2' --accounting --enforce limits,qos
  tb_qos_add bq GrpTRES=billing=8
  tb_user_add nobody first qos=normal,bq
  scontrol update PartitionName=a TRESBillingWeights=CPU=4.0
  local j
  j=$(tb_submit_as nobody 4 10 J 'sleep 300' -p a,b -q bq)
  wait_state "$j" RUNNING 20
  assert_eq n2 "$(job_field "$j" NodeList)" "J's node (billed 16 in a, over GrpTRES=billing=8)"
  assert_eq b "$(job_field "$j" Partition)" "J's partition"
  scancel "$j"
}

each_scheduler case_partition_qos
TEST_NAME=$TEST_NAME.billing each_scheduler case_partition_billing
