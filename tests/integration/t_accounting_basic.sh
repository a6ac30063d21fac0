#!/bin/bash
# Accounting through a private MariaDB + slurmdbd: a finished job shows up in sacct with
# its name, state, CPU count, time limit, run time and the testbed's cluster name.
# shellcheck source=tests/integration/lib.sh
. "$(dirname "$0")/lib.sh"
need_cmd mariadbd mariadb-server
need_cmd slurmdbd slurmdbd

tb_up --scheduler sched/backfill --nodes 2 --cpus 4 --accounting
cluster=$(scontrol show config | awk '$1 == "ClusterName" {print $3}')

job=$(tb_submit 3 2 acct-basic 'sleep 3')
wait_state "$job" COMPLETED 40

# The job-end record reaches slurmdbd asynchronously.
fields=JobID,JobName,State,NCPUS,TimelimitRaw,ElapsedRaw,Cluster,User,ExitCode
row=
for _ in $(seq 50); do
  row=$(sacct -n -X -P -j "$job" -o "$fields" 2>/dev/null || true)
  case "$row" in *"|COMPLETED|"*) break ;; esac
  sleep 0.2
done
note "sacct: $row"
IFS='|' read -r id name state ncpus limit elapsed jcluster user exitcode <<<"$row"
assert_eq "$job" "$id" "sacct JobID"
assert_eq acct-basic "$name" "sacct JobName"
assert_eq COMPLETED "$state" "sacct State"
assert_eq 3 "$ncpus" "sacct NCPUS"
assert_eq 2 "$limit" "sacct TimelimitRaw (minutes)"
assert_eq "$cluster" "$jcluster" "sacct Cluster"
assert_eq root "$user" "sacct User"
assert_eq 0:0 "$exitcode" "sacct ExitCode"
# sleep 3 at 1 s resolution
if [ "${elapsed:-0}" -lt 3 ] || [ "${elapsed:-0}" -gt 6 ]; then
  fail "sacct ElapsedRaw $elapsed s for a 'sleep 3' job, expected 3..6"
fi
note "ok: ElapsedRaw = $elapsed"

# The cluster was registered in the private database.
sacctmgr -n -P list cluster format=cluster | grep -qx "$cluster" || fail "cluster $cluster not in sacctmgr list cluster"
