#!/bin/bash
# contrib/soak-jobs, the soak's rules for how a job ended, on hand-made files whose
# figures are worked out below by hand (no cluster needed). The must-be-0 figure is
# "killed before its limit": a TIMEOUT short of its limit, a cancel nobody asked for after
# the start, a NODE_FAIL; slurmctld's own recovery requeues after a kill -9 are counted
# apart; an id slurmctld handed out twice counts once (its last line).
# shellcheck source=tests/integration/lib.sh
. "$(dirname "$0")/lib.sh"
need_cmd python3 python3
d=$TEST_RESULTS
# ID KIND (the soak's submitted.txt; 12 twice: an id reused after a kill -9).
cat >"$d/submitted.txt" <<'EOF'
1 short
2 limit
3 limit
4 short
5 overrun
6 fail
7 short
8 short
9 short
10 wide
11 short
12 short
12 limit
13 short
14 limit
15 limit
EOF
printf '7\n' >"$d/cancelled.txt"
line() {  # ID STATE LIMIT_MIN START END
  echo "JobId=$1 UserId=bin(2) GroupId=bin(2) Name=soak JobState=$2 Partition=debug TimeLimit=$3 StartTime=$4 EndTime=$5 NodeList=n1 NodeCnt=1 ProcCnt=1 ExitCode=0:0"
}
T=2026-11-27T10:00
{
  line 1 COMPLETED 1 $T:00 $T:30
  line 2 TIMEOUT 1 $T:00 2026-11-27T10:01:00    # ran its full minute: at its limit
  line 3 TIMEOUT 2 $T:00 2026-11-27T10:01:00    # 60 s of a 120 s limit: early
  line 4 COMPLETED 1 $T:00 $T:10
  line 5 COMPLETED 5 $T:00 $T:50
  line 6 FAILED 1 $T:00 $T:00
  line 7 CANCELLED 5 $T:00 $T:20                # cancelled by the soak
  line 8 CANCELLED 5 $T:00 $T:20                # cancelled by nobody, after its start: early
  line 9 CANCELLED 5 Unknown $T:20              # never started: not early
  line 10 NODE_FAIL 5 $T:00 $T:40               # slurmctld's recovery (log below)
  line 11 NODE_FAIL 5 $T:00 $T:40               # early
  line 12 NODE_FAIL 5 $T:00 $T:05               # the reused id's first run ...
  line 12 COMPLETED 5 $T:10 $T:15               # ... and the one that counts
  line 14 CANCELLED 5 $T:00 $T:20               # requeued by the recovery, then cancelled
  line 15 TIMEOUT 1 $T:00 $T:59                 # one second short: the timestamps' rounding
  line 99 COMPLETED 1 $T:00 $T:30               # not the soak's
} >"$d/jobcomp.txt"
cat >"$d/slurmctld.log" <<'EOF'
[2026-11-27T10:00:41.000] error: Batch JobId=10 missing from batch node n1 (not found BatchStartTime after startup)
[2026-11-27T10:00:42.000] Requeuing JobId=14
[2026-11-27T10:00:43.000] sched/easypp: pass 7: 3 queued
EOF

"$SRC/contrib/soak-jobs" "$d/jobcomp.txt" "$d/submitted.txt" "$d/cancelled.txt" "$d/slurmctld.log" \
  >"$d/jobs.txt" 2>"$d/jobs.err" || fail "soak-jobs exited $?: $(cat "$d/jobs.err")"
cat "$d/jobs.txt" "$d/jobs.err"
# Submitted 16 lines (15 ids, 1 reused); ended 14 (13 is not in jobcomp, 99 is not ours);
# requeued 10 and 14, not counted further; of the other 12: started 11 (not 9), completed
# 1 4 5 12, failed 6, timeout 2 3 15, cancelled by the soak 7, early 3 8 11.
assert_eq "16 14 11 4 1 3 1 3 2 1" "$(sed -n 1p "$d/jobs.txt")" "figures"
assert_eq "CANCELLED=4 COMPLETED=4 FAILED=1 NODE_FAIL=2 TIMEOUT=3" "$(sed -n 2p "$d/jobs.txt")" "end states"
expected="killed before its limit: 3 limit 2026-11-27T10:00:00 2026-11-27T10:01:00
cancelled, not by us: 8 short
requeued by slurmctld's recovery: 10 wide NODE_FAIL
NODE_FAIL: 11 short
requeued by slurmctld's recovery: 14 limit CANCELLED"
assert_eq "$expected" "$(cat "$d/jobs.err")" "the lines naming each job"
# The soak's failure lines pick the early ones out of jobs.err (contrib/soak, why()).
assert_eq "3 8 11" "$(sed -n '/^killed before\|^cancelled, not by us\|^[A-Z_]*: /p' "$d/jobs.err" \
  | sed 's/.*: \([0-9]*\) .*/\1/' | tr '\n' ' ' | sed 's/ $//')" "the early jobs the soak's failure lines show"
assert_eq "10 14" "$("$SRC/contrib/soak-jobs" --recovered "$d/slurmctld.log" | tr '\n' ' ' | sed 's/ $//')" \
  "--recovered"
assert_eq "" "$("$SRC/contrib/soak-jobs" --recovered "$d/no-such.log")" "--recovered without a log"
# With a cache, a call reads only what was written since the last: the ids found before are
# kept, a new complete line adds its id, a line still without its newline waits, and a log
# shorter than what was read (a new log) is read again from its start.
recovered() { "$SRC/contrib/soak-jobs" --recovered "$1" --cache "$d/cache" | tr '\n' ' ' | sed 's/ $//'; }
rm -f "$d/cache"
cp "$d/slurmctld.log" "$d/growing.log"
assert_eq "10 14" "$(recovered "$d/growing.log")" "--recovered --cache, first call"
printf '[2026-11-27T10:09:00.000] Requeuing JobId=21 replaced\n[2026-11-27T10:09:01.000] Requeuing JobId=22' \
  >>"$d/growing.log"
assert_eq "10 14 21" "$(recovered "$d/growing.log")" "--recovered --cache, after a line and a half more"
half='[2026-11-27T10:09:01.000] Requeuing JobId=22'
assert_eq "$(($(stat -c %s "$d/growing.log") - ${#half}))" "$(head -n1 "$d/cache" | cut -d' ' -f1)" \
  "--recovered --cache: read up to the half line, no further"
printf ' replaced\n' >>"$d/growing.log"
assert_eq "10 14 21 22" "$(recovered "$d/growing.log")" "--recovered --cache, the half line completed"
printf '[2026-11-27T11:00:00.000] Requeuing JobId=30 replaced\n' >"$d/growing.log"
assert_eq "30" "$(recovered "$d/growing.log")" "--recovered --cache, a new shorter log"
echo garbage >"$d/cache"
assert_eq "30" "$(recovered "$d/growing.log")" "--recovered --cache, an unreadable cache"
# Another log written over the same file, longer than what was read: its first bytes differ,
# so it is read from its start (an older soak's cache must not skip a new log's start).
{ printf '[2026-11-28T09:00:00.000] slurmctld version 22.05.8 started\n'; cat "$d/slurmctld.log"; } >"$d/growing.log"
assert_eq "10 14" "$(recovered "$d/growing.log")" "--recovered --cache, another log over the same file"
rc=0; "$SRC/contrib/soak-jobs" "$d/jobcomp.txt" 2>/dev/null || rc=$?
assert_eq 2 "$rc" "exit status of a usage error"
note "ok: soak-jobs classifies the hand-made jobs as worked out"
