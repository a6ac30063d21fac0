#!/bin/bash
# Accounting limits on the testbed: --accounting --enforce limits,qos writes
# AccountingStorageEnforce; lib.sh's tb_qos_add and tb_user_add create a QOS and
# associations for system users; tb_submit_as submits as them. A QOS with
# MaxJobsPerUser=1 holds a user's second job (reason QOSMaxJobsPerUserLimit) while a
# user without it runs two; a user without an association is refused.
# shellcheck source=tests/integration/lib.sh
. "$(dirname "$0")/lib.sh"
need_cmd sacctmgr slurm-client

tb_up --nodes 1 --cpus 8 --accounting --enforce limits,qos
assert_eq "associations,limits,qos" "$(scontrol show config | awk '$1 == "AccountingStorageEnforce" {print $3}')" "AccountingStorageEnforce"
tb_qos_add cap MaxJobsPerUser=1
tb_user_add nobody capped qos=normal,cap defaultqos=cap
tb_user_add daemon free
assert_eq "cap" "$(sacctmgr -n -P list assoc user=nobody format=defaultqos)" "nobody's default QOS"

n1=$(tb_submit_as nobody 1 2 N1 'sleep 30')
n2=$(tb_submit_as nobody 1 2 N2 'sleep 30')
d1=$(tb_submit_as daemon 1 2 D1 'sleep 30')
d2=$(tb_submit_as daemon 1 2 D2 'sleep 30')
wait_state "$n1" RUNNING 20
wait_state "$d1" RUNNING 20
wait_state "$d2" RUNNING 20
assert_eq "nobody cap" "$(job_field "$n1" UserId | cut -d'(' -f1) $(job_field "$n1" QOS)" "user and QOS of N1"
assert_eq PENDING "$(job_field "$n2" JobState)" "nobody's second job"
assert_eq QOSMaxJobsPerUserLimit "$(job_field "$n2" Reason)" "its reason"
if out=$(sbatch -o /dev/null --uid=bin --chdir=/tmp -t 1 --wrap true 2>&1); then
  fail "a job of user bin (no association) was accepted: $out"
fi
note "ok: user without an association refused: $out"
