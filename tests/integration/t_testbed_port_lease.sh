#!/bin/bash
# A testbed's ports stay leased to it for its whole life, not only while a daemon listens:
# while testbed A restarts a daemon (its port unbound; A's other daemons running, or A's
# restart-ctld holding A's lock), testbed B, whose ports start at the same base, gets none
# of A's ports. Once nothing of A is left (crashed, never taken down), its leases are
# stale and reclaimed; `down` removes a testbed's own leases only. No Slurm: the leases
# are taken by `contrib/testbed lease-ports`, as up takes them, in a private lease
# directory; "A's daemons" are a process carrying the testbed marker.
# shellcheck source=tests/integration/lib.sh
. "$(dirname "$0")/lib.sh"
[ "$(id -u)" = 0 ] || skip "contrib/testbed's lease directory and marker scan are meant for root"
need_cmd flock util-linux

EASYPP_TESTBED_PORT_LEASES=$(mktemp -d /tmp/easypp-leases.XXXXXX)
export EASYPP_TESTBED_PORT_LEASES
leases=$EASYPP_TESTBED_PORT_LEASES
declare -A helper=()   # NAME -> PID of a background process standing for a testbed
cleanup() {
  local p
  for p in "${helper[@]}"; do kill "$p" 2>/dev/null || true; done
  rm -rf "$leases" /tmp/easypp-lease."$$".*
}
trap cleanup EXIT

lease() { "$TESTBED" lease-ports 3 --dir "$1" 2>>"$TEST_RESULTS/testbed.err" | sort | tr '\n' ' '; }
common() { local p; for p in $1; do case " $2 " in *" $p "*) printf '%s ' "$p" ;; esac; done; }
listening() { local p; for p in $1; do [ -z "$(ss -Hltn "sport = :$p")" ] || echo "$p"; done; }

# Four testbed directories whose ports start at the same base (derived from the name's
# cksum), so that without leases each would take the first one's ports: of 3000 names,
# the first 4 in one bucket of 600 (one cksum for all; a bucket holds 5 on average).
names=/tmp/easypp-lease.$$.names
mkdir "$names"
for i in $(seq 3000); do printf '%s' "/tmp/easypp-lease.$$.$i" > "$names/$i"; done
read -r A B C D < <(cd "$names" && cksum -- * | awk -v pid=$$ '
  { b = $1 % 600; same[b] = same[b] " /tmp/easypp-lease." pid "." $3
    if (++n[b] == 4) { print same[b]; exit } }')
[ -n "${D:-}" ] || fail "no 4 of 3000 names share a port base"
mkdir "$A" "$B" "$C" "$D"

# A's daemons run (a process with its marker), though none listens: A is restarting one.
env "$TB_MARKER=$A" sleep 600 & helper[a]=$!
env "$TB_MARKER=$B" sleep 600 & helper[b]=$!
pa=$(lease "$A")
[ -n "$pa" ] || fail "lease-ports for A printed no ports (see $TEST_RESULTS/testbed.err)"
[ -z "$(listening "$pa")" ] || fail "something listens on A's ports $(listening "$pa"): the test needs them unbound"
pb=$(lease "$B")
note "A leased $pa; B (same base) leased $pb"
[ -z "$(common "$pa" "$pb")" ] || fail "B took A's ports $(common "$pa" "$pb") while A was alive but not listening"

# A's daemons gone, but a command of A (restart-ctld, down) holds A's lock: still A's.
kill "${helper[a]}"; wait "${helper[a]}" 2>/dev/null || true
(exec 8>"$A/.lock" && flock 8 && exec sleep 600) & helper[alock]=$!
for _ in $(seq 50); do flock -n "$A/.lock" true || break; sleep 0.1; done
pc=$(lease "$C")
[ -z "$(common "$pa" "$pc")" ] || fail "C took A's ports $(common "$pa" "$pc") while a command of A held its lock"
[ -z "$(common "$pb" "$pc")" ] || fail "C took B's ports $(common "$pb" "$pc")"
"$TESTBED" down --dir "$C" 2>/dev/null
note "ok: with A's lock held, C leased $pc (released again by down)"

# Nothing of A left (it crashed, never taken down): its leases are stale, D reclaims them.
kill "${helper[alock]}"; wait "${helper[alock]}" 2>/dev/null || true
pd=$(lease "$D")
assert_eq "$pa" "$pd" "D's ports (A's stale leases reclaimed; B's kept)"

# down A removes A's own leases only: those ports are D's now.
"$TESTBED" down --dir "$A" 2>/dev/null
for p in $pd; do
  [ "$(head -n 1 "$leases/$p" 2>/dev/null)" = "$D" ] || fail "port $p: D's lease gone or changed after down A: $(cat "$leases/$p" 2>&1)"
done
# down B: B's leases go (its marker process with them: down stops what carries it).
"$TESTBED" down --dir "$B" 2>/dev/null
left=$(cd "$leases" && ls | sort -n | tr '\n' ' ')
assert_eq "$pd" "$left" "leases left after down A and down B"
note "ok: a live testbed's ports stay leased while unbound; a dead one's are reclaimed; down releases its own"
